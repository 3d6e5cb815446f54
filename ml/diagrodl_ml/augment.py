"""Training augmentation: leaf segmentation, procedural backgrounds, geometric/photometric jitter.

Everything is generated here; nothing is downloaded.
"""
from __future__ import annotations

import io
import math

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

from .preprocess import MEAN, STD


# ---------------------------------------------------------------- leaf segmentation
def leaf_mask(rgb: np.ndarray) -> np.ndarray:
    """Leaf vs plain lab background: saturation/value thresholds + morphology + hole filling.

    Returns uint8 HxW, 255 = leaf. If the segmentation looks implausible (<4% or >96% of the
    image), returns all-255 so composites leave the photo unchanged.
    """
    img = Image.fromarray(rgb)
    hsv = np.asarray(img.convert("HSV"), dtype=np.int16)
    s, v = hsv[..., 1], hsv[..., 2]
    r, g, b = (rgb[..., i].astype(np.int16) for i in range(3))
    # lab backgrounds are grey/blue-grey (low saturation, b >= r); leaves are green/yellow/brown
    fg = ((s > 60) & (v > 35) & ~((b > g) & (b > r))) | ((g - b > 25) & (v > 35))
    m = Image.fromarray((fg * 255).astype(np.uint8))
    m = m.filter(ImageFilter.MaxFilter(5)).filter(ImageFilter.MinFilter(5))  # close lesion gaps
    m = m.filter(ImageFilter.MinFilter(3)).filter(ImageFilter.MaxFilter(3))  # open specks
    # fill holes: flood the background from the border, everything not reached is leaf
    h, w = rgb.shape[:2]
    pad = Image.new("L", (w + 2, h + 2), 0)
    pad.paste(m, (1, 1))
    ImageDraw.floodfill(pad, (0, 0), 128)
    filled = np.asarray(pad, dtype=np.uint8)[1:-1, 1:-1]
    out = np.where(filled == 128, 0, 255).astype(np.uint8)
    frac = out.mean() / 255.0
    if frac < 0.04 or frac > 0.96:
        return np.full((h, w), 255, dtype=np.uint8)
    return out


# ---------------------------------------------------------------- procedural textures
def _value_noise(rng: np.random.Generator, size: int, octaves: tuple[int, ...] = (4, 8, 16, 32, 64)) -> np.ndarray:
    acc = np.zeros((size, size), dtype=np.float32)
    total = 0.0
    for i, cells in enumerate(octaves):
        amp = 0.6**i
        grid = rng.random((cells, cells)).astype(np.float32)
        up = np.asarray(Image.fromarray((grid * 255).astype(np.uint8)).resize((size, size), Image.BICUBIC), dtype=np.float32) / 255.0
        acc += amp * up
        total += amp
    acc /= total
    acc = (acc - acc.min()) / max(1e-6, float(acc.max() - acc.min()))
    return acc


def _palette(rng: np.random.Generator, kind: str) -> tuple[np.ndarray, np.ndarray]:
    if kind == "soil":
        base = np.array([rng.uniform(70, 140), rng.uniform(45, 100), rng.uniform(20, 70)])
    elif kind == "foliage":
        base = np.array([rng.uniform(20, 90), rng.uniform(60, 150), rng.uniform(10, 70)])
    elif kind == "sky":
        base = np.array([rng.uniform(120, 200), rng.uniform(150, 220), rng.uniform(190, 255)])
    else:
        base = rng.uniform(20, 235, size=3)
    other = np.clip(base * rng.uniform(0.45, 1.5, size=3) + rng.normal(0, 20, size=3), 0, 255)
    return base, other


def make_texture(rng: np.random.Generator, size: int = 256) -> np.ndarray:
    """One random background: soil, foliage-like noise, gradients, mulch, stripes or plain."""
    kind = rng.choice(["soil", "foliage", "gradient", "mulch", "stripes", "plain", "sky"], p=[0.22, 0.24, 0.14, 0.12, 0.1, 0.08, 0.1])
    if kind in ("soil", "foliage", "mulch", "sky", "plain"):
        pal_kind = "soil" if kind == "mulch" else kind
        c1, c2 = _palette(rng, pal_kind)
        octs = (4, 8, 16) if kind in ("sky", "plain") else (4, 8, 16, 32, 64, 128)
        n = _value_noise(rng, size, octs)[..., None]
        img = c1 * (1 - n) + c2 * n
        if kind == "foliage":
            im = Image.fromarray(np.clip(img, 0, 255).astype(np.uint8))
            d = ImageDraw.Draw(im)
            for _ in range(int(rng.integers(8, 40))):
                cx, cy = rng.uniform(0, size, 2)
                a, b = rng.uniform(8, 50), rng.uniform(4, 22)
                col = tuple(int(x) for x in np.clip(np.array([rng.uniform(15, 110), rng.uniform(50, 180), rng.uniform(10, 80)]), 0, 255))
                ang = rng.uniform(0, math.pi)
                pts = [
                    (cx + a * math.cos(t) * math.cos(ang) - b * math.sin(t) * math.sin(ang),
                     cy + a * math.cos(t) * math.sin(ang) + b * math.sin(t) * math.cos(ang))
                    for t in np.linspace(0, 2 * math.pi, 24)
                ]
                d.polygon(pts, fill=col)
            im = im.filter(ImageFilter.GaussianBlur(float(rng.uniform(0.5, 3.0))))
            img = np.asarray(im, dtype=np.float32)
        if kind == "mulch":
            straw = rng.random((size, size)) > 0.93
            img = np.where(straw[..., None], np.array([200.0, 180.0, 120.0]), img)
        if kind == "plain":
            img = img * 0.3 + c1 * 0.7
    elif kind == "gradient":
        c1, c2 = _palette(rng, "any")
        ang = rng.uniform(0, 2 * math.pi)
        yy, xx = np.mgrid[0:size, 0:size] / (size - 1)
        t = (np.cos(ang) * xx + np.sin(ang) * yy)
        t = (t - t.min()) / max(1e-6, float(t.max() - t.min()))
        img = c1 * (1 - t[..., None]) + c2 * t[..., None]
    else:  # stripes (wood, bench, fabric)
        c1, c2 = _palette(rng, "any")
        freq = rng.uniform(2, 20)
        ang = rng.uniform(0, math.pi)
        yy, xx = np.mgrid[0:size, 0:size] / size
        t = 0.5 + 0.5 * np.sin(2 * math.pi * freq * (np.cos(ang) * xx + np.sin(ang) * yy) + 3 * _value_noise(rng, size, (4, 8)))
        img = c1 * (1 - t[..., None]) + c2 * t[..., None]
    img = img + rng.normal(0, rng.uniform(0, 8), size=(size, size, 1 if rng.random() < 0.5 else 3))
    return np.clip(img, 0, 255).astype(np.uint8)


def texture_bank(n: int, seed: int, size: int = 256) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.stack([make_texture(rng, size) for _ in range(n)])


def composite(rgb: np.ndarray, mask: np.ndarray, background: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Paste the segmented leaf on `background` with a feathered edge and a soft shadow."""
    m = Image.fromarray(mask).filter(ImageFilter.GaussianBlur(float(rng.uniform(0.6, 2.0))))
    a = np.asarray(m, dtype=np.float32)[..., None] / 255.0
    bg = background.astype(np.float32)
    if rng.random() < 0.5:  # shadow offset
        dx, dy = (int(v) for v in rng.integers(-10, 11, 2))
        sh = np.roll(np.roll(a, dy, axis=0), dx, axis=1)
        bg = bg * (1 - 0.45 * sh * rng.uniform(0.3, 1.0))
    out = rgb.astype(np.float32) * a + bg * (1 - a)
    return np.clip(out, 0, 255).astype(np.uint8)


# ---------------------------------------------------------------- per-sample train transform
class TrainAugment:
    def __init__(self, textures: np.ndarray, p_composite: float = 0.5, seed: int = 0) -> None:
        self.textures = textures
        self.p_composite = p_composite
        self.rng = np.random.default_rng(seed)

    def reseed(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def _background(self) -> np.ndarray:
        t = self.textures[int(self.rng.integers(len(self.textures)))]
        k = int(self.rng.integers(4))
        t = np.rot90(t, k)
        if self.rng.random() < 0.5:
            t = t[:, ::-1]
        return t

    def __call__(self, rgb: np.ndarray, mask: np.ndarray, size: int) -> np.ndarray:
        rng = self.rng
        h, w = rgb.shape[:2]
        if rng.random() < self.p_composite and mask.min() == 0:
            rgb = composite(rgb, mask, self._background(), rng)
        img = Image.fromarray(np.ascontiguousarray(rgb))
        # random resized crop + rotation as one affine map (output -> input coordinates)
        area = h * w * rng.uniform(0.35, 1.0)
        ratio = math.exp(rng.uniform(math.log(3 / 4), math.log(4 / 3)))
        cw = min(w, math.sqrt(area * ratio))
        ch = min(h, math.sqrt(area / ratio))
        cx = rng.uniform(cw / 2, w - cw / 2)
        cy = rng.uniform(ch / 2, h - ch / 2)
        ang = math.radians(rng.uniform(-30, 30) + 90 * int(rng.integers(4)))
        sx, sy = cw / size, ch / size
        if rng.random() < 0.5:
            sx = -sx
        ca, sa = math.cos(ang), math.sin(ang)
        # input = R * S * (out - c_out) + c_in
        a11, a12 = ca * sx, -sa * sy
        a21, a22 = sa * sx, ca * sy
        co = size / 2
        coeffs = (a11, a12, cx - a11 * co - a12 * co, a21, a22, cy - a21 * co - a22 * co)
        fill = tuple(int(v) for v in np.median(np.concatenate([rgb[0], rgb[-1], rgb[:, 0], rgb[:, -1]]), axis=0))
        img = img.transform((size, size), Image.AFFINE, coeffs, resample=Image.BILINEAR, fillcolor=fill)
        if rng.random() < 0.25:
            img = img.filter(ImageFilter.GaussianBlur(float(rng.uniform(0.3, 1.6)) * size / 224))
        if rng.random() < 0.35:
            buf = io.BytesIO()
            img.save(buf, format="JPEG", quality=int(rng.integers(25, 90)))
            buf.seek(0)
            img = Image.open(buf).convert("RGB")
        x = np.asarray(img, dtype=np.float32) / 255.0
        # colour jitter: brightness, contrast, saturation, small hue-ish channel gains
        x = x * rng.uniform(0.65, 1.35)
        mean = x.mean()
        x = (x - mean) * rng.uniform(0.7, 1.3) + mean
        gray = x.mean(axis=2, keepdims=True)
        x = (x - gray) * rng.uniform(0.7, 1.3) + gray
        x = x * rng.uniform(0.92, 1.08, size=3)
        x = np.clip(x, 0.0, 1.0)
        x = (x - np.asarray(MEAN, dtype=np.float32)) / np.asarray(STD, dtype=np.float32)
        return np.ascontiguousarray(x.transpose(2, 0, 1), dtype=np.float32)

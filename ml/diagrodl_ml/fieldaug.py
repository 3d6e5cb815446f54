"""Making lab photos look like field photos, and making photos that are not tomato leaves.

Every function takes a numpy Generator and returns an HxWx3 uint8 image at `size` (224 by default),
so a view goes through the model's own preprocessing unchanged. Nothing is downloaded: backgrounds are
crops of real photos handed in by the caller (the training part of the negatives) or procedural textures
(`augment.make_texture`).
"""
from __future__ import annotations

import io
import math

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from .augment import make_texture

SIZE = 224


# ---------------------------------------------------------------- small pieces
def random_crop(img: np.ndarray, rng: np.random.Generator, size: int, scale: tuple[float, float] = (0.3, 1.0)) -> np.ndarray:
    """Random resized crop (aspect 3/4..4/3) with a random flip, bilinear, to size x size."""
    h, w = img.shape[:2]
    area = h * w * rng.uniform(*scale)
    ratio = math.exp(rng.uniform(math.log(3 / 4), math.log(4 / 3)))
    cw = int(min(w, max(8, math.sqrt(area * ratio))))
    ch = int(min(h, max(8, math.sqrt(area / ratio))))
    x = int(rng.integers(0, w - cw + 1))
    y = int(rng.integers(0, h - ch + 1))
    im = Image.fromarray(np.ascontiguousarray(img[y : y + ch, x : x + cw])).resize((size, size), Image.BILINEAR)
    if rng.random() < 0.5:
        im = im.transpose(Image.FLIP_LEFT_RIGHT)
    return np.asarray(im)


def _leaf_rgba(rgb: np.ndarray, mask: np.ndarray, rng: np.random.Generator, longest: int | None = None) -> Image.Image:
    """The segmented leaf as RGBA, cut to its bounding box, with a feathered edge. With `longest`, a larger leaf is
    first scaled down so its longer side is `longest` px: the pasted leaf is never larger than that, and warping
    fewer pixels is what makes field-like views cheap (ml/LOG.md, 2026-11-26)."""
    on = mask > 127
    rows, cols = np.flatnonzero(on.any(1)), np.flatnonzero(on.any(0))
    if len(rows) == 0:
        rows, cols = np.array([0, rgb.shape[0] - 1]), np.array([0, rgb.shape[1] - 1])
    y0, y1, x0, x1 = rows[0], rows[-1] + 1, cols[0], cols[-1] + 1
    im = Image.fromarray(np.ascontiguousarray(rgb[y0:y1, x0:x1])).convert("RGBA")
    im.putalpha(Image.fromarray(np.ascontiguousarray(mask[y0:y1, x0:x1])))
    radius = float(rng.uniform(0.5, 1.5))
    if longest is not None and max(im.size) > longest:
        s = longest / max(im.size)
        im = im.resize((max(1, round(im.size[0] * s)), max(1, round(im.size[1] * s))), Image.BILINEAR)
        radius = max(0.3, radius * s)
    im.putalpha(im.getchannel("A").filter(ImageFilter.GaussianBlur(radius)))
    return im


def _perspective(im: Image.Image, rng: np.random.Generator, strength: float) -> Image.Image:
    """A random perspective warp (corners moved by up to `strength` of the side), flip and rotation, as one
    transform onto a canvas that holds the whole warped leaf."""
    w, h = im.size
    d = strength * min(w, h)
    src = [(0, 0), (w, 0), (w, h), (0, h)]
    corners = np.array([(x + rng.uniform(-d, d), y + rng.uniform(-d, d)) for x, y in src])
    if rng.random() < 0.5:  # the mirror image: each corner keeps its pixel, at the mirrored place
        corners[:, 0] = w - corners[:, 0]
    t = math.radians(float(rng.uniform(0, 360)))
    centred = corners - (w / 2, h / 2)
    turned = centred @ np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])
    turned -= turned.min(0)
    size = tuple(int(v) for v in np.maximum(1, np.ceil(turned.max(0))))
    return im.transform(size, Image.PERSPECTIVE, _perspective_coeffs([tuple(c) for c in turned], src), Image.BILINEAR)


def _perspective_coeffs(dst: list[tuple[float, float]], src: list[tuple[float, float]]) -> list[float]:
    a = []
    b = []
    for (x, y), (u, v) in zip(dst, src):
        a.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        a.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        b += [u, v]
    return np.linalg.solve(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)).tolist()


def _paste(canvas: Image.Image, leaf: Image.Image, rng: np.random.Generator, frac: float, centred: bool) -> None:
    """Paste `leaf` scaled so its longer side is `frac` of the canvas; centred near the middle or anywhere."""
    size = canvas.size[0]
    s = frac * size / max(leaf.size)
    lw, lh = max(4, int(leaf.size[0] * s)), max(4, int(leaf.size[1] * s))
    lf = leaf.resize((lw, lh), Image.BILINEAR)
    if centred:
        cx = size / 2 + rng.uniform(-0.15, 0.15) * size
        cy = size / 2 + rng.uniform(-0.15, 0.15) * size
    else:
        cx, cy = rng.uniform(0, size), rng.uniform(0, size)
    canvas.paste(lf, (int(cx - lw / 2), int(cy - lh / 2)), lf)


def _draw(v: float | tuple[float, float], rng: np.random.Generator) -> float:
    """`v` itself, or a uniform draw from the range `v`."""
    return float(rng.uniform(*v)) if isinstance(v, tuple) else float(v)


def place_leaf(canvas: Image.Image, rgb: np.ndarray, mask: np.ndarray, rng: np.random.Generator,
               frac: float | tuple[float, float], strength: float | tuple[float, float], centred: bool) -> None:
    """One segmented leaf, warped (`_perspective`, `strength`) and pasted with its longer side `frac` of the canvas
    (`_paste`); cut to that size before the warp. A range is drawn from."""
    frac, strength = _draw(frac, rng), _draw(strength, rng)
    leaf = _leaf_rgba(rgb, mask, rng, longest=max(4, math.ceil(frac * canvas.size[0])))
    _paste(canvas, _perspective(leaf, rng, strength), rng, frac, centred)


def place_leaf_v1(canvas: Image.Image, rgb: np.ndarray, mask: np.ndarray, rng: np.random.Generator,
                  frac: float | tuple[float, float], strength: float | tuple[float, float], centred: bool) -> None:
    """`place_leaf` as it was until 2026-11-26: the leaf warped at full size, then turned onto an expanded canvas,
    the random numbers drawn in that order. Only the stress set (fieldtrain.stress_set) uses it: an evaluation set
    stays the same set, so the figures of every card stay comparable."""
    im = _leaf_rgba(rgb, mask, rng)
    strength = _draw(strength, rng)
    w, h = im.size
    d = strength * min(w, h)
    src = [(0, 0), (w, 0), (w, h), (0, h)]
    dst = [(x + rng.uniform(-d, d), y + rng.uniform(-d, d)) for x, y in src]
    im = im.transform((w, h), Image.PERSPECTIVE, _perspective_coeffs(dst, src), Image.BILINEAR)
    if rng.random() < 0.5:
        im = im.transpose(Image.FLIP_LEFT_RIGHT)
    im = im.rotate(float(rng.uniform(0, 360)), resample=Image.BILINEAR, expand=True)
    _paste(canvas, im, rng, _draw(frac, rng), centred)


def _shadow(im: Image.Image, rng: np.random.Generator) -> Image.Image:
    """A hard-edged shadow: a random polygon darkened by 35-70%."""
    size = im.size[0]
    m = Image.new("L", im.size, 0)
    pts = [(rng.uniform(-0.2, 1.2) * size, rng.uniform(-0.2, 1.2) * size) for _ in range(int(rng.integers(3, 7)))]
    ImageDraw.Draw(m).polygon(pts, fill=255)
    m = m.filter(ImageFilter.GaussianBlur(float(rng.uniform(0.5, 4))))
    a = np.asarray(m, dtype=np.float32)[..., None] / 255.0
    x = np.asarray(im, dtype=np.float32)
    x = x * (1 - a * rng.uniform(0.35, 0.7))
    return Image.fromarray(np.clip(x, 0, 255).astype(np.uint8))


def _glare(im: Image.Image, rng: np.random.Generator) -> Image.Image:
    """Sun glare: a soft bright disc towards white."""
    size = im.size[0]
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    cx, cy = rng.uniform(0, size, 2)
    r = rng.uniform(0.1, 0.5) * size
    g = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r))[..., None] * rng.uniform(0.3, 0.8)
    x = np.asarray(im, dtype=np.float32)
    return Image.fromarray(np.clip(x * (1 - g) + 255 * g, 0, 255).astype(np.uint8))


def _motion_blur(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    n = int(rng.integers(3, 10))
    ang = rng.uniform(0, math.pi)
    dx, dy = math.cos(ang), math.sin(ang)
    acc = np.zeros_like(x, dtype=np.float32)
    for k in range(n):
        t = k - (n - 1) / 2
        acc += np.roll(np.roll(x, int(round(t * dy)), axis=0), int(round(t * dx)), axis=1)
    return acc / n


def photometric(img: np.ndarray, rng: np.random.Generator, strength: float = 1.0) -> np.ndarray:
    """Camera effects: white balance, exposure, contrast, saturation, defocus or motion blur, noise, JPEG."""
    x = img.astype(np.float32)
    # white balance (colour temperature and tint) and exposure
    t = rng.normal(0, 0.08 * strength)
    x = x * np.array([1 + t, 1 + rng.normal(0, 0.03 * strength), 1 - t], dtype=np.float32)
    x = x * rng.uniform(1 - 0.35 * strength, 1 + 0.35 * strength)
    m = x.mean()
    x = (x - m) * rng.uniform(1 - 0.3 * strength, 1 + 0.3 * strength) + m
    gray = x.mean(axis=2, keepdims=True)
    x = (x - gray) * rng.uniform(1 - 0.3 * strength, 1 + 0.3 * strength) + gray
    r = rng.random()
    if r < 0.2 * strength:
        x = np.asarray(Image.fromarray(np.clip(x, 0, 255).astype(np.uint8)).filter(
            ImageFilter.GaussianBlur(float(rng.uniform(0.5, 2.5)))), dtype=np.float32)
    elif r < 0.32 * strength:
        x = _motion_blur(x, rng)
    if rng.random() < 0.25 * strength:
        x = x + rng.normal(0, rng.uniform(2, 10), size=x.shape).astype(np.float32)
    out = np.clip(x, 0, 255).astype(np.uint8)
    if rng.random() < 0.5 * strength:
        buf = io.BytesIO()
        Image.fromarray(out).save(buf, format="JPEG", quality=int(rng.integers(30, 95)))
        out = np.asarray(Image.open(io.BytesIO(buf.getvalue())).convert("RGB"))
    return out


# ---------------------------------------------------------------- views of a lab leaf
def field_like(rgb: np.ndarray, mask: np.ndarray, rng: np.random.Generator, backgrounds: np.ndarray,
               same_class: list[tuple[np.ndarray, np.ndarray]] | None = None, size: int = SIZE,
               place=place_leaf) -> np.ndarray:
    """A lab leaf as a field photo might show it.

    The segmented leaf (perspective-warped, rotated) is pasted on a crop of a real photo (p 0.55), a
    procedural texture (p 0.25) or a bed of other leaves of its class (p 0.2), at 40-100% of the frame
    (sometimes 25%: a small leaf), with up to three more leaves of its class around it, partial occlusion,
    a hard shadow, sun glare and the camera effects of `photometric`. `place` pastes each leaf (`place_leaf`;
    `place_leaf_v1` for the stress set).
    """
    r = rng.random()
    if r < 0.55 and len(backgrounds):
        bg = random_crop(backgrounds[int(rng.integers(len(backgrounds)))], rng, size, (0.2, 1.0))
    elif r < 0.8 or not same_class:
        bg = np.asarray(Image.fromarray(make_texture(rng, 128)).resize((size, size), Image.BILINEAR))
    else:
        bg = np.asarray(Image.fromarray(make_texture(rng, 128)).resize((size, size), Image.BILINEAR))
        canvas = Image.fromarray(bg).convert("RGBA")
        for _ in range(int(rng.integers(3, 7))):
            o_rgb, o_mask = same_class[int(rng.integers(len(same_class)))]
            place(canvas, o_rgb, o_mask, rng, (0.4, 0.8), 0.15, False)
        bg = np.asarray(canvas.convert("RGB"))
    if rng.random() < 0.5:  # backgrounds out of focus, as with a close-up
        bg = np.asarray(Image.fromarray(bg).filter(ImageFilter.GaussianBlur(float(rng.uniform(1, 4)))))
    canvas = Image.fromarray(bg).convert("RGBA")
    if same_class and rng.random() < 0.35:  # several leaves in one image
        for _ in range(int(rng.integers(1, 4))):
            o_rgb, o_mask = same_class[int(rng.integers(len(same_class)))]
            place(canvas, o_rgb, o_mask, rng, (0.3, 0.7), 0.15, False)
    frac = rng.uniform(0.22, 0.45) if rng.random() < 0.15 else rng.uniform(0.55, 1.15)
    place(canvas, rgb, mask, rng, frac, (0.0, 0.25), True)
    im = canvas.convert("RGB")
    if rng.random() < 0.2:  # partial occlusion by a piece of the background scene
        occ = Image.fromarray(random_crop(bg, rng, size // 3, (0.3, 1.0)))
        om = Image.new("L", occ.size, 0)
        ImageDraw.Draw(om).ellipse((0, 0, occ.size[0], occ.size[1]), fill=255)
        im.paste(occ, (int(rng.integers(0, size - occ.size[0])), int(rng.integers(0, size - occ.size[1]))), om)
    if rng.random() < 0.3:
        im = _shadow(im, rng)
    if rng.random() < 0.15:
        im = _glare(im, rng)
    return photometric(np.asarray(im), rng)


def lab_view(rgb: np.ndarray, rng: np.random.Generator, size: int = SIZE) -> np.ndarray:
    """A lab photo lightly varied (crop, flip, quarter turns, mild camera effects): keeps the lab accuracy."""
    x = random_crop(rgb, rng, size, (0.5, 1.0))
    x = np.rot90(x, int(rng.integers(4))).copy()
    return photometric(x, rng, strength=0.5)


def photo_view(rgb: np.ndarray, rng: np.random.Generator, size: int = SIZE) -> np.ndarray:
    """A real photo (field photo or negative) varied: wide crop, flip, small rotation, camera effects."""
    x = random_crop(rgb, rng, size, (0.35, 1.0))
    if rng.random() < 0.3:
        x = np.asarray(Image.fromarray(x).rotate(float(rng.uniform(-25, 25)), resample=Image.BILINEAR,
                                                 fillcolor=tuple(int(v) for v in x.reshape(-1, 3).mean(0))))
    return photometric(x, rng, strength=0.7)


# ---------------------------------------------------------------- images that are not tomato leaves
def background_only(rgb: np.ndarray, mask: np.ndarray, rng: np.random.Generator, size: int = SIZE) -> np.ndarray | None:
    """A crop of a lab photo's background where the leaf is not (None if the leaf fills the photo)."""
    h, w = mask.shape
    for _ in range(24):
        s = int(rng.integers(h // 8, h // 3))
        y, x = int(rng.integers(0, h - s)), int(rng.integers(0, w - s))
        if mask[y : y + s, x : x + s].mean() < 10:
            crop = Image.fromarray(np.ascontiguousarray(rgb[y : y + s, x : x + s])).resize((size, size), Image.BILINEAR)
            return photometric(np.asarray(crop), rng, 0.5)
    return None


_WORDS = "hoja tomate riego caudal presión planta suelo agua cosecha 2026 informe lote campo semilla".split()


def synthetic_non_leaf(rng: np.random.Generator, size: int = SIZE) -> np.ndarray:
    """Procedural images that are not leaves: textures (soil, gravel, sky, fabric), shapes, text, flat frames."""
    kind = rng.choice(["texture", "gravel", "shapes", "text", "flat"], p=[0.3, 0.2, 0.2, 0.15, 0.15])
    if kind == "texture":
        img = Image.fromarray(make_texture(rng, 128)).resize((size, size), Image.BILINEAR)
    elif kind == "gravel":
        base = rng.uniform(60, 200)
        img = Image.new("RGB", (size, size), tuple(int(base * v) for v in rng.uniform(0.8, 1.1, 3)))
        d = ImageDraw.Draw(img)
        for _ in range(int(rng.integers(80, 400))):
            cx, cy = rng.uniform(0, size, 2)
            r = rng.uniform(2, 14)
            g = float(np.clip(rng.normal(base, 40), 0, 255))
            col = tuple(int(np.clip(g * v, 0, 255)) for v in rng.uniform(0.85, 1.15, 3))
            d.ellipse((cx - r, cy - r * rng.uniform(0.5, 1), cx + r, cy + r), fill=col)
        img = img.filter(ImageFilter.GaussianBlur(float(rng.uniform(0, 1.2))))
    elif kind == "shapes":
        img = Image.new("RGB", (size, size), tuple(int(v) for v in rng.uniform(0, 255, 3)))
        d = ImageDraw.Draw(img)
        for _ in range(int(rng.integers(2, 12))):
            pts = [tuple(rng.uniform(0, size, 2)) for _ in range(int(rng.integers(3, 7)))]
            d.polygon(pts, fill=tuple(int(v) for v in rng.uniform(0, 255, 3)))
    elif kind == "text":
        img = Image.new("RGB", (size, size), tuple(int(v) for v in rng.uniform(180, 255, 3)))
        d = ImageDraw.Draw(img)
        font = ImageFont.load_default()
        for row in range(int(rng.integers(4, 20))):
            words = " ".join(rng.choice(_WORDS, size=int(rng.integers(2, 6))))
            d.text((int(rng.integers(0, 40)), 8 + row * 11), words, fill=tuple(int(v) for v in rng.uniform(0, 90, 3)), font=font)
        img = img.resize((size, size), Image.BILINEAR)
    else:
        c = rng.uniform(0, 255, 3)
        x = np.broadcast_to(c, (size, size, 3)).astype(np.float32) + rng.normal(0, rng.uniform(0, 12), (size, size, 1))
        img = Image.fromarray(np.clip(x, 0, 255).astype(np.uint8))
    return photometric(np.asarray(img.convert("RGB")), rng, 0.6)

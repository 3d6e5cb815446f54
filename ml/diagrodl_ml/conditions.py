"""How an exported file's answers change with one photo condition at a time: the evidence behind the photo tips
the upload page gives ("one leaf, filling the frame, in focus, in the shade, by daylight").

Every lab test leaf that has a segmentation mask is shown to the file as:

- ``lab``: the lab photo itself (resized as the product does);
- ``real_background``: the leaf, filling most of the frame, on a crop of a held-out everyday photo (never trained
  on) and nothing else: the base the other conditions add one thing to;
- ``plain_background``: the same leaf, placed the same way, on a plain light surface (a sheet of paper: one light
  colour, a faint gradient and grain) instead;
- ``small_in_frame``: the same leaf at a quarter to a third of the frame;
- ``several_leaves``: two or three more leaves of its class around it (one plant);
- ``hard_shadow``, ``sun_glare``: a hard shadow edge across the leaf, a bright disc (direct sun);
- ``defocus``, ``motion_blur``: out of focus, a shaken camera;
- ``dark``: under-exposed (half the light);
- ``jpeg_medium``, ``jpeg_low``: saved as a JPEG of quality 60 (about what a messaging app sends on), of quality 25.

Each condition is drawn with its own fixed seed, and the leaf's placement with one seed shared by every condition
built on ``real_background``, so the conditions differ by what they name only. The figures are those of the
card's other sets (fieldtrain.set_report with the card's rules), measured by onnxruntime-node on the file.
"""
from __future__ import annotations

import io
from pathlib import Path

import numpy as np
from PIL import Image, ImageFilter

from . import data as D
from . import fieldaug as FA
from .evaluate import node_ort_available
from .fieldtrain import _ort_or_torch, card_rules, decision_rule
from .sources import NEGATIVES_DIR, negatives_split
from .transfer import load_photos, normalise_u8, set_report, to224

CONDITIONS = ("lab", "plain_background", "real_background", "small_in_frame", "several_leaves", "hard_shadow",
              "sun_glare", "defocus", "motion_blur", "dark", "jpeg_medium", "jpeg_low")
SEED = 5151


def _on_background(rgb: np.ndarray, mask: np.ndarray, bg: np.ndarray, frac: float, rng: np.random.Generator,
                   others: list[tuple[np.ndarray, np.ndarray]] = ()) -> Image.Image:
    canvas = Image.fromarray(bg).convert("RGBA")
    for o_rgb, o_mask in others:
        FA.place_leaf(canvas, o_rgb, o_mask, rng, (0.4, 0.7), 0.1, False)
    FA.place_leaf(canvas, rgb, mask, rng, frac, 0.1, True)
    return canvas.convert("RGB")


def plain_surface(rng: np.random.Generator, size: int = 224) -> np.ndarray:
    """A plain light surface as a phone sees a sheet of paper: one light colour, a faint linear gradient, grain."""
    colour = rng.uniform(190, 245) * rng.uniform(0.94, 1.0, 3)
    ang = rng.uniform(0, 2 * np.pi)
    ramp = (np.cos(ang) * np.arange(size)[None, :] + np.sin(ang) * np.arange(size)[:, None]) / size
    x = colour[None, None, :] * (1 - rng.uniform(0.05, 0.2) * (ramp[..., None] + 1) / 2)
    x = x + rng.normal(0, 2.5, (size, size, 1))
    return np.clip(x, 0, 255).astype(np.uint8)


def shadow_across(im: Image.Image, rng: np.random.Generator) -> Image.Image:
    """A hard shadow edge across the middle of the frame (a hand, a phone, a stake between the sun and the leaf):
    the pixels on one side of a line through a point near the centre darkened by 40-60 %, the edge 1-2 px soft."""
    size = im.size[0]
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    cx, cy = size * (0.5 + rng.uniform(-0.15, 0.15, 2))
    ang = rng.uniform(0, 2 * np.pi)
    side = (xx - cx) * np.cos(ang) + (yy - cy) * np.sin(ang) > 0
    m = Image.fromarray((side * 255).astype(np.uint8)).filter(ImageFilter.GaussianBlur(float(rng.uniform(1, 2))))
    a = np.asarray(m, np.float32)[..., None] / 255.0
    x = np.asarray(im, np.float32) * (1 - a * rng.uniform(0.4, 0.6))
    return Image.fromarray(np.clip(x, 0, 255).astype(np.uint8))


def condition_image(name: str, rgb: np.ndarray, mask: np.ndarray, bg: np.ndarray, place_seed: int,
                    others: list[tuple[np.ndarray, np.ndarray]], rng: np.random.Generator) -> np.ndarray:
    """One lab leaf under condition `name` (224 px RGB). `place_seed` fixes where the leaf goes; `rng` draws the
    condition's own randomness (the shadow's shape, the blur's direction)."""
    if name == "lab":
        return to224(rgb)
    place = np.random.default_rng(place_seed)
    frac = float(place.uniform(0.85, 1.0))
    if name == "plain_background":
        return np.asarray(_on_background(rgb, mask, plain_surface(rng), frac, place))
    if name == "small_in_frame":
        return np.asarray(_on_background(rgb, mask, bg, float(place.uniform(0.25, 0.35)), place))
    if name == "several_leaves":
        return np.asarray(_on_background(rgb, mask, bg, frac, place, others))
    im = _on_background(rgb, mask, bg, frac, place)
    if name == "hard_shadow":
        im = shadow_across(im, rng)
    elif name == "sun_glare":
        im = FA._glare(im, rng)
    elif name == "defocus":
        im = im.filter(ImageFilter.GaussianBlur(float(rng.uniform(2.0, 3.0))))
    elif name == "motion_blur":
        im = Image.fromarray(np.clip(FA._motion_blur(np.asarray(im, np.float32), rng), 0, 255).astype(np.uint8))
    elif name == "dark":
        im = Image.fromarray((np.asarray(im, np.float32) * 0.5).astype(np.uint8))
    elif name in ("jpeg_medium", "jpeg_low"):
        buf = io.BytesIO()
        im.save(buf, format="JPEG", quality=60 if name == "jpeg_medium" else 25)
        im = Image.open(io.BytesIO(buf.getvalue())).convert("RGB")
    elif name != "real_background":
        raise ValueError(f"unknown condition {name!r}")
    return np.asarray(im)


def condition_sets(cache, backgrounds: list[np.ndarray], seed: int = SEED) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Every condition's images of the cache's segmented leaves (in cache order), and their labels."""
    leaves = [j for j in range(len(cache.labels)) if np.asarray(cache.masks[j]).min() == 0]
    by_class: dict[int, list[int]] = {}
    for j in leaves:
        by_class.setdefault(int(cache.labels[j]), []).append(j)
    pick = np.random.default_rng(seed)
    plan = []
    for j in leaves:
        mates = [k for k in by_class[int(cache.labels[j])] if k != j]
        others = [int(k) for k in pick.choice(mates, size=min(len(mates), int(pick.integers(2, 4))), replace=False)]
        bg = FA.random_crop(backgrounds[int(pick.integers(len(backgrounds)))], pick, 224, (0.3, 1.0))
        plan.append((j, others, bg, int(pick.integers(2**31))))
    # each leaf (and its mates) read from the cache once for every condition; each condition's own generator
    # still draws leaf by leaf, in cache order
    rngs = [np.random.default_rng(seed + 1 + c) for c in range(len(CONDITIONS))]
    out: dict[str, list[np.ndarray]] = {name: [] for name in CONDITIONS}
    for j, others, bg, place_seed in plan:
        rgb, mask = np.asarray(cache.images[j]), np.asarray(cache.masks[j])
        mates = [(np.asarray(cache.images[k]), np.asarray(cache.masks[k])) for k in others]
        for name, rng in zip(CONDITIONS, rngs):
            out[name].append(condition_image(name, rgb, mask, bg, place_seed, mates, rng))
    return {name: np.stack(v) for name, v in out.items()}, cache.labels[np.array(leaves)]


def measure(model_path: Path, card: dict, cache_dir: Path = D.DEFAULT_CACHE_DIR) -> dict:
    """Each condition's figures for the file, on the lab test split's segmented leaves and held-out backgrounds."""
    if not node_ort_available():
        raise SystemExit("error: onnxruntime-node is not installed (npm ci at the repository root)")
    split = D.grouped_stratified_split(D.scan())
    cache = D.build_cache(split["test"], cache_dir=cache_dir)
    held = negatives_split()["holdout"]
    backgrounds = [n for n in load_photos(NEGATIVES_DIR, [p.rel_path for p in held]) if n.shape[0] >= 200]
    sets, labels = condition_sets(cache, backgrounds)
    rules = card_rules(card)
    rule = decision_rule(rules)
    out = {}
    for name, imgs in sets.items():
        r = set_report(_ort_or_torch(None, model_path, normalise_u8(imgs), True, rules), labels, rule)
        out[name] = {k: v for k, v in r.items() if k not in ("per_class", "by_photo_kind")}
        print(f"{name}: " + ", ".join(f"{k} {v}" for k, v in out[name].items() if not isinstance(v, list)), flush=True)
    return out

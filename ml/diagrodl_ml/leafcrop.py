"""A second look at prediction time, centred on the leaf: tried on validation, not part of the shipped graph.

The issue on field photos asks to try, at prediction time, a crop centred on the leaf and an aggregate over several
crops, and to keep what helps. Five fixed 75 % crops were tried in 2026-11 (ml/README: no gain). This module tries
the other: the graph's own class activation map (`cam`, [N, 10, 7, 7]) of its top class says where it looked;
the box around the cells at or above `threshold` of their maximum, widened by `margin` on each side, made square and
at least `min_side` of the frame, is cut out of the 224 px input and brought back to 224 px by bilinear
interpolation (what ONNX RoiAlign or a crop in the server would do; the field photos are 224 px already, so a crop
from the original file would hold no more detail), and the file is run again on it. Answers compared, on the lab
validation split and the field validation part:

    base                 the file as it is
    crop                 the crop's answer
    mean                 the mean of the two log probabilities
    mean if field-like   `mean` only where lab_like < LAB_LIKE_CUT (lab photos are centred on the leaf already)
    crop if field-like   `crop` only there

`bash ml/run.sh try-leaf-crop --model models/mobilenet.onnx` prints the table (about a minute a configuration).
On the shipped file (2026-11-25) the mean raised lab validation as much as a plain centre crop does (any second view
does), and the leaf's box added at most 3 of 91 field photos: not shipped (ml/README, "A second look centred on the
leaf").
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from .card import card_path
from .data import DEFAULT_CACHE_DIR
from .evaluate import ort_outputs
from .fieldtrain import evaluation_sources
from .transfer import LAB_LIKE_CUT, normalise_u8, to224

# (threshold, margin, min_side): wide boxes first, then tighter ones, then a fixed side around the peak cell
CONFIGS: tuple[tuple[float, float, float], ...] = (
    (0.2, 0.10, 0.6), (0.3, 0.10, 0.5), (0.5, 0.15, 0.4), (0.6, 0.10, 0.5), (0.7, 0.05, 0.3),
    (0.99, 0.0, 0.7), (0.99, 0.0, 0.5))
ANSWERS = ("base", "crop", "mean", "mean if field-like", "crop if field-like")


def leaf_box(cam: np.ndarray, threshold: float, margin: float, min_side: float, size: int = 224
             ) -> tuple[float, float, float]:
    """(top, left, side) in input pixels of the square around the cells of `cam` [h, w] at or above `threshold`
    times its maximum, widened by `margin` of its side on each side, at least `min_side` of the frame, inside it."""
    cam = np.asarray(cam, dtype=np.float64)
    h, w = cam.shape
    peak = cam.max()
    ys, xs = np.nonzero(cam >= threshold * peak) if peak > 0 else (np.arange(h), np.arange(w))
    cell_h, cell_w = size / h, size / w
    y0, y1 = ys.min() * cell_h, (ys.max() + 1) * cell_h
    x0, x1 = xs.min() * cell_w, (xs.max() + 1) * cell_w
    side = min(float(size), max(max(y1 - y0, x1 - x0) * (1 + 2 * margin), min_side * size))
    top = min(max((y0 + y1) / 2 - side / 2, 0.0), size - side)
    left = min(max((x0 + x1) / 2 - side / 2, 0.0), size - side)
    return top, left, side


def crop_resize(x: np.ndarray, boxes: list[tuple[float, float, float]]) -> np.ndarray:
    """Each [3, S, S] image of `x` cut to its (top, left, side) box and resized to S x S (bilinear, pixel centres)."""
    t = torch.from_numpy(np.ascontiguousarray(x, dtype=np.float32))
    n, _, s, _ = t.shape
    theta = torch.tensor([[[side / s, 0.0, (left + side / 2) * 2 / s - 1], [0.0, side / s, (top + side / 2) * 2 / s - 1]]
                          for top, left, side in boxes], dtype=torch.float32).reshape(n, 2, 3)
    grid = F.affine_grid(theta, [n, 3, s, s], align_corners=False)
    return F.grid_sample(t, grid, mode="bilinear", padding_mode="border", align_corners=False).numpy()


def answers(p1: np.ndarray, p2: np.ndarray, lab_like: np.ndarray) -> dict[str, np.ndarray]:
    """The class each way of ANSWERS gives, from the probabilities of the photo (p1) and of its crop (p2)."""
    mean = (np.log(p1 + 1e-9) + np.log(p2 + 1e-9)).argmax(1)
    field_like = np.asarray(lab_like).reshape(-1) < LAB_LIKE_CUT
    base, crop = p1.argmax(1), p2.argmax(1)
    return dict(zip(ANSWERS, (base, crop, mean, np.where(field_like, mean, base), np.where(field_like, crop, base))))


def try_leaf_crop(model: Path, cache_dir: Path = DEFAULT_CACHE_DIR,
                  configs: tuple[tuple[float, float, float], ...] = CONFIGS) -> list[dict]:
    """Top-1 of every way of ANSWERS on the lab validation split and the field validation part, per configuration."""
    card = json.loads(card_path(model).read_text())
    _, cache, src = evaluation_sources(card, cache_dir)
    sets = {"lab": (np.stack([to224(np.asarray(cache.images[j])) for j in src["lab_val"]]), cache.labels[src["lab_val"]]),
            "field": (np.stack(src["field_val"][0]), np.asarray(src["field_val"][1]))}
    first = {}
    for name, (images, _) in sets.items():
        x = normalise_u8(images)
        out = ort_outputs(model, x)
        if "lab_like" not in out:
            raise SystemExit(f"error: {model} has no output lab_like (add-lab-gate or expose-lab-like first)")
        first[name] = (x, out)
    rows = []
    for threshold, margin, min_side in configs:
        row = {"threshold": threshold, "margin": margin, "min_side": min_side}
        for name, (_, labels) in sets.items():
            x, out = first[name]
            cams = out["cam"].reshape(len(x), -1, 7, 7)
            top = out["probabilities"].argmax(1)
            boxes = [leaf_box(c[k], threshold, margin, min_side, x.shape[-1]) for c, k in zip(cams, top)]
            p2 = ort_outputs(model, crop_resize(x, boxes), skip=("cam",))["probabilities"]
            got = answers(out["probabilities"], p2, out["lab_like"])
            row[name] = {k: round(float((v == labels).mean()), 4) for k, v in got.items()}
            row[name]["mean_area"] = round(float(np.mean([b[2] ** 2 for b in boxes]) / x.shape[-1] ** 2), 3)
            row[name]["n"] = int(len(labels))
        print(json.dumps(row), flush=True)
        rows.append(row)
    return rows

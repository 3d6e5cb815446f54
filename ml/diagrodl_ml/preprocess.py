"""Inference preprocessing, decided once and mirrored in apps/server/src/inference/preprocess.ts.

1. Decode the file (PIL / libjpeg-turbo), apply the EXIF orientation, convert to 8-bit RGB
   (transparent pixels flattened onto white exactly as libvips does, no colour-profile conversion).
2. Centre-crop to a square whose side is the shorter image side (offset floor((W-S)/2)).
3. Resize the square to 224x224 with an exact area-average ("box" with fractional overlaps)
   filter computed in float64, separable: rows first, then columns. No rounding to uint8.
4. Scale to [0, 1] (divide by 255), subtract MEAN and divide by STD per channel, NCHW float32.

Libvips' and PIL's own resize kernels differ, so both sides implement step 3 themselves.
"""
from __future__ import annotations

import io
from pathlib import Path

import numpy as np
from PIL import Image, ImageOps

INPUT_SIZE = 224
MEAN: tuple[float, float, float] = (0.485, 0.456, 0.406)
STD: tuple[float, float, float] = (0.229, 0.224, 0.225)


def load_rgb(source: str | Path | bytes) -> np.ndarray:
    """Decode an image to a HxWx3 uint8 RGB array, EXIF orientation applied."""
    if isinstance(source, (bytes, bytearray)):
        img = Image.open(io.BytesIO(source))
    else:
        img = Image.open(source)
    with img:
        img = ImageOps.exif_transpose(img)
        if img.mode in ("RGBA", "LA", "PA", "RGBa", "La") or "transparency" in img.info:
            return flatten_on_white(np.asarray(img.convert("RGBA"), dtype=np.uint8))
        if img.mode != "RGB":
            img = img.convert("RGB")
        return np.asarray(img, dtype=np.uint8).copy()


def flatten_on_white(rgba: np.ndarray) -> np.ndarray:
    """RGBA to RGB on a white background, as libvips' flatten does it (the server's sharp):
    floor((c a + 255 (255 - a)) / 255) per channel, so transparent pixels are white whatever
    colour they hide."""
    c = rgba[..., :3].astype(np.int64)
    a = rgba[..., 3:4].astype(np.int64)
    return ((c * a + 255 * (255 - a)) // 255).astype(np.uint8)


def center_square(rgb: np.ndarray) -> np.ndarray:
    h, w = rgb.shape[:2]
    s = min(h, w)
    top = (h - s) // 2
    left = (w - s) // 2
    return rgb[top : top + s, left : left + s]


def area_weights(n_in: int, n_out: int) -> np.ndarray:
    """Matrix [n_out, n_in]: output pixel i averages source interval [i*r, (i+1)*r), r = n_in/n_out.

    Identical arithmetic to areaWeights() in preprocess.ts.
    """
    scale = n_in / n_out
    m = np.zeros((n_out, n_in), dtype=np.float64)
    for i in range(n_out):
        start = i * scale
        end = (i + 1) * scale
        j0 = int(np.floor(start))
        j1 = min(int(np.ceil(end)), n_in)
        for j in range(j0, j1):
            overlap = min(end, j + 1) - max(start, j)
            if overlap > 0:
                m[i, j] = overlap / scale
    return m


_WEIGHT_CACHE: dict[tuple[int, int], np.ndarray] = {}


def _weights(n_in: int, n_out: int) -> np.ndarray:
    key = (n_in, n_out)
    if key not in _WEIGHT_CACHE:
        _WEIGHT_CACHE[key] = area_weights(n_in, n_out)
    return _WEIGHT_CACHE[key]


def area_resize(rgb: np.ndarray, size: int) -> np.ndarray:
    """Area-average resize of a HxWx3 array to size x size, float64 result (0..255 scale)."""
    h, w = rgb.shape[:2]
    x = rgb.astype(np.float64)
    wr = _weights(h, size)  # [size, h]
    wc = _weights(w, size)  # [size, w]
    x = np.tensordot(wr, x, axes=(1, 0))  # rows: [size, w, 3]
    x = np.tensordot(x, wc, axes=(1, 1))  # columns: [size, 3, size]
    return x.transpose(0, 2, 1)


def normalize(resized: np.ndarray) -> np.ndarray:
    """HxWx3 float (0..255) -> 3xHxW float32 normalised."""
    x = resized / 255.0
    x = (x - np.asarray(MEAN)) / np.asarray(STD)
    return np.ascontiguousarray(x.transpose(2, 0, 1)).astype(np.float32)


def preprocess_rgb(rgb: np.ndarray, size: int = INPUT_SIZE) -> np.ndarray:
    return normalize(area_resize(center_square(rgb), size))


def preprocess_file(source: str | Path | bytes, size: int = INPUT_SIZE) -> np.ndarray:
    """File or bytes -> [3, size, size] float32, exactly as the server does."""
    return preprocess_rgb(load_rgb(source), size)

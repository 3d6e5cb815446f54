"""Which format the GPU pack should store the lab photos in (`bash ml/run.sh try-pack-formats`).

Networks trained on the GPU pack learned its look: run 3 (ml/README) scored 0.918 on lab validation photos as the
product sees them and 0.962 on the same photos taken through the pack's format (176 px, WebP quality 72). The pack
must fit in what travels to a GPU machine (64 MiB with the tracked tree), so the lab photos cannot go as the
original JPEGs (87 MB for the training split). This measures, for each candidate format, what it costs in bytes
and how far it moves an image *as a network sees it*: the shipped file's answers on lab validation photos taken
through the format (encoded at the pack's size, decoded, brought to 224 px as a plain training view is), against
its answers on the originals as the product sees them. A format that barely moves the shipped network's answers
keeps what a network needs of a lab photo, so a network trained on it should not lose accuracy on originals.
Lab validation photos only; the test split plays no part.
"""
from __future__ import annotations

import io
from dataclasses import dataclass

import numpy as np
from PIL import Image

from . import data as D
from .evaluate import ort_outputs
from .gputrain import pack_lab_photo
from .preprocess import INPUT_SIZE, load_rgb, preprocess_rgb
from .transfer import normalise_u8


@dataclass(frozen=True)
class PackFormat:
    name: str
    size: int  # side the photo is stored at (the pack resizes the 256 px original, bilinear)
    fmt: str  # "webp", "jpeg" or "png" (gputrain.encode)
    quality: int  # ignored for png

    def view(self, rgb: np.ndarray) -> tuple[np.ndarray, int]:
        """The photo packed in this format (gputrain.pack_lab_photo), decoded and brought to 224 px as a plain
        training view is before cropping; and its size in bytes."""
        data = pack_lab_photo(rgb, self.size, self.fmt, self.quality)
        img = Image.open(io.BytesIO(data)).convert("RGB")
        if img.size != (INPUT_SIZE, INPUT_SIZE):
            img = img.resize((INPUT_SIZE, INPUT_SIZE), Image.BILINEAR)
        return np.asarray(img, dtype=np.uint8), len(data)


FORMATS = (
    PackFormat("176 px WebP q72 (runs 1-3)", 176, "webp", 72),
    PackFormat("224 px WebP q72", 224, "webp", 72),
    PackFormat("224 px WebP q80", 224, "webp", 80),
    PackFormat("224 px WebP q90", 224, "webp", 90),
    PackFormat("224 px JPEG q65 (the pack's default)", 224, "jpeg", 65),
    PackFormat("224 px JPEG q75", 224, "jpeg", 75),
    PackFormat("224 px JPEG q80", 224, "jpeg", 80),
    PackFormat("224 px JPEG q85", 224, "jpeg", 85),
    PackFormat("224 px JPEG q92", 224, "jpeg", 92),
    PackFormat("224 px PNG (lossless)", 224, "png", 0),
)


def try_pack_formats(model_path, formats=FORMATS, limit: int | None = None) -> list[dict]:
    """One row per format (and one for the originals): bytes per photo, the lab training split's size in that
    format (projected from the validation photos' mean), top-1, the share of answers that stay the same and the
    mean total-variation distance of the probabilities to the originals'."""
    items = D.scan()
    split = D.grouped_stratified_split(items)
    val = split["val"][:limit] if limit else split["val"]
    n_train = len(split["train"])
    labels = np.asarray([it.label for it in val])
    files = [D.DEFAULT_DATA_DIR / it.rel_path for it in val]

    def answers(x: np.ndarray) -> np.ndarray:
        return ort_outputs(model_path, x, skip=("cam",))["probabilities"]

    originals = [load_rgb(f) for f in files]
    base = answers(np.stack([preprocess_rgb(rgb) for rgb in originals]))
    orig_bytes = float(np.mean([f.stat().st_size for f in files]))
    rows = [{"format": "original JPEG, as the product sees it", "kb_per_photo": round(orig_bytes / 1024, 2),
             "train_split_mb": round(orig_bytes * n_train / 1e6, 1), "top1": round(float((base.argmax(1) == labels).mean()), 4),
             "same_answer": 1.0, "mean_tv": 0.0}]
    for fmt in formats:
        views, sizes = zip(*(fmt.view(rgb) for rgb in originals))
        p = answers(normalise_u8(np.stack(views)))
        mean_bytes = float(np.mean(sizes))
        rows.append({"format": fmt.name, "kb_per_photo": round(mean_bytes / 1024, 2),
                     "train_split_mb": round(mean_bytes * n_train / 1e6, 1),
                     "top1": round(float((p.argmax(1) == labels).mean()), 4),
                     "same_answer": round(float((p.argmax(1) == base.argmax(1)).mean()), 4),
                     "mean_tv": round(float(0.5 * np.abs(p - base).sum(1).mean()), 4)})
    return rows

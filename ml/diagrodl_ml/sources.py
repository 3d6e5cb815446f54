"""The two data sets beside PlantVillage: real field photos and everyday photos that are not tomato leaves.

Both get fixed splits by seed, written to `ml/splits/` and hashed in the model card:

- field photos (`../shared/data/field-tomato-dev/<ClassFolder>/*.jpg`): per class, 40% validation (every
  choice is made on it, and its figures are reported), the rest train;
- negatives (`../shared/data/negatives/<set>/<wnid>/*`): per class (wnid), 20% held out (never trained on,
  never used for a choice: reported only), 10% validation (choices), 70% train.
"""
from __future__ import annotations

import os
import random
from dataclasses import dataclass
from pathlib import Path

from .classes import CLASS_IDS, FOLDER_TO_CLASS
from .data import REPO_ROOT, SPLITS_DIR, split_hash

SHARED_DATA = Path(os.environ.get("DIAGRODL_SHARED_DATA", str(REPO_ROOT.parent / "shared" / "data")))
FIELD_DIR = SHARED_DATA / "field-tomato-dev"
NEGATIVES_DIR = SHARED_DATA / "negatives"
FIELD_SEED = 2027
NEGATIVES_SEED = 2028
FIELD_VAL_FRACTION = 0.40
NEG_HOLDOUT_FRACTION = 0.20
NEG_VAL_FRACTION = 0.10
_IMAGE_EXT = (".jpg", ".jpeg", ".png", ".bmp", ".webp")


@dataclass(frozen=True)
class Photo:
    rel_path: str  # relative to its data set folder, POSIX
    label: int  # class index; -1 for a negative (not a tomato leaf)
    group: str  # class folder (field) or "<set>/<wnid>" (negatives)


def _images(d: Path) -> list[str]:
    return sorted(f for f in os.listdir(d) if f.lower().endswith(_IMAGE_EXT))


def _split_groups(photos: list[Photo], seed: int, fractions: dict[str, float]) -> dict[str, list[Photo]]:
    """Per group: sort, shuffle with `seed`, and cut by the fractions (in dict order); the rest is 'train'."""
    rng = random.Random(seed)
    out: dict[str, list[Photo]] = {name: [] for name in (*fractions, "train")}
    groups: dict[str, list[Photo]] = {}
    for p in photos:
        groups.setdefault(p.group, []).append(p)
    for key in sorted(groups):
        g = sorted(groups[key], key=lambda p: p.rel_path)
        rng.shuffle(g)
        start = 0
        for name, frac in fractions.items():
            n = round(frac * len(g))
            out[name].extend(g[start : start + n])
            start += n
        out["train"].extend(g[start:])
    for name in out:
        out[name].sort(key=lambda p: p.rel_path)
    return out


def field_split(field_dir: Path = FIELD_DIR, seed: int = FIELD_SEED) -> dict[str, list[Photo]]:
    """{'val': ..., 'train': ...} of the field photos (about 40% of each class for validation)."""
    photos = []
    for folder, class_id in FOLDER_TO_CLASS.items():
        d = field_dir / folder
        if d.is_dir():
            photos += [Photo(f"{folder}/{f}", CLASS_IDS.index(class_id), folder) for f in _images(d)]
    if not photos:
        raise FileNotFoundError(f"no field photos under {field_dir}")
    return _split_groups(photos, seed, {"val": FIELD_VAL_FRACTION})


def negatives_split(neg_dir: Path = NEGATIVES_DIR, seed: int = NEGATIVES_SEED) -> dict[str, list[Photo]]:
    """{'holdout': 20%, 'val': 10%, 'train': 70%} of each negatives class."""
    photos = []
    for s in sorted(os.listdir(neg_dir)):
        if not (neg_dir / s).is_dir():
            continue
        for wnid in sorted(os.listdir(neg_dir / s)):
            d = neg_dir / s / wnid
            if d.is_dir():
                photos += [Photo(f"{s}/{wnid}/{f}", -1, f"{s}/{wnid}") for f in _images(d)]
    if not photos:
        raise FileNotFoundError(f"no negatives under {neg_dir}")
    return _split_groups(photos, seed, {"holdout": NEG_HOLDOUT_FRACTION, "val": NEG_VAL_FRACTION})


def write_lists(prefix: str, split: dict[str, list[Photo]], out_dir: Path = SPLITS_DIR) -> dict[str, str]:
    """Writes `<prefix>_<name>.txt` for each part and returns their sha256 (of the sorted paths)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    hashes = {}
    for name, photos in split.items():
        paths = [p.rel_path for p in photos]
        (out_dir / f"{prefix}_{name}.txt").write_text("\n".join(paths) + "\n", encoding="utf-8")
        hashes[name] = split_hash(paths)
    return hashes

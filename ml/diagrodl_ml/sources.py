"""The two data sets beside PlantVillage: real field photos and everyday photos that are not tomato leaves.

Both get fixed splits by seed, written to `ml/splits/` and hashed in the model card:

- field photos (`../shared/data/field-tomato-dev/<ClassFolder>/*.jpg`): per class, 40% validation (every
  choice is made on it, and its figures are reported); of the rest, a third (about 20% of the set) held out since
  2026-11-28 (never trained on, never used for a choice), the rest train;
- the second field source (`field-tomato-dev-2/<ClassFolder>/*.jpg`): per class 20% held out, 30% validation, 50% train;
- other crops' field leaves (`other-crop-field/<PlantDoc class>/*.jpg`, all "not a tomato leaf"): per class 20% held
  out, 15% validation, 65% train;
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
FIELD2_DIR = SHARED_DATA / "field-tomato-dev-2"
OTHER_CROP_DIR = SHARED_DATA / "other-crop-field"
NEGATIVES_DIR = SHARED_DATA / "negatives"
FIELD_SEED = 2027
FIELD_HOLDOUT_SEED = 2033
FIELD2_SEED = 2031
OTHER_CROP_SEED = 2032
NEGATIVES_SEED = 2028
FIELD_VAL_FRACTION = 0.40
FIELD_HOLDOUT_OF_TRAIN = 1 / 3  # of field-tomato-dev's non-validation part: about 20% of the set
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


def _class_folders(d: Path) -> list[Photo]:
    photos = []
    for folder, class_id in FOLDER_TO_CLASS.items():
        if (d / folder).is_dir():
            photos += [Photo(f"{folder}/{f}", CLASS_IDS.index(class_id), folder) for f in _images(d / folder)]
    if not photos:
        raise FileNotFoundError(f"no field photos under {d}")
    return photos


def field_split(field_dir: Path = FIELD_DIR, seed: int = FIELD_SEED) -> dict[str, list[Photo]]:
    """{'val', 'holdout', 'train'} of field-tomato-dev: about 40% of each class for validation (the cut of every card
    since 2026-11-23), then a third of the rest held out (seed FIELD_HOLDOUT_SEED)."""
    first = _split_groups(_class_folders(field_dir), seed, {"val": FIELD_VAL_FRACTION})
    rest = _split_groups(first["train"], FIELD_HOLDOUT_SEED, {"holdout": FIELD_HOLDOUT_OF_TRAIN})
    return {"val": first["val"], "holdout": rest["holdout"], "train": rest["train"]}


def field2_split(field_dir: Path = FIELD2_DIR, seed: int = FIELD2_SEED) -> dict[str, list[Photo]]:
    """{'holdout': 20%, 'val': 30%, 'train': 50%} of each class of field-tomato-dev-2."""
    return _split_groups(_class_folders(field_dir), seed, {"holdout": 0.20, "val": 0.30})


def other_crop_split(crop_dir: Path = OTHER_CROP_DIR, seed: int = OTHER_CROP_SEED) -> dict[str, list[Photo]]:
    """{'holdout': 20%, 'val': 15%, 'train': 65%} of each class (crop and condition) of other-crop-field."""
    photos = []
    for c in sorted(os.listdir(crop_dir)):
        if (crop_dir / c).is_dir():
            photos += [Photo(f"{c}/{f}", -1, c) for f in _images(crop_dir / c)]
    if not photos:
        raise FileNotFoundError(f"no photos under {crop_dir}")
    return _split_groups(photos, seed, {"holdout": 0.20, "val": 0.15})


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

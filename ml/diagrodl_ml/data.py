"""Dataset scan, grouped stratified split and the uint8 decode cache."""
from __future__ import annotations

import hashlib
import json
import os
import random
import re
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

from .augment import leaf_mask
from .classes import CLASS_IDS, FOLDER_TO_CLASS
from .preprocess import load_rgb

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_DATA_DIR = Path(
    os.environ.get("DIAGRODL_DATA", str(REPO_ROOT.parent / "shared" / "data" / "plantvillage-tomato"))
)
DEFAULT_CACHE_DIR = REPO_ROOT / "ml" / ".cache"
SPLITS_DIR = REPO_ROOT / "ml" / "splits"
CACHE_SIZE = 256
SPLIT_SEED = 2026
SPLIT_FRACTIONS = {"train": 0.70, "val": 0.15, "test": 0.15}
GROUP_BLOCK = 10  # consecutive source numbers within a block of 10 count as one group


@dataclass(frozen=True)
class Item:
    rel_path: str  # "<folder>/<file>", POSIX
    label: int
    group: str


def source_key(class_id: str, file_name: str) -> tuple[str, str, int]:
    """(class, source prefix with its digits removed, the source's first number or -1) of a PlantVillage name such as
    '<uuid>___GCREC_Bact.Sp 3110.jpg'."""
    stem = file_name.rsplit(".", 1)[0]
    source = stem.split("___", 1)[1] if "___" in stem else stem
    m = re.search(r"\d+", source)
    prefix = re.sub(r"[\d.]+", "#", source).strip().lower()
    return class_id, prefix, int(m.group(0)) if m else -1


def source_group(class_id: str, file_name: str) -> str:
    """Group key for near-duplicates.

    Photos of the same leaf carry the same or consecutive source numbers, so the key is the class, the source prefix
    with its digits removed, and the first number integer-divided by GROUP_BLOCK. A run of photos of one leaf that
    crosses a multiple of GROUP_BLOCK falls in two groups, which may go to two splits (`near_twins`).
    """
    return _group_of(*source_key(class_id, file_name))


def _group_of(cls: str, prefix: str, number: int) -> str:
    return f"{cls}|{prefix}|{number // GROUP_BLOCK if number >= 0 else -1}"


def path_key(rel_path: str) -> tuple[str, str, int]:
    """`source_key` of a photo by its "<folder>/<file>" path, as `scan` gives it (an unknown folder stands for its
    class)."""
    folder, _, name = rel_path.rpartition("/")
    return source_key(FOLDER_TO_CLASS.get(folder, folder), name)


def path_group(rel_path: str) -> str:
    """The group of a photo by its path (`source_group`)."""
    return _group_of(*path_key(rel_path))


# A training photo of the same class and source within this many numbers of a test photo is often the same leaf
# photographed again (looked at on 2026-11-27: most pairs 1 apart, some 2 or 3 apart), even where the blocks of
# GROUP_BLOCK put the two in different groups and splits.
TWIN_GAP = 3


def near_twins(paths: list[str], reference: list[str], gap: int = TWIN_GAP) -> np.ndarray:
    """For each photo of `paths`, whether `reference` (for example the training split) holds another photo of the same
    class and source whose number is within `gap` of its own. A photo without a number has none."""
    numbers: dict[tuple[str, str], list[tuple[int, str]]] = {}
    for r in reference:
        cls, prefix, n = path_key(r)
        if n >= 0:
            numbers.setdefault((cls, prefix), []).append((n, r))
    out = np.zeros(len(paths), dtype=bool)
    for i, p in enumerate(paths):
        cls, prefix, n = path_key(p)
        out[i] = n >= 0 and any(abs(m - n) <= gap and r != p for m, r in numbers.get((cls, prefix), ()))
    return out


@dataclass(frozen=True)
class LabTestPhotos:
    """What the lab test figures need to know of the test photos besides their labels: each one's group, and whether
    it has a near twin in the training split."""
    groups: list[str]
    twins: np.ndarray


def lab_test_photos(paths: list[str], train_paths: list[str]) -> LabTestPhotos:
    return LabTestPhotos([path_group(p) for p in paths], near_twins(paths, train_paths))


def scan(data_dir: Path = DEFAULT_DATA_DIR) -> list[Item]:
    items: list[Item] = []
    for folder, class_id in FOLDER_TO_CLASS.items():
        d = data_dir / folder
        if not d.is_dir():
            continue
        for f in sorted(os.listdir(d)):
            if f.lower().endswith((".jpg", ".jpeg", ".png")):
                items.append(Item(f"{folder}/{f}", CLASS_IDS.index(class_id), path_group(f"{folder}/{f}")))
    if not items:
        raise FileNotFoundError(f"no images under {data_dir}")
    return items


def grouped_stratified_split(
    items: list[Item], seed: int = SPLIT_SEED, fractions: dict[str, float] = SPLIT_FRACTIONS
) -> dict[str, list[Item]]:
    """Per class: shuffle the groups with `seed`, then fill test, val, train by image count.

    Whole groups go to one split, so photos of one leaf within a block of GROUP_BLOCK numbers never straddle splits
    (a run that crosses a block's edge may: `near_twins`).
    """
    rng = random.Random(seed)
    out: dict[str, list[Item]] = {"train": [], "val": [], "test": []}
    for label in range(len(CLASS_IDS)):
        cls = [it for it in items if it.label == label]
        if not cls:
            continue
        groups: dict[str, list[Item]] = {}
        for it in cls:
            groups.setdefault(it.group, []).append(it)
        keys = sorted(groups)
        rng.shuffle(keys)
        n = len(cls)
        targets = {"test": round(fractions["test"] * n), "val": round(fractions["val"] * n)}
        filled = {"test": 0, "val": 0}
        for k in keys:
            g = groups[k]
            dest = "train"
            for s in ("test", "val"):
                if filled[s] < targets[s] and filled[s] + len(g) <= targets[s] + max(2, len(g) // 2):
                    dest = s
                    break
            if dest != "train":
                filled[dest] += len(g)
            out[dest].extend(g)
    for s in out:
        out[s].sort(key=lambda it: it.rel_path)
    return out


def split_hash(paths: list[str]) -> str:
    return hashlib.sha256("\n".join(sorted(paths)).encode("utf-8")).hexdigest()


def write_split_lists(split: dict[str, list[Item]], out_dir: Path = SPLITS_DIR) -> dict[str, str]:
    out_dir.mkdir(parents=True, exist_ok=True)
    hashes: dict[str, str] = {}
    for name, its in split.items():
        paths = [it.rel_path for it in its]
        (out_dir / f"{name}.txt").write_text("\n".join(paths) + "\n", encoding="utf-8")
        hashes[name] = split_hash(paths)
    return hashes


@dataclass
class Cache:
    images: np.ndarray  # [N, 256, 256, 3] uint8
    masks: np.ndarray  # [N, 256, 256] uint8 (255 = leaf)
    labels: np.ndarray  # [N] int64
    paths: list[str]

    def indices(self, items: list[Item]) -> np.ndarray:
        pos = {p: i for i, p in enumerate(self.paths)}
        return np.asarray([pos[it.rel_path] for it in items], dtype=np.int64)


def build_cache(
    items: list[Item], data_dir: Path = DEFAULT_DATA_DIR, cache_dir: Path = DEFAULT_CACHE_DIR, size: int = CACHE_SIZE
) -> Cache:
    """Decode every image once into uint8 arrays (+ leaf masks). Reused when the file list matches."""
    cache_dir.mkdir(parents=True, exist_ok=True)
    paths = [it.rel_path for it in items]
    key = split_hash(paths)[:16] + f"_{size}"
    img_f = cache_dir / f"images_{key}.npy"
    mask_f = cache_dir / f"masks_{key}.npy"
    meta_f = cache_dir / f"meta_{key}.json"
    if img_f.exists() and mask_f.exists() and meta_f.exists():
        meta = json.loads(meta_f.read_text())
        return Cache(np.load(img_f, mmap_mode="r"), np.load(mask_f, mmap_mode="r"), np.asarray(meta["labels"]), meta["paths"])
    t0 = time.time()
    images = np.zeros((len(items), size, size, 3), dtype=np.uint8)
    masks = np.zeros((len(items), size, size), dtype=np.uint8)
    for i, it in enumerate(items):
        rgb = load_rgb(data_dir / it.rel_path)
        if rgb.shape[:2] != (size, size):
            rgb = np.asarray(Image.fromarray(rgb).resize((size, size), Image.BILINEAR))
        images[i] = rgb
        masks[i] = leaf_mask(rgb)
        if (i + 1) % 500 == 0 or i + 1 == len(items):
            print(f"\rcaching images {i + 1}/{len(items)} ({time.time() - t0:.0f}s)", end="", flush=True)
    print()
    np.save(img_f.with_suffix(".tmp.npy"), images)
    np.save(mask_f.with_suffix(".tmp.npy"), masks)
    os.replace(img_f.with_suffix(".tmp.npy"), img_f)
    os.replace(mask_f.with_suffix(".tmp.npy"), mask_f)
    meta_f.write_text(json.dumps({"paths": paths, "labels": [it.label for it in items]}))
    return Cache(images, masks, np.asarray([it.label for it in items]), paths)


@dataclass
class Prepared:
    """The dataset as the commands use it: every item, the split, the split lists' sha256, the decode cache, and
    each split's cache indices."""
    items: list[Item]
    split: dict[str, list[Item]]
    hashes: dict[str, str]
    cache: Cache
    idx: dict[str, np.ndarray]


def prepare(data_dir: Path = DEFAULT_DATA_DIR, cache_dir: Path = DEFAULT_CACHE_DIR, splits_dir: Path = SPLITS_DIR,
            seed: int = SPLIT_SEED) -> Prepared:
    """Scan, split (writing the split lists to `splits_dir`) and decode (or reuse) the cache."""
    items = scan(data_dir)
    split = grouped_stratified_split(items, seed=seed)
    hashes = write_split_lists(split, splits_dir)
    cache = build_cache(items, data_dir, cache_dir)
    return Prepared(items, split, hashes, cache, {k: cache.indices(v) for k, v in split.items()})

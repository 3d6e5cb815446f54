"""Command line: train | finish | evaluate | tiny-reference.

    python3 -m diagrodl_ml.cli train --arch mobilenet [--epochs N] [--resume]
    python3 -m diagrodl_ml.cli finish --arch mobilenet          # calibrate/export/card from the last checkpoint
    python3 -m diagrodl_ml.cli finish --from-onnx F.onnx        # the same from an earlier export's network
    python3 -m diagrodl_ml.cli evaluate --model models/mobilenet.onnx [--update-card]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import fields
from pathlib import Path

import numpy as np
import torch

from . import data as D
from .calibrate import accepted, calibrated, choose_calibration, choose_threshold, ece, energy, fit_temperature, nll, softmax
from .card import build_card, card_path, model_name, write_card
from .classes import CLASS_IDS
from .evaluate import (
    batches_from_u8, calibration_summary, check_preprocess_equivalence, metrics, node_ort_available,
    onnx_outputs, ood_report, ood_sets,
)
from .export import export_onnx
from .models import VIEW_COUNTS, count_params, torchvision_name
from .train import RUNS_DIR, TrainConfig, load_checkpoint, train
from .transfer import TransferConfig

REPO_ROOT = Path(__file__).resolve().parents[2]
MODELS_DIR = REPO_ROOT / "models"
FP16_DEFAULT = {"mobilenet": False, "resnet50": True, "vgg16": True}


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data-dir", type=Path, default=D.DEFAULT_DATA_DIR)
    p.add_argument("--cache-dir", type=Path, default=D.DEFAULT_CACHE_DIR)
    p.add_argument("--splits-dir", type=Path, default=D.SPLITS_DIR)
    p.add_argument("--models-dir", type=Path, default=MODELS_DIR)
    p.add_argument("--run-dir", type=str, default="")
    p.add_argument("--split-seed", type=int, default=D.SPLIT_SEED)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--ood", type=int, default=120, help="images per out-of-distribution probe set (0 = skip)")


def _prepare(args: argparse.Namespace):
    items = D.scan(args.data_dir)
    split = D.grouped_stratified_split(items, seed=args.split_seed)
    hashes = D.write_split_lists(split, args.splits_dir)
    cache = D.build_cache(items, args.data_dir, args.cache_dir)
    idx = {k: cache.indices(v) for k, v in split.items()}
    return items, split, hashes, cache, idx


def _data_section(args: argparse.Namespace, items, split, hashes) -> dict:
    per_class = {s: {cid: int(sum(1 for it in v if it.label == i)) for i, cid in enumerate(CLASS_IDS)} for s, v in split.items()}
    return {
        "source": "PlantVillage tomato leaf images (lab photos), ../shared/data/plantvillage-tomato; Hughes & Salathe 2015, Mohanty et al. 2016",
        "license": "CC BY-SA 3.0 (PlantVillage dataset card)",
        "n_images": len(items),
        "split": {
            "method": (f"stratified by class, grouped by source id (class + source prefix + source number // {D.GROUP_BLOCK}) so "
                       "near-duplicate photos of one leaf never straddle splits; test split never used for training or choices"),
            "seed": args.split_seed,
            "fractions": D.SPLIT_FRACTIONS,
            "counts": {s: len(v) for s, v in split.items()},
            "per_class": per_class,
            "file_list_sha256": hashes,
            "file_lists": "ml/splits/{train,val,test}.txt (sha256 of the sorted newline-joined relative paths)",
        },
    }


def _init_provenance(onnx_path: Path) -> dict:
    """What a warm-started model was initialised from: the file's digest and its card's training summary."""
    from .export import file_digest

    out: dict = {"file": onnx_path.name, "sha256": file_digest(onnx_path)["sha256"] if onnx_path.exists() else None}
    cp = card_path(onnx_path)
    if cp.exists():
        prev = json.loads(cp.read_text())
        t = prev.get("training", {})
        out.update({k: t.get(k) for k in ("epochs", "schedule", "time_seconds", "batch_size", "optimizer", "device",
                                          "initialised_from") if k in t})
        out["test_accuracy"] = prev.get("metrics", {}).get("accuracy")
    return out


def _better_on_validation(base: np.ndarray, candidate: np.ndarray, y: np.ndarray) -> tuple[bool, str]:
    """Whether candidate logits beat base on validation (accuracy, then calibrated NLL), and the figures."""
    acc0, acc1 = (float((lg.argmax(1) == y).mean()) for lg in (base, candidate))
    nll0, nll1 = (nll(softmax(lg, fit_temperature(lg, y)), y) for lg in (base, candidate))
    figures = f"validation accuracy {acc0:.4f} -> {acc1:.4f}, calibrated NLL {nll0:.4f} -> {nll1:.4f}"
    return (acc1, -nll1) > (acc0, -nll0), figures


# notes that finish() writes afresh each time; a re-finished export drops its card's old ones
_FINISH_NOTE_PREFIXES = ("BatchNorm statistics re-estimated", "averaging the logits of symmetric views",
                         "max |onnxruntime-node", "calibration chosen by", "re-finished from ")


def _training_section(cfg: TrainConfig, ck: dict, device: torch.device) -> tuple[dict, list[str]]:
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
        training["initialised_from"] = _init_provenance(Path(cfg.init_onnx))
        notes.append(f"continued training from {Path(cfg.init_onnx).name} (an earlier export of this project, "
                     "BatchNorm unfolded by warmstart.py); 'epochs', 'history' and 'time_seconds' count this run only, "
                     "'initialised_from' summarises the earlier one")
    if cfg.time_budget_min > 0:
        notes.append(f"trained against a wall-clock budget of {cfg.time_budget_min} min on shared CPUs: image size and the "
                     "one-cycle learning rate followed the fraction of the budget used; the last epoch may be partial")
    elif len(hist) < cfg.epochs:
        notes.append(f"training stopped after {len(hist)} of {cfg.epochs} planned epochs (time limit); exported that checkpoint")
    return training, notes


def _from_onnx(args: argparse.Namespace, cache, idx) -> tuple[torch.nn.Module, int, int, dict, list[str]]:
    """The network of an earlier export (warmstart.py), its input size and seed, its card's training block and
    lasting notes."""
    from .models import build_model
    from .warmstart import load_export

    src = Path(args.from_onnx)
    prev = json.loads(card_path(src).read_text())
    if prev["architecture"] != torchvision_name(args.arch):
        raise SystemExit(f"error: {src} is a {prev['architecture']}, not --arch {args.arch}")
    model = build_model(args.arch)
    seed = int(prev["training"].get("seed", TrainConfig.seed))
    size = int(prev["input"]["size"])
    load_export(model, src, cache.images, idx["train"], size, seed)
    notes = [n for n in prev.get("notes", []) if not n.startswith(_FINISH_NOTE_PREFIXES)]
    notes.append(f"re-finished from {src.name} (sha256 {prev['file']['sha256'][:12]}..., BatchNorm unfolded by "
                 "warmstart.py): same network weights and training as that card records; views, calibration, "
                 "rejection threshold and every figure below measured again")
    return model, size, seed, prev["training"], notes


def finish(args: argparse.Namespace, items, split, hashes, cache, idx) -> dict:
    torch.set_num_threads(args.threads)
    from .predict import resolve_device
    if getattr(args, "from_onnx", None):
        model, size, seed, training, base_notes = _from_onnx(args, cache, idx)
        arch, origin = args.arch, f"the network of {args.from_onnx}"
        device = resolve_device(getattr(args, "device", None) or "cpu")
    else:
        run_dir = Path(args.run_dir) if args.run_dir else RUNS_DIR / args.arch
        model, ck = load_checkpoint(run_dir)
        cfg = TrainConfig(**{k: v for k, v in ck["config"].items() if k in {f.name for f in fields(TrainConfig)}})
        size, seed, arch = cfg.final_size, cfg.seed, cfg.arch
        origin = f"checkpoint after epoch {ck['epoch'] + 1}"
        device = resolve_device(getattr(args, "device", None) or cfg.device)
        training, base_notes = _training_section(cfg, ck, device)
    model = model.to(device)
    name = model_name(arch)
    t0 = time.time()
    print(f"finishing {name}: {origin}", flush=True)
    from .predict import eval_all, logits_of, view_logits
    val_sorted, test_sorted = np.sort(idx["val"]), np.sort(idx["test"])
    y_val = cache.labels[val_sorted]
    y_test = cache.labels[test_sorted]
    xv = eval_all(cache.images, val_sorted, size)
    xt = eval_all(cache.images, test_sorted, size)
    val_logits = logits_of(model, xv)
    bn_note = ""
    if not args.no_bn_recalibration:
        import copy

        from .predict import recalibrate_bn
        recal = copy.deepcopy(model)
        n_bn = recalibrate_bn(recal, cache, idx["train"], size, seed=seed)
        if n_bn:
            val_recal = logits_of(recal, xv)
            keep, figures = _better_on_validation(val_logits, val_recal, y_val)
            bn_note = (f"BatchNorm statistics re-estimated at {size} px on {n_bn} training images: {figures}; "
                       + ("kept (chosen on validation)" if keep else "not kept (chosen on validation)"))
            print(bn_note, flush=True)
            if keep:
                model, val_logits = recal, val_recal
    views, views_note = 1, ""
    if args.max_views > 1:
        per_view = view_logits(model, xv, args.max_views)
        tried = []
        for k in (v for v in VIEW_COUNTS if 1 < v <= args.max_views):
            better, figures = _better_on_validation(per_view[:views].mean(axis=0), per_view[:k].mean(axis=0), y_val)
            tried.append(f"{views} -> {k} views: {figures}" + (" (kept)" if better else ""))
            if better:
                views = k
        views_note = ("averaging the logits of symmetric views of each image (1: itself, 2: + left-right mirror, "
                      "4: + upside-down and half turn, 8: + quarter turns and diagonal mirrors), chosen on validation: "
                      + "; ".join(tried) + f"; exported with {views} view(s) inside the graph")
        print(views_note, flush=True)
        val_logits = per_view[:views].mean(axis=0)
    cal = choose_calibration(val_logits, y_val, seed=seed)
    temperature, bias = cal["temperature"], cal["bias"]
    cal_note = ("calibration chosen by 5-fold cross-validation on the validation split (10 shuffles; lowest held-out "
                "NLL decides, then refitted on the whole split): "
                + "; ".join(("temperature only" if c["bias_l2"] is None else f"temperature + class bias (L2 {c['bias_l2']:g})")
                            + f": NLL {c['nll']:.4f}, accuracy {c['accuracy']:.4f}, min recall {c['min_recall']:.4f}"
                            for c in cal["cv"])
                + f"; chosen: {cal['method']}" + ("" if cal["bias_l2"] is None else f" (L2 {cal['bias_l2']:g})"))
    print(cal_note, flush=True)
    val_raw, val_cal = softmax(val_logits, 1.0), calibrated(val_logits, temperature, bias)
    rejection = choose_threshold(val_cal, y_val, energies=energy(val_logits, temperature))
    print(f"temperature {temperature:.4f}; val ECE {ece(val_raw, y_val):.4f} -> {ece(val_cal, y_val):.4f}; "
          f"threshold {rejection['threshold']}, energy floor {rejection.get('energy_threshold')}", flush=True)
    fp16 = args.fp16 if args.fp16 is not None else FP16_DEFAULT.get(name, False)
    onnx_path = args.models_dir / f"{name}.onnx"
    model = model.cpu()
    info = export_onnx(model, temperature, onnx_path, size=size, fp16_weights=fp16, views=views, bias=bias)
    model = model.to(device)
    print(f"exported {onnx_path} ({info['size_bytes'] / 1e6:.1f} MB, sha256 {info['sha256'][:12]}...)", flush=True)
    test_logits = logits_of(model, xt, views=views)
    torch_test = calibrated(test_logits, temperature, bias)
    notes: list[str] = [n for n in (bn_note, views_note, cal_note) if n]
    use_ort = node_ort_available() and not args.no_ort
    if use_ort:
        test_probs, test_energy = onnx_outputs(onnx_path, (xt[s:s + 64].numpy() for s in range(0, len(xt), 64)))
        diff = float(np.abs(test_probs - torch_test).max())
        e_diff = float(np.abs(test_energy - energy(test_logits, temperature)).max())
        evaluated_with = "onnxruntime-node on the exported file"
        notes.append(f"max |onnxruntime-node - PyTorch| probability on the test split: {diff:.2e} (energy: {e_diff:.2e})")
        print(f"onnxruntime-node vs PyTorch max abs diff {diff:.2e} (energy {e_diff:.2e})", flush=True)

        def predict(imgs: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
            return onnx_outputs(onnx_path, batches_from_u8(imgs, size))
    else:
        test_probs, test_energy = torch_test, energy(test_logits, temperature)
        evaluated_with = "PyTorch checkpoint identical to the export (onnxruntime-node not installed)"

        def predict(imgs: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
            from .predict import eval_tensor
            lg = np.concatenate([logits_of(model, eval_tensor(imgs[s:s + 64], size), views=views)
                                 for s in range(0, len(imgs), 64)])
            return calibrated(lg, temperature, bias), energy(lg, temperature)
    m = metrics(test_probs, y_test)
    cal_test = calibration_summary(test_probs, y_test, temperature, bias)
    calibration = {
        "method": ("temperature scaling fitted on the validation split (LBFGS on NLL); ECE with 15 equal-width bins"
                   if bias is None else
                   "bias-corrected temperature scaling: probabilities = softmax(logits / T + b), T and per-class biases b "
                   f"fitted on the validation split (LBFGS on NLL + {cal['bias_l2']:g} * |b|^2); ECE with 15 equal-width bins"),
        "temperature": round(temperature, 5),
        **({} if bias is None else {"class_bias": [round(float(v), 5) for v in bias]}),
        "bins": 15,
        "val_ece_before": round(ece(val_raw, y_val), 4),
        "val_ece_after": round(ece(val_cal, y_val), 4),
        "val_nll_before": round(nll(val_raw, y_val), 4),
        "val_nll_after": round(nll(val_cal, y_val), 4),
        "test_ece_before": cal_test["ece_before"],
        "test_ece_after": cal_test["ece_after"],
    }
    acc_mask = accepted(test_probs, rejection, test_energy)
    rejection_out = {
        **{k: (round(v, 4) if isinstance(v, float) else v) for k, v in rejection.items()},
        "method": ("top calibrated probability; threshold = 2nd percentile of the top probability of correctly classified "
                   "validation images (at most ~2% of right answers withheld), clamped to [0.5, 0.95]; and the graph's "
                   "`energy` output (logsumexp(logits / T), no class bias) at least energy_threshold = the 0.5th percentile "
                   "of the energy of correctly classified validation images"),
        "test_coverage": round(float(acc_mask.mean()), 4),
        "test_accuracy_accepted": round(float((test_probs.argmax(1)[acc_mask] == y_test[acc_mask]).mean()), 4) if acc_mask.any() else 0.0,
        "label_below_threshold": {"es": "No reconocido con confianza", "en": "Not recognised with confidence"},
    }
    ood: dict = {"note": ("Procedural images only: no real field photos are available in this environment, so these numbers "
                          "do not predict field accuracy.")}
    if args.ood:
        sets = ood_sets(cache.images[test_sorted], cache.masks[test_sorted], cache.labels[test_sorted], n=args.ood)
        ood["sets"] = ood_report(predict, sets, rejection)
        print("out-of-distribution:", json.dumps(ood["sets"]), flush=True)
    notes = base_notes + notes
    card = build_card(
        arch=arch, tv_name=torchvision_name(arch), onnx_info=info, onnx_file=onnx_path.name, size=size,
        params=count_params(model), data=_data_section(args, items, split, hashes), training=training,
        calibration=calibration, rejection=rejection_out, test_metrics=m, evaluated_with=evaluated_with, ood=ood, notes=notes,
    )
    cp = card_path(onnx_path)
    write_card(card, cp)
    print(f"wrote {cp} in {time.time() - t0:.0f}s: test acc {m['accuracy']:.4f}, min recall {m['min_recall']:.4f}, "
          f"ECE {calibration['test_ece_before']:.4f} -> {calibration['test_ece_after']:.4f}", flush=True)
    return card


def cmd_evaluate(args: argparse.Namespace) -> int:
    model_path = Path(args.model)
    cp = card_path(model_path)
    card = json.loads(cp.read_text())
    from .export import file_digest

    dig = file_digest(model_path)
    if dig["sha256"] != card["file"]["sha256"]:
        print(f"warning: {model_path} sha256 differs from its card", file=sys.stderr)
    items, split, hashes, cache, idx = _prepare(args)
    if hashes["test"] != card["data"]["split"]["file_list_sha256"]["test"]:
        print("error: the test split differs from the card's", file=sys.stderr)
        return 2
    if not node_ort_available():
        print("error: onnxruntime-node is not installed (npm install at the repository root)", file=sys.stderr)
        return 2
    size = int(card["input"]["size"])
    test_sorted = np.sort(idx["test"])
    t0 = time.time()
    probs, energies = onnx_outputs(model_path, batches_from_u8(cache.images[test_sorted], size))
    y = cache.labels[test_sorted]
    m = metrics(probs, y)
    cal = calibration_summary(probs, y, float(card["calibration"]["temperature"]), card["calibration"].get("class_bias"))
    print(f"{model_path}: test n={m['n']} accuracy {m['accuracy']:.4f} macro-F1 {m['macro_f1']:.4f} "
          f"min recall {m['min_recall']:.4f} ECE {cal['ece_before']:.4f} -> {cal['ece_after']:.4f} "
          f"coverage {float(accepted(probs, card['rejection'], energies).mean()):.4f} ({time.time() - t0:.0f}s, onnxruntime-node)")
    for c in m["per_class"]:
        print(f"  {c['id']:<24} P {c['precision']:.4f} R {c['recall']:.4f} F1 {c['f1']:.4f} n={c['support']}")
    print("confusion matrix (rows true, cols predicted):")
    for row in m["confusion_matrix"]:
        print("  " + " ".join(f"{v:4d}" for v in row))
    if args.update_card:
        card["metrics"] = {"split": "test", "evaluated_with": "onnxruntime-node on the exported file", **m}
        card["calibration"]["test_ece_before"] = cal["ece_before"]
        card["calibration"]["test_ece_after"] = cal["ece_after"]
        write_card(card, cp)
        print(f"updated {cp}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="diagrodl_ml")
    sub = ap.add_subparsers(dest="cmd", required=True)
    pt = sub.add_parser("train", help="train, calibrate, export ONNX and write the card")
    pf = sub.add_parser("finish", help="calibrate/export/card from the latest checkpoint (no training)")
    for p in (pt, pf):
        _common(p)
        p.add_argument("--arch", default="mobilenet")
        p.add_argument("--fp16", dest="fp16", action="store_true", default=None, help="store weights as float16")
        p.add_argument("--no-fp16", dest="fp16", action="store_false")
        p.add_argument("--no-ort", action="store_true", help="evaluate with PyTorch even if onnxruntime-node exists")
        p.add_argument("--no-bn-recalibration", action="store_true",
                       help="skip re-estimating BatchNorm statistics at the final size")
        p.add_argument("--max-views", type=int, choices=VIEW_COUNTS, default=8,
                       help="most symmetric views averaged in the exported graph (chosen on validation; 1 = none)")
    pt.add_argument("--resume", action="store_true")
    pf.add_argument("--device", default=None, help="cpu | cuda | auto (default: the checkpoint's)")
    pf.add_argument("--from-onnx", default=None,
                    help="re-finish an earlier export of this project (its network, re-calibrated) instead of a checkpoint")
    pt.add_argument("--from-scratch", action="store_true",
                    help="mobilenet: train MobileNetV3-Small from random weights (train.py) instead of fine-tuning the "
                         "ImageNet MobileNetV2 with the learned refusal (fieldtrain.py, the default)")
    # options of both pipelines default to None here and take each pipeline's own default (TrainConfig, TransferConfig)
    shared = {f.name for f in fields(TrainConfig)} & {f.name for f in fields(TransferConfig)}
    for f in fields(TrainConfig):
        if f.name in ("arch", "threads", "run_dir"):
            continue
        pt.add_argument("--" + f.name.replace("_", "-"), type=type(f.default), default=None if f.name in shared else f.default)
    for f in fields(TransferConfig):
        if f.name in shared or f.name == "threads":
            continue
        pt.add_argument("--" + f.name.replace("_", "-"), type=type(f.default), default=f.default,
                        help="ImageNet fine-tuning (fieldtrain.py)")
    pe = sub.add_parser("evaluate", help="evaluate an exported ONNX file on the test split (onnxruntime-node)")
    _common(pe)
    pe.add_argument("--model", required=True)
    pe.add_argument("--update-card", action="store_true")
    pr = sub.add_parser("tiny-reference", help="tiny untrained export + PyTorch reference outputs (tests)")
    pr.add_argument("--out", type=Path, required=True)
    pr.add_argument("--arch", default="mobilenet")
    pr.add_argument("--size", type=int, default=64)
    pr.add_argument("--views", type=int, choices=VIEW_COUNTS, default=1, help="symmetric views averaged in the graph")
    pp = sub.add_parser("preprocess", help="write the preprocessed tensor of an image file as raw float32")
    pp.add_argument("image", type=Path)
    pp.add_argument("out", type=Path)
    args = ap.parse_args(argv)

    if args.cmd == "tiny-reference":
        from .fixtures import tiny_reference
        print(json.dumps(tiny_reference(args.out, args.arch, args.size, views=args.views)))
        return 0
    if args.cmd == "preprocess":
        from .preprocess import preprocess_file
        args.out.write_bytes(preprocess_file(args.image).tobytes())
        return 0
    if args.cmd == "evaluate":
        return cmd_evaluate(args)
    torch.set_num_threads(args.threads)
    items, split, hashes, cache, idx = _prepare(args)
    if args.cmd == "train" and args.arch == "mobilenet" and not args.from_scratch:
        from .fieldtrain import run
        cfg = TransferConfig(**{f.name: getattr(args, f.name) for f in fields(TransferConfig)
                                if getattr(args, f.name, None) is not None})
        run(cfg, cache, idx, args.models_dir, _data_section(args, items, split, hashes), args.cache_dir)
        return 0
    if args.cmd == "train":
        cfg = TrainConfig(**{f.name: (getattr(args, f.name) if getattr(args, f.name) is not None else f.default)
                             for f in fields(TrainConfig)})
        train(cfg, cache, idx["train"], idx["val"], resume=args.resume)
    diff = check_preprocess_equivalence(cache.images[np.sort(idx["val"])[:4]], 224 if len(cache.images) else 0)
    if diff > 1e-4:
        print(f"warning: batched preprocessing differs from preprocess.py by {diff}", file=sys.stderr)
    finish(args, items, split, hashes, cache, idx)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Command line: argument parsing and dispatch only. Ten commands; graft, gpu and fixtures hold subcommands.

    python3 -m diagrodl_ml.cli train --arch mobilenet [--epochs N] [--resume]   # fieldtrain.py (--from-scratch: train.py + finish)
    python3 -m diagrodl_ml.cli finish --arch mobilenet          # calibrate/export/card from the last checkpoint
    python3 -m diagrodl_ml.cli finish --from-onnx F.onnx        # the same from an earlier export's network
    python3 -m diagrodl_ml.cli evaluate --model models/mobilenet.onnx [--update-card]
    python3 -m diagrodl_ml.cli rethreshold --model M.onnx       # fieldtrain.py: thresholds (and views) chosen again
    python3 -m diagrodl_ml.cli recalibrate --model M.onnx       # quantize.recalibrate: calibration (and thresholds) again
    python3 -m diagrodl_ml.cli photo-conditions --model M.onnx  # conditions.py: the lab test leaves under one condition at a time
    python3 -m diagrodl_ml.cli graft lab-like --model M.onnx --out OUT.onnx   # labgate.py: the output `lab_like`
    python3 -m diagrodl_ml.cli graft expert --model M.onnx --expert E.onnx --out O.onnx   # ensemble.py: a lab expert
    python3 -m diagrodl_ml.cli quantize --model M.onnx --out O.onnx      # quantize.py: the int8 copy and its card
    python3 -m diagrodl_ml.cli gpu pack --out ml/.pack         # training photos for a GPU machine (gputrain.py)
    python3 -m diagrodl_ml.cli gpu train --pack ml/.pack --out DIR --arch resnet50 vgg16 --time-budget-min 7.5
    python3 -m diagrodl_ml.cli gpu finish --arch resnet50 --weights DIR/resnet50.npz   # gpufinish.py
    python3 -m diagrodl_ml.cli gpu ensemble-card               # gpufinish.py: models/ensemble.card.json
    python3 -m diagrodl_ml.cli fixtures tiny-model             # the server tests' tiny model
    python3 -m diagrodl_ml.cli fixtures int8-probe             # the server tests' int8 pair probe
    python3 -m diagrodl_ml.cli fixtures tiny-reference --out DIR   # tests
    python3 -m diagrodl_ml.cli fixtures preprocess IMAGE OUT.f32   # tests
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import fields
from pathlib import Path

import torch

from . import data as D
from .card import data_section
from .ensemble import attach, refit_calibration
from .labgate import attach_lab_like
from .conditions import measure as measure_conditions
from .evaluate import evaluate_test_split, read_card, report_reevaluation
from .quantize import quantize
from .fieldtrain import record_cpu_figures, reevaluate, rethreshold, run
from .finish import finish
from .gpufinish import ensemble_card, finish_gpu
from .gputrain import (IMAGENET_ARCH, RESNET_ARCH, LAB_FORMATS, PACK_IMAGENETTE, PACK_LAB_FORMAT, PACK_LAB_PER_CLASS,
                       PACK_LAB_QUALITY, PACK_LAB_SIZE,
                       PACK_TINY, GpuConfig, pack, train_gpu)
from .fixtures import tiny_reference, write_int8_pair_probe, write_tiny_fixture
from .models import VIEW_COUNTS
from .preprocess import preprocess_file
from .train import TrainConfig, train
from .transfer import TransferConfig

REPO_ROOT = Path(__file__).resolve().parents[2]
MODELS_DIR = REPO_ROOT / "models"


def _init_weights(pairs: list[str]) -> dict[str, str]:
    """`--init ARCH=NPZ ...` as {arch: path}."""
    out = {}
    for pair in pairs:
        arch, sep, path = pair.partition("=")
        if not sep or not arch or not path:
            raise SystemExit(f"error: --init {pair}: write ARCH=PATH, for example {IMAGENET_ARCH}=runs/{IMAGENET_ARCH}.npz")
        out[arch] = path
    return out


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data-dir", type=Path, default=D.DEFAULT_DATA_DIR)
    p.add_argument("--cache-dir", type=Path, default=D.DEFAULT_CACHE_DIR)
    p.add_argument("--splits-dir", type=Path, default=D.SPLITS_DIR)
    p.add_argument("--models-dir", type=Path, default=MODELS_DIR)
    p.add_argument("--run-dir", type=str, default="")
    p.add_argument("--split-seed", type=int, default=D.SPLIT_SEED)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--ood", type=int, default=120, help="images per out-of-distribution probe set (0 = skip)")


def _leaf(sub, name: str, cmd: str, help: str) -> argparse.ArgumentParser:
    """A subcommand of a group; `cmd` is the name the dispatch below the parser reads (args.cmd)."""
    p = sub.add_parser(name, help=help)
    p.set_defaults(cmd=cmd)
    return p


def _model_command(sub, name: str, help: str, out: bool = False, cmd: str | None = None,
                   description: str | None = None) -> argparse.ArgumentParser:
    """A command on one exported file: `--model`, `--out` when it writes a new file, and `--cache-dir`."""
    p = sub.add_parser(name, help=help, description=description)
    if cmd is not None:
        p.set_defaults(cmd=cmd)
    p.add_argument("--model", required=True, type=Path)
    if out:
        p.add_argument("--out", required=True, type=Path)
    p.add_argument("--cache-dir", type=Path, default=D.DEFAULT_CACHE_DIR)
    return p


def _group(sub, name: str, help: str, description: str):
    """A top-level command that only holds subcommands (`diagrodl_ml NAME --help` lists them)."""
    return sub.add_parser(name, help=help, description=description).add_subparsers(dest="cmd", required=True)


def _prepare(args: argparse.Namespace) -> D.Prepared:
    return D.prepare(args.data_dir, args.cache_dir, args.splits_dir, args.split_seed)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="diagrodl_ml", description="DiAgroDL's training pipeline (ml/README.md). graft, "
                                 "gpu and fixtures hold subcommands; COMMAND --help says more.")
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
        p.add_argument("--max-views", type=int, choices=VIEW_COUNTS, default=None,
                       help="most symmetric views averaged in the exported graph (chosen on validation; 1 = none; "
                            "default: 8 for --from-scratch and finish, TransferConfig.max_views for the fine-tuning)")
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
        if f.name in shared or f.name in ("threads", "max_views"):
            continue
        pt.add_argument("--" + f.name.replace("_", "-"), type=type(f.default), default=f.default,
                        help="ImageNet fine-tuning (fieldtrain.py)")
    pe = sub.add_parser("evaluate", help="evaluate an exported ONNX file on the test split (onnxruntime-node)")
    _common(pe)
    pe.add_argument("--model", required=True)
    pe.add_argument("--update-card", action="store_true")
    pe.add_argument("--record-cpu", action="store_true",
                    help="int8 file: store the figures measured here as the card's figures for this kind of CPU")
    prt = sub.add_parser("rethreshold", help="a fine-tuned export's thresholds chosen again",
                         description="choose the not-a-leaf and confidence thresholds of a fine-tuned export again "
                                     "on validation (and, with --max-views, the symmetric views it averages) and "
                                     "rewrite its card")
    _common(prt)
    prt.add_argument("--model", required=True)
    prt.add_argument("--max-views", type=int, choices=VIEW_COUNTS, default=1,
                     help="also choose on validation how many symmetric views the graph averages (at most this many; "
                          "the file must have none yet)")
    _model_command(sub, "recalibrate", "an export's calibration fitted again, in place",
                   description="fit an export's temperature and class biases again on validation (in a file "
                   "with a lab gate, biases scaled by the gate), choose its thresholds again and measure its card, "
                   "in place")
    ppc = _model_command(sub, "photo-conditions", "an export's figures, one photo condition at a time",
                         description="an export's figures on the lab test leaves under one photo condition "
                                     "at a time (small in the frame, several leaves, shadow, blur...: conditions.py)")
    ppc.add_argument("--json", type=Path, help="also write the figures to this file")

    # graft: a part added to an export's graph, then its card measured again
    graft = _group(sub, "graft", "add a part to an export's graph, its card again",
                   "add a part to an export's graph (the `lab_like` output, then a lab expert on lab-like photos), "
                   "choose what it needs on validation and measure its card again")
    _model_command(graft, "lab-like", "add the output `lab_like` (a gate on the network's pooled features: how much "
                   "the photo looks like a lab photo) to an export, then choose its thresholds again (one of its own "
                   "for field-like photos) and measure its card", out=True, cmd="add-lab-like")
    px = _model_command(graft, "expert", "add a lab expert's disease logits on lab-like photos to an export with "
                        "`lab_like` (ramp start and weight chosen on validation), calibration and thresholds again, and "
                        "its card", out=True, cmd="add-expert")
    px.add_argument("--expert", required=True, type=Path, help="an export whose disease logits are added (its card beside it)")
    px.add_argument("--replace", action="store_true", help="the model already holds an expert: take it out first")

    _model_command(sub, "quantize", "int8 (QDQ) copy of an export, calibrated on training photos, and its card",
                   out=True)

    # gpu: every layer trained on a CUDA machine (gputrain.py), finished here (gpufinish.py)
    gpu = _group(sub, "gpu", "train on a CUDA machine, finish here, ensemble card",
                 "train every layer on a CUDA machine (gputrain.py): pack the photos here, train there, then finish "
                 "each network and write the ensemble's card here (gpufinish.py)")
    pk = _leaf(gpu, "pack", "pack", "the training photos, compactly, for a GPU machine (gputrain.pack)")
    pk.add_argument("--out", type=Path, default=REPO_ROOT / "ml" / ".pack")
    pk.add_argument("--lab-format", choices=LAB_FORMATS, default=PACK_LAB_FORMAT,
                    help="how the lab photos are stored (runs 1-3: webp)")
    pk.add_argument("--lab-quality", type=int, default=PACK_LAB_QUALITY, help="runs 1-3: 72")
    pk.add_argument("--lab-size", type=int, default=PACK_LAB_SIZE,
                    help="side of the packed lab photos (they are 256 px; runs 1-3: 176)")
    pk.add_argument("--tiny-negatives", type=int, default=PACK_TINY,
                    help="Tiny ImageNet training negatives packed (runs 1-3: 5000)")
    pk.add_argument("--imagenette-negatives", type=int, default=PACK_IMAGENETTE,
                    help="Imagenette training negatives packed (runs 1-3: 1000)")
    pk.add_argument("--lab-per-class", type=int, default=PACK_LAB_PER_CLASS,
                    help="pack a fixed sample of at most this many lab training photos of each class (0: all)")
    pk.add_argument("--no-resnet-start", action="store_true",
                    help="leave the ResNet50 ImageNet start out (23.6 MB): for runs without --arch resnet50_imagenet")
    pk.add_argument("--no-imagenet-start", action="store_true",
                    help="leave the ImageNet weights out (4.1 MB): for a gpu train --init run, which needs none")
    pg = _leaf(gpu, "train", "train-gpu", "train resnet50 / vgg16 from scratch on a CUDA machine on the same batches "
                                          "(gputrain.train_gpu); writes <arch>.npz and <arch>.history.json")
    pg.add_argument("--pack", type=Path, default=REPO_ROOT / "ml" / ".pack")
    pg.add_argument("--out", type=Path, required=True)
    pg.add_argument("--arch", nargs="+", default=["resnet50", "vgg16"],
                    help=f"resnet50, vgg16 (from scratch), {IMAGENET_ARCH}, {RESNET_ARCH} (every layer, from the pack's "
                         "ImageNet weights)")
    pg.add_argument("--time-budget-min", type=float, default=0.0, help="> 0: the schedule follows this wall-clock budget")
    pg.add_argument("--epochs", type=int, default=12)
    pg.add_argument("--batch-size", type=int, default=128)
    pg.add_argument("--workers", type=int, default=0, help="view-drawing processes (0: cores - 1)")
    pg.add_argument("--max-side", type=int, default=224)
    pg.add_argument("--synthetic", type=int, default=2000)
    pg.add_argument("--background", type=int, default=1000)
    pg.add_argument("--field-views", type=int, default=20)
    pg.add_argument("--other-crop-views", type=int, default=4, help="views per other-crop photo and epoch")
    pg.add_argument("--lab-views", type=int, default=3, help="views per lab photo and epoch")
    pg.add_argument("--lab-plain", type=int, default=1, help="of which plain lab views (the rest field-like)")
    pg.add_argument("--init", nargs="*", default=[], metavar="ARCH=NPZ",
                    help="go on training ARCH from an earlier run's <arch>.npz (its .history.json beside it is recorded)")
    pg.add_argument("--lr", type=float, default=None, help="peak learning rate of every --arch (default: each arch's own; "
                                                           "lower it when going on with --init)")
    pfg = _leaf(gpu, "finish", "finish-gpu", "calibrate, export, evaluate and write the card of gpu train weights "
                                             "(gpufinish.py, on this machine)")
    _common(pfg)
    pfg.add_argument("--arch", required=True, choices=["resnet50", "vgg16", IMAGENET_ARCH, RESNET_ARCH])
    pfg.add_argument("--weights", required=True, type=Path, help="<arch>.npz written by gpu train (its history beside it)")
    pen = _leaf(gpu, "ensemble-card", "ensemble-card", "the ensemble's thresholds chosen on validation and its test "
                                                       "figures (models/ensemble.card.json)")
    _common(pen)
    pen.add_argument("--runs", type=Path, nargs="+", default=[REPO_ROOT / "ml" / "runs" / "gpu"],
                     help="folders where gpu finish left each network's outputs (else they are computed from the files)")

    # fixtures: the files the tests read
    fix = _group(sub, "fixtures", "rebuild the files the tests read",
                 "rebuild the files the tests read: the server tests' tiny model and int8 probe, a tiny reference "
                 "export, an image's preprocessed tensor")
    pf = _leaf(fix, "tiny-model", "tiny-fixture", "rebuild the server tests' tiny model (model.onnx; card.json's file "
                                                  "block)")
    pf.add_argument("--out", type=Path, default=Path("apps/server/src/testing/fixtures/tiny-model"))
    pip_ = _leaf(fix, "int8-probe", "int8-probe", "rebuild the server tests' int8 pair probe (exact int8 products)")
    pip_.add_argument("--out", type=Path, default=Path("apps/server/src/testing/fixtures/int8-pairs/pairs.onnx"))
    pr = _leaf(fix, "tiny-reference", "tiny-reference", "tiny untrained export + PyTorch reference outputs (tests)")
    pr.add_argument("--out", type=Path, required=True)
    pr.add_argument("--arch", default="mobilenet")
    pr.add_argument("--size", type=int, default=64)
    pr.add_argument("--views", type=int, choices=VIEW_COUNTS, default=1, help="symmetric views averaged in the graph")
    pp = _leaf(fix, "preprocess", "preprocess", "write the preprocessed tensor of an image file as raw float32")
    pp.add_argument("image", type=Path)
    pp.add_argument("out", type=Path)
    args = ap.parse_args(argv)

    # args.cmd: a top-level command's name, or for a subcommand the internal name its _leaf set (gpu train: train-gpu)
    if args.cmd == "add-expert":
        card = attach(args.model, args.expert, args.out, args.cache_dir, args.replace)
        print(json.dumps({"file": card["file"], "lab_expert": {k: card["lab_expert"][k] for k in ("weight", "ramp_from")}}, indent=1))
        return 0
    if args.cmd == "recalibrate":
        card = refit_calibration(args.model, args.cache_dir)
        print(json.dumps({k: card[k] for k in ("file", "calibration", "rejection")}, indent=1))
        return 0
    if args.cmd == "add-lab-like":
        card = attach_lab_like(args.model, args.out, args.cache_dir)
        print(json.dumps({k: card[k] for k in ("lab_like_gate", "rejection")}, indent=1))
        return 0
    if args.cmd == "pack":
        print(json.dumps(pack(args.out, args.lab_quality, lab_size=args.lab_size, lab_format=args.lab_format,
                              tiny_negatives=args.tiny_negatives,
                              imagenette_negatives=args.imagenette_negatives,
                              imagenet_start=not args.no_imagenet_start, lab_per_class=args.lab_per_class,
                              resnet_start=not args.no_resnet_start), indent=1))
        return 0
    if args.cmd == "train-gpu":
        cfg = GpuConfig(archs=args.arch, time_budget_min=args.time_budget_min, epochs=args.epochs,
                        batch_size=args.batch_size, workers=args.workers, max_side=args.max_side,
                        synthetic=args.synthetic, background=args.background, field_views=args.field_views,
                        other_crop_views=args.other_crop_views,
                        lab_views=args.lab_views, lab_plain=args.lab_plain, init=_init_weights(args.init))
        if args.lr is not None:
            cfg.lr = {a: args.lr for a in args.arch}
        train_gpu(args.pack, args.out, cfg)
        return 0
    if args.cmd == "photo-conditions":
        figures = measure_conditions(args.model, read_card(args.model), args.cache_dir)
        if args.json:
            args.json.write_text(json.dumps(figures, indent=1) + "\n")
        return 0
    if args.cmd == "quantize":
        print(json.dumps(quantize(args.model, args.out, args.cache_dir), indent=1))
        return 0
    if args.cmd == "tiny-reference":
        print(json.dumps(tiny_reference(args.out, args.arch, args.size, views=args.views)))
        return 0
    if args.cmd == "tiny-fixture":
        print(json.dumps(write_tiny_fixture(args.out)))
        return 0
    if args.cmd == "int8-probe":
        print(json.dumps(write_int8_pair_probe(args.out)))
        return 0
    if args.cmd == "preprocess":
        args.out.write_bytes(preprocess_file(args.image).tobytes())
        return 0
    if args.cmd == "evaluate":
        model_path = Path(args.model)
        card = read_card(model_path)
        if "leaf_threshold" in card["rejection"]:  # the fine-tuned network (fieldtrain.py): every set the card reports
            figures, differ = reevaluate(model_path, card, args.cache_dir)
            if args.record_cpu:  # the figures just measured become this kind of CPU's: no second evaluation
                differ = record_cpu_figures(model_path, figures)
                print(f"recorded the figures for {figures['cpu']} in the card")
            return report_reevaluation(model_path, figures, differ)
        return evaluate_test_split(model_path, card, _prepare(args), update_card=args.update_card)
    torch.set_num_threads(args.threads)
    if args.cmd == "rethreshold":
        rethreshold(Path(args.model), args.cache_dir, args.max_views)
        return 0
    data = _prepare(args)
    if args.cmd == "ensemble-card":
        ensemble_card(args.models_dir, args.runs, data)
        return 0
    if args.cmd == "finish-gpu":
        finish_gpu(args.arch, args.weights, data, args.models_dir, args.split_seed, args.cache_dir)
        return 0
    if args.cmd == "train" and args.arch == "mobilenet" and not args.from_scratch:
        cfg = TransferConfig(**{f.name: getattr(args, f.name) for f in fields(TransferConfig)
                                if getattr(args, f.name, None) is not None})
        run(cfg, data.cache, data.idx, args.models_dir, data_section(data, args.split_seed), args.cache_dir)
        return 0
    if args.cmd == "train":
        cfg = TrainConfig(**{f.name: (getattr(args, f.name) if getattr(args, f.name) is not None else f.default)
                             for f in fields(TrainConfig)})
        train(cfg, data.cache, data.idx["train"], data.idx["val"], resume=args.resume)
    finish(args, data)
    return 0


if __name__ == "__main__":
    sys.exit(main())

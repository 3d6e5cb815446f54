"""`gpu finish`: the weights `gpu train` wrote (gputrain.py) -> calibration, leaf scaling and thresholds chosen on
validation -> the exported file (`models/<arch>.onnx`) -> every evaluation set measured on that file with
onnxruntime-node -> the card. Runs on the CPU machine: the validation and test photos never travel.

The rules are the shipped MobileNet's (fieldtrain.rules_from_logits, choose_thresholds); the raw 11 logits of
the validation sets are read from a first export of the same weights (calibration identity, `leaf` scaling
a = 1, c = 0) through `quantize.probe_outputs`, so they are the file's own numbers.
"""
from __future__ import annotations

import datetime as dt
import itertools
import json
import time
from pathlib import Path

import numpy as np
import onnx

from .card import build_card, card_path, data_section, goals_check, model_name, write_card
from .calibrate import calibrated, ece
from .classes import CLASS_IDS, NUM_CLASSES
from .data import DEFAULT_CACHE_DIR, Prepared, lab_test_photos
from .evaluate import batches_from_u8, calibration_summary, metrics, ort_run
from .export import export_onnx, file_digest as file_digest_of
from .fieldtrain import (
    _ort_or_torch, calibration_section, choose_thresholds, cpu_kind, decision_rule, evaluate_export, extra_goals, field_val_all, load_sources, ood_section, probe_sets,
    rejection_section, rules_from_logits, sources_data_block, validation_sets,
)
from .gputrain import BN_PHOTOS, IMAGENET_ARCH, NOT_LEAF, RESNET_ARCH, load_weights
from .keras_resnet import LICENSE_NOTE as RESNET_LICENSE_NOTE
from .models import count_params, torchvision_name
from .quantize import probe_outputs
from .tflite import LICENSE_NOTE
from .transfer import TransferConfig, decide, leaf_score, normalise_u8, set_report, sigmoid, wilson


def _logits_tensor(graph: onnx.GraphProto) -> str:
    """The 11 raw logits: the output of the head's Gemm (the linear layer after global average pooling)."""
    return next(n.output[0] for n in graph.node if n.op_type == "Gemm")


def raw_logits(onnx_path: Path, images: np.ndarray, batch: int = 128) -> np.ndarray:
    name = _logits_tensor(onnx.load(str(onnx_path)).graph)
    batches = [normalise_u8(images[s:s + batch]) for s in range(0, len(images), batch)]
    return np.concatenate([b[0] for b in probe_outputs(onnx_path, [name], batches)]).astype(np.float64)


def finish_gpu(arch: str, weights: Path, data: Prepared, models_dir: Path, split_seed: int,
               cache_dir: Path = DEFAULT_CACHE_DIR, out_name: str | None = None) -> dict:
    t0 = time.time()
    name = out_name or model_name(arch)  # mobilenet_v2_imagenet -> mobilenet.onnx, as the server names it
    history_path = weights.with_name(f"{arch}.history.json")
    history = json.loads(history_path.read_text()) if history_path.exists() else {}
    model = load_weights(arch, weights)
    cfg = TransferConfig()  # the validation sets' seeds and sizes, as the MobileNet's run
    src = load_sources(cfg, data.cache, data.idx, training=False)
    src["max_neg"] = 0
    probe = weights.with_name(f"{name}.probe-identity.onnx")  # beside the weights: the server loads every models/*.onnx
    export_onnx(model, 1.0, probe, fp16_weights=True, leaf=(1.0, 0.0))
    sets = validation_sets(data.cache, src, cfg)
    lg = {}
    for k, imgs in sets.items():
        t1 = time.time()
        lg[k] = raw_logits(probe, imgs)
        print(f"validation {k}: {len(imgs)} images in {time.time() - t1:.0f}s", flush=True)
    probe.unlink(missing_ok=True)
    y_lab, y_field = data.cache.labels[src["lab_val"]], field_val_all(src)[1]
    rules, rule_notes = rules_from_logits(lg, y_lab, y_field, cfg.seed)
    onnx_path = models_dir / f"{name}.onnx"
    info = export_onnx(model, rules["temperature"], onnx_path, fp16_weights=True, bias=rules["bias"], leaf=rules["leaf_ac"])
    print(f"exported {onnx_path} ({info['size_bytes'] / 1e6:.1f} MB)", flush=True)
    ev = evaluate_export(None, onnx_path, data.cache, src, rules)
    # what `gpu ensemble-card` needs: every validation set's raw logits and the lab test split's outputs
    np.savez(weights.with_name(f"{name}.outputs.npz"), **{f"val_{k}_logits": v for k, v in lg.items()},
             y_val_lab=y_lab, y_val_field=y_field, test_probabilities=ev["test_out"]["probabilities"],
             test_leaf=ev["test_out"]["leaf"], y_test=ev["y_test"])
    weights.with_name(f"{name}.outputs.json").write_text(json.dumps(file_digest_of(onnx_path)))
    card = make_card(arch, model, info, onnx_path, data, split_seed, src, rules, rule_notes, ev, history, time.time() - t0)
    write_card(card, card_path(onnx_path))
    print(f"wrote {card_path(onnx_path)} ({time.time() - t0:.0f}s)", flush=True)
    return card


def training_section(arch: str, history: dict, seconds: float) -> dict:
    """The card's `training` block from `gpu train`'s history (an epoch cut short by the budget is left out)."""
    hist = [h for h in history.get("history", []) if arch in h]
    n_epochs = len(hist)
    cfg = history.get("config", {})
    pk = history.get("pack", {})
    neg = pk.get("negatives", {})
    training = {
        "epochs": n_epochs,
        "epochs_planned": n_epochs if cfg.get("time_budget_min") else cfg.get("epochs", n_epochs),
        "steps": history.get("steps"),
        "time_budget_minutes": cfg.get("time_budget_min") or 0,
        "schedule": [{"size": side, "epochs": sum(1 for h in hist if h["side"] == side)} for side in (160, 192, 224)],
        "batch_size": cfg.get("batch_size"),
        "optimizer": (f"SGD, Nesterov momentum 0.9, peak lr {history.get('lr')} (batch {cfg.get('batch_size')}), weight decay "
                      f"{history.get('weight_decay')} (not on biases and BatchNorm), {cfg.get('warmup', 0.06):.0%} warm-up then "
                      "cosine to zero over the wall-clock budget; gradient norm clipped at 5; bfloat16 autocast"),
        "loss": (f"cross-entropy over 11 outputs (10 diseases + not a tomato leaf), label smoothing {cfg.get('label_smoothing')}, "
                 f"per-view weights: lab classes (mean/n_c)^0.5, field views x{cfg.get('field_weight')}, not-a-leaf "
                 f"x{cfg.get('not_leaf_weight')}"),
        "augmentation": [
            (f"ImageNet start: {LICENSE_NOTE}, copied into the pack; every BatchNorm unfolded on {BN_PHOTOS} clean lab "
             "training photos (warmstart.unfold_imagenet_start), then every layer trained"
             if arch == IMAGENET_ARCH else
             f"ImageNet start: {RESNET_LICENSE_NOTE}, converted to torchvision (keras_resnet.py: v1 strides, BatchNorm "
             "epsilon 0.001, conv biases folded, BGR caffe input as a fixed first layer) and packed as int8 per output "
             "channel; the ImageNet BatchNorm statistics kept; then every layer trained"
             if arch == RESNET_ARCH else "from scratch (no pretrained weights exist here for this architecture)")
            + ("; trained on the same batches as the other GPU network of the run" if len(cfg.get("archs", [])) > 1 else ""),
            f"lab photos (training split{', at most ' + str(pk['lab_per_class']) + ' per class by seed' if pk.get('lab_per_class') else ''}: {pk.get('counts', {}).get('lab')}, packed as {pk.get('lab_size')} px {pk.get('lab_format', 'webp').upper()} quality "
            f"{pk.get('lab_quality')}): per epoch "
            f"{cfg.get('lab_plain', 1)} plain lab view(s) and {cfg.get('lab_views', 3) - cfg.get('lab_plain', 1)} field-like view(s) each (fieldaug.field_like: the segmented leaf on a crop of a real "
            "photo, a procedural texture or a bed of other leaves of its class; small in the frame at times; more leaves; "
            "occlusion; hard shadow; glare; white balance, blur, noise, JPEG 30-95)",
            f"field photos (training parts of field-tomato-dev and field-tomato-dev-2, {pk.get('counts', {}).get('field')} "
            f"photos): {cfg.get('field_views')} views each per epoch",
            *([f"other crops' field leaves (training part of other-crop-field, {pk['counts']['other_crop']} photos): "
               f"{cfg.get('other_crop_views')} views each per epoch, as not a tomato leaf"] if pk.get("counts", {}).get("other_crop") else []),
            f"not a tomato leaf, per epoch: {pk.get('counts', {}).get('negative')} training negatives "
            f"({neg.get('tiny_imagenet')} of {neg.get('tiny_imagenet_of')} Tiny ImageNet, {neg.get('imagenette')} of "
            f"{neg.get('imagenette_of')} Imagenette, sampled by seed {neg.get('sample_seed')} so that the pack travels "
            f"within 64 MiB), {cfg.get('synthetic')} synthetic non-leaf images, {cfg.get('background')} background-only crops",
            "image side 160 px for the first half of the run, 192 px to 80 %, then 224 px (resized on the GPU)",
        ],
        "seed": cfg.get("seed"),
        "device": f"{history.get('device')} (PyTorch {history.get('torch')}), {cfg.get('workers') or 'cores - 1'} view-drawing processes",
        "time_seconds": history.get("train_seconds"),
        "history": [{"epoch": h["epoch"], "side": h["side"], "seconds": h["seconds"], **h[arch]} for h in hist],
        "command": ("bash ml/run.sh gpu pack; on a CUDA machine, in ml/: OMP_NUM_THREADS=1 PYTHONPATH=. python3 -m diagrodl_ml.cli gpu train --out DIR "
                    f"--arch {' '.join(cfg.get('archs', [arch]))} --time-budget-min {cfg.get('time_budget_min')} --lab-views "
                    f"{cfg.get('lab_views', 3)} --lab-plain {cfg.get('lab_plain', 1)} --synthetic {cfg.get('synthetic')} "
                    f"--background {cfg.get('background')}"
                    + "".join(f" --init {a}=PREVIOUS/{a}.npz" for a in (cfg.get("init") or {}))
                    + (f" --lr {history.get('lr')}" if cfg.get("init") else "") + "; then "
                    f"bash ml/run.sh gpu finish --arch {arch} --weights DIR/{arch}.npz"),
        "finish_seconds": round(seconds, 1),
    }
    if history.get("initialised_from"):  # this run went on from an earlier one's weights (gpu train --init)
        training["initialised_from"] = history["initialised_from"]
    return training


def make_card(arch, model, info, onnx_path, data, split_seed, src, rules, rule_notes, ev, history, seconds) -> dict:
    probs, y_test = ev["test_out"]["probabilities"], ev["y_test"]
    m = metrics(probs, y_test, ev["test_photos"])
    t, bias = rules["temperature"], rules["bias"]
    cal_test = calibration_summary(probs, y_test, t, bias)
    calibration = calibration_section(rules, cal_test)
    training = training_section(arch, history, seconds)
    data_block = sources_data_block(data_section(data, split_seed), src)
    notes = list(rule_notes) + [
        "weights stored as float16 in the file (cast to float32 at load); the validation logits, the calibration and every "
        "figure come from this file",
        "one view: symmetric test-time views were not tried for this network (each would double its cost on the CPU)",
    ]
    card = build_card(arch=arch, tv_name=torchvision_name(arch), onnx_info=info, onnx_file=onnx_path.name, size=224,
                      params=count_params(model), data=data_block, training=training, calibration=calibration,
                      rejection=rejection_section(rules, ev), test_metrics=m, evaluated_with=ev["evaluated_with"],
                      ood=ood_section(ev["report"]), notes=notes)
    card["head"] = "global average pooling + dropout + one linear layer to 11 outputs (10 diseases + not a tomato leaf)"
    card["outputs"]["probabilities"]["description"] = "softmax(disease logits / T + b)"
    card["outputs"]["leaf"] = {"shape": ["N"], "description": "calibrated probability that the photo shows a tomato leaf"}
    card["outputs"]["energy"] = {"shape": ["N"], "description": "logsumexp(disease logits / T), no class bias"}
    card["goals"].update(extra_goals(ev["report"]))
    if arch == RESNET_ARCH:
        card["pretrained"] = {"weights": RESNET_LICENSE_NOTE, "license": "MIT (the package's LICENSE file)"}
    if arch == IMAGENET_ARCH:
        card["pretrained"] = {"weights": LICENSE_NOTE, "license": "Apache-2.0"}
        card["notes"].append(f"pretrained weights: {LICENSE_NOTE}; Apache-2.0 licence text in "
                             "models/LICENSE-mobilenet_v2_imagenet.txt")
    return card


assert NOT_LEAF == NUM_CLASSES


# ------------------------------------------------------------ `gpu ensemble-card`: the ensemble's rules and figures
def ensemble_field_evaluation(models_dir: Path, weights: dict[str, float], cards: dict[str, dict],
                              field_val: dict[str, dict[str, np.ndarray]], src: dict, rule: dict,
                              probes: dict[str, tuple[np.ndarray, np.ndarray | None]] | None = None) -> dict:
    """The ensemble's figures (weighted mean of the members' calibrated probabilities, mean of their leaf outputs) on
    the field validation photos of both sources (`field_val`: each shipped network's outputs there, `cards` its card),
    and, from the members' files, on the held-out field photos no member trained on (held_out_sources), the other
    crops' held-out leaves and `probes` (fieldtrain.probe_sets: the held-out everyday negatives, when no member trained
    on them, the stress set and fresh synthetic non-leaves), as each network's card gives them; beside them every
    shipped network's own figures on the field validation photos, members or not."""
    members = {m: cards[m] for m in weights}
    clean = held_out_sources(members)
    keep = np.isin(src["field_holdout_source"], clean)
    imgs, labels = src["field_holdout"]
    sets = {}
    if keep.any():  # both sources: field_holdout, as in the networks' cards; one: field_holdout_<source>
        key = "field_holdout" if len(clean) == len(FIELD_SOURCE_KEYS) else f"field_holdout_{clean[0]}"
        sets[key] = ([im for im, k in zip(imgs, keep) if k], np.asarray(labels)[keep])
    if held_out_by_all(members, "other_crop"):
        sets["other_crop_holdout"] = (src["other_crop_holdout"], None)
    for name, (x, y) in (probes or {}).items():
        if name != "negatives_holdout" or held_out_by_all(members, "negatives"):
            sets[name] = (x, y)
    y_val = np.asarray(field_val_all(src)[1])
    mean = combine(field_val, weights)
    out: dict = {"field_holdout_sources": clean, "field_val_all": set_report(mean, y_val, rule)}
    # each source's validation photos apart (field_val_all holds the first source's, then the second's), as the
    # networks' cards give them
    first = len(src["field_val"][1])
    for key, part in (("field_val", slice(0, first)), ("field2_val", slice(first, len(y_val)))):
        if part.stop > part.start:
            out[key] = set_report({k: v[part] for k, v in mean.items()}, y_val[part], rule)
    for name, (imgs, labels) in sets.items():
        x = normalise_u8(np.stack(imgs))
        outs = {m: _ort_or_torch(None, models_dir / f"{m}.onnx", x, True, {}) for m in weights}
        for o in outs.values():
            for n in ("leaf", "lab_like"):
                if n in o:
                    o[n] = o[n].reshape(len(x), -1).squeeze(-1)
        out[name] = set_report(combine(outs, weights), None if labels is None else np.asarray(labels), rule)
    each: dict = {}
    for m, o in field_val.items():
        rej = cards[m]["rejection"]
        own = {k: rej[k] for k in ("threshold", "field_threshold", "leaf_threshold") if rej.get(k) is not None}
        each[m] = {k: v for k, v in set_report(o, y_val, own).items()
                   if k in ("top1", "accepted_share", "accuracy_accepted", "right_and_accepted")}
    out["members_field_val_all"] = each
    # the ensemble ships only where it beats each network on field validation (top-1 over every photo: the figure
    # that does not depend on where each one's thresholds stand)
    out["beats_each_member_on_field_val_top1"] = all(out["field_val_all"]["top1"] > e["top1"] for e in each.values())
    return out


# the card's data section of each held-out field source (fieldtrain.load_sources' field_holdout_source 1 and 2)
FIELD_SOURCE_KEYS = {1: "field", 2: "field2"}


def held_out_by_all(cards: dict[str, dict], key: str) -> bool:
    """Whether no network of `cards` trained on the held-out photos of the data section `key` ("field", "field2",
    "other_crop"): each card either sets that source's photos aside (a `holdout` count) or names no photo of it. The
    VGG16 of 2026-11-24 split the first field source into validation and training only: its training part holds the
    photos held out since, so an ensemble with it is measured on the second source's held-out photos alone."""
    return all(key not in c["data"] or "holdout" in c["data"][key].get("counts", {}) for c in cards.values())


def held_out_sources(cards: dict[str, dict]) -> list[int]:
    """The field sources (1, 2) whose held-out photos no network of `cards` trained on."""
    return [s for s, key in FIELD_SOURCE_KEYS.items() if held_out_by_all(cards, key)]


def combine(outs: dict[str, dict[str, np.ndarray]], weights: dict[str, float]) -> dict[str, np.ndarray]:
    """The ensemble's outputs, as the server computes them: the members' calibrated probabilities weighted by
    `weights` (members with weight 0 left out), the plain mean of their leaf probabilities and, where members have
    one, the plain mean of their `lab_like` outputs."""
    ms = [m for m, w in weights.items() if w > 0]
    total = sum(weights[m] for m in ms)
    out = {"probabilities": sum(weights[m] * outs[m]["probabilities"] for m in ms) / total,
           "leaf": np.mean([outs[m]["leaf"] for m in ms], axis=0)}
    lab_like = [outs[m]["lab_like"].reshape(-1) for m in ms if "lab_like" in outs[m]]
    if lab_like:
        out["lab_like"] = np.mean(lab_like, axis=0)
    return out


def _thresholds(mean: dict[str, dict[str, np.ndarray]], y_lab: np.ndarray, y_field: np.ndarray,
                sets: list[str]) -> tuple[dict, dict, list[str]]:
    """choose_thresholds on the ensemble's validation outputs: a threshold of its own for field-like photos where
    its members give `lab_like`."""
    lab_like = {k: mean[k]["lab_like"] for k in ("lab", "field")} if "lab_like" in mean["lab"] else None
    return choose_thresholds(mean["lab"]["probabilities"], y_lab, mean["field"]["probabilities"], y_field,
                             {k: mean[k]["leaf"] for k in sets}, lab_like)


# each other network's weight, relative to the first (ENSEMBLE_MEMBERS order); 0 leaves it out
ENSEMBLE_WEIGHT_GRID = (0.0, 0.125, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0)


def _validation_rank(r: dict) -> tuple:
    """A weight candidate's rank on validation (choose_weights' rows): the lowest field log loss, then the higher field
    top-1, then the fewer members."""
    return r["field_log_loss"], -r["field_top1"], r["members"]


def ensemble_speed(speeds: dict[str, float], members: list[str]) -> float:
    """Images per second of the members' graphs run one after the other on each photo (1 / the sum of 1 / each)."""
    return 1.0 / sum(1.0 / speeds[m] for m in members)


def choose_weights(outs: dict[str, dict[str, dict[str, np.ndarray]]], y_lab: np.ndarray, y_field: np.ndarray,
                   grid: tuple[float, ...] = ENSEMBLE_WEIGHT_GRID, speeds: dict[str, float] | None = None,
                   min_speed: float = 0.0) -> tuple[dict[str, float], list[dict]]:
    """The members' weights, on validation only: the first network weighs 1, every other one a value of `grid`; at least
    two members. The kept candidate has the lowest log loss on the field validation photos (both sources): a figure of
    every photo's probabilities, steadier on 181 photos than top-1, which a network that only guesses can raise by
    luck; ties go to the higher field top-1, then the fewer members. Each candidate's thresholds (choose_thresholds)
    give its right diagnoses, reported beside. `outs[m][set]`: member m's probabilities and leaf on the validation
    sets (`lab`, `field`, `negatives`, `synthetic`, ...). With `speeds` (each network's images per second,
    member_speeds), a candidate whose members together run below `min_speed` (ensemble_speed) is ranked after every
    one that does not: the ensemble that can be the default is the best of the fast enough ones. Returns the weights
    (0 for a network left out) and one row per candidate, best first."""
    first, *others = list(outs)
    sets = [k for k in outs[first] if k != "test"]
    rows = []
    for ws in itertools.product(grid, repeat=len(others)):
        weights = {first: 1.0, **dict(zip(others, map(float, ws)))}
        if sum(w > 0 for w in weights.values()) < 2:
            continue
        mean = {k: combine({m: outs[m][k] for m in outs}, weights) for k in sets}
        leaf_rule, rule, _ = _thresholds(mean, y_lab, y_field, sets)
        given, _ = decide(mean["field"], decision_rule({"rule": rule, "leaf": leaf_rule}))
        p_field = mean["field"]["probabilities"]
        right = p_field.argmax(1) == y_field
        loss = float(-np.log(np.clip(p_field[np.arange(len(y_field)), y_field], 1e-12, 1.0)).mean())
        rows.append({"weights": weights, "field_log_loss": round(loss, 4), "field_top1": round(float(right.mean()), 4),
                     "field_right_given": int((right & given).sum()), "field_given": int(given.sum()),
                     "lab_top1": round(float((mean["lab"]["probabilities"].argmax(1) == y_lab).mean()), 4),
                     "members": sum(w > 0 for w in weights.values())})
        if speeds:
            rows[-1]["images_per_s"] = round(ensemble_speed(speeds, [m for m, w in weights.items() if w > 0]), 1)
    rows.sort(key=lambda r: (r.get("images_per_s", min_speed) < min_speed, *_validation_rank(r)))
    return rows[0]["weights"], rows


ENSEMBLE_MEMBERS = ("mobilenet", "resnet50", "vgg16")
# the speed the server's default model must reach (issue 50: at least 40 images per second end to end, two cores)
DEFAULT_MIN_SPEED = 40.0


# the batch the server runs its graphs on (apps/server/src/inference/onnx-model.ts, MAX_BATCH)
PRODUCT_BATCH = 8
# the most of the machine's CPU that other processes may take while a graph is timed, and the tries to get there
MAX_OTHERS_CPU_SHARE = 0.1
SPEED_TRIES = 3


def others_cpu_share(timing: dict) -> float | None:
    """The share of the machine's CPU time that processes other than the runner used while it ran (ort_run's
    timing), or None where the machine's use cannot be read."""
    if timing.get("machine_busy_s") is None or timing["wall_s"] <= 0:
        return None
    return max(0.0, (timing["machine_busy_s"] - timing["self_cpu_s"]) / (timing["wall_s"] * timing["cpus"]))


def _shared(reading: dict) -> bool:
    """Whether other processes took more than MAX_OTHERS_CPU_SHARE of the CPU while this reading was timed."""
    return reading["others_cpu_share"] is not None and reading["others_cpu_share"] > MAX_OTHERS_CPU_SHARE


def graph_speed(model_path: Path, x: np.ndarray, batch: int = PRODUCT_BATCH, tries: int = SPEED_TRIES) -> dict:
    """Images per second of one file's graph on this CPU (onnxruntime-node with the product's session options, 2
    threads, every output, `batch` photos per run as the server does): `batch` over the median time of session.run,
    timed inside the runner, its first batch left out (it warms the session). Starting node and loading the file are
    not in it, and one slow batch does not move it. The machine's CPU use is read around the runs: when other
    processes took more than MAX_OTHERS_CPU_SHARE of it, the graph shared the cores and reads slow, so it is timed
    again, up to `tries` times, and the least shared reading is returned. Decoding and preprocessing are not in it:
    bench/diagnosis measures the product end to end. Returns {images_per_s, others_cpu_share (None: not readable)}."""
    if len(x) < 2 * batch:
        raise ValueError(f"graph_speed needs at least {2 * batch} photos, got {len(x)}")
    x = x[:len(x) // batch * batch]
    best: dict | None = None
    for _ in range(tries):
        _, timing = ort_run(model_path, x, batch_size=batch)
        reading = {"images_per_s": batch / float(np.median(timing["seconds"][1:])),
                   "others_cpu_share": others_cpu_share(timing)}
        if not _shared(reading):
            return reading
        if best is None or reading["others_cpu_share"] < best["others_cpu_share"]:
            best = reading
    return best


def member_speeds(models_dir: Path, members: list[str], x: np.ndarray) -> tuple[dict[str, float], dict[str, float]]:
    """Each member's graph_speed (images/s, rounded to 0.1) and the share of the CPU others took while it was timed.
    Refuses (SystemExit) when another process shared the cores in every try: the speeds would read low, and the
    default, which depends on them, would be chosen wrong."""
    readings = {m: graph_speed(models_dir / f"{m}.onnx", x) for m in members}
    busy = {m: r["others_cpu_share"] for m, r in readings.items() if _shared(r)}
    if busy:
        said = ", ".join(f"{m} {share:.0%}" for m, share in busy.items())
        raise SystemExit(f"error: other processes used part of the CPU while the members' graphs were timed ({said} of "
                         f"it, {SPEED_TRIES} tries each; at most {MAX_OTHERS_CPU_SHARE:.0%} is allowed), so their speeds, "
                         "and the default model chosen from them, would be wrong: run it again when nothing else runs")
    return ({m: round(r["images_per_s"], 1) for m, r in readings.items()},
            {m: round(r["others_cpu_share"], 3) for m, r in readings.items() if r["others_cpu_share"] is not None})


def _saved_outputs(card: dict, runs_dirs: list[Path]) -> Path | None:
    """`gpu finish`'s saved outputs of this very file (the sha256 beside them), if one of runs_dirs has them."""
    for d in runs_dirs:
        meta = d / f"{card['name']}.outputs.json"
        if meta.exists() and json.loads(meta.read_text())["sha256"] == card["file"]["sha256"]:
            return d / f"{card['name']}.outputs.npz"
    return None


def _member_outputs(model_path: Path, card: dict, runs_dirs: list[Path], sets: dict[str, np.ndarray],
                    test_x: np.ndarray) -> dict[str, dict[str, np.ndarray]]:
    """Calibrated probabilities and leaf probability of one member on every validation set (uint8 224 px) and the
    lab test split (`test_x`: float NCHW, preprocessed as the product and the card's evaluation do, without
    rounding): from `gpu finish`'s saved raw logits when they belong to this file, else from the file
    (onnxruntime-node)."""
    saved = _saved_outputs(card, runs_dirs)
    if saved is not None:
        z = np.load(saved)
        cal = card["calibration"]
        a, c = cal["leaf"]["a"], cal["leaf"]["c"]
        bias = np.asarray(cal["class_bias"]) if "class_bias" in cal else None
        # (gpu finish's files have no `lab_like`: `graft lab-like` adds it, and changes the file)
        out = {k: {"probabilities": calibrated(z[f"val_{k}_logits"][:, :NUM_CLASSES], cal["temperature"], bias),
                   "leaf": sigmoid(a * leaf_score(z[f"val_{k}_logits"]) + c)} for k in sets}
        out["test"] = {"probabilities": z["test_probabilities"].astype(np.float64), "leaf": z["test_leaf"].reshape(-1)}
        return out
    # a member without gpu finish's outputs (VGG16's file is older): its outputs computed once, kept by the file's sha256
    cached, meta = runs_dirs[0] / f"{card['name']}.member-outputs.npz", runs_dirs[0] / f"{card['name']}.member-outputs.json"
    # version 2: with the `lab_like` output, where the file has one
    facts = {"sha256": card["file"]["sha256"], "version": 2}
    if cached.exists() and meta.exists() and json.loads(meta.read_text()) == facts:
        z = np.load(cached)
        if all(f"{k}__probabilities" in z.files for k in (*sets, "test")):
            return {k: {o: z[f"{k}__{o}"] for o in ("probabilities", "leaf", "lab_like") if f"{k}__{o}" in z.files}
                    for k in (*sets, "test")}
    out = {}
    for k, x in {**{k: normalise_u8(v) for k, v in sets.items()}, "test": test_x}.items():
        o = _ort_or_torch(None, model_path, x, True, {})
        out[k] = {n: o[n].reshape(len(x), -1).squeeze(-1).astype(np.float64) if n != "probabilities"
                  else o[n].astype(np.float64) for n in ("probabilities", "leaf", "lab_like") if n in o}
    runs_dirs[0].mkdir(parents=True, exist_ok=True)
    np.savez(cached, **{f"{k}__{o}": a for k, v in out.items() for o, a in v.items()})
    meta.write_text(json.dumps(facts))
    return out


def _weights_note(rows: list[dict], equal: dict, shipped: list[str]) -> str:
    best = min(rows, key=_validation_rank)

    def say(r: dict) -> str:
        w = ", ".join(f"{m} {r['weights'][m]:g}" for m in shipped)
        speed = f" ({r['images_per_s']} images/s)" if "images_per_s" in r else ""
        return (f"{w}{speed}: field validation log loss {r['field_log_loss']}, top-1 {r['field_top1']}, "
                f"{r['field_right_given']} right of {r['field_given']} given; lab validation top-1 {r['lab_top1']}")
    return (f"weights: {len(rows)} candidates (the first network 1, each other one of {list(ENSEMBLE_WEIGHT_GRID)}; 0 "
            f"leaves it out), those whose members run below {DEFAULT_MIN_SPEED:g} images per second (speed) ranked last, "
            "then ranked on validation by the log loss of the field photos, then field top-1, then fewer "
            f"members; kept {say(rows[0])}; next {say(rows[1])}; best of all speeds {say(best)}; equal weights "
            f"{say(equal)}")


def keep_plant_block(card: dict, path: Path) -> None:
    """The old card's `plant` block (the rule that combines one plant's photos and its figures, written by
    bench/plant/choose.ts, issue 68) is kept while the members and the thresholds it was measured with are the same;
    otherwise it is dropped with a note saying how to measure it again."""
    if not path.exists():
        return
    old = json.loads(path.read_text(encoding="utf-8"))
    if "plant" not in old:
        return
    ids = lambda c: [(m["id"], m["sha256"], m.get("weight", 1.0)) for m in c.get("members", [])]  # noqa: E731
    rule = lambda c: {k: c.get("rejection", {}).get(k) for k in ("threshold", "field_threshold", "leaf_threshold")}  # noqa: E731
    if ids(old) == ids(card) and rule(old) == rule(card):
        card["plant"] = old["plant"]
    else:
        card["notes"].append("plant: the plant rule's figures were measured on other members or thresholds and were "
                             "dropped; measure them again: npx tsx bench/plant/cache.ts --force && npx tsx "
                             "bench/plant/choose.ts")


def ensemble_card(models_dir: Path, runs_dirs: list[Path], data: Prepared) -> dict:
    """models/ensemble.card.json: the ensemble the server builds (weighted mean of the members' calibrated
    probabilities, mean of their leaf probabilities) gets its members' weights (choose_weights) and its leaf and
    confidence thresholds chosen on validation by the MobileNet's rules (fieldtrain.choose_thresholds), and its lab
    test figures measured. The server uses the card only while every member file is the one named in it (sha256)."""
    shipped = [m for m in ENSEMBLE_MEMBERS if (models_dir / f"{m}.onnx").exists()]
    if len(shipped) < 2:
        raise SystemExit(f"error: the ensemble needs at least two of {ENSEMBLE_MEMBERS} in {models_dir}")
    cards = {m: json.loads(card_path(models_dir / f"{m}.onnx").read_text()) for m in shipped}
    cfg = TransferConfig()
    src = load_sources(cfg, data.cache, data.idx, training=False)
    sets = validation_sets(data.cache, src, cfg)
    test_x = np.concatenate(list(batches_from_u8(data.cache.images[np.sort(data.idx["test"])], 224)))
    y_test = data.cache.labels[np.sort(data.idx["test"])]
    test_photos = lab_test_photos([data.cache.paths[j] for j in np.sort(data.idx["test"])],
                                  [data.cache.paths[j] for j in data.idx["train"]])
    outs = {}
    for m in shipped:
        t1 = time.time()
        outs[m] = _member_outputs(models_dir / f"{m}.onnx", cards[m], runs_dirs, sets, test_x)
        print(f"{m}: outputs in {time.time() - t1:.0f}s", flush=True)
    y_lab, y_field = data.cache.labels[src["lab_val"]], field_val_all(src)[1]
    speed_x = normalise_u8(sets["lab"][:96])
    speeds, others = member_speeds(models_dir, shipped, speed_x)
    print(f"graph speed, images/s: {speeds} (others' share of the CPU meanwhile: {others})", flush=True)
    chosen, rows = choose_weights(outs, y_lab, y_field, speeds=speeds, min_speed=DEFAULT_MIN_SPEED)
    weights = {m: w for m, w in chosen.items() if w > 0}
    members = list(weights)
    mean = {k: combine({m: outs[m][k] for m in members}, weights) for k in (*sets, "test")}
    equal = next(r for r in rows if all(w == 1 for w in r["weights"].values()))
    leaf_rule, rule, notes = _thresholds(mean, y_lab, y_field, list(sets))
    r = decision_rule({"rule": rule, "leaf": leaf_rule})
    probs = mean["test"]["probabilities"]
    acc, not_leaf = decide(mean["test"], r)
    m = metrics(probs, y_test, test_photos)
    right = probs.argmax(1) == y_test
    each = {k: round(float((outs[k]["test"]["probabilities"].argmax(1) == y_test).mean()), 4) for k in shipped}
    card = {
        "schema_version": 1,
        "name": "ensemble",
        "display_name": "Ensemble",
        "created_at": dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z"),
        "combination": ("weighted mean of the members' calibrated probabilities (each member's weight beside it, chosen "
                        "on validation); leaf probability: mean of the members' leaf outputs"),
        "members": [{"id": k, "sha256": cards[k]["file"]["sha256"], "size_bytes": cards[k]["file"]["size_bytes"],
                     "weight": weights[k]} for k in members],
        "rejection": {
            "threshold": round(float(r["threshold"]), 4),
            **({"field_threshold": round(float(r["field_threshold"]), 4)} if "field_threshold" in r else {}),
            "leaf_threshold": r["leaf_threshold"],
            "method": ("chosen on validation by the MobileNet's rules (fieldtrain.choose_thresholds) on the ensemble's own "
                       "outputs: leaf threshold the highest calling at most 1% of lab and 10% of field validation leaves not "
                       "a leaf; confidence threshold the 2nd percentile of right lab validation answers; with its members' "
                       "mean `lab_like`, field-like photos (below 0.5) get a threshold of their own, raised for the field "
                       "goal within 10% of right lab answers withheld, and lab-like photos' is lowered to the lab refusal "
                       "target; without it, one threshold raised for the field goal"),
            "val_coverage": round(float(rule["val_coverage"]), 4),
            "val_leaf": {k: v for k, v in leaf_rule.items() if k not in ("leaf_threshold", "rule")},
        },
        "metrics": {
            "split": "test", "n": int(len(y_test)), "accuracy": m["accuracy"],
            "accuracy_ci95": wilson(int(right.sum()), len(right)), "groups": m["groups"],
            "accuracy_ci95_by_group": m["accuracy_ci95_by_group"],
            **{k: m[k] for k in ("without_near_twins",) if k in m}, "min_recall": m["min_recall"],
            "per_class_recall": {CLASS_IDS[i]: round(float(right[y_test == i].mean()), 4) for i in range(NUM_CLASSES)},
            "coverage": round(float(acc.mean()), 4),
            "accuracy_accepted": round(float(right[acc].mean()), 4) if acc.any() else 0.0,
            "not_leaf": round(float(not_leaf.mean()), 4),
            "ece": round(float(ece(probs, y_test)), 4),
            "members_accuracy": each,
            "evaluated_with": "the members' outputs on the lab test split (onnxruntime-node on each file), weighted",
        },
        "speed": {
            "cpu": cpu_kind(), "members_images_per_s": speeds, "images_per_s": round(ensemble_speed(speeds, members), 1),
            "min_for_default": DEFAULT_MIN_SPEED, "others_cpu_share": others,
            "method": ("each member's graph alone on this CPU (onnxruntime-node, the product's session options, 2 threads, "
                       f"every output, {PRODUCT_BATCH} photos per run as the server does): {PRODUCT_BATCH} over the median "
                       f"run time of {len(speed_x) // PRODUCT_BATCH - 1} batches of lab validation photos, timed inside "
                       "the runner after a first batch that warms it; others_cpu_share: the share of the CPU other "
                       "processes used meanwhile (a card is written only when it is at most "
                       f"{MAX_OTHERS_CPU_SHARE:g} for each). The ensemble runs its members one after the other on each "
                       "photo (1 / the sum of 1 / each). Decoding and preprocessing are not in these figures: "
                       "bench/diagnosis measures the product end to end"),
        },
        "notes": [_weights_note(rows, equal, shipped)] + notes + [
            f"validation ({len(y_lab)} lab, {len(y_field)} field photos) chose the weights and the thresholds; the test "
            "split was used only for these figures"],
    }
    if "field2_val" in src:
        card["field_evaluation"] = ensemble_field_evaluation(models_dir, weights, cards,
                                                             {m: outs[m]["field"] for m in shipped}, src, r,
                                                             probe_sets(data.cache, src))
        fe = card["field_evaluation"]
        card["notes"].append("field_evaluation: the ensemble's outputs (weighted mean of the members' files) on both field "
                             "sources' validation parts, the held-out photos of the field sources no member trained on "
                             f"(field_holdout_sources: {fe['field_holdout_sources']}), the other crops' held-out leaves, the "
                             "held-out everyday negatives (negatives_holdout), lab test leaves made field-like "
                             "(stress_from_lab_test) and fresh synthetic non-leaves, at the thresholds above; "
                             "members_field_val_all: each shipped network's own figures on the same validation photos")
    # the issue's goals, checked as each network's card checks its own (card.goals_check, fieldtrain.extra_goals)
    mt = card["metrics"]
    card["goals"] = goals_check("ensemble", mt["accuracy"], mt["min_recall"], mt["ece"])
    fe = card.get("field_evaluation", {})
    if all(k in fe for k in ("field_val", "field2_val", "field_val_all", "negatives_holdout", "other_crop_holdout")):
        card["goals"].update(extra_goals({**fe, "lab_test": {"refused_share": round(1 - mt["coverage"], 4)}}))
    # the server's default: the ensemble when it beats each network on field validation and runs fast enough
    fast = card["speed"]["images_per_s"] >= DEFAULT_MIN_SPEED
    card["default"] = bool(fast and card.get("field_evaluation", {}).get("beats_each_member_on_field_val_top1"))
    card["notes"].append(
        f"default: {str(card['default']).lower()} (the server's default model is the ensemble when it beats each network on "
        f"field validation top-1 and its members' graphs run at least {DEFAULT_MIN_SPEED:g} images per second on the CPU "
        "that wrote this card; else the MobileNet)")
    keep_plant_block(card, models_dir / "ensemble.card.json")
    write_card(card, models_dir / "ensemble.card.json")
    print(json.dumps({k: card[k] for k in ("rejection", "metrics", "speed", "default")}, indent=1), flush=True)
    return card

"""int8 (QDQ) copy of an exported network: static post-training quantization, our own code.

onnxruntime has no Python package on Debian, so this writes the QDQ format by hand with the `onnx`
package and calibrates with onnxruntime-node (`evaluate.ort_outputs`):

- every convolution of the trunk (`/features/...`) gets int8 weights, symmetric per output channel
  (a DequantizeLinear on the weight), and an int32 bias at the scale input scale x weight scale. CPUs
  without VNNI would add pairs of products into a saturating int16; the product's sessions ask onnxruntime
  for exact 32-bit sums there (`session.x64quantprecision`, apps/server/src/inference/ort-session.mjs);
- every activation between them (the scaled input, each ReLU6 output, each projection output, each
  residual sum) gets a QuantizeLinear -> DequantizeLinear pair, uint8 asymmetric per tensor, its range
  the mean over calibration batches of each batch's minimum and maximum;
- the head (global pooling, the linear layer, calibration, the leaf score) and the class-activation
  map stay float32: they are small, and the decision rules read them.

onnxruntime fuses DQ -> Conv -> Q into QLinearConv and DQ -> Add -> Q into QLinearAdd, the activation
folded into the output range (ReLU6's Clip is dropped when the range lies inside [0, 6], a Relu when the
range starts at 0). The calibration photos
come from the training parts only (lab training split, field training part, negatives training part).
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from . import data as D
from .calibrate import LAB_LIKE_CUT, calibrated, calibration_method, choose_calibration, ece, nll, softmax
from .card import card_path, write_card
from .evaluate import ort_outputs
from .export import file_digest
from .fieldtrain import evaluation_sources, field_val_all, rethreshold
from .preprocess import preprocess_file
from .sources import FIELD_DIR, NEGATIVES_DIR
from .transfer import normalise_u8, to224

# the calibration photos: a fixed sample of each training part (split list, folder, how many)
CALIBRATION_PARTS = (("train.txt", D.DEFAULT_DATA_DIR, 64), ("field_train.txt", FIELD_DIR, 32),
                     ("negatives_train.txt", NEGATIVES_DIR, 32))
CALIBRATION_SEED = 7
WEIGHT_MAX = 127  # int8 weights within -WEIGHT_MAX..WEIGHT_MAX


def calibration_files() -> list[Path]:
    """A fixed sample of training photos: lab training split, field training part, negatives training part."""
    rng = random.Random(CALIBRATION_SEED)
    out: list[Path] = []
    for name, root, n in CALIBRATION_PARTS:
        lines = [ln for ln in (D.SPLITS_DIR / name).read_text().splitlines() if ln.strip()]
        out += [root / ln for ln in rng.sample(lines, min(n, len(lines)))]
    return out


def _is_trunk_conv(node: onnx.NodeProto) -> bool:
    return node.op_type == "Conv" and node.output[0].startswith("/features/")


def activations_to_quantize(graph: onnx.GraphProto) -> list[str]:
    """The float tensors that get a Q/DQ pair: every input of a trunk Conv, the residual sums, and
    each projection output (a Conv output that no activation follows: MobileNetV2's ReLU6 is a Clip,
    ResNet50's a Relu). An activated output (a Conv's, or a residual sum's in ResNet50) is quantized
    once, after its activation, as the next Conv's input: a second pair before the activation cost
    ResNet50 a sixth of its time in DequantizeLinear and QuantizeLinear."""
    inits = {i.name for i in graph.initializer}
    consumers: dict[str, list[onnx.NodeProto]] = {}
    for n in graph.node:
        for i in n.input:
            consumers.setdefault(i, []).append(n)
    wanted: list[str] = []

    def add(t: str) -> None:
        if t not in inits and t not in wanted:
            wanted.append(t)

    def activated(t: str) -> bool:
        return any(c.op_type in ("Clip", "Relu") for c in consumers.get(t, []))

    for n in graph.node:
        if _is_trunk_conv(n):
            add(n.input[0])
            if not activated(n.output[0]):
                add(n.output[0])
        elif n.op_type == "Add" and n.output[0].startswith("/features/") and all(i not in inits for i in n.input):
            for i in n.input:
                add(i)
            if not activated(n.output[0]):  # ResNet50's sum goes through a Relu: quantized after it, once
                add(n.output[0])
    return wanted


def probe_outputs(model_path: Path, names: list[str], batches: list[np.ndarray]) -> list[list[np.ndarray]]:
    """The values of inner tensors `names` on each batch (onnxruntime-node on a temporary copy of the model that
    has them as outputs, each through an Identity with a file-safe name: tensor names hold '/')."""
    m = onnx.load(str(model_path))
    outs = [f"probe_{k}" for k in range(len(names))]
    for name, out in zip(names, outs):
        m.graph.node.append(helper.make_node("Identity", [name], [out]))
        m.graph.output.append(helper.make_tensor_value_info(out, TensorProto.FLOAT, None))
    probe = model_path.with_suffix(".probe.onnx")
    onnx.save(m, str(probe))
    skip = tuple(o.name for o in m.graph.output if o.name not in outs)
    try:
        return [[got[out] for out in outs] for got in (ort_outputs(probe, b, skip=skip) for b in batches)]
    finally:
        probe.unlink(missing_ok=True)


def activation_ranges(model_path: Path, names: list[str], batches: list[np.ndarray]) -> dict[str, tuple[float, float]]:
    """Mean over batches of each tensor's minimum and maximum."""
    per_batch = probe_outputs(model_path, names, batches)
    return {n: (float(np.mean([float(b[k].min()) for b in per_batch])),
                float(np.mean([float(b[k].max()) for b in per_batch]))) for k, n in enumerate(names)}


def _uint8_params(lo: float, hi: float) -> tuple[float, int]:
    lo, hi = min(lo, 0.0), max(hi, 0.0)
    scale = (hi - lo) / 255.0 or 1.0
    zero = int(round(-lo / scale))
    return scale, min(max(zero, 0), 255)


def quantize_model(src: Path, dst: Path, ranges: dict[str, tuple[float, float]]) -> dict:
    """Writes the QDQ copy of `src` to `dst` with the given activation ranges; returns its digest."""
    m = onnx.load(str(src))
    g = m.graph
    inits = {i.name: i for i in g.initializer}
    new_inits: list[TensorProto] = []
    # each Q/DQ pair goes right after the node that makes its tensor (-1: a graph input), keeping topological order
    producers = {o: idx for idx, n in enumerate(g.node) for o in n.output}
    after: dict[int, list[onnx.NodeProto]] = {}
    rename: dict[str, str] = {}  # tensor -> its dequantized copy
    dq_scale: dict[str, float] = {}  # dequantized copy -> its scale
    for t, (lo, hi) in ranges.items():
        scale, zero = _uint8_params(lo, hi)
        s, z = f"{t}__qscale", f"{t}__qzero"
        new_inits += [numpy_helper.from_array(np.array(scale, dtype=np.float32), s),
                      numpy_helper.from_array(np.array(zero, dtype=np.uint8), z)]
        q, dq = f"{t}__q", f"{t}__dq"
        after.setdefault(producers.get(t, -1), []).extend([
            helper.make_node("QuantizeLinear", [t, s, z], [q], name=f"{t}__Q"),
            helper.make_node("DequantizeLinear", [q, s, z], [dq], name=f"{t}__DQ")])
        rename[t], dq_scale[dq] = dq, scale
    # every consumer reads the dequantized tensor (graph outputs keep their names: none is quantized)
    for n in g.node:
        for k, i in enumerate(n.input):
            if i in rename:
                n.input[k] = rename[i]
    # the exporter may hand a weight to a Conv through Identity nodes, and a float16 file (--fp16) through a Cast to
    # float32: read through them (the value is cast below)
    through = {n.output[0]: n.input[0] for n in g.node if n.op_type in ("Identity", "Cast")}

    def const(name: str) -> np.ndarray:
        while name not in inits:
            name = through[name]
        return numpy_helper.to_array(inits[name])

    weight_nodes: list[onnx.NodeProto] = []

    def dequantized(base: str, q: np.ndarray, scale: np.ndarray, tag: str) -> str:
        """An int constant and its per-channel scale behind a DequantizeLinear (axis 0); returns its output."""
        new_inits.extend([numpy_helper.from_array(q, f"{base}__{tag}_q"),
                          numpy_helper.from_array(scale, f"{base}__{tag}_scale"),
                          numpy_helper.from_array(np.zeros(len(scale), dtype=q.dtype), f"{base}__{tag}_zero")])
        weight_nodes.append(helper.make_node("DequantizeLinear", [f"{base}__{tag}_q", f"{base}__{tag}_scale",
                                                                  f"{base}__{tag}_zero"], [f"{base}__{tag}"],
                                             name=f"{base}__{tag}_DQ", axis=0))
        return f"{base}__{tag}"

    for n in g.node:
        if not _is_trunk_conv(n):
            continue
        w = const(n.input[1]).astype(np.float32)
        in_scale = dq_scale[n.input[0]]
        has_bias = len(n.input) > 2 and bool(n.input[2])
        b = const(n.input[2]).astype(np.float64) if has_bias else np.zeros(w.shape[0])
        # a channel whose weights are (nearly) all zero still needs its bias to fit in int32
        w_scale = np.maximum(np.abs(w).reshape(w.shape[0], -1).max(axis=1) / WEIGHT_MAX,
                             np.maximum(np.abs(b) / (in_scale * (2**31 - 1)), 1e-12)).astype(np.float32)
        wq = np.clip(np.round(w / w_scale[:, None, None, None]), -WEIGHT_MAX, WEIGHT_MAX).astype(np.int8)
        base = n.output[0]
        n.input[1] = dequantized(base, wq, w_scale, "w")
        if has_bias:
            b_scale = (np.float32(in_scale) * w_scale).astype(np.float32)
            bq = np.clip(np.round(b / b_scale), -(2**31 - 1), 2**31 - 1).astype(np.int32)
            n.input[2] = dequantized(base, bq, b_scale, "b")
    nodes = list(g.node)
    ordered = weight_nodes + after.get(-1, [])
    for idx, n in enumerate(nodes):
        ordered.append(n)
        ordered += after.get(idx, [])
    # the Casts of the float16 weights now replaced by int8 ones feed nothing: they go, and their weights with them
    outputs = {o.name for o in g.output}
    while True:
        read = {i for n in ordered for i in n.input} | outputs
        live = [n for n in ordered if n.op_type not in ("Identity", "Cast") or any(o in read for o in n.output)]
        if len(live) == len(ordered):
            break
        ordered = live
    used = {i for n in ordered for i in n.input}
    kept = [i for i in g.initializer if i.name in used]
    del g.node[:]
    g.node.extend(ordered)
    del g.initializer[:]
    g.initializer.extend(kept + [i for i in new_inits if i.name in used])
    onnx.checker.check_model(m)
    dst.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(m, str(dst))
    return file_digest(dst)


def quantize(src: Path, dst: Path, cache_dir: Path = D.DEFAULT_CACHE_DIR, n_batches: int = 8, batch: int = 16) -> dict:
    """The int8 copy of `src` and its card: activation ranges from training photos, the QDQ graph, the
    calibration fitted again on the lab validation split (`recalibrate`), then the thresholds chosen again on
    validation and every figure of the card measured on the new file (`fieldtrain.rethreshold`)."""
    src_digest, card = file_digest(src), json.loads(card_path(src).read_text())  # src may be dst
    files = calibration_files()[:n_batches * batch]
    xs = np.stack([preprocess_file(f) for f in files])
    batches = [xs[i:i + batch] for i in range(0, len(xs), batch)]
    m = onnx.load(str(src))
    names = activations_to_quantize(m.graph)
    ranges = activation_ranges(src, names, batches)
    digest = quantize_model(src, dst, ranges)
    card["file"].update(name=dst.name, weights_dtype="int8", **digest)
    card["notes"] = int8_notes(card["notes"], src.name, src_digest["sha256"])
    card["quantization"] = {
        "method": "static post-training int8 (QDQ, ml/diagrodl_ml/quantize.py): trunk convolutions int8 per output "
                  f"channel (symmetric, within -{WEIGHT_MAX}..{WEIGHT_MAX}) with int32 biases, their "
                  "activations uint8 per tensor (range: mean of per-batch minimum and maximum); head, calibration, "
                  "leaf score and heatmap float32; onnxruntime runs QLinearConv and QLinearAdd",
        "weight_max": WEIGHT_MAX,
        "calibration_photos": len(files),
        "calibration_sources": "training parts only: " + ", ".join(f"{n} of {name}" for name, _, n in CALIBRATION_PARTS)
                               + f" (fixed sample, seed {CALIBRATION_SEED})",
        "from": {"name": src.name, **src_digest},
    }
    lab_only = "leaf_threshold" not in card.get("rejection", {})  # a train.py export, such as a lab expert
    if lab_only:
        card["notes"].append("int8 copy: calibration and rejection threshold are the float file's; `evaluate "
                             "--model FILE --update-card` measures the test metrics of this file")
    write_card(card, card_path(dst))
    if not lab_only:
        sources = evaluation_sources(card, cache_dir)  # decoded once for both steps
        recalibrate(dst, sources)
        rethreshold(dst, sources=sources)
    return {"file": str(dst), **file_digest(dst), "quantized_tensors": len(names)}


# notes of a float file's card that describe that file only: its storage and its speed (bench/diagnosis figures)
FLOAT_FILE_NOTES = ("weights stored as float16", "measured on ")


def int8_notes(notes: list[str], src_name: str, src_sha256: str) -> list[str]:
    """The int8 copy's notes: the float file's, less those that describe that file only (FLOAT_FILE_NOTES), and one
    saying where it came from."""
    kept = [n for n in notes if not n.startswith(FLOAT_FILE_NOTES)]
    return kept + [f"int8 copy of {src_name} (sha256 {src_sha256[:12]}) made by `quantize`, its calibration and thresholds "
                   "fitted again on this file; the float file's notes on its storage and its speed left with it"]


def _disease_logits_tensor(graph: onnx.GraphProto) -> str:
    """The 10 disease logits before calibration: the tensor the graph multiplies by `inv_t`."""
    mul = next(n for n in graph.node if n.op_type == "Mul" and "inv_t" in n.input)
    return next(i for i in mul.input if i != "inv_t")


GATE_TENSOR = "labgate__gate"  # the lab gate's value [N, 1] (labgate.PREFIX + "gate")
GATED_BIAS = "labgate__class_bias"  # the class biases scaled by it (scale_bias_by_gate)


def scale_bias_by_gate(graph: onnx.GraphProto) -> bool:
    """Makes the graph add `gate * class_bias` to the calibrated disease logits instead of `class_bias` (a Mul
    named GATED_BIAS before the Add, its name in the lab gate's prefix so that ensemble.without_expert takes it
    away with the gate). Returns False when the graph does so already."""
    if any(n.name == GATED_BIAS for n in graph.node):
        return False
    add = next(n for n in graph.node if n.op_type == "Add" and "class_bias" in n.input)
    add.input[:] = [GATED_BIAS if t == "class_bias" else t for t in add.input]
    nodes = list(graph.node)
    gate = next(n for n in nodes if GATE_TENSOR in n.output)
    mul = helper.make_node("Mul", [GATE_TENSOR, "class_bias"], [GATED_BIAS], name=GATED_BIAS)
    # the gate of `graft lab-like` is computed after the calibration's Add: the Add and what follows from it then
    # move after the gate (the gate reads the pooled features only, never the calibrated logits)
    at, g_at = nodes.index(add), nodes.index(gate)
    if g_at < at:
        nodes = nodes[:at] + [mul] + nodes[at:]
    else:
        moved = _downstream(nodes[at:g_at], add)
        rest = [n for n in nodes[at:g_at + 1] if id(n) not in moved]
        nodes = nodes[:at] + rest + [mul] + [n for n in nodes[at:g_at] if id(n) in moved] + nodes[g_at + 1:]
    del graph.node[:]
    graph.node.extend(nodes)
    return True


def _downstream(nodes: list, first) -> set[int]:
    """ids of `first` and of every node of `nodes` (in graph order) that reads, directly or not, what it makes."""
    made, out = set(first.output), {id(first)}
    for n in nodes:
        if n is not first and any(i in made for i in n.input):
            made.update(n.output)
            out.add(id(n))
    return out


def lab_like_shares(gate_lab: np.ndarray, gate_field: np.ndarray) -> dict[str, float]:
    """The card's `lab_like_gate.val_share_lab_like`: the share of lab and of field validation photos whose
    `lab_like` is at least LAB_LIKE_CUT (lab-like photos)."""
    return {k: round(float((np.asarray(v).reshape(-1) >= LAB_LIKE_CUT).mean()), 4)
            for k, v in (("lab", gate_lab), ("field", gate_field))}


def recalibrate(model_path: Path, sources: tuple) -> dict:
    """Fits the temperature and class biases again on the lab validation split, on this file's own disease
    logits (a graft or quantization moves them), writes them into the graph and the card. The leaf scaling and
    the thresholds are left to `rethreshold`, which runs next. `sources`: `fieldtrain.evaluation_sources`.
    In a file with `lab_like` (labgate.py) the biases are fitted and applied in proportion to its value:
    they are fitted on lab photos, and the field photos call for others (calibrate.choose_calibration)."""
    cp = card_path(model_path)
    card = json.loads(cp.read_text())
    cfg, cache, src = sources
    lab_val = src["lab_val"]
    x = normalise_u8(np.stack([to224(np.asarray(cache.images[j])) for j in lab_val]))
    y = cache.labels[lab_val]

    m = onnx.load(str(model_path))
    gated = any(GATE_TENSOR in n.output for n in m.graph.node)
    names = [_disease_logits_tensor(m.graph)] + ([GATE_TENSOR] if gated else [])
    # one probe file for both sets: the lab validation batches, then the field validation part as the last batch
    field_imgs, field_y = field_val_all(src)  # every field source's validation photos
    *lab, field = probe_outputs(model_path, names, [x[s:s + 512] for s in range(0, len(x), 512)]
                                + [normalise_u8(np.stack(field_imgs))])
    logits = np.concatenate([b[0] for b in lab]).astype(np.float64)
    gate_lab = np.concatenate([b[1] for b in lab]).reshape(-1) if gated else None
    others = {"field": (field[0].astype(np.float64), np.asarray(field_y), field[1].reshape(-1) if gated else None)}
    cal = choose_calibration(logits, y, seed=cfg.seed, others=others, gate=gate_lab)
    if gated and "lab_like_gate" in card:  # quantization moves the pooled features the gate reads
        card["lab_like_gate"]["val_share_lab_like"] = lab_like_shares(gate_lab, field[1])
    t, bias = cal["temperature"], cal["bias"]
    for init in m.graph.initializer:
        if init.name == "inv_t":
            init.CopyFrom(numpy_helper.from_array(np.array(1.0 / t, dtype=np.float32).reshape(
                numpy_helper.to_array(init).shape), "inv_t"))
        elif init.name == "class_bias":
            b = np.zeros(numpy_helper.to_array(init).shape, np.float32) if bias is None else np.asarray(bias, np.float32)
            init.CopyFrom(numpy_helper.from_array(b.reshape(numpy_helper.to_array(init).shape), "class_bias"))
    if gated:
        scale_bias_by_gate(m.graph)
        onnx.checker.check_model(m)
    onnx.save(m, str(model_path))
    p_raw, p_cal = softmax(logits, 1.0), calibrated(logits, t, bias, gate_lab)
    card["file"].update(file_digest(model_path))
    for k in ("bias_check", "class_bias_scaled_by"):
        card["calibration"].pop(k, None)
    card["calibration"].update({
        "method": calibration_method(cal["bias_l2"], gated),
        **({"bias_check": cal["bias_check"]} if "bias_check" in cal else {}),
        **({"class_bias_scaled_by": "lab_like"} if gated else {}),
        "temperature": round(t, 5),
        "class_bias": [round(float(v), 5) for v in (np.zeros(len(logits[0])) if bias is None else bias)],
        "val_ece_before": round(ece(p_raw, y), 4), "val_ece_after": round(ece(p_cal, y), 4),
        "val_nll_before": round(nll(p_raw, y), 4), "val_nll_after": round(nll(p_cal, y), 4),
        "refitted_after_quantization": True,
    })
    write_card(card, cp)
    print(f"calibration refitted on the file: T {t:.4f}, {cal['method']}; val ECE {card['calibration']['val_ece_after']}",
          flush=True)
    return card["calibration"]

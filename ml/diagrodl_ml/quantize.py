"""int8 (QDQ) copy of an exported network: static post-training quantization, our own code.

onnxruntime has no Python package on Debian, so this writes the QDQ format by hand with the `onnx`
package and calibrates with onnxruntime-node (`evaluate.ort_outputs`):

- every convolution of the trunk (`/features/...`) gets int8 weights, symmetric per output channel
  (a DequantizeLinear on the weight), and an int32 bias at the scale input scale x weight scale;
- every activation between them (the scaled input, each ReLU6 output, each projection output, each
  residual sum) gets a QuantizeLinear -> DequantizeLinear pair, uint8 asymmetric per tensor, its range
  the mean over calibration batches of each batch's minimum and maximum;
- the head (global pooling, the linear layer, calibration, the leaf score) and the class-activation
  map stay float32: they are small, and the decision rules read them.

onnxruntime fuses DQ -> Conv -> Q into QLinearConv (ReLU6 folded into the output range: its Clip is
dropped when the range lies inside [0, 6]) and DQ -> Add -> Q into QLinearAdd. The calibration photos
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
from .calibrate import calibrated, choose_calibration, ece, nll, softmax
from .card import card_path, write_card
from .evaluate import ort_outputs
from .export import file_digest
from .fieldtrain import TransferConfig, load_sources, rethreshold
from .preprocess import preprocess_file
from .sources import FIELD_DIR, NEGATIVES_DIR, SHARED_DATA
from .transfer import normalise_u8, to224

SPLITS = Path(__file__).resolve().parents[1] / "splits"
LAB_DIR = SHARED_DATA / "plantvillage-tomato"


def calibration_files(n_lab: int = 64, n_field: int = 32, n_neg: int = 32, seed: int = 7) -> list[Path]:
    """A fixed sample of training photos: lab training split, field training part, negatives training part."""
    rng = random.Random(seed)
    out: list[Path] = []
    for name, root, n in (("train.txt", LAB_DIR, n_lab), ("field_train.txt", FIELD_DIR, n_field),
                          ("negatives_train.txt", NEGATIVES_DIR, n_neg)):
        lines = [ln for ln in (SPLITS / name).read_text().splitlines() if ln.strip()]
        out += [root / ln for ln in rng.sample(lines, min(n, len(lines)))]
    return out


def _is_trunk_conv(node: onnx.NodeProto) -> bool:
    return node.op_type == "Conv" and node.output[0].startswith("/features/")


def activations_to_quantize(graph: onnx.GraphProto) -> list[str]:
    """The float tensors that get a Q/DQ pair: every input of a trunk Conv, the residual sums, and
    each projection output (a Conv output that no Clip follows)."""
    inits = {i.name for i in graph.initializer}
    consumers: dict[str, list[onnx.NodeProto]] = {}
    for n in graph.node:
        for i in n.input:
            consumers.setdefault(i, []).append(n)
    wanted: list[str] = []

    def add(t: str) -> None:
        if t not in inits and t not in wanted:
            wanted.append(t)

    for n in graph.node:
        if _is_trunk_conv(n):
            add(n.input[0])
            if not any(c.op_type == "Clip" for c in consumers.get(n.output[0], [])):
                add(n.output[0])
        elif n.op_type == "Add" and n.output[0].startswith("/features/") and all(i not in inits for i in n.input):
            for i in n.input:
                add(i)
            add(n.output[0])
    return wanted


def activation_ranges(model_path: Path, names: list[str], batches: list[np.ndarray]) -> dict[str, tuple[float, float]]:
    """Mean over batches of each tensor's minimum and maximum (onnxruntime-node on a copy with them as outputs)."""
    m = onnx.load(str(model_path))
    # each tensor leaves the probe through an Identity with a file-safe name (tensor names hold '/')
    probe_names = {name: f"calibration_{k}" for k, name in enumerate(names)}
    for name, out_name in probe_names.items():
        m.graph.node.append(helper.make_node("Identity", [name], [out_name]))
        m.graph.output.append(helper.make_tensor_value_info(out_name, TensorProto.FLOAT, None))
    probe = model_path.with_suffix(".calibration-probe.onnx")
    onnx.save(m, str(probe))
    lo: dict[str, list[float]] = {n: [] for n in names}
    hi: dict[str, list[float]] = {n: [] for n in names}
    skip = tuple(o.name for o in m.graph.output if not o.name.startswith("calibration_"))
    try:
        for b in batches:
            out = ort_outputs(probe, b, skip=skip)
            for name, out_name in probe_names.items():
                lo[name].append(float(out[out_name].min()))
                hi[name].append(float(out[out_name].max()))
    finally:
        probe.unlink(missing_ok=True)
    return {n: (float(np.mean(lo[n])), float(np.mean(hi[n]))) for n in names}


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
    act_scale: dict[str, float] = {}
    new_inits: list[TensorProto] = []
    qdq_nodes: list[onnx.NodeProto] = []
    rename: dict[str, str] = {}
    for t, (lo, hi) in ranges.items():
        scale, zero = _uint8_params(lo, hi)
        act_scale[t] = scale
        s, z = f"{t}__qscale", f"{t}__qzero"
        new_inits += [numpy_helper.from_array(np.array(scale, dtype=np.float32), s),
                      numpy_helper.from_array(np.array(zero, dtype=np.uint8), z)]
        q, dq = f"{t}__q", f"{t}__dq"
        qdq_nodes.append(helper.make_node("QuantizeLinear", [t, s, z], [q], name=f"{t}__Q"))
        qdq_nodes.append(helper.make_node("DequantizeLinear", [q, s, z], [dq], name=f"{t}__DQ"))
        rename[t] = dq
    # every consumer reads the dequantized tensor (graph outputs keep their names: none is quantized)
    for n in g.node:
        for k, i in enumerate(n.input):
            if i in rename:
                n.input[k] = rename[i]
    # the exporter may hand a weight to a Conv through Identity nodes: read through them
    identity = {n.output[0]: n.input[0] for n in g.node if n.op_type == "Identity"}

    def const(name: str) -> np.ndarray:
        while name not in inits:
            name = identity[name]
        return numpy_helper.to_array(inits[name])

    weight_nodes: list[onnx.NodeProto] = []
    for n in g.node:
        if not _is_trunk_conv(n):
            continue
        w = const(n.input[1]).astype(np.float32)
        in_scale = act_scale[next(k for k, v in rename.items() if v == n.input[0])]
        has_bias = len(n.input) > 2 and bool(n.input[2])
        b = const(n.input[2]).astype(np.float64) if has_bias else np.zeros(w.shape[0])
        # a channel whose weights are (nearly) all zero still needs its bias to fit in int32
        w_scale = np.maximum(np.abs(w).reshape(w.shape[0], -1).max(axis=1) / 127.0,
                             np.maximum(np.abs(b) / (in_scale * (2**31 - 1)), 1e-12)).astype(np.float32)
        wq = np.clip(np.round(w / w_scale[:, None, None, None]), -127, 127).astype(np.int8)
        base = n.output[0]

        def dequantized(q: np.ndarray, scale: np.ndarray, tag: str) -> str:
            """An int constant and its per-channel scale behind a DequantizeLinear (axis 0); returns its output."""
            new_inits.extend([numpy_helper.from_array(q, f"{base}__{tag}_q"),
                              numpy_helper.from_array(scale, f"{base}__{tag}_scale"),
                              numpy_helper.from_array(np.zeros(len(scale), dtype=q.dtype), f"{base}__{tag}_zero")])
            weight_nodes.append(helper.make_node("DequantizeLinear", [f"{base}__{tag}_q", f"{base}__{tag}_scale",
                                                                      f"{base}__{tag}_zero"], [f"{base}__{tag}"],
                                                 name=f"{base}__{tag}_DQ", axis=0))
            return f"{base}__{tag}"

        n.input[1] = dequantized(wq, w_scale, "w")
        if has_bias:
            b_scale = (np.float32(in_scale) * w_scale).astype(np.float32)
            bq = np.clip(np.round(b / b_scale), -(2**31 - 1), 2**31 - 1).astype(np.int32)
            n.input[2] = dequantized(bq, b_scale, "b")
    # each Q/DQ pair goes right after the node that makes its tensor (topological order kept)
    producers = {o: idx for idx, n in enumerate(g.node) for o in n.output}
    nodes = list(g.node)
    after: dict[int, list[onnx.NodeProto]] = {}
    for qn in qdq_nodes:
        t = qn.input[0] if qn.op_type == "QuantizeLinear" else None
        key = producers.get(t, -1) if t else None
        if key is None:  # a DequantizeLinear follows its QuantizeLinear
            key = last
        after.setdefault(key, []).append(qn)
        last = key
    ordered = weight_nodes + after.get(-1, [])
    for idx, n in enumerate(nodes):
        ordered.append(n)
        ordered += after.get(idx, [])
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
    files = calibration_files()
    xs = np.stack([preprocess_file(f) for f in files])
    batches = [xs[i:i + batch] for i in range(0, min(len(xs), n_batches * batch), batch)]
    m = onnx.load(str(src))
    names = activations_to_quantize(m.graph)
    ranges = activation_ranges(src, names, batches)
    digest = quantize_model(src, dst, ranges)
    card["file"].update(name=dst.name, weights_dtype="int8", **digest)
    card["quantization"] = {
        "method": "static post-training int8 (QDQ, ml/diagrodl_ml/quantize.py): trunk convolutions int8 per output "
                  "channel (symmetric) with int32 biases, their activations uint8 per tensor (range: mean of per-batch "
                  "minimum and maximum); head, calibration, leaf score and heatmap float32; onnxruntime runs "
                  "QLinearConv and QLinearAdd",
        "calibration_photos": len(xs[:n_batches * batch]),
        "calibration_sources": "training parts only: lab training split 64, field training part 32, negatives "
                               "training part 32 (fixed sample, seed 7)",
        "from": {"name": src.name, **src_digest},
    }
    write_card(card, card_path(dst))
    recalibrate(dst, cache_dir)
    rethreshold(dst, cache_dir, 1)
    return {"file": str(dst), **file_digest(dst), "quantized_tensors": len(names)}


def _disease_logits_tensor(graph: onnx.GraphProto) -> str:
    """The 10 disease logits before calibration: the tensor the graph multiplies by `inv_t`."""
    mul = next(n for n in graph.node if n.op_type == "Mul" and "inv_t" in n.input)
    return next(i for i in mul.input if i != "inv_t")


def recalibrate(model_path: Path, cache_dir: Path) -> dict:
    """Fits the temperature and class biases again on the lab validation split, on this file's own disease
    logits (quantization moves them a little), writes them into the graph and the card. The leaf scaling and
    the thresholds are left to `rethreshold`, which runs next."""
    cp = card_path(model_path)
    card = json.loads(cp.read_text())
    cfg = TransferConfig(**card["training"]["config"])
    items = D.scan()
    split = D.grouped_stratified_split(items)
    cache = D.build_cache(items, cache_dir=cache_dir)
    idx = {k: cache.indices(v) for k, v in split.items()}
    lab_val = load_sources(cfg, cache, idx, training=False)["lab_val"]
    x = normalise_u8(np.stack([to224(np.asarray(cache.images[j])) for j in lab_val]))
    y = cache.labels[lab_val]

    m = onnx.load(str(model_path))
    logits_name = _disease_logits_tensor(m.graph)
    probe = onnx.load(str(model_path))
    probe.graph.node.append(helper.make_node("Identity", [logits_name], ["calibration_logits"]))
    probe.graph.output.append(helper.make_tensor_value_info("calibration_logits", TensorProto.FLOAT, None))
    probe_path = model_path.with_suffix(".calibration-probe.onnx")
    onnx.save(probe, str(probe_path))
    try:
        skip = tuple(o.name for o in probe.graph.output if o.name != "calibration_logits")
        logits = np.concatenate([ort_outputs(probe_path, x[s:s + 512], skip=skip)["calibration_logits"]
                                 for s in range(0, len(x), 512)]).astype(np.float64)
    finally:
        probe_path.unlink(missing_ok=True)
    cal = choose_calibration(logits, y, seed=cfg.seed)
    t, bias = cal["temperature"], cal["bias"]
    for init in m.graph.initializer:
        if init.name == "inv_t":
            init.CopyFrom(numpy_helper.from_array(np.array(1.0 / t, dtype=np.float32).reshape(
                numpy_helper.to_array(init).shape), "inv_t"))
        elif init.name == "class_bias":
            b = np.zeros(numpy_helper.to_array(init).shape, np.float32) if bias is None else np.asarray(bias, np.float32)
            init.CopyFrom(numpy_helper.from_array(b.reshape(numpy_helper.to_array(init).shape), "class_bias"))
    onnx.save(m, str(model_path))
    p_raw, p_cal = softmax(logits, 1.0), calibrated(logits, t, bias)
    card["file"].update(file_digest(model_path))
    card["calibration"].update({
        "temperature": round(t, 5),
        "class_bias": [round(float(v), 5) for v in (np.zeros(len(logits[0])) if bias is None else bias)],
        "val_ece_before": round(ece(p_raw, y), 4), "val_ece_after": round(ece(p_cal, y), 4),
        "val_nll_before": round(nll(p_raw, y), 4), "val_nll_after": round(nll(p_cal, y), 4),
        "refitted_after_quantization": True,
    })
    write_card(card, cp)
    print(f"calibration refitted on the int8 file: T {t:.4f}, {cal['method']}; val ECE {card['calibration']['val_ece_after']}",
          flush=True)
    return card["calibration"]

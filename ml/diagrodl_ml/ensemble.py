"""A lab expert inside the shipped graph.

The field-robust MobileNetV2 is right on 0.94 of lab photos; the project's earlier from-scratch MobileNetV3-Small,
trained on the lab photos alone, on 0.98 of them, and on 0.29 of field photos. `add_expert` puts the second
network's disease logits into the first one's graph: the logits the graph calibrates become

    main disease logits + weight * expert disease logits (each averaged over its own symmetric views)

and the temperature and class biases are fitted again on that sum. The `leaf` output (not a tomato leaf) and the
`cam` stay the main network's own. The weight and the expert's views are chosen on validation (lab accuracy + field
accuracy, `choose_expert`), and a weight is kept only if it beats the main network alone.

`bash ml/run.sh graft expert --model M.onnx --expert E.onnx --out OUT.onnx`
"""
from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import numpy as np
import onnx
from onnx import helper, numpy_helper

from . import data as D
from .card import card_path, write_card
from .evaluate import ort_outputs
from .export import file_digest, views_concat
from .fieldtrain import drop_cpu_figures, evaluation_sources, field_val_all, rethreshold
from .models import VIEW_COUNTS
from .quantize import GATED_BIAS, _disease_logits_tensor, probe_outputs, recalibrate
from .transfer import normalise_u8, to224

PREFIX = "expert__"
EXPERT_WEIGHTS = tuple(float(w) for w in np.round(np.arange(0.05, 0.5001, 0.05), 2))


def _holds_expert(graph: onnx.GraphProto) -> bool:
    return any(n.name.startswith(PREFIX) for n in graph.node)


def _set_view_count(graph: onnx.GraphProto, logits: str, have: int, views: int) -> None:
    """The mean over views is ReduceMean(Reshape(head logits, [views, -1, K])), then, in exports with an 11th
    output, a Slice of the disease logits: sets the leading `views` of that shape, whether it is an initializer
    (export.add_views) or a Concat of constants (PyTorch's export)."""
    producer = {o: n for n in graph.node for o in n.output}
    inits = {i.name: i for i in graph.initializer}
    mean = producer.get(logits)
    while mean is not None and mean.op_type == "Slice":  # the disease part of an 11-output head
        mean = producer.get(mean.input[0])
    if mean is None or mean.op_type != "ReduceMean" or producer[mean.input[0]].op_type != "Reshape":
        raise ValueError("the disease logits are not a mean over views of a Reshape")
    shape = producer[mean.input[0]].input[1]
    if shape not in inits and producer[shape].op_type == "Concat":
        shape = producer[shape].input[0]
    if shape in inits:
        t, put = numpy_helper.to_array(inits[shape]), lambda a: inits[shape].CopyFrom(numpy_helper.from_array(a, shape))
    else:
        node = producer[shape]
        if node.op_type != "Constant":
            raise ValueError(f"the view count of the Reshape comes from a {node.op_type}, not a constant")
        t, put = numpy_helper.to_array(node.attribute[0].t), lambda a: node.attribute[0].t.CopyFrom(numpy_helper.from_array(a))
    if int(t.reshape(-1)[0]) != have:
        raise ValueError(f"the Reshape before the mean over views holds {int(t.reshape(-1)[0])}, not {have} views")
    t = t.copy()
    t.reshape(-1)[0] = views
    put(t)


def expert_logits_model(src: Path, views: int) -> tuple[onnx.ModelProto, str]:
    """The part of export `src` that computes its disease logits (before calibration), averaged over its first
    `views` symmetric views (models.symmetry_views order; at most the views the file has), every name but
    `input` prefixed with PREFIX. Returns the model and the name of its one output, those logits."""
    m = onnx.load(str(src))
    g = m.graph
    if _holds_expert(g):
        raise ValueError(f"{src} already holds an expert")
    logits = _disease_logits_tensor(g)
    concat = views_concat(g)
    have = len(concat.input) if concat is not None else 1
    if views not in VIEW_COUNTS or views > have:
        raise ValueError(f"{src} averages {have} views: choose one of {[v for v in VIEW_COUNTS if v <= have]}")
    if views < have:
        _set_view_count(g, logits, have, views)
        del concat.input[views:]
    need, keep = {logits}, []
    for n in reversed(list(g.node)):
        if need.intersection(n.output):
            keep.append(n)
            need.update(n.input)
    keep.reverse()

    def rename(t: str) -> str:
        return t if t in ("", "input") else PREFIX + t

    for n in keep:
        n.input[:] = [rename(t) for t in n.input]
        n.output[:] = [rename(t) for t in n.output]
        n.name = PREFIX + (n.name or n.output[0])
    inits = [i for i in g.initializer if i.name in need]
    for i in inits:
        i.name = rename(i.name)
    out = PREFIX + "logits"
    keep.append(helper.make_node("Identity", [rename(logits)], [out], name=PREFIX + "logits"))
    graph = helper.make_graph(keep, "expert", [i for i in g.input if i.name == "input"],
                              [helper.make_tensor_value_info(out, onnx.TensorProto.FLOAT, None)], inits)
    return helper.make_model(graph, opset_imports=m.opset_import, ir_version=m.ir_version), out


def add_expert(main_src: Path, expert_src: Path, dst: Path, weight: float, views: int) -> dict:
    """Writes to `dst` the main export with the expert's weighted disease logits added to its own before the
    calibration (the Mul by `inv_t`). Every other output keeps its inputs. Returns file_digest."""
    m = onnx.load(str(main_src))
    g = m.graph
    if _holds_expert(g):
        raise ValueError(f"{main_src} already holds an expert")
    e, e_out = expert_logits_model(expert_src, views)
    own = _disease_logits_tensor(g)
    mul = next(n for n in g.node if n.op_type == "Mul" and "inv_t" in n.input)
    mul.input[:] = [PREFIX + "sum" if t == own else t for t in mul.input]
    g.initializer.append(numpy_helper.from_array(np.array(weight, np.float32), PREFIX + "weight"))
    g.initializer.extend(e.graph.initializer)
    added = list(e.graph.node) + [
        helper.make_node("Mul", [e_out, PREFIX + "weight"], [PREFIX + "weighted"], name=PREFIX + "weight_mul"),
        helper.make_node("Add", [own, PREFIX + "weighted"], [PREFIX + "sum"], name=PREFIX + "sum_add")]
    nodes = list(g.node)
    at = nodes.index(mul)
    del g.node[:]
    g.node.extend(nodes[:at] + added + nodes[at:])
    m.doc_string += (f" The disease logits are the main network's plus {weight} x those of a lab expert network "
                     f"({views} view{'s' if views > 1 else ''}), before calibration.")
    onnx.checker.check_model(m)
    onnx.save(m, str(dst))
    return file_digest(dst)


def without_expert(src: Path, dst: Path) -> dict:
    """Writes to `dst` the export `src` without its lab expert and without the lab gate that weighs it (labgate.py,
    whose names start with "labgate__"): the graph of the main network alone, its own disease logits calibrated
    (by the combined network's temperature, until it is fitted again). Returns file_digest."""
    m = onnx.load(str(src))
    g = m.graph
    if not _holds_expert(g):
        raise ValueError(f"{src} holds no expert")
    gone = (PREFIX, GATE_PREFIX)
    own = next(n for n in g.node if n.name == PREFIX + "sum_add").input[0]
    mul = next(n for n in g.node if n.op_type == "Mul" and "inv_t" in n.input)
    mul.input[:] = [own if t == PREFIX + "sum" else t for t in mul.input]
    _take_out(g, gone)
    m.doc_string = m.doc_string.split(" The disease logits are the main network's plus")[0]
    onnx.checker.check_model(m)
    onnx.save(m, str(dst))
    return file_digest(dst)


def without_lab_like(src: Path, dst: Path) -> dict:
    """Writes to `dst` the export `src` without the gate of `graft lab-like` (its nodes start with "labgate__") and its
    output `lab_like`: the network's graph as `gpu finish` wrote it, with the calibration `src` has. Returns
    file_digest."""
    m = onnx.load(str(src))
    if _holds_expert(m.graph) or not any(n.name.startswith(GATE_PREFIX) for n in m.graph.node):
        raise ValueError(f"{src} holds a lab expert or no lab-like gate")
    _take_out(m.graph, (GATE_PREFIX,))
    m.doc_string = m.doc_string.split(" A gate on the network's pooled features")[0]
    onnx.checker.check_model(m)
    onnx.save(m, str(dst))
    return file_digest(dst)


GATE_PREFIX = "labgate__"  # labgate.PREFIX (labgate imports this module)


def _take_out(g: onnx.GraphProto, gone: tuple[str, ...]) -> None:
    """Removes the nodes and initializers whose names start with one of `gone`, and the outputs they made (the gate's
    `lab_like`); class biases scaled by the gate (quantize.scale_bias_by_gate) apply in full again."""
    for n in g.node:
        n.input[:] = ["class_bias" if t == GATED_BIAS else t for t in n.input]
    keep = [n for n in g.node if not n.name.startswith(gone)]
    del g.node[:]
    g.node.extend(keep)
    inits = [i for i in g.initializer if not i.name.startswith(gone)]
    del g.initializer[:]
    g.initializer.extend(inits)
    made = {o for n in g.node for o in n.output} | {i.name for i in g.input} | {i.name for i in g.initializer}
    outs = [o for o in g.output if o.name in made]
    del g.output[:]
    g.output.extend(outs)


def expert_outputs(expert_src: Path, views: int, sets: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The expert's disease logits (averaged over `views`) on each set of uint8 images."""
    tmp = Path(tempfile.mkdtemp(prefix="diagrodl-expert-"))
    try:
        e, out = expert_logits_model(expert_src, views)
        onnx.save(e, str(tmp / "expert.onnx"))
        return {k: np.concatenate([ort_outputs(tmp / "expert.onnx", normalise_u8(v[s:s + 512]))[out]
                                   for s in range(0, len(v), 512)]) for k, v in sets.items()}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def choose_expert(main_src: Path, expert_src: Path, sets: dict[str, np.ndarray], labels: dict[str, np.ndarray],
                  max_views: int) -> tuple[int, float, str]:
    """The expert's views (1, 2, 4, 8 up to max_views and the views its file has) and weight (EXPERT_WEIGHTS) that
    give the highest validation score, lab accuracy + field accuracy of argmax(main logits + weight * expert
    logits); the fewer views and the lower weight on a tie. Weight 0 (no expert) when none beats the main network
    alone. `sets`: the lab validation split and the field validation part, uint8 224 px. Returns views, weight and
    a note with every figure tried."""
    main_logits = _disease_logits_tensor(onnx.load(str(main_src)).graph)
    own = {k: np.concatenate([b[0] for b in probe_outputs(main_src, [main_logits],
                                                          [normalise_u8(v[s:s + 512]) for s in range(0, len(v), 512)])])
           .astype(np.float64) for k, v in sets.items()}

    def accuracies(z: dict[str, np.ndarray]) -> dict[str, float]:
        return {k: float((z[k].argmax(1) == labels[k]).mean()) for k in sets}

    alone = accuracies(own)
    best = (sum(alone.values()), 1, 0.0)
    tried = ["main network alone: " + ", ".join(f"{k} {v:.4f}" for k, v in alone.items())]
    concat = views_concat(onnx.load(str(expert_src)).graph)
    have = len(concat.input) if concat is not None else 1
    for views in (v for v in VIEW_COUNTS if v <= min(max_views, have)):
        ex = expert_outputs(expert_src, views, sets)
        row = []
        for w in EXPERT_WEIGHTS:
            acc = accuracies({k: own[k] + w * ex[k].astype(np.float64) for k in sets})
            row.append(f"{w:g}: " + "/".join(f"{v:.4f}" for v in acc.values()))
            if sum(acc.values()) > best[0] + 1e-9:
                best = (sum(acc.values()), views, w)
        tried.append(f"expert with {views} view{'s' if views > 1 else ''}, weight: {' / '.join(sets)} accuracy: "
                     + "; ".join(row))
    _, views, weight = best
    note = ("lab expert chosen on validation (score: lab validation accuracy + field validation accuracy of the summed "
            "logits; fewer views and lower weight on a tie): " + " | ".join(tried)
            + (f" | chosen: {views} view{'s' if views > 1 else ''}, weight {weight:g}" if weight else
               " | chosen: none (no weight beats the main network alone)"))
    print(note, flush=True)
    return views, weight, note


def attach(main_src: Path, expert_src: Path, dst: Path, max_views: int = 1, cache_dir: Path = D.DEFAULT_CACHE_DIR,
           replace: bool = False) -> dict:
    """`graft expert`: chooses the expert's views and weight on validation (choose_expert), writes the summed graph
    to `dst` (add_expert) with the main card extended, fits the calibration again on the lab validation split
    (quantize.recalibrate), chooses the thresholds again and measures every figure of the card on the new file
    (fieldtrain.rethreshold). Writes nothing when the expert does not help on validation. `replace`: an export
    that already holds an expert (and a gate) is taken without them first (without_expert)."""
    card = json.loads(card_path(main_src).read_text())  # main_src may be dst
    replaced, tmp_dir = "", None
    if "lab_expert" in card:
        if not replace:
            raise SystemExit(f"error: {main_src} already holds a lab expert (--replace takes it out first)")
        old = card["lab_expert"]["expert"]["file"]
        replaced = (f"; it replaced the expert {old['name']} (sha256 {old['sha256'][:12]}, weight "
                    f"{card['lab_expert']['weight']:g}{', and its lab gate' if 'lab_gate' in card else ''}) of "
                    f"{main_src.name} sha256 {file_digest(main_src)['sha256'][:12]}")
        card.pop("lab_expert")
        card.pop("lab_gate", None)
        card["outputs"].pop("lab_like", None)  # the gate's output goes with it
        card["notes"] = [n for n in card["notes"] if not n.startswith(("lab expert added by", "lab gate added by"))]
        tmp_dir = Path(tempfile.mkdtemp(prefix="diagrodl-main-"))
        main_digest = without_expert(main_src, tmp_dir / main_src.name)
        main_src = tmp_dir / main_src.name
    elif "lab_like_gate" in card:  # the gate alone (graft lab-like): `graft lab-gate` gives the expert's file its own
        replaced = (f"; the lab-like gate of {main_src.name} sha256 {file_digest(main_src)['sha256'][:12]} was taken out "
                    "first (graft lab-gate adds the gate that also weighs the expert)")
        card.pop("lab_like_gate")
        card["outputs"].pop("lab_like", None)
        card["notes"] = [n for n in card["notes"] if not n.startswith("output `lab_like` added by")]
        tmp_dir = Path(tempfile.mkdtemp(prefix="diagrodl-main-"))
        main_digest = without_lab_like(main_src, tmp_dir / main_src.name)
        main_src = tmp_dir / main_src.name
    else:
        main_digest = file_digest(main_src)
    ecp = card_path(expert_src)
    expert_card = json.loads(ecp.read_text()) if ecp.exists() else {}
    sources = evaluation_sources(card, cache_dir)
    _, cache, src = sources
    field_imgs, field_y = field_val_all(src)  # every field source's validation photos
    sets = {"lab": np.stack([to224(np.asarray(cache.images[j])) for j in src["lab_val"]]), "field": np.stack(field_imgs)}
    labels = {"lab": cache.labels[src["lab_val"]], "field": np.asarray(field_y)}
    try:
        views, weight, note = choose_expert(main_src, expert_src, sets, labels, max_views)
        if not weight:
            raise SystemExit(f"error: the expert does not raise the validation score; nothing written ({note})")
        add_expert(main_src, expert_src, dst, weight, views)
    finally:
        if tmp_dir is not None:
            shutil.rmtree(tmp_dir, ignore_errors=True)
    card["file"].update(name=dst.name, **file_digest(dst))
    if expert_card.get("parameters") and card.get("parameters"):
        card["parameters"] = int(card["parameters"]) + int(expert_card["parameters"])
    card["lab_expert"] = {
        "method": "the disease logits calibrated by the graph are the main network's plus `weight` times the expert's "
                  "(each averaged over its own symmetric views); temperature and class biases fitted again on the sum; "
                  "the `leaf` output and the `cam` are the main network's alone (ml/diagrodl_ml/ensemble.py)",
        "weight": weight, "views": views,
        "expert": {"file": {"name": expert_src.name, **file_digest(expert_src)},
                   **{k: expert_card[k] for k in ("architecture", "parameters", "version", "created_at") if k in expert_card},
                   **({"its_lab_test_accuracy": expert_card["metrics"]["accuracy"]} if "metrics" in expert_card else {})},
        "main": {"name": main_src.name, **main_digest},
        "choice": note,
    }
    card["notes"].append(f"lab expert added by `graft expert` (expert {expert_src.name}, weight {weight:g}, {views} "
                         f"view{'s' if views > 1 else ''}; lab_expert has the choice): the notes above describe "
                         f"{main_src.name} without it (sha256 {main_digest['sha256'][:12]}){replaced}")
    return refit_after_graph_change(card, dst, sources, "the lab expert")


def refit_after_graph_change(card: dict, dst: Path, sources: tuple, what: str) -> dict:
    """After a change to the disease logits of an export's graph (`what` was added): drops the per-CPU figures of
    the file before it, writes the card beside `dst`, fits the calibration again (quantize.recalibrate), chooses
    the thresholds again and measures every figure on the new file (fieldtrain.rethreshold)."""
    return _refit(card, dst, sources, f"when {what} was added: they were the figures of the file without it")


def _refit(card: dict, dst: Path, sources: tuple, why: str) -> dict:
    drop_cpu_figures(card, why)
    write_card(card, card_path(dst))
    recalibrate(dst, sources)
    return rethreshold(dst, sources=sources)


def refit_calibration(model: Path, cache_dir: Path = D.DEFAULT_CACHE_DIR) -> dict:
    """`recalibrate`: fits the calibration of an export again on validation (quantize.recalibrate: in a file with a
    lab gate, class biases scaled by the gate), chooses the thresholds again and measures every figure (in place)."""
    if not model.is_file() or not card_path(model).is_file():
        raise SystemExit(f"error: {model} and its card {card_path(model).name} are needed")
    card = json.loads(card_path(model).read_text())
    cal = card["calibration"]
    card["notes"].append(f"calibration fitted again by `recalibrate` (quantize.recalibrate; was T {cal.get('temperature')}, "
                         f"class biases {cal.get('class_bias')}; `calibration` has the new one); thresholds chosen and "
                         "every figure measured again")
    return _refit(card, model, evaluation_sources(card, cache_dir),
                  "when the calibration was fitted again: they were the figures of the calibration before")

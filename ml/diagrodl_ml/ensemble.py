"""A lab expert inside the shipped graph, on lab-like photos only (`graft expert`, after `graft lab-like`).

The field-robust MobileNetV2 is right on fewer lab photos than the project's earlier from-scratch MobileNetV3-Small,
trained on the lab photos alone, which is right on few field photos. `add_expert` puts the second network's disease
logits into the first one's graph, weighed by the first one's `lab_like` output (labgate.py):

    main disease logits + weight * clip((lab_like - start) / (1 - start), 0, 1) * expert disease logits

and the temperature and class biases are fitted again on that sum. The `leaf` output (not a tomato leaf), the `cam` and
`lab_like` stay the main network's own. `start` and `weight` are chosen on validation by `choose_on_lab_like`: the
highest lab validation accuracy among the pairs that leave the field validation photos' top-1 and right diagnoses
under the product's rules no lower than the file's as it is (with `--replace`, with the expert it holds), and its
diagnoses right as often (or 85 % of the time). A network trained on lab photos alone is sure of itself on field photos too, so a weight
on every photo costs field diagnoses (ml/LOG.md, twenty-third session).

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
from .calibrate import accepted, calibrated, choose_calibration
from .fieldtrain import FIELD_ACCEPTED_GOAL, choose_thresholds, drop_cpu_figures, evaluation_sources, field_val_all, rethreshold, validation_sets
from .models import VIEW_COUNTS
from .quantize import _disease_logits_tensor, probe_outputs, recalibrate
from .transfer import normalise_u8

PREFIX = "expert__"
RAMP_STARTS = (0.5, 0.7, 0.8, 0.9, 0.95)  # where the expert's weight starts to rise with lab_like
RAMP_WEIGHTS = (0.25, 0.5, 0.75, 1.0, 1.5, 2.0)  # its weight at lab_like 1
LAB_LIKE = "lab_like"  # the graph output of the lab-like gate (labgate.py): g of every photo, shape [N]


def ramp(lab_like: np.ndarray, start: float) -> np.ndarray:
    """The share of the expert's weight a photo gets: 0 up to `start`, rising linearly to 1 at lab_like 1."""
    return np.clip((np.asarray(lab_like, np.float64) - start) / (1 - start), 0, 1)


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


def add_expert(main_src: Path, expert_src: Path, dst: Path, weight: float, views: int, ramp_from: float) -> dict:
    """Writes to `dst` the main export with the expert's disease logits (averaged over `views`), each photo's weighed
    by `weight * ramp(lab_like, ramp_from)`, added to its own before the calibration (the Mul by `inv_t`). The file
    must have the `lab_like` output. Every other output keeps its inputs. Returns file_digest."""
    m = onnx.load(str(main_src))
    g = m.graph
    if _holds_expert(g):
        raise ValueError(f"{main_src} already holds an expert")
    if not any(LAB_LIKE in n.output for n in g.node):
        raise ValueError(f"{main_src} has no `{LAB_LIKE}` output to weigh the expert by")
    e, e_out = expert_logits_model(expert_src, views)
    own = _disease_logits_tensor(g)
    mul = next(n for n in g.node if n.op_type == "Mul" and "inv_t" in n.input)
    mul.input[:] = [PREFIX + "sum" if t == own else t for t in mul.input]
    g.initializer.append(numpy_helper.from_array(np.array(weight, np.float32), PREFIX + "weight"))
    g.initializer.extend(e.graph.initializer)
    p = lambda t: PREFIX + t  # noqa: E731
    for name, value in (("ramp_from", ramp_from), ("ramp_scale", 1.0 / (1.0 - ramp_from)), ("zero", 0.0), ("one", 1.0)):
        g.initializer.append(numpy_helper.from_array(np.array(value, np.float32), p(name)))
    g.initializer.append(numpy_helper.from_array(np.array([1], np.int64), p("axes")))
    added = list(e.graph.node) + [
        helper.make_node("Sub", [LAB_LIKE, p("ramp_from")], [p("ramp_sub")], name=p("ramp_sub")),
        helper.make_node("Mul", [p("ramp_sub"), p("ramp_scale")], [p("ramp_mul")], name=p("ramp_mul")),
        helper.make_node("Clip", [p("ramp_mul"), p("zero"), p("one")], [p("ramp")], name=p("ramp")),
        helper.make_node("Unsqueeze", [p("ramp"), p("axes")], [p("ramp_n1")], name=p("ramp_n1")),
        helper.make_node("Mul", [p("ramp_n1"), p("weight")], [p("photo_weight")], name=p("photo_weight")),
        helper.make_node("Mul", [e_out, p("photo_weight")], [p("weighted")], name=p("weight_mul"))]
    how = (f"{weight} x clip((lab_like - {ramp_from}) / (1 - {ramp_from}), 0, 1) x those of a lab expert network "
           "(on lab-like photos only)")
    added.append(helper.make_node("Add", [own, PREFIX + "weighted"], [PREFIX + "sum"], name=PREFIX + "sum_add"))
    nodes = list(g.node)
    at = nodes.index(mul)
    del g.node[:]
    g.node.extend(_in_order(nodes[:at] + added + nodes[at:], g))
    m.doc_string += (f" The disease logits are the main network's plus {how} "
                     f"({views} view{'s' if views > 1 else ''}), before calibration.")
    onnx.checker.check_model(m)
    onnx.save(m, str(dst))
    return file_digest(dst)


def _in_order(nodes: list[onnx.NodeProto], g: onnx.GraphProto) -> list[onnx.NodeProto]:
    """`nodes` in an order where each comes after the nodes that make its inputs (the given order where it is one
    already): the lab-like gate that weighs the expert comes after the calibration in a `graft lab-like` file."""
    ready = {i.name for i in g.input} | {i.name for i in g.initializer} | {""}
    left, out = list(nodes), []
    while left:  # the first node whose inputs are all made, each time
        k = next((k for k, n in enumerate(left) if all(t in ready for t in n.input)), None)
        if k is None:
            raise ValueError("the graph has a cycle or an input nothing makes")
        out.append(left.pop(k))
        ready.update(out[-1].output)
    return out


def without_expert(src: Path, dst: Path) -> dict:
    """Writes to `dst` the export `src` without its lab expert: the graph of the main network alone, its own disease
    logits calibrated (by the combined network's temperature and class biases, until they are fitted again); the
    `lab_like` gate that weighed the expert stays, with its output. Returns file_digest."""
    m = onnx.load(str(src))
    g = m.graph
    if not _holds_expert(g):
        raise ValueError(f"{src} holds no expert")
    own = next(n for n in g.node if n.name == PREFIX + "sum_add").input[0]
    mul = next(n for n in g.node if n.op_type == "Mul" and "inv_t" in n.input)
    mul.input[:] = [own if t == PREFIX + "sum" else t for t in mul.input]
    for part in (g.node, g.initializer):  # the expert's nodes and initializers, named PREFIX...
        keep = [x for x in part if not x.name.startswith(PREFIX)]
        del part[:]
        part.extend(keep)
    m.doc_string = m.doc_string.split(" The disease logits are the main network's plus")[0]
    onnx.checker.check_model(m)
    onnx.save(m, str(dst))
    return file_digest(dst)


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


def choose_on_lab_like(main_src: Path, expert_src: Path, sets: dict[str, np.ndarray], labels: dict[str, np.ndarray],
                       seed: int, now_src: Path | None = None) -> tuple[float, float, str]:
    """For a file with the `lab_like` output: the expert's ramp start (RAMP_STARTS) and weight (RAMP_WEIGHTS), one
    view. Each pair is scored under the product's rules, fitted on validation as the graft then fits them
    (quantize.recalibrate's calibration, class biases scaled by `lab_like`, by `seed`; then
    fieldtrain.choose_thresholds with the file's `leaf` and `lab_like` outputs):
    kept are the pairs whose field validation top-1 and right diagnoses are at least those of the file as it is now
    (`now_src`, default `main_src`: its own calibration, thresholds chosen again), and whose diagnoses are right as
    often, or FIELD_ACCEPTED_GOAL of the time; of those, the highest lab validation accuracy wins (the later start and
    the lower weight on a tie). With `--replace`, `now_src` is the file with the expert it holds: a new expert must
    keep what the old one gives.
    `sets`: fieldtrain.validation_sets. Returns start, weight (0: none) and a note with every figure."""
    def probe(src: Path, names: list[str], keys) -> dict[str, list[np.ndarray]]:
        return {k: [np.concatenate(col).astype(np.float64) for col in
                    zip(*probe_outputs(src, names, [normalise_u8(sets[k][s:s + 512])
                                                    for s in range(0, len(sets[k]), 512)]))]
                for k in keys}

    # one pass over the photos: the probabilities of the file as it is come with the rest, unless another file has them
    names = [_disease_logits_tensor(onnx.load(str(main_src)).graph), "leaf", LAB_LIKE]
    names += [] if now_src else ["probabilities"]
    probed = probe(main_src, names, sets)
    now = probe(now_src, ["probabilities"], ("lab", "field")) if now_src else {k: probed[k][3:] for k in ("lab", "field")}
    own = {k: probed[k][0] for k in ("lab", "field")}
    leaf = {k: v[1].reshape(-1) for k, v in probed.items()}
    lab_like = {k: probed[k][2].reshape(-1) for k in ("lab", "field")}
    ex = expert_outputs(expert_src, 1, {k: sets[k] for k in ("lab", "field")})
    y_lab, y_field = labels["lab"], labels["field"]

    def calibrate(z: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        cal = choose_calibration(z["lab"], y_lab, seed=seed, others={"field": (z["field"], y_field, lab_like["field"])},
                                 gate=lab_like["lab"])
        return {k: calibrated(z[k], cal["temperature"], cal["bias"], lab_like[k]) for k in z}

    def figures(p: dict[str, np.ndarray]) -> dict:
        leaf_rule, rule, _ = choose_thresholds(p["lab"], y_lab, p["field"], y_field, leaf, lab_like)
        given = (leaf["field"] >= leaf_rule["leaf_threshold"]) & accepted(p["field"], rule, lab_like=lab_like["field"])
        right = p["field"].argmax(1) == y_field
        return {"lab": float((p["lab"].argmax(1) == y_lab).mean()), "field_top1": float(right.mean()),
                "given": int(given.sum()), "right": int((given & right).sum()),
                "right_when_given": float(right[given].mean()) if given.any() else 0.0}

    def row(f: dict) -> str:
        return (f"lab {f['lab']:.4f}, field top-1 {f['field_top1']:.4f}, given {f['given']}, right {f['right']} "
                f"({f['right_when_given']:.3f})")

    alone = figures({k: now[k][0] for k in ("lab", "field")})
    precision = min(alone["right_when_given"], FIELD_ACCEPTED_GOAL)
    best, tried = (alone["lab"], 0.0, 0.0), [f"the file as it is{' (with its expert)' if now_src else ''}: {row(alone)}"]
    for start in RAMP_STARTS:
        for w in RAMP_WEIGHTS:
            f = figures(calibrate({k: own[k] + w * ramp(lab_like[k], start)[:, None] * ex[k].astype(np.float64)
                                   for k in own}))
            kept = (f["field_top1"] >= alone["field_top1"] and f["right"] >= alone["right"]
                    and f["right_when_given"] >= precision - 1e-9)
            tried.append(f"start {start:g}, weight {w:g}: {row(f)}{'' if kept else ' (fewer field figures)'}")
            if kept and (f["lab"] > best[0] + 1e-9 or (abs(f["lab"] - best[0]) <= 1e-9 and best[2] and start > best[1])):
                best = (f["lab"], start, w)
    _, start, weight = best
    note = ("lab expert on lab-like photos chosen on validation (the highest lab validation accuracy among the ramp "
            "starts and weights that keep the field validation photos' top-1 and right diagnoses, and diagnoses right "
            f"{precision:.3f} of the time, under calibration and rules fitted as the graft fits them): " + " | ".join(tried)
            + (f" | chosen: start {start:g}, weight {weight:g}" if weight else
               " | chosen: none (no pair raises lab accuracy and keeps the field figures)"))
    print(note, flush=True)
    return start, weight, note


def attach(main_src: Path, expert_src: Path, dst: Path, cache_dir: Path = D.DEFAULT_CACHE_DIR,
           replace: bool = False) -> dict:
    """`graft expert`: chooses the expert's ramp start and weight on validation (choose_on_lab_like; one view of the
    expert), writes the summed graph to `dst` (add_expert) with the main card extended, fits the calibration again on
    the lab validation split (quantize.recalibrate), chooses the thresholds again and measures every figure of the
    card on the new file (fieldtrain.rethreshold). Writes nothing when the expert does not help on validation.
    `replace`: an export that already holds an expert is taken without it first (without_expert), and the new one
    must keep the field figures the file gives with the old one."""
    if not main_src.is_file() or not card_path(main_src).is_file():
        raise SystemExit(f"error: {main_src} and its card {card_path(main_src).name} are needed")
    card = json.loads(card_path(main_src).read_text())  # main_src may be dst
    if "lab_like_gate" not in card:
        raise SystemExit(f"error: {main_src} has no `{LAB_LIKE}` output to weigh the expert by (graft lab-like first)")
    replaced, tmp_dir, now_src = "", None, None
    if "lab_expert" in card:
        if not replace:
            raise SystemExit(f"error: {main_src} already holds a lab expert (--replace takes it out first)")
        old = card["lab_expert"]["expert"]["file"]
        replaced = (f"; it replaced the expert {old['name']} (sha256 {old['sha256'][:12]}, weight "
                    f"{card['lab_expert']['weight']:g}) of "
                    f"{main_src.name} sha256 {file_digest(main_src)['sha256'][:12]}")
        card.pop("lab_expert")
        card["notes"] = [n for n in card["notes"] if not n.startswith("lab expert added by")]
        tmp_dir = Path(tempfile.mkdtemp(prefix="diagrodl-main-"))
        main_digest = without_expert(main_src, tmp_dir / main_src.name)
        now_src, main_src = main_src, tmp_dir / main_src.name
    else:
        main_digest = file_digest(main_src)
    ecp = card_path(expert_src)
    expert_card = json.loads(ecp.read_text()) if ecp.exists() else {}
    sources = evaluation_sources(card, cache_dir)
    cfg, cache, src = sources
    labels = {"lab": cache.labels[src["lab_val"]], "field": np.asarray(field_val_all(src)[1])}
    views = 1
    try:
        ramp_from, weight, note = choose_on_lab_like(main_src, expert_src, validation_sets(cache, src, cfg), labels,
                                                     cfg.seed, now_src=now_src)
        if not weight:
            raise SystemExit(f"error: the expert does not raise the validation score; nothing written ({note})")
        add_expert(main_src, expert_src, dst, weight, views, ramp_from)
    finally:
        if tmp_dir is not None:
            shutil.rmtree(tmp_dir, ignore_errors=True)
    card["file"].update(name=dst.name, **file_digest(dst))
    if expert_card.get("parameters") and card.get("parameters"):
        card["parameters"] = int(card["parameters"]) + int(expert_card["parameters"])
    weighing = "`weight` x clip((lab_like - ramp_from) / (1 - ramp_from), 0, 1) times the expert's (lab-like photos only)"
    card["lab_expert"] = {
        "method": f"the disease logits calibrated by the graph are the main network's plus {weighing} "
                  "(each averaged over its own symmetric views); temperature and class biases fitted again on the sum; "
                  "the `leaf` output and the `cam` are the main network's alone (ml/diagrodl_ml/ensemble.py)",
        "weight": weight, "views": views, "ramp_from": ramp_from,
        "expert": {"file": {"name": expert_src.name, **file_digest(expert_src)},
                   **{k: expert_card[k] for k in ("architecture", "parameters", "version", "created_at") if k in expert_card},
                   **({"its_lab_test_accuracy": expert_card["metrics"]["accuracy"]} if "metrics" in expert_card else {})},
        "main": {"name": main_src.name, **main_digest},
        "choice": note,
    }
    how = f"weight {weight:g} on lab-like photos, rising from lab_like {ramp_from:g}"
    card["notes"].append(f"lab expert added by `graft expert` (expert {expert_src.name}, {how}, {views} "
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

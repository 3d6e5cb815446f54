"""A gate on lab-like photos inside the shipped graph.

The field-robust MobileNetV2 is right on 0.94 of lab validation photos, its lab expert (ensemble.py) on 0.98; the
expert's weight is held at 0.25 because more of it costs field photos. Lab photos and field photos are easy to tell
apart, so `add_gate` lets the graph tell them apart and weigh the expert accordingly:

    g      = sigmoid(gate . features + c)              how much the photo looks like a lab photo (0..1)
    logits = main + (w_other + (w_lab - w_other) g) expert

`features` are the main network's pooled 1280 features of the photo itself (not its mirror image); `gate` is a
logistic regression on them, fitted on training photos only: lab training photos against field training photos
and lab leaves made to look like field photos. w_lab is chosen on validation (lab accuracy + field accuracy,
`choose`); w_other stays the expert's weight. The temperature and class biases are fitted again and the
thresholds chosen again (quantize.recalibrate, fieldtrain.rethreshold). `leaf` and `cam` are unchanged.

g is also an output of the graph, `lab_like` [N]: on photos below LAB_LIKE_CUT (field-like photos) the product is far
less often right (field validation part: 0.62 right when given against 1.00 on its lab-like photos), so the server and
the browser show a diagnosis of such a photo with a caution (packages/contracts LAB_LIKE_CUT, the same 0.5).
`expose_gate` adds that output to a file gated before it existed (`bash ml/run.sh graft expose-lab-like --model M.onnx`).

A second linear layer on the same features, fitted on lab training photos and added on gated photos, was tried
(weights 0.5 to 2, L2 1e-3 and 1e-2): it never raised the validation score, so it is not part of the graph.

`bash ml/run.sh graft lab-gate --model models/mobilenet.onnx --out models/mobilenet.onnx`
"""
from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import onnx
import torch
from onnx import helper, numpy_helper

from . import data as D
from . import fieldaug as FA
from .card import card_path, write_card
from .ensemble import GATE_PREFIX, LAB_LIKE, PREFIX as EXPERT, refit_after_graph_change
from .export import file_digest
from .fieldtrain import drop_cpu_figures, evaluation_sources, field_val_all, rethreshold
from .quantize import probe_outputs
from .sources import NEGATIVES_DIR
from .transfer import LAB_LIKE_CUT, load_photos, normalise_u8, sigmoid, to224

PREFIX = GATE_PREFIX
SEED = 2031
LAB_EXPERT_WEIGHTS = (0.5, 1.0, 2.0, 3.0)  # w_lab candidates
GATE_L2 = 1e-2
FIELD_VIEWS = 8  # varied views per field training photo (negatives of the gate)
FIELD_LIKE = 1500  # lab training leaves made to look like field photos (negatives of the gate)
BACKGROUNDS = 600  # training negatives used as their backgrounds


# ---------------------------------------------------------------- the graph's tensors
def _node(graph: onnx.GraphProto, name: str) -> onnx.NodeProto:
    try:
        return next(n for n in graph.node if n.name == name)
    except StopIteration:
        raise ValueError(f"the graph has no node {name!r}: add the lab expert first (graft expert)") from None


def tensors(graph: onnx.GraphProto) -> dict[str, str]:
    """Names of the main network's pooled features (the input of its head, every view), its disease logits and
    the expert's disease logits, in a file that holds a lab expert and no gate yet."""
    if any(n.name.startswith(PREFIX) for n in graph.node):
        raise ValueError("the graph already holds a lab gate")
    add = _node(graph, EXPERT + "sum_add")
    head = next((n for n in graph.node if n.op_type == "Gemm" and "fc.weight" in n.input), None)
    if head is None:
        raise ValueError("the graph has no Gemm with fc.weight (the main network's head)")
    return {"features": head.input[0], "main": next(i for i in add.input if i != EXPERT + "weighted"),
            "expert": EXPERT + "logits"}


def own_view(graph: onnx.GraphProto, features: str, prefix: str = PREFIX) -> str:
    """Adds to `graph` the pooled features of each photo's own view: the first N rows of `features` (the views of a
    batch of N follow one another, export.add_views), its nodes named with `prefix`. Returns the new tensor's name."""
    graph.initializer.append(numpy_helper.from_array(np.asarray([0], np.int64), prefix + "zero"))
    graph.node.extend([
        helper.make_node("Shape", ["input"], [prefix + "n"], name=prefix + "n", start=0, end=1),
        helper.make_node("Slice", [features, prefix + "zero", prefix + "n", prefix + "zero"], [prefix + "features"],
                         name=prefix + "own_view")])
    return prefix + "features"


def _probe_own_view(model_path: Path, features: str, others: list[str], images_u8: np.ndarray | list[np.ndarray],
                    batch: int = 256) -> list[np.ndarray]:
    """Each photo's own-view pooled features (the tensor `features`, every view) and the tensors `others`, float64,
    from a temporary copy of the file that has them as outputs."""
    m = onnx.load(str(model_path))
    own = own_view(m.graph, features)
    tmp = model_path.with_suffix(".gate-probe.onnx")
    onnx.save(m, str(tmp))
    try:
        x = normalise_u8(np.asarray(images_u8))
        outs = probe_outputs(tmp, [own, *others], [x[s:s + batch] for s in range(0, len(x), batch)])
    finally:
        tmp.unlink(missing_ok=True)
    return [np.concatenate([o[i] for o in outs]).astype(np.float64) for i in range(1 + len(others))]


def probe(model_path: Path, images_u8: np.ndarray | list[np.ndarray], batch: int = 256) -> dict[str, np.ndarray]:
    """Pooled features of each photo's own view, the main and the expert disease logits (float64)."""
    names = tensors(onnx.load(str(model_path)).graph)
    got = _probe_own_view(model_path, names["features"], [names["main"], names["expert"]], images_u8, batch)
    return dict(zip(("features", "main", "expert"), got))


# ---------------------------------------------------------------- the fits
def fit_linear(x: np.ndarray, y: np.ndarray, classes: int, l2: float, weights: np.ndarray | None = None
               ) -> tuple[np.ndarray, np.ndarray]:
    """Weighted multinomial logistic regression on standardised inputs (LBFGS, L2 `l2` on the weights). Returns
    W [D, classes] and b [classes] that act on the raw inputs (the standardisation folded in)."""
    mu, sd = x.mean(0), x.std(0) + 1e-6
    xs = torch.tensor((x - mu) / sd, dtype=torch.float64)
    yt = torch.tensor(y, dtype=torch.int64)
    wt = torch.ones(len(y), dtype=torch.float64) if weights is None else torch.tensor(weights, dtype=torch.float64)
    w = torch.zeros(x.shape[1], classes, dtype=torch.float64, requires_grad=True)
    b = torch.zeros(classes, dtype=torch.float64, requires_grad=True)
    opt = torch.optim.LBFGS([w, b], max_iter=300, line_search_fn="strong_wolfe")

    def closure():
        opt.zero_grad()
        loss = (torch.nn.functional.cross_entropy(xs @ w + b, yt, reduction="none") * wt).sum() / wt.sum() \
            + l2 * (w ** 2).sum()
        loss.backward()
        return loss

    opt.step(closure)
    wn, bn = w.detach().numpy() / sd[:, None], b.detach().numpy()
    return wn, bn - mu @ wn


def training_sets(cache, src: dict, seed: int = SEED, lab_views: bool = True) -> dict[str, list[np.ndarray]]:
    """`src`: what fieldtrain.evaluation_sources returns (the splits and the field training photos).

    Training photos only: `lab` (each lab training photo as the product sees it and one lab view of it) and
    `not_lab` (field training photos and FIELD_VIEWS views of each, FIELD_LIKE lab leaves on crops of training
    negatives)."""
    rng = np.random.default_rng(seed)
    tr = src["lab_train"]
    lab = [to224(np.asarray(cache.images[j])) for j in tr] + ([FA.lab_view(np.asarray(cache.images[j]), rng) for j in tr]
                                                           if lab_views else [])
    field = src["field_train"][0]  # loaded by evaluation_sources
    neg = [p.rel_path for p in src["negatives_split"]["train"]]
    backgrounds = [b for b in load_photos(NEGATIVES_DIR, [neg[i] for i in rng.choice(len(neg), min(BACKGROUNDS, len(neg)), replace=False)])
                   if b.shape[0] >= 200]
    like = [FA.field_like(np.asarray(cache.images[j]), np.asarray(cache.masks[j]), rng, backgrounds)
            if np.asarray(cache.masks[j]).min() == 0 else FA.lab_view(np.asarray(cache.images[j]), rng)
            for j in tr[rng.choice(len(tr), min(FIELD_LIKE, len(tr)), replace=False)]]
    return {"lab": lab, "not_lab": list(field) + [FA.photo_view(f, rng) for f in field for _ in range(FIELD_VIEWS)] + like}


def fit_gate(lab_features: np.ndarray, other_features: np.ndarray, l2: float = GATE_L2) -> tuple[np.ndarray, float]:
    """Logistic regression lab (1) against not lab (0), each side weighing half. Returns w [D] and c."""
    x = np.concatenate([lab_features, other_features])
    y = np.concatenate([np.ones(len(lab_features), np.int64), np.zeros(len(other_features), np.int64)])
    wts = np.concatenate([np.full(len(lab_features), 0.5 / len(lab_features)),
                          np.full(len(other_features), 0.5 / len(other_features))]) * len(x)
    w, b = fit_linear(x, y, 2, l2, wts)
    return w[:, 1] - w[:, 0], float(b[1] - b[0])


def gate_of(features: np.ndarray, gate: tuple[np.ndarray, float]) -> np.ndarray:
    return sigmoid(features @ gate[0] + gate[1])


def combined(p: dict[str, np.ndarray], gate: tuple[np.ndarray, float], w_lab: float, w_other: float) -> np.ndarray:
    """The disease logits the graph computes (the formula in the module's docstring), in numpy."""
    return p["main"] + (w_other + (w_lab - w_other) * gate_of(p["features"], gate)[:, None]) * p["expert"]


def choose(train: dict[str, dict[str, np.ndarray]], val: dict[str, dict[str, np.ndarray]], y_val: dict[str, np.ndarray],
           w_other: float) -> tuple[dict, str]:
    """Fits the gate on the training photos' features and chooses w_lab (LAB_EXPERT_WEIGHTS) that gives the highest
    lab + field validation accuracy (the lower weight on a tie). The file as it is (w_lab = w_other) is the first
    candidate, kept unless beaten."""
    gate = fit_gate(train["lab"]["features"], train["not_lab"]["features"])

    def accuracy(w_lab: float) -> dict[str, float]:
        return {k: float((combined(p, gate, w_lab, w_other).argmax(1) == y_val[k]).mean()) for k, p in val.items()}

    base = accuracy(w_other)
    best, rows = (sum(base.values()), w_other, base), []
    for w_lab in LAB_EXPERT_WEIGHTS:
        a = accuracy(w_lab)
        rows.append(f"{w_lab:g}: " + "/".join(f"{v:.4f}" for v in a.values()))
        if sum(a.values()) > best[0] + 1e-9:
            best = (sum(a.values()), w_lab, a)
    _, w_lab, a = best
    chosen = {"gate": gate, "w_lab": w_lab, "w_other": w_other, "val_accuracy": a, "val_accuracy_before": base,
              "share_gated": {part: {k: float((gate_of(p["features"], gate) > 0.5).mean()) for k, p in sets.items()}
                              for part, sets in (("train", train), ("val", val))}}
    note = ("lab gate chosen on validation (score: lab + field validation accuracy of the combined logits; the lower "
            f"weight on a tie): the file as it was (expert weight {w_other:g} on every photo): "
            + "/".join(f"{v:.4f}" for v in base.values()) + f" | expert weight on lab-like photos, {'/'.join(y_val)} "
            f"accuracy: " + "; ".join(rows) + f" | chosen: {w_lab:g}"
            + "; photos with gate > 0.5: " + ", ".join(f"{part} {k} {v:.4f}" for part, d in chosen["share_gated"].items()
                                                      for k, v in d.items()))
    print(note, flush=True)
    return chosen, note


# ---------------------------------------------------------------- the graph
def add_gate(src: Path, dst: Path, chosen: dict) -> dict:
    """Writes to `dst` the export `src` with the gate in its graph (module docstring). Returns file_digest."""
    m = onnx.load(str(src))
    g = m.graph
    t = tensors(g)
    gate_w, gate_c = chosen["gate"]
    p = lambda s: PREFIX + s  # noqa: E731
    inits = {"gate_w": np.asarray(gate_w, np.float32).reshape(-1, 1), "gate_c": np.asarray([gate_c], np.float32),
             "span": np.asarray(chosen["w_lab"] - chosen["w_other"], np.float32),
             "w_other": np.asarray(chosen["w_other"], np.float32)}
    g.initializer.extend(numpy_helper.from_array(v, p(k)) for k, v in inits.items())
    g.initializer.remove(next(i for i in g.initializer if i.name == EXPERT + "weight"))
    own_view(g, t["features"])
    added = [g.node.pop(), g.node.pop()][::-1] + [
        helper.make_node("Gemm", [p("features"), p("gate_w"), p("gate_c")], [p("gate_logit")], name=p("gate_gemm")),
        helper.make_node("Sigmoid", [p("gate_logit")], [p("gate")], name=p("gate")),
        helper.make_node("Mul", [p("gate"), p("span")], [p("span_g")], name=p("span_g")),
        helper.make_node("Add", [p("span_g"), p("w_other")], [p("expert_weight")], name=p("expert_weight")),
    ]
    wmul = _node(g, EXPERT + "weight_mul")
    wmul.input[:] = [p("expert_weight") if i == EXPERT + "weight" else i for i in wmul.input]
    nodes = list(g.node)
    at = nodes.index(wmul)
    del g.node[:]
    g.node.extend(nodes[:at] + added + nodes[at:])
    add_lab_like_output(g)
    m.doc_string += " A gate on the main network's features weighs the lab expert more on lab-like photos (labgate.py)."
    onnx.checker.check_model(m)
    onnx.save(m, str(dst))
    return file_digest(dst)


def add_lab_like_output(graph: onnx.GraphProto) -> None:
    """Adds the graph output `lab_like` [N]: the gate's value of each photo."""
    if any(o.name == LAB_LIKE for o in graph.output):
        raise ValueError(f"the graph already has an output {LAB_LIKE!r}")
    if not any(n.name == PREFIX + "gate" for n in graph.node):
        raise ValueError("the graph holds no lab gate (graft lab-gate)")
    graph.initializer.append(numpy_helper.from_array(np.asarray([-1], np.int64), PREFIX + "flat"))
    graph.node.append(helper.make_node("Reshape", [PREFIX + "gate", PREFIX + "flat"], [LAB_LIKE], name=PREFIX + "lab_like"))
    graph.output.append(helper.make_tensor_value_info(LAB_LIKE, onnx.TensorProto.FLOAT, ["N"]))


LAB_LIKE_DESCRIPTION = (f"how much the photo looks like the lab photos (0..1, the lab gate's value); below {LAB_LIKE_CUT} "
                        "a diagnosis is shown with a caution: the product is less often right on field-like photos")


# ---------------------------------------------------------------- the commands
def expose_gate(model: Path, cache_dir: Path = D.DEFAULT_CACHE_DIR) -> dict:
    """`graft expose-lab-like`: adds the output `lab_like` to a file gated before it existed (in place), and measures every
    figure of the card again (fieldtrain.rethreshold: the same thresholds come back, as the probabilities are the
    same; the evaluation now has its figures by photo kind)."""
    if not model.is_file() or not card_path(model).is_file():
        raise SystemExit(f"error: {model} and its card {card_path(model).name} are needed")
    card = json.loads(card_path(model).read_text())
    if "lab_gate" not in card:
        raise SystemExit(f"error: {model} holds no lab gate (graft lab-gate first)")
    m = onnx.load(str(model))
    try:
        add_lab_like_output(m.graph)
    except ValueError as e:
        raise SystemExit(f"error: {model}: {e}") from None
    onnx.checker.check_model(m)
    before = card["rejection"]["threshold"], card["rejection"]["leaf_threshold"]
    tmp = model.with_suffix(".lab-like.tmp")
    onnx.save(m, str(tmp))
    tmp.replace(model)
    card["file"].update(file_digest(model))
    card["outputs"][LAB_LIKE] = {"shape": ["N"], "description": LAB_LIKE_DESCRIPTION}
    card["notes"].append(f"output `{LAB_LIKE}` added by `graft expose-lab-like` (labgate.expose_gate); every figure measured again")
    write_card(card, card_path(model))
    card = rethreshold(model, cache_dir)
    after = card["rejection"]["threshold"], card["rejection"]["leaf_threshold"]
    if after != before:
        print(f"note: the thresholds changed from {before} to {after}", flush=True)
    return card


def attach_gate(model: Path, dst: Path, cache_dir: Path = D.DEFAULT_CACHE_DIR) -> dict:
    """`graft lab-gate`: fits the gate and the lab head on training photos, chooses the weights on validation, writes
    the graph and the card, fits the calibration and chooses the thresholds again, and measures every figure of the
    card on the new file. Writes nothing when the gate does not raise the validation score."""
    if not model.is_file() or not card_path(model).is_file():
        raise SystemExit(f"error: {model} and its card {card_path(model).name} are needed")
    card = json.loads(card_path(model).read_text())
    if "lab_gate" in card:
        raise SystemExit(f"error: {model} already holds a lab gate")
    if "lab_expert" not in card:
        raise SystemExit(f"error: {model} holds no lab expert (graft expert first)")
    if "lab_like_gate" in card:
        raise SystemExit(f"error: the lab expert of {model} is weighed by its `lab_like` output already (graft expert)")
    before = file_digest(model)
    sources = evaluation_sources(card, cache_dir)
    _, cache, src = sources
    t0 = time.time()
    sets = training_sets(cache, src)
    print(f"training photos for the gate: {', '.join(f'{k} {len(v)}' for k, v in sets.items())} "
          f"({time.time() - t0:.0f}s)", flush=True)
    train = {k: probe(model, v) for k, v in sets.items()}
    field_imgs, field_y = field_val_all(src)  # every field source's validation photos
    val_images = {"lab": [to224(np.asarray(cache.images[j])) for j in src["lab_val"]], "field": field_imgs}
    val = {k: probe(model, v) for k, v in val_images.items()}
    y_val = {"lab": cache.labels[src["lab_val"]], "field": np.asarray(field_y)}
    chosen, note = choose(train, val, y_val, float(card["lab_expert"]["weight"]))
    if chosen["w_lab"] == chosen["w_other"]:
        raise SystemExit(f"error: the gate does not raise the validation score; nothing written ({note})")
    add_gate(model, dst, chosen)
    card["file"].update(name=dst.name, **file_digest(dst))
    card["parameters"] = int(card.get("parameters", 0)) + int(chosen["gate"][0].size + 1)
    card["outputs"][LAB_LIKE] = {"shape": ["N"], "description": LAB_LIKE_DESCRIPTION}
    card["lab_gate"] = {
        "method": "g = sigmoid(gate . features + c), features = the main network's pooled features of the photo; "
                  "disease logits = main + (w_other + (w_lab - w_other) g) expert; the gate is a logistic regression "
                  "fitted on training photos (lab training photos against field training photos and lab leaves made "
                  "to look like field photos; ml/diagrodl_ml/labgate.py), w_lab chosen on validation; calibration "
                  "and thresholds fitted again; `leaf` and `cam` unchanged",
        "w_lab": chosen["w_lab"], "w_other": chosen["w_other"], "gate_l2": GATE_L2,
        "training_photos": {k: len(v) for k, v in sets.items()},
        "share_gated": {part: {k: round(v, 4) for k, v in d.items()} for part, d in chosen["share_gated"].items()},
        "val_accuracy": {k: round(v, 4) for k, v in chosen["val_accuracy"].items()},
        "val_accuracy_before": {k: round(v, 4) for k, v in chosen["val_accuracy_before"].items()},
        "from": {"name": model.name, **before},
        "choice": note,
    }
    card["notes"].append(f"lab gate added by `graft lab-gate` (lab_gate has the choice): the figures before it were "
                         f"those of {model.name} sha256 {before['sha256'][:12]}")
    return refit_after_graph_change(card, dst, sources, "the lab gate")


# ---------------------------------------------------------------- the gate alone: `lab_like` without a lab expert
def pooled_features(model_path: Path, images_u8: np.ndarray | list[np.ndarray], batch: int = 256) -> np.ndarray:
    """The pooled features (the input of the head's Gemm) of each photo's own view, from the exported file."""
    head = next((n for n in onnx.load(str(model_path)).graph.node if n.op_type == "Gemm" and "fc.weight" in n.input), None)
    if head is None:
        raise SystemExit(f"error: {model_path} has no Gemm with fc.weight (the network's head)")
    return _probe_own_view(model_path, head.input[0], [], images_u8, batch)[0]


def add_lab_like(src: Path, dst: Path, gate: tuple[np.ndarray, float]) -> dict:
    """Writes to `dst` the export `src` with the output `lab_like` = sigmoid(gate . features + c) of each photo's own
    view; every other output unchanged. Returns file_digest."""
    m = onnx.load(str(src))
    g = m.graph
    if any(o.name == LAB_LIKE for o in g.output):
        raise SystemExit(f"error: {src} already has an output {LAB_LIKE!r}")
    head = next(n for n in g.node if n.op_type == "Gemm" and "fc.weight" in n.input)
    p = lambda s: PREFIX + s  # noqa: E731
    g.initializer.extend([numpy_helper.from_array(np.asarray(gate[0], np.float32).reshape(-1, 1), p("gate_w")),
                          numpy_helper.from_array(np.asarray([gate[1]], np.float32), p("gate_c"))])
    own_view(g, head.input[0])
    g.node.extend([helper.make_node("Gemm", [p("features"), p("gate_w"), p("gate_c")], [p("gate_logit")], name=p("gate_gemm")),
                   helper.make_node("Sigmoid", [p("gate_logit")], [p("gate")], name=p("gate"))])
    add_lab_like_output(g)
    m.doc_string += " A gate on the network's pooled features says how much the photo looks like a lab photo (labgate.py)."
    onnx.checker.check_model(m)
    tmp = dst.with_suffix(".lab-like.tmp")
    onnx.save(m, str(tmp))
    tmp.replace(dst)
    return file_digest(dst)


def attach_lab_like(model: Path, dst: Path, cache_dir: Path = D.DEFAULT_CACHE_DIR) -> dict:
    """`graft lab-like`: the gate alone, for a network without a lab expert (the GPU networks of 2026-11-28). Fits the
    gate on training photos (each lab training photo as the product sees it against field training photos, views of
    them and lab leaves made to look like field photos), adds the output `lab_like`, and chooses the thresholds again
    (fieldtrain.rethreshold: a confidence threshold of its own for field-like photos, `field_threshold`, raised for the
    field goal; the lab-like photos' one lowered to keep lab validation photos refused at 1.5 % or less) and
    measures every figure on the new file. A diagnosis of a field-like photo then carries the product's caution."""
    if not model.is_file() or not card_path(model).is_file():
        raise SystemExit(f"error: {model} and its card {card_path(model).name} are needed")
    card = json.loads(card_path(model).read_text())
    if "lab_expert" in card or LAB_LIKE in card.get("outputs", {}):
        raise SystemExit(f"error: {model} already holds a lab expert or a `{LAB_LIKE}` output")
    before = file_digest(model)
    sources = evaluation_sources(card, cache_dir)
    _, cache, src = sources
    t0 = time.time()
    sets = training_sets(cache, src, lab_views=False)
    feats = {k: pooled_features(model, v) for k, v in sets.items()}
    print(f"gate features: {', '.join(f'{k} {len(v)}' for k, v in feats.items())} ({time.time() - t0:.0f}s)", flush=True)
    gate = fit_gate(feats["lab"], feats["not_lab"])
    val = {"lab": pooled_features(model, [to224(np.asarray(cache.images[j])) for j in src["lab_val"]]),
           "field": pooled_features(model, field_val_all(src)[0])}
    share = {k: round(float((gate_of(v, gate) >= LAB_LIKE_CUT).mean()), 4) for k, v in val.items()}
    add_lab_like(model, dst, gate)
    card["file"].update(name=dst.name, **file_digest(dst))
    card["parameters"] = int(card.get("parameters", 0)) + int(gate[0].size + 1)
    card["outputs"][LAB_LIKE] = {"shape": ["N"], "description": LAB_LIKE_DESCRIPTION}
    card["lab_like_gate"] = {
        "method": "lab_like = sigmoid(gate . features + c), features = the network's pooled features of the photo; a "
                  "logistic regression fitted on training photos (lab training photos against field training photos, "
                  f"{FIELD_VIEWS} views of each and lab leaves made to look like field photos; labgate.attach_lab_like); "
                  "probabilities, leaf and cam unchanged; thresholds chosen again on validation",
        "gate_l2": GATE_L2, "training_photos": {k: len(v) for k, v in sets.items()},
        "val_share_lab_like": share, "from": {"name": model.name, **before},
    }
    drop_cpu_figures(card, "when the output lab_like was added: they were the figures of the file without it")
    card["notes"].append(f"output `{LAB_LIKE}` added by `graft lab-like` (lab_like_gate); the figures before it were those "
                         f"of {model.name} sha256 {before['sha256'][:12]}")
    write_card(card, card_path(dst))
    return rethreshold(dst, sources=sources)

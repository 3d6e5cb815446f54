"""`lab_like`: how much a photo looks like the lab photos, an output of the shipped graph (`graft lab-like`).

    lab_like = sigmoid(gate . features + c)

`features` are the network's pooled features of the photo itself (not its mirror image); `gate` is a logistic
regression on them, fitted on training photos only: each lab training photo as the product sees it, against field
training photos, FIELD_VIEWS varied views of each and lab leaves made to look like field photos. Every other output
is unchanged; the thresholds are chosen again (fieldtrain.rethreshold), with a confidence threshold of their own for
field-like photos. On photos below LAB_LIKE_CUT (packages/contracts, the same 0.5) the server and the browser show a
diagnosis with a caution: the product is far less often right on field-like photos. `graft expert` then weighs a lab
expert by this output (ensemble.py).

`bash ml/run.sh graft lab-like --model M.onnx --out OUT.onnx`
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
from .ensemble import LAB_LIKE
from .export import file_digest
from .fieldtrain import drop_cpu_figures, evaluation_sources, field_val_all, rethreshold
from .quantize import lab_like_shares, probe_outputs
from .sources import NEGATIVES_DIR
from .transfer import LAB_LIKE_CUT, load_photos, normalise_u8, sigmoid, to224

PREFIX = "labgate__"  # the names of the gate's nodes and initializers (quantize.GATE_TENSOR is PREFIX + "gate")
SEED = 2031
GATE_L2 = 1e-2
FIELD_VIEWS = 8  # varied views per field training photo (negatives of the gate)
FIELD_LIKE = 1500  # lab training leaves made to look like field photos (negatives of the gate)
BACKGROUNDS = 600  # training negatives used as their backgrounds


def own_view(graph: onnx.GraphProto, features: str, prefix: str = PREFIX) -> str:
    """Adds to `graph` the pooled features of each photo's own view: the first N rows of `features` (the views of a
    batch of N follow one another, export.add_views), its nodes named with `prefix`. Returns the new tensor's name."""
    graph.initializer.append(numpy_helper.from_array(np.asarray([0], np.int64), prefix + "zero"))
    graph.node.extend([
        helper.make_node("Shape", ["input"], [prefix + "n"], name=prefix + "n", start=0, end=1),
        helper.make_node("Slice", [features, prefix + "zero", prefix + "n", prefix + "zero"], [prefix + "features"],
                         name=prefix + "own_view")])
    return prefix + "features"


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


def training_sets(cache, src: dict, seed: int = SEED) -> dict[str, list[np.ndarray]]:
    """`src`: what fieldtrain.evaluation_sources returns (the splits and the field training photos).

    Training photos only: `lab` (each lab training photo as the product sees it) and
    `not_lab` (field training photos and FIELD_VIEWS views of each, FIELD_LIKE lab leaves on crops of training
    negatives)."""
    rng = np.random.default_rng(seed)
    tr = src["lab_train"]
    lab = [to224(np.asarray(cache.images[j])) for j in tr]
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


def add_lab_like_output(graph: onnx.GraphProto) -> None:
    """Adds the graph output `lab_like` [N]: the gate's value of each photo."""
    if any(o.name == LAB_LIKE for o in graph.output):
        raise ValueError(f"the graph already has an output {LAB_LIKE!r}")
    if not any(n.name == PREFIX + "gate" for n in graph.node):
        raise ValueError("the graph holds no lab gate")
    graph.initializer.append(numpy_helper.from_array(np.asarray([-1], np.int64), PREFIX + "flat"))
    graph.node.append(helper.make_node("Reshape", [PREFIX + "gate", PREFIX + "flat"], [LAB_LIKE], name=PREFIX + "lab_like"))
    graph.output.append(helper.make_tensor_value_info(LAB_LIKE, onnx.TensorProto.FLOAT, ["N"]))


LAB_LIKE_DESCRIPTION = (f"how much the photo looks like the lab photos (0..1, the lab gate's value); below {LAB_LIKE_CUT} "
                        "a diagnosis is shown with a caution: the product is less often right on field-like photos")


# ---------------------------------------------------------------- the graft
def pooled_features(model_path: Path, images_u8: np.ndarray | list[np.ndarray], batch: int = 256) -> np.ndarray:
    """The pooled features (the input of the head's Gemm) of each photo's own view, float64, from a temporary copy of
    the exported file that has them as an output."""
    m = onnx.load(str(model_path))
    head = next((n for n in m.graph.node if n.op_type == "Gemm" and "fc.weight" in n.input), None)
    if head is None:
        raise SystemExit(f"error: {model_path} has no Gemm with fc.weight (the network's head)")
    own = own_view(m.graph, head.input[0])
    tmp = model_path.with_suffix(".gate-probe.onnx")
    onnx.save(m, str(tmp))
    try:
        x = normalise_u8(np.asarray(images_u8))
        outs = probe_outputs(tmp, [own], [x[s:s + batch] for s in range(0, len(x), batch)])
    finally:
        tmp.unlink(missing_ok=True)
    return np.concatenate([o[0] for o in outs]).astype(np.float64)


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
    sets = training_sets(cache, src)
    feats = {k: pooled_features(model, v) for k, v in sets.items()}
    print(f"gate features: {', '.join(f'{k} {len(v)}' for k, v in feats.items())} ({time.time() - t0:.0f}s)", flush=True)
    gate = fit_gate(feats["lab"], feats["not_lab"])
    val = {"lab": pooled_features(model, [to224(np.asarray(cache.images[j])) for j in src["lab_val"]]),
           "field": pooled_features(model, field_val_all(src)[0])}
    share = lab_like_shares(gate_of(val["lab"], gate), gate_of(val["field"], gate))
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

"""A second "not a tomato leaf" signal inside the graph: how close the photo's features are to the training leaves'.

The 11th output learned "not a tomato leaf" from everyday photos, synthetic images and background-only crops. It
has never seen a leaf of another plant, and the product is also measured on leaves of other crops. A leaf it has
never seen lands in feature space away from every tomato leaf it trained on. So:

    s    = the K-th highest cosine similarity between the photo's pooled features (its own view) and the
           reference centroids (spherical k-means of the features of the lab training photos, PER_LAB per class,
           and of the field training photos and FIELD_VIEWS views of each, PER_FIELD per class)
    leaf = min(leaf, sigmoid(logit(leaf_threshold) + SLOPE (s - floor)))

so the card's leaf rule (leaf below leaf_threshold: "No parece una hoja de tomate") also refuses a photo whose
similarity is below `floor`, and nothing else changes: the server, the browser and the CLI read the same output
with the same threshold. Above the floor by 0.1 the cap is above 0.9999, so `leaf` is the 11th output's own.

`floor` is chosen on validation: the highest that puts at most MAX_LAB of lab validation photos and at most
MAX_FIELD field validation photos below it. What it buys cannot be measured on the data here (there are no leaves
of other crops), so the card reports a proxy on validation: each tomato class left out of the references in turn
(the floor chosen again without it), the share of its lab validation photos that fall below the floor.

`bash ml/run.sh graft familiarity --model models/mobilenet.onnx --out models/mobilenet.onnx`
"""
from __future__ import annotations

import json
import math
import time
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from . import data as D
from . import fieldaug as FA
from .card import card_path, write_card
from .classes import CLASS_IDS, NUM_CLASSES
from .export import file_digest
from .fieldtrain import drop_cpu_figures, evaluation_sources, rethreshold, validation_sets
from .labgate import own_view
from .quantize import probe_outputs
from .transfer import normalise_u8, to224

PREFIX = "familiar__"
SEED = 2032
PER_LAB = 48  # centroids per class, lab training photos
PER_FIELD = 12  # centroids per class, field training photos and their views
FIELD_VIEWS = 8
K = 3  # the K-th nearest centroid
MAX_LAB = 0.005  # lab validation photos allowed below the floor
MAX_FIELD = 1  # field validation photos allowed below the floor
MARGIN = 0.002  # the floor sits this far below the last allowed photo's similarity
SLOPE = 50.0


# ---------------------------------------------------------------- the graph's tensors
def _features(graph: onnx.GraphProto) -> str:
    head = next((n for n in graph.node if n.op_type == "Gemm" and "fc.weight" in n.input), None)
    if head is None:
        raise ValueError("the graph has no Gemm with fc.weight (the main network's head)")
    return head.input[0]


def _own_view(graph: onnx.GraphProto) -> str:
    """The pooled features of each photo's own view, as a new tensor of `graph` (labgate.own_view)."""
    return own_view(graph, _features(graph), PREFIX)


def own_features(model_path: Path, images_u8: list[np.ndarray] | np.ndarray, batch: int = 256) -> np.ndarray:
    """Pooled features of each photo's own view (float64 [N, D]), by onnxruntime-node on the file."""
    m = onnx.load(str(model_path))
    own = _own_view(m.graph)
    tmp = model_path.with_suffix(".familiar-probe.onnx")
    onnx.save(m, str(tmp))
    try:
        outs = []
        for s in range(0, len(images_u8), 1024):  # 1,024 photos at a time: float32 224 px is 0.6 MB a photo
            x = normalise_u8(np.asarray(images_u8[s:s + 1024]))
            outs += probe_outputs(tmp, [own], [x[t:t + batch] for t in range(0, len(x), batch)])
    finally:
        tmp.unlink(missing_ok=True)
    return np.concatenate([o[0] for o in outs]).astype(np.float64)


# ---------------------------------------------------------------- references, similarity, floor
def unit(x: np.ndarray) -> np.ndarray:
    return x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)


def spherical_kmeans(x: np.ndarray, k: int, rng: np.random.Generator, iterations: int = 25) -> np.ndarray:
    """k unit centroids of the unit rows of `x` (cosine k-means; an empty cluster keeps its centroid)."""
    x = unit(x)
    c = x[rng.choice(len(x), min(k, len(x)), replace=False)].copy()
    for _ in range(iterations):
        a = (x @ c.T).argmax(1)
        for j in range(len(c)):
            if (a == j).any():
                c[j] = x[a == j].mean(0)
        c = unit(c)
    return c


def references(lab: np.ndarray, y_lab: np.ndarray, field: np.ndarray, y_field: np.ndarray,
               seed: int = SEED) -> tuple[np.ndarray, np.ndarray]:
    """Centroids [M, D] (rounded to float16, as the graph stores them) and the class of each [M]."""
    rng = np.random.default_rng(seed)
    cents, cls = [], []
    for x, y, per in ((lab, y_lab, PER_LAB), (field, y_field, PER_FIELD)):
        for c in range(NUM_CLASSES):
            if (y == c).any():
                cc = spherical_kmeans(x[y == c], per, rng)
                cents.append(cc)
                cls += [c] * len(cc)
    return np.concatenate(cents).astype(np.float16).astype(np.float64), np.asarray(cls)


def similarity(features: np.ndarray, centroids: np.ndarray, k: int = K) -> np.ndarray:
    """The k-th highest cosine similarity of each row of `features` to the centroids."""
    s = unit(features) @ centroids.T
    return np.sort(s, axis=1)[:, -min(k, s.shape[1])]


def choose_floor(s_lab: np.ndarray, s_field: np.ndarray, max_lab: float = MAX_LAB, max_field: int = MAX_FIELD) -> float:
    """The highest floor (less MARGIN) with at most `max_lab` of `s_lab` and at most `max_field` of `s_field` below."""
    lab_i = int(math.floor(max_lab * len(s_lab)))
    bound = np.sort(s_lab)[min(lab_i, len(s_lab) - 1)]
    if len(s_field):
        bound = min(bound, np.sort(s_field)[min(max_field, len(s_field) - 1)])
    return round(float(bound) - MARGIN, 4)


def held_out_classes(val_lab: np.ndarray, y_lab: np.ndarray, val_field: np.ndarray, y_field: np.ndarray,
                     centroids: np.ndarray, cls: np.ndarray) -> dict[str, float]:
    """The proxy for a leaf never seen: each class left out of the references in turn, the floor chosen again on
    the other classes' validation photos; the share of the left-out class's lab validation photos below it."""
    out = {}
    for c in range(NUM_CLASSES):
        keep = cls != c
        s_lab, s_field = similarity(val_lab, centroids[keep]), similarity(val_field, centroids[keep])
        floor = choose_floor(s_lab[y_lab != c], s_field[y_field != c])
        out[CLASS_IDS[c]] = round(float((s_lab[y_lab == c] < floor).mean()), 4)
    return out


# ---------------------------------------------------------------- the graph
def add_to_graph(graph: onnx.GraphProto, centroids: np.ndarray, floor: float, leaf_threshold: float,
                 k: int = K, slope: float = SLOPE) -> None:
    """Caps the graph's `leaf` output: leaf = min(leaf, sigmoid(logit(leaf_threshold) + slope (s - floor)))."""
    if any(n.name.startswith(PREFIX) for n in graph.node):
        raise ValueError("the graph already holds a familiarity cap")
    producer = next((n for n in graph.node if "leaf" in n.output), None)
    if producer is None:
        raise ValueError("the graph has no `leaf` output")
    producer.output[list(producer.output).index("leaf")] = PREFIX + "leaf_in"
    feats = _own_view(graph)
    p = PREFIX
    logit_t = math.log(leaf_threshold / (1 - leaf_threshold))
    graph.initializer.extend([
        numpy_helper.from_array(np.ascontiguousarray(centroids.T.astype(np.float16)), p + "centroids_t"),
        numpy_helper.from_array(np.asarray([k], np.int64), p + "k"),
        numpy_helper.from_array(np.asarray(1e-12, np.float32), p + "eps"),
        numpy_helper.from_array(np.asarray(floor, np.float32), p + "floor"),
        numpy_helper.from_array(np.asarray(slope, np.float32), p + "slope"),
        numpy_helper.from_array(np.asarray(logit_t, np.float32), p + "logit_t")])
    graph.node.extend([
        helper.make_node("Cast", [p + "centroids_t"], [p + "centroids32"], name=p + "cast", to=TensorProto.FLOAT),
        helper.make_node("ReduceSumSquare", [feats], [p + "sq"], name=p + "sq", axes=[1], keepdims=1),
        helper.make_node("Sqrt", [p + "sq"], [p + "norm"], name=p + "norm"),
        helper.make_node("Max", [p + "norm", p + "eps"], [p + "norm_eps"], name=p + "norm_eps"),
        helper.make_node("Div", [feats, p + "norm_eps"], [p + "unit"], name=p + "unit"),
        helper.make_node("MatMul", [p + "unit", p + "centroids32"], [p + "sims"], name=p + "sims"),
        helper.make_node("TopK", [p + "sims", p + "k"], [p + "top", p + "top_i"], name=p + "topk", axis=1),
        helper.make_node("ReduceMin", [p + "top"], [p + "s"], name=p + "s", axes=[1], keepdims=0),
        helper.make_node("Sub", [p + "s", p + "floor"], [p + "d"], name=p + "d"),
        helper.make_node("Mul", [p + "d", p + "slope"], [p + "ds"], name=p + "ds"),
        helper.make_node("Add", [p + "ds", p + "logit_t"], [p + "z"], name=p + "z"),
        helper.make_node("Sigmoid", [p + "z"], [p + "cap"], name=p + "cap"),
        helper.make_node("Min", [p + "leaf_in", p + "cap"], ["leaf"], name=p + "leaf")])


def capped_leaf(leaf: np.ndarray, s: np.ndarray, floor: float, leaf_threshold: float, slope: float = SLOPE) -> np.ndarray:
    """What the graph computes, in numpy (tests)."""
    z = math.log(leaf_threshold / (1 - leaf_threshold)) + slope * (s - floor)
    return np.minimum(leaf, 1 / (1 + np.exp(-z)))


# ---------------------------------------------------------------- the command
def attach(model: Path, dst: Path, cache_dir: Path = D.DEFAULT_CACHE_DIR) -> dict:
    """`graft familiarity`: references from training photos, the floor chosen on validation, the cap written into the
    graph, the card's `familiarity` block, then every figure measured again on the new file (rethreshold; the leaf
    threshold the cap crosses at must come back unchanged)."""
    if not model.is_file() or not card_path(model).is_file():
        raise SystemExit(f"error: {model} and its card {card_path(model).name} are needed")
    card = json.loads(card_path(model).read_text())
    if "familiarity" in card:
        raise SystemExit(f"error: {model} already holds a familiarity cap")
    leaf_t = card.get("rejection", {}).get("leaf_threshold")
    if leaf_t is None or "leaf" not in card.get("outputs", {}):
        raise SystemExit(f"error: {model} has no `leaf` output and leaf_threshold to cap")
    before = file_digest(model)
    sources = evaluation_sources(card, cache_dir)
    cfg, cache, src = sources
    t0 = time.time()
    rng = np.random.default_rng(SEED)
    tr = src["lab_train"]
    f_lab = own_features(model, [to224(np.asarray(cache.images[j])) for j in tr])
    photos, y_photos = src["field_train"]
    f_field = own_features(model, list(photos) + [FA.photo_view(f, rng) for f in photos for _ in range(FIELD_VIEWS)])
    y_field_tr = np.concatenate([np.asarray(y_photos), np.repeat(np.asarray(y_photos), FIELD_VIEWS)])
    centroids, cls = references(f_lab, cache.labels[tr], f_field, y_field_tr)
    sets = validation_sets(cache, src, cfg)
    val = {k: own_features(model, v) for k, v in sets.items()}
    y_val = {"lab": cache.labels[src["lab_val"]], "field": np.asarray(src["field_val"][1])}
    s = {k: similarity(v, centroids) for k, v in val.items()}
    floor = choose_floor(s["lab"], s["field"])
    below = {k: round(float((v < floor).mean()), 4) for k, v in s.items()}
    proxy = held_out_classes(val["lab"], y_val["lab"], val["field"], y_val["field"], centroids, cls)
    print(f"familiarity: {len(centroids)} centroids ({time.time() - t0:.0f}s), floor {floor}; below it on validation: "
          f"{json.dumps(below)}; a class left out, its lab validation photos below: {json.dumps(proxy)}", flush=True)
    m = onnx.load(str(model))
    add_to_graph(m.graph, centroids, floor, float(leaf_t))
    onnx.checker.check_model(m)
    tmp = dst.with_suffix(".familiar.tmp")
    onnx.save(m, str(tmp))
    tmp.replace(dst)
    card["file"].update(name=dst.name, **file_digest(dst))
    card["outputs"]["leaf"]["description"] = (
        "probability that the photo shows a tomato leaf (the 11th output, calibrated), capped below the leaf threshold "
        "when the photo's features are far from every training leaf's (familiarity)")
    card["familiarity"] = {
        "method": f"s = the {K}th highest cosine similarity of the photo's pooled features to {len(centroids)} reference "
                  f"centroids (spherical k-means: {PER_LAB} per class of the lab training photos, {PER_FIELD} per class "
                  f"of the field training photos and {FIELD_VIEWS} views of each; float16 in the graph); leaf = min(leaf, "
                  f"sigmoid(logit(leaf_threshold) + {SLOPE:g} (s - floor))), so a photo below the floor is 'not a "
                  "tomato leaf' (ml/diagrodl_ml/familiar.py)",
        "centroids": int(len(centroids)), "k": K, "floor": floor, "slope": SLOPE, "crosses_at": float(leaf_t),
        "floor_rule": f"the highest with at most {MAX_LAB:.1%} of lab validation photos and at most {MAX_FIELD} field "
                      f"validation photo(s) below it, less {MARGIN}",
        "val_below_floor": below,
        "held_out_class_proxy": {
            "what": "each class left out of the references in turn, the floor chosen again without it: the share of "
                    "its lab validation photos below the floor (a stand-in for leaves never seen, such as other "
                    "crops', which the data here lacks; the network itself was trained on every class, so this is "
                    "not a measurement on other crops)",
            "below_floor": proxy, "median": round(float(np.median(list(proxy.values()))), 4)},
        "from": {"name": model.name, **before},
    }
    card["notes"].append(f"familiarity cap added by `graft familiarity` (familiarity has the choice): the figures before it "
                         f"were those of {model.name} sha256 {before['sha256'][:12]}")
    drop_cpu_figures(card, "when the familiarity cap was added: they were the figures of the file without it")
    write_card(card, card_path(dst))
    out = rethreshold(dst, sources=sources)
    if out["rejection"]["leaf_threshold"] != leaf_t:
        raise SystemExit(f"error: the leaf threshold moved from {leaf_t} to {out['rejection']['leaf_threshold']} "
                         f"while the cap in {dst} crosses at {leaf_t}: do not ship this file")
    return out

"""ONNX export: `input` [N,3,H,W] -> `probabilities` [N,10] (softmax(logits/T + b)), `cam` [N,10,h,w],
`energy` [N] (logsumexp(logits/T), no class bias: how much the image looks like any trained class) and, for a
network with an 11th 'not a tomato leaf' output, `leaf` [N] (calibrated probability that the photo shows a
tomato leaf)."""
from __future__ import annotations

import hashlib
import inspect
from pathlib import Path

import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto
import torch
from torch import nn
import torch.nn.functional as F

from .classes import NUM_CLASSES
from .models import VIEW_COUNTS, GapClassifier, symmetry_views

OPSET = 17


class CalibratedCamModel(nn.Module):
    """Wraps a GapClassifier: calibrated probabilities + class activation maps inside one graph.

    cam[n, k] = ReLU(sum_c W[k, c] * features[n, c]) / (max over the map + 1e-6), so every map lies in
    [0, 1] and can be drawn directly as a heatmap (upsample to the input size on the client).
    """

    def __init__(self, model: GapClassifier, temperature: float, views: int = 1,
                 bias: np.ndarray | None = None, leaf: tuple[float, float] | None = None) -> None:
        super().__init__()
        self.features = model.features
        self.fc = model.fc
        self.views = views
        self.register_buffer("inv_t", torch.tensor(1.0 / temperature, dtype=torch.float32))
        # per-class calibration biases (calibrate.fit_calibration); zeros for plain temperature scaling
        n = NUM_CLASSES
        self.register_buffer("class_bias", torch.zeros(n) if bias is None else torch.tensor(bias, dtype=torch.float32))
        # an 11th logit ('not a tomato leaf'): leaf = sigmoid(a * leaf_score + c), calibrate.leaf_score
        self.has_leaf = model.fc.out_features == NUM_CLASSES + 1
        if self.has_leaf and leaf is None:
            raise ValueError("a network with a 'not a tomato leaf' output needs its leaf calibration (a, c)")
        self.register_buffer("leaf_ac", torch.tensor(leaf if leaf is not None else (1.0, 0.0), dtype=torch.float32))

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        # with views > 1, the symmetric views (models.symmetry_views) go through the network as one batch and
        # their logits are averaged (the number of views is chosen on validation); the CAM is the plain image's
        f = self.features(torch.cat(symmetry_views(x, self.views)) if self.views > 1 else x)
        logits = self.fc(f.mean(dim=(2, 3)))
        if self.views > 1:
            logits = logits.reshape(self.views, -1, logits.shape[1]).mean(dim=0)
            f = f.reshape(self.views, -1, *f.shape[1:])[0]
        full = logits
        logits = full[:, :NUM_CLASSES]
        probs = torch.softmax(logits * self.inv_t + self.class_bias, dim=1)
        # negative free energy (Liu et al., NeurIPS 2020): low when no class's logit stands out, whatever the
        # class priors; the card's rejection.energy_threshold turns it into a second 'not recognised' rule
        energy = torch.logsumexp(logits * self.inv_t, dim=1)
        cam = F.relu(F.conv2d(f, self.fc.weight[:NUM_CLASSES, :, None, None]))
        peak = cam.amax(dim=(2, 3), keepdim=True)
        cam = cam / (peak + 1e-6)
        if not self.has_leaf:
            return probs, cam, energy
        leaf = torch.sigmoid(self.leaf_ac[0] * (torch.logsumexp(logits, dim=1) - full[:, NUM_CLASSES]) + self.leaf_ac[1])
        return probs, cam, energy, leaf


def _fp16_initializers(model: onnx.ModelProto, min_elements: int = 4096) -> onnx.ModelProto:
    """Store large float32 initializers as float16 and Cast them back to float32 at load time."""
    g = model.graph
    casts = []
    for init in list(g.initializer):
        if init.data_type != TensorProto.FLOAT:
            continue
        arr = numpy_helper.to_array(init)
        if arr.size < min_elements:
            continue
        name = init.name
        half = numpy_helper.from_array(arr.astype(np.float16), name + "__fp16")
        g.initializer.remove(init)
        g.initializer.append(half)
        casts.append(helper.make_node("Cast", [name + "__fp16"], [name], to=TensorProto.FLOAT, name=name + "__cast"))
    nodes = casts + list(g.node)
    del g.node[:]
    g.node.extend(nodes)
    return model


def export_onnx(model: GapClassifier, temperature: float, path: Path, size: int = 224, fp16_weights: bool = False,
                views: int = 1, bias: np.ndarray | None = None, leaf: tuple[float, float] | None = None) -> dict:
    """Export and return {sha256, size_bytes, cam_shape, weights_dtype}."""
    model = model.eval()
    wrapper = CalibratedCamModel(model, temperature, views, bias, leaf).eval()
    names = ["probabilities", "cam", "energy"] + (["leaf"] if wrapper.has_leaf else [])
    dummy = torch.zeros(1, 3, size, size)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.onnx")
    extra = {}
    if "dynamo" in inspect.signature(torch.onnx.export).parameters:
        extra["dynamo"] = False  # torch >= 2.9 defaults to the dynamo exporter; keep the TorchScript one
    with torch.no_grad():
        torch.onnx.export(
            wrapper, dummy, str(tmp), **extra, opset_version=OPSET, input_names=["input"],
            output_names=names, dynamic_axes={"input": {0: "N"}, **{n: {0: "N"} for n in names}},
            do_constant_folding=True,
        )
        cam = wrapper(dummy)[1]
    m = onnx.load(str(tmp))
    if fp16_weights:
        m = _fp16_initializers(m)
    m.doc_string = ("DiAgroDL tomato leaf classifier: probabilities are calibrated (temperature, per-class bias); cam maps in "
                    "[0,1]; energy = logsumexp(logits/T); leaf (when present) = calibrated probability of a tomato leaf.")
    onnx.checker.check_model(m)
    onnx.save(m, str(path))
    tmp.unlink(missing_ok=True)
    return {**file_digest(path), "cam_shape": [int(v) for v in cam.shape[1:]], "weights_dtype": "float16" if fp16_weights else "float32"}


def file_digest(path: Path) -> dict:
    data = Path(path).read_bytes()
    return {"sha256": hashlib.sha256(data).hexdigest(), "size_bytes": len(data)}


def views_concat(graph: onnx.GraphProto) -> onnx.NodeProto | None:
    """The Concat that stacks the symmetric views of `input` on the batch axis (None for a one-view graph)."""
    return next((n for n in graph.node if n.op_type == "Concat" and n.input and n.input[0] == "input"), None)


def add_views(src: Path, dst: Path, views: int) -> dict:
    """Rewrites an export made with views=1 into the graph export_onnx(..., views=views) makes, without the
    PyTorch network: the symmetric views (models.symmetry_views) of the input go through the network as one
    batch, the head's logits are averaged over them, and the CAM stays the plain image's. Returns file_digest.

    The head is the graph's only Gemm (GapClassifier.fc); its input is the global average of the last conv maps,
    which also feed the CAM convolution."""
    if views not in VIEW_COUNTS or views == 1:
        raise ValueError(f"views must be one of {VIEW_COUNTS[1:]}, not {views}")
    m = onnx.load(str(src))
    g = m.graph
    gemms = [n for n in g.node if n.op_type == "Gemm"]
    if len(gemms) != 1:
        raise ValueError(f"expected one Gemm (the head) in {src}, found {len(gemms)}")
    if views_concat(g) is not None:
        raise ValueError(f"{src} already averages symmetric views")
    producer = {o: i for i, n in enumerate(g.node) for o in n.output}
    gemm = gemms[0]
    at_gemm = producer[gemm.output[0]]
    t = gemm.input[0]
    while g.node[producer[t]].op_type != "ReduceMean":  # Flatten / Reshape between the pooling and the head
        t = g.node[producer[t]].input[0]
    gap = producer[t]
    maps = g.node[gap].input[0]
    logits = gemm.output[0]

    w = next(i for i in g.initializer if i.name == gemm.input[1])
    k = int(w.dims[0] if any(a.name == "transB" and a.i == 1 for a in gemm.attribute) else w.dims[1])

    def ints(name: str, vals: list[int]) -> onnx.TensorProto:
        return numpy_helper.from_array(np.array(vals, np.int64), name)

    end = -np.iinfo(np.int64).max
    g.initializer.extend([ints("views__zero", [0]), ints("views__minus1", [-1]), ints("views__end", [end]),
                          ints("views__w", [3]), ints("views__shape", [views, -1, k])])
    if views >= 4:
        g.initializer.extend([ints("views__h", [2]), ints("views__hw", [2, 3]), ints("views__minus1x2", [-1, -1]),
                              ints("views__endx2", [end, end])])
    # the symmetric views, concatenated on the batch axis, in models.symmetry_views order
    head = [helper.make_node("Slice", ["input", "views__minus1", "views__end", "views__w", "views__minus1"], ["views__x1"],
                             name="views__mirror")]
    seq = ["input", "views__x1"]
    if views >= 4:
        head += [helper.make_node("Slice", ["input", "views__minus1", "views__end", "views__h", "views__minus1"],
                                  ["views__x2"], name="views__flip"),
                 helper.make_node("Slice", ["input", "views__minus1x2", "views__endx2", "views__hw", "views__minus1x2"],
                                  ["views__x3"], name="views__half_turn")]
        seq += ["views__x2", "views__x3"]
    if views == 8:
        for i, s in enumerate(list(seq)):
            head.append(helper.make_node("Transpose", [s], [f"views__t{i}"], perm=[0, 1, 3, 2], name=f"views__transpose{i}"))
            seq.append(f"views__t{i}")
    head += [helper.make_node("Concat", seq, ["views__input"], axis=0, name="views__concat"),
             helper.make_node("Shape", ["input"], ["views__n"], start=0, end=1, name="views__batch")]
    # after the last conv maps: the plain images' maps (the first N rows) for the CAM
    after_maps = [helper.make_node("Slice", [maps, "views__zero", "views__n", "views__zero"], ["views__maps0"],
                                   name="views__plain_maps")]
    # after the head: the logits averaged over the views
    after_head = [helper.make_node("Reshape", [logits, "views__shape"], ["views__logits_v"], name="views__split"),
                  helper.make_node("ReduceMean", ["views__logits_v"], ["views__logits"], axes=[0], keepdims=0,
                                   name="views__mean")]
    out = list(head)
    for j, n in enumerate(g.node):
        for i, name in enumerate(n.input):
            if name == "input":
                n.input[i] = "views__input"
            elif name == maps and j != gap:
                n.input[i] = "views__maps0"
            elif name == logits:
                n.input[i] = "views__logits"
        out.append(n)
        if maps in n.output:
            out += after_maps
        if j == at_gemm:
            out += after_head
    del g.node[:]
    g.node.extend(out)
    onnx.checker.check_model(m)
    tmp = dst.with_suffix(".tmp.onnx")
    onnx.save(m, str(tmp))
    tmp.replace(dst)
    return file_digest(dst)

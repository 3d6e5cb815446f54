"""ImageNet MobileNetV2 from a TFLite file, without TensorFlow.

A `.tflite` file is a FlatBuffer following TensorFlow Lite's schema.fbs. This module reads just what a
conversion needs (tensors, their buffers and quantization, operators and their codes) with a small
FlatBuffer table reader, dequantizes the convolution and fully connected weights
(`w = (q - zero_point) * scale`, per output channel or per tensor) and loads them, in graph order, into
torchvision's `mobilenet_v2(width_mult=1.0)`. Batch normalisation is already folded into the TFLite
convolutions, so each torchvision BatchNorm becomes an identity plus the convolution's bias.

The weights come from `../shared/pretrained/mobilenet_v2_imagenet/` (Apache-2.0, from the Coral
`test_data` repository); keep `LICENSE` and the attribution with anything derived from them.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np

# TensorFlow Lite schema.fbs enum values used here
_TENSOR_DTYPES = {0: np.float32, 1: np.float16, 2: np.int32, 3: np.uint8, 4: np.int64, 7: np.int16, 9: np.int8}
OP_CONV_2D = 3
OP_DEPTHWISE_CONV_2D = 4
OP_FULLY_CONNECTED = 9
_OP_NAMES = {OP_CONV_2D: "CONV_2D", OP_DEPTHWISE_CONV_2D: "DEPTHWISE_CONV_2D", OP_FULLY_CONNECTED: "FULLY_CONNECTED"}

LICENSE_NOTE = (
    "ImageNet MobileNetV2 1.0 (224) weights from google-coral/test_data "
    "(tf2_mobilenet_v2_1.0_224_ptq.tflite, commit 104342d2d3480b3e66203073dac24f4e2dbb4c41), Apache-2.0; "
    "dequantized and converted to PyTorch by ml/diagrodl_ml/tflite.py"
)


class _Table:
    """One FlatBuffer table: fields by index through its vtable."""

    def __init__(self, buf: bytes, pos: int) -> None:
        self.buf = buf
        self.pos = pos
        vt = pos - struct.unpack_from("<i", buf, pos)[0]
        self._vt = vt
        self._vt_len = struct.unpack_from("<H", buf, vt)[0]

    def _field(self, i: int) -> int | None:
        off = 4 + 2 * i
        if off >= self._vt_len:
            return None
        rel = struct.unpack_from("<H", self.buf, self._vt + off)[0]
        return self.pos + rel if rel else None

    def scalar(self, i: int, fmt: str, default: float | int = 0):
        p = self._field(i)
        return default if p is None else struct.unpack_from("<" + fmt, self.buf, p)[0]

    def _target(self, i: int) -> int | None:
        p = self._field(i)
        return None if p is None else p + struct.unpack_from("<I", self.buf, p)[0]

    def table(self, i: int) -> "_Table | None":
        t = self._target(i)
        return None if t is None else _Table(self.buf, t)

    def string(self, i: int) -> str:
        t = self._target(i)
        if t is None:
            return ""
        n = struct.unpack_from("<I", self.buf, t)[0]
        return self.buf[t + 4 : t + 4 + n].decode("utf-8", "replace")

    def vector(self, i: int, dtype) -> np.ndarray:
        t = self._target(i)
        if t is None:
            return np.zeros(0, dtype=dtype)
        n = struct.unpack_from("<I", self.buf, t)[0]
        return np.frombuffer(self.buf, dtype=np.dtype(dtype).newbyteorder("<"), count=n, offset=t + 4)

    def tables(self, i: int) -> list["_Table"]:
        t = self._target(i)
        if t is None:
            return []
        n = struct.unpack_from("<I", self.buf, t)[0]
        out = []
        for k in range(n):
            p = t + 4 + 4 * k
            out.append(_Table(self.buf, p + struct.unpack_from("<I", self.buf, p)[0]))
        return out


@dataclass
class Tensor:
    name: str
    shape: tuple[int, ...]
    data: np.ndarray | None  # raw stored values (None for activations)
    scale: np.ndarray
    zero_point: np.ndarray
    quantized_dimension: int

    def dequantize(self) -> np.ndarray:
        if self.data is None:
            raise ValueError(f"tensor {self.name!r} has no constant data")
        q = self.data.reshape(self.shape)
        if q.dtype in (np.float32, np.float16):
            return q.astype(np.float32)
        if self.scale.size == 0:
            raise ValueError(f"tensor {self.name!r} is quantized but has no scale")
        shape = [1] * q.ndim
        if self.scale.size > 1:
            shape[self.quantized_dimension] = -1
        s = self.scale.astype(np.float64).reshape(shape)
        z = (self.zero_point.astype(np.float64).reshape(shape) if self.zero_point.size else 0.0)
        return ((q.astype(np.float64) - z) * s).astype(np.float32)


@dataclass
class Op:
    code: int
    inputs: list[int]
    outputs: list[int]


def read_tflite(path: str | Path) -> tuple[list[Tensor], list[Op]]:
    """Tensors (with constant data where stored) and operators of the first subgraph, in graph order."""
    buf = Path(path).read_bytes()
    if buf[4:8] != b"TFL3":
        raise ValueError(f"{path}: not a TFLite FlatBuffer (no 'TFL3' identifier)")
    model = _Table(buf, struct.unpack_from("<I", buf, 0)[0])
    codes = []
    for oc in model.tables(1):
        deprecated = oc.scalar(0, "b", 0)
        code = oc.scalar(3, "i", 0)
        codes.append(max(int(deprecated), int(code)))  # schema 3a: the larger of the two is the code
    buffers = model.tables(4)
    sub = model.tables(2)[0]
    tensors: list[Tensor] = []
    for t in sub.tables(0):
        shape = tuple(int(v) for v in t.vector(0, np.int32))
        dtype = _TENSOR_DTYPES.get(int(t.scalar(1, "b", 0)))
        b = int(t.scalar(2, "I", 0))
        data = None
        if dtype is not None and 0 < b < len(buffers):
            raw = buffers[b].vector(0, np.uint8)
            if raw.size:
                data = np.frombuffer(raw.tobytes(), dtype=np.dtype(dtype).newbyteorder("<"))
        q = t.table(4)
        scale = q.vector(2, np.float32) if q else np.zeros(0, np.float32)
        zp = q.vector(3, np.int64) if q else np.zeros(0, np.int64)
        qdim = int(q.scalar(6, "i", 0)) if q else 0
        tensors.append(Tensor(t.string(3), shape, data, scale, zp, qdim))
    ops = [
        Op(codes[int(o.scalar(0, "I", 0))], [int(v) for v in o.vector(1, np.int32)], [int(v) for v in o.vector(2, np.int32)])
        for o in sub.tables(3)
    ]
    return tensors, ops


def weight_layers(tensors: list[Tensor], ops: list[Op]) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """(op name, weight in PyTorch layout, bias) for every conv / depthwise conv / fully connected op, in order.

    Conv2D `[out, h, w, in]` -> `[out, in, h, w]`; depthwise `[1, h, w, c]` -> `[c, 1, h, w]`;
    fully connected `[out, in]` stays.
    """
    out = []
    for op in ops:
        if op.code not in _OP_NAMES:
            continue
        w = tensors[op.inputs[1]].dequantize()
        bias_t = tensors[op.inputs[2]] if len(op.inputs) > 2 and op.inputs[2] >= 0 else None
        if op.code == OP_CONV_2D:
            w = w.transpose(0, 3, 1, 2)
        elif op.code == OP_DEPTHWISE_CONV_2D:
            w = w.transpose(3, 0, 1, 2)
        b = bias_t.dequantize() if bias_t is not None else np.zeros(w.shape[0], np.float32)
        out.append((_OP_NAMES[op.code], np.ascontiguousarray(w), b.reshape(-1)))
    return out


def mobilenet_v2_state_dict(path: str | Path):
    """A torchvision `mobilenet_v2(width_mult=1.0)` state dict (1000 ImageNet classes) from the TFLite file.

    Each convolution gets the TFLite weights; its BatchNorm becomes `y = x + bias` (weight 1, running
    mean 0, running variance 1 - eps). The classifier gets the last fully connected (or 1x1 conv)
    layer; a 1001-way classifier (the slim model's extra 'background' class first) is cut to 1000.
    """
    import torch
    import torchvision

    layers = weight_layers(*read_tflite(path))
    net = torchvision.models.mobilenet_v2(weights=None)
    sd = net.state_dict()
    convs = [m for m in net.features.modules() if isinstance(m, torch.nn.Conv2d)]
    names = {id(m): n for n, m in net.features.named_modules()}
    bns = {n: m for n, m in net.features.named_modules() if isinstance(m, torch.nn.BatchNorm2d)}
    if len(layers) != len(convs) + 1:
        raise ValueError(f"{path}: {len(layers)} weight layers, expected {len(convs) + 1} for mobilenet_v2")
    for (kind, w, b), conv in zip(layers, convs):
        name = "features." + names[id(conv)]
        if tuple(w.shape) != tuple(conv.weight.shape):
            raise ValueError(f"{kind} {w.shape} does not fit {name} {tuple(conv.weight.shape)}")
        sd[name + ".weight"] = torch.from_numpy(w)
        # torchvision's Conv2dNormActivation: the conv at index 0 and its BatchNorm at index 1;
        # the projecting conv of an inverted residual block is followed by its BatchNorm
        bn_name = _next_bn(names[id(conv)], bns)
        bn = bns[bn_name]
        p = "features." + bn_name
        sd[p + ".weight"] = torch.ones_like(bn.weight)
        sd[p + ".bias"] = torch.from_numpy(b.astype(np.float32))
        sd[p + ".running_mean"] = torch.zeros_like(bn.running_mean)
        sd[p + ".running_var"] = torch.full_like(bn.running_var, 1.0 - bn.eps)
    kind, w, b = layers[-1]
    w = w.reshape(w.shape[0], -1)
    if w.shape[0] == 1001:
        w, b = w[1:], b[1:]
    if tuple(w.shape) != (1000, 1280):
        raise ValueError(f"classifier {w.shape} is not 1000 x 1280")
    sd["classifier.1.weight"] = torch.from_numpy(np.ascontiguousarray(w))
    sd["classifier.1.bias"] = torch.from_numpy(b.astype(np.float32))
    return sd


def _next_bn(conv_name: str, bns: dict) -> str:
    """The BatchNorm that follows a conv in torchvision's MobileNetV2 module naming."""
    head, _, last = conv_name.rpartition(".")
    cand = f"{head}.{int(last) + 1}" if head else str(int(last) + 1)
    if cand in bns:
        return cand
    raise KeyError(f"no BatchNorm after {conv_name}")


def tf_input(rgb_uint8: np.ndarray) -> np.ndarray:
    """The TFLite model's input scaling: x / 127.5 - 1, NCHW float32."""
    x = rgb_uint8.astype(np.float32) / 127.5 - 1.0
    return np.ascontiguousarray(x.transpose(2, 0, 1)[None])

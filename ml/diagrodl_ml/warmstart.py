"""Warm start: continue training from one of the project's own exported ONNX files.

The ONNX export folds every BatchNorm into the convolution before it (W' = W * g / sqrt(v + eps),
b' = beta - mean * g / sqrt(v + eps)) and keeps the temperature in a separate `inv_t`, so the PyTorch
weights are not in the file as such. This rebuilds an equivalent GapClassifier:

- each convolution gets the folded weight W';
- its BatchNorm gets running statistics (m, v) measured on clean training images of z = W' x, and
  gamma = sqrt(v + eps), beta = m + b', so that in eval mode BN(z) = z + b' exactly, and in train mode
  (batch statistics close to m, v) almost exactly;
- squeeze-excitation convolutions and the linear layer are copied as they are.

Only files exported by `export.py` from the same architecture are accepted (shapes are checked).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import torch
from onnx import numpy_helper
from torch import nn

from .models import GapClassifier
from .predict import eval_all


def _onnx_tensors(m: onnx.ModelProto) -> dict[str, np.ndarray]:
    """Initializers by name, with float16-stored weights (export.py --fp16) cast back to float32."""
    t = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
    for n in m.graph.node:  # Cast: float16-stored weights; Identity: the exporter's deduplicated initializers
        if n.op_type == "Cast" and n.input[0] in t:
            t[n.output[0]] = t[n.input[0]].astype(np.float32)
        elif n.op_type == "Identity" and n.input[0] in t:
            t[n.output[0]] = t[n.input[0]]
    for n in m.graph.node:  # constant nodes (rare after folding)
        if n.op_type == "Constant":
            for a in n.attribute:
                if a.name == "value":
                    t[n.output[0]] = numpy_helper.to_array(a.t)
    return t


def _conv_bn_pairs(model: GapClassifier) -> list[tuple[nn.Conv2d, nn.BatchNorm2d | None]]:
    """Every Conv2d of the feature extractor in execution order, with the BatchNorm that follows it."""
    mods = list(model.features.modules())
    pairs: list[tuple[nn.Conv2d, nn.BatchNorm2d | None]] = []
    for seq in [m for m in mods if isinstance(m, nn.Sequential)]:
        children = list(seq.children())
        for i, c in enumerate(children):
            if isinstance(c, nn.Conv2d):
                nxt = children[i + 1] if i + 1 < len(children) else None
                pairs.append((c, nxt if isinstance(nxt, nn.BatchNorm2d) else None))
    seen = {id(c) for c, _ in pairs}
    order = [m for m in mods if isinstance(m, nn.Conv2d)]
    for c in order:  # convolutions outside a Sequential (squeeze-excitation fc1/fc2)
        if id(c) not in seen:
            pairs.append((c, None))
    rank = {id(c): i for i, c in enumerate(order)}
    return sorted(pairs, key=lambda p: rank[id(p[0])])


def unfold_imagenet_start(model: nn.Module, images_u8: np.ndarray, train_idx: np.ndarray, size: int, seed: int,
                          n: int = 512) -> int:
    """The converted ImageNet MobileNetV2 (models.imagenet_mobilenet_v2) has every BatchNorm folded into its
    convolution (tflite.py): unfold_batchnorm on `n` clean training images drawn by `seed`, so that the network can
    train with batch statistics. Returns the number of BatchNorms unfolded."""
    folded = [(m, m.bias.detach().clone()) for m in model.modules() if isinstance(m, nn.BatchNorm2d)]
    for bn, _ in folded:
        if not (bool((bn.running_mean == 0).all()) and bool((bn.running_var == 1.0 - bn.eps).all())
                and bool((bn.weight == 1).all())):
            raise ValueError("a BatchNorm of this network is not folded (running mean 0, variance 1 - eps, weight 1)")
    unfold_batchnorm(model, folded, clean_training_images(images_u8, train_idx, size, seed, n))
    return len(folded)


def clean_training_images(images_u8: np.ndarray, train_idx: np.ndarray, size: int, seed: int, n: int) -> torch.Tensor:
    """`n` training images drawn by `seed`, preprocessed at `size` without augmentation: the BatchNorm statistics'."""
    rng = np.random.default_rng(seed)
    pick = np.sort(rng.choice(train_idx, size=min(n, len(train_idx)), replace=False))
    return eval_all(images_u8, pick, size)


def load_export(model: GapClassifier, onnx_path: Path, images_u8: np.ndarray, train_idx: np.ndarray, size: int,
                seed: int, n: int = 512) -> dict:
    """load_folded_onnx with the BatchNorm statistics measured on `n` clean training images drawn by `seed`."""
    return load_folded_onnx(model, onnx_path, clean_training_images(images_u8, train_idx, size, seed, n))


@torch.no_grad()
def load_folded_onnx(model: GapClassifier, onnx_path: Path, calib_images: torch.Tensor, batch: int = 64) -> dict:
    """Fills `model` from an exported file; `calib_images` (preprocessed NCHW) give the BN statistics."""
    m = onnx.load(str(onnx_path))
    t = _onnx_tensors(m)
    convs = [n for n in m.graph.node if n.op_type == "Conv"]
    # the head's linear layer(s), by shape: a graft (labgate's `lab_like`) adds a Gemm of its own
    head_shape = tuple(model.fc.weight.shape)
    gemms = [n for n in m.graph.node if n.op_type == "Gemm" and tuple(t[n.input[1]].shape) in (head_shape, head_shape[::-1])]
    pairs = _conv_bn_pairs(model)
    # the export's last Conv is the CAM (features x linear weights), not a layer of the network. Symmetric views
    # go through the network as one batch (one copy of the weights); the earlier mirror-averaged format (the
    # shipped model of 2026-11-21, run 2) runs the network twice on the same weights (the first run comes first)
    n = len(pairs)
    if len(convs) not in (n + 1, 2 * n + 1) or len(gemms) != (1 if len(convs) == n + 1 else 2):
        raise ValueError(f"{onnx_path}: {len(convs)} Conv / {len(gemms)} Gemm nodes do not match this architecture "
                         f"({n} convolutions + CAM)")
    if len(convs) == 2 * n + 1 and not all(
        np.array_equal(t[a], t[b]) for c1, c2 in zip(convs[:n], convs[n:2 * n]) for a, b in zip(c1.input[1:], c2.input[1:])
    ):
        raise ValueError(f"{onnx_path}: the two passes of a mirrored export do not have the same weights")
    folded_bias: list[tuple[nn.BatchNorm2d, torch.Tensor]] = []
    for (conv, bn), node in zip(pairs, convs[:n]):
        w = t[node.input[1]]
        if tuple(w.shape) != tuple(conv.weight.shape):
            raise ValueError(f"{onnx_path}: weight {node.input[1]} has shape {w.shape}, expected {tuple(conv.weight.shape)}")
        conv.weight.copy_(torch.from_numpy(w.astype(np.float32)))
        b = torch.from_numpy(t[node.input[2]].astype(np.float32)) if len(node.input) > 2 else torch.zeros(w.shape[0])
        if bn is None:
            if conv.bias is None:
                raise ValueError(f"{onnx_path}: a folded bias for a convolution without BatchNorm or bias")
            conv.bias.copy_(b)
        else:
            if conv.bias is not None:
                conv.bias.zero_()
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
            bn.weight.fill_(1.0)
            bn.bias.copy_(b)
            folded_bias.append((bn, b))
    g = gemms[0]
    trans_b = next((a.i for a in g.attribute if a.name == "transB"), 0)
    w = t[g.input[1]]
    model.fc.weight.copy_(torch.from_numpy((w if trans_b else w.T).astype(np.float32)))
    model.fc.bias.copy_(torch.from_numpy(t[g.input[2]].astype(np.float32)))

    unfold_batchnorm(model, folded_bias, calib_images, batch)
    inv_t = t.get("inv_t")
    return {"source": str(onnx_path), "convolutions": len(pairs), "batchnorms_unfolded": len(folded_bias),
            "temperature_in_file": float(1.0 / inv_t) if inv_t is not None else None}


@torch.no_grad()
def unfold_batchnorm(model: nn.Module, folded_bias: list[tuple[nn.BatchNorm2d, torch.Tensor]], calib_images: torch.Tensor,
                     batch: int = 64) -> None:
    """Each BatchNorm of `folded_bias`, now the identity plus its folded bias b' (running mean 0, variance 1 - eps,
    weight 1, bias b'), gets the running statistics (m, v) of its input on `calib_images`, gamma = sqrt(v + eps) and
    beta = m + b': the same function in eval mode, and one that batch statistics leave almost unchanged in train
    mode."""
    # statistics of each BN's input z = W' x on clean images (exact forward: BN is the identity + b' now)
    sums: dict[int, list[torch.Tensor]] = {}

    def hook(mod: nn.Module, inp: tuple[torch.Tensor], _out: torch.Tensor) -> None:
        z = inp[0].double()
        s = sums.setdefault(id(mod), [torch.zeros(z.shape[1], dtype=torch.float64)] * 2 + [torch.zeros(1, dtype=torch.float64)])
        s[0] = s[0] + z.sum(dim=(0, 2, 3))
        s[1] = s[1] + (z * z).sum(dim=(0, 2, 3))
        s[2] = s[2] + z.shape[0] * z.shape[2] * z.shape[3]

    handles = [bn.register_forward_hook(hook) for bn, _ in folded_bias]
    model.eval()
    dev = next(model.parameters()).device
    for s in range(0, len(calib_images), batch):
        model(calib_images[s : s + batch].to(dev))
    for h in handles:
        h.remove()
    for bn, b in folded_bias:
        s0, s1, n = sums[id(bn)]
        mean = s0 / n
        var = (s1 / n - mean * mean).clamp_min(0.0)
        bn.running_mean.copy_(mean.float())
        bn.running_var.copy_(var.float())
        bn.weight.copy_(torch.sqrt(var + bn.eps).float())
        bn.bias.copy_((mean.float() + b))

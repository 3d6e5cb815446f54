"""Architectures: torchvision backbones, global-average-pooling head, one linear layer to 10."""
from __future__ import annotations

import os
from pathlib import Path

import torch
from torch import nn
import torchvision

from .classes import NUM_CLASSES
from .preprocess import MEAN, STD
from .tflite import mobilenet_v2_state_dict

ARCHS: dict[str, str] = {
    # short name -> torchvision constructor
    "mobilenet": "mobilenet_v3_small",
    "mobilenet_v3_small": "mobilenet_v3_small",
    "mobilenet_v3_large": "mobilenet_v3_large",
    "mobilenet_v2": "mobilenet_v2",
    # ImageNet start (tflite.py converts ../shared/pretrained/mobilenet_v2_imagenet) + an 11th 'not a leaf' output
    "mobilenet_v2_imagenet": "mobilenet_v2",
    "resnet50": "resnet50",
    # ResNet50 started from the Keras ImageNet weights (keras_resnet.py) + an 11th 'not a leaf' output
    "resnet50_imagenet": "resnet50",
    "vgg16": "vgg16_bn",
    "vgg16_bn": "vgg16_bn",
    # two convolutions, a few thousand weights: the server tests' committed model (fixtures.py)
    "tiny_cnn": "tiny_cnn",
}


# test-time views: the image, its left-right mirror, upside-down, both (a half turn); 8 adds each of those
# transposed (quarter turns and diagonal mirrors). Training augments with all eight symmetries of the square.
VIEW_COUNTS = (1, 2, 4, 8)


def symmetry_views(x: torch.Tensor, n: int) -> list[torch.Tensor]:
    """The first n symmetric views of an NCHW batch (the first is the batch itself)."""
    if n not in VIEW_COUNTS:
        raise ValueError(f"views must be one of {VIEW_COUNTS}, not {n}")
    out = [x]
    if n >= 2:
        out.append(torch.flip(x, dims=[3]))
    if n >= 4:
        out += [torch.flip(x, dims=[2]), torch.flip(x, dims=[2, 3])]
    if n == 8:
        if not torch.jit.is_tracing() and x.shape[2] != x.shape[3]:  # (the export traces a square input)
            raise ValueError("8 views need square images")
        out += [v.transpose(2, 3) for v in out[:4]]
    return out


class GapClassifier(nn.Module):
    """features -> GAP -> dropout -> linear. `forward_features` exposes the last conv maps for CAM."""

    def __init__(self, features: nn.Module, channels: int, num_classes: int = NUM_CLASSES, dropout: float = 0.2) -> None:
        super().__init__()
        self.features = features
        self.dropout = nn.Dropout(dropout)
        self.fc = nn.Linear(channels, num_classes)

    def forward_features(self, x: torch.Tensor) -> torch.Tensor:
        return self.features(x)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f = self.features(x)
        return self.fc(self.dropout(f.mean(dim=(2, 3))))


PRETRAINED_TFLITE = Path(os.environ.get(
    "DIAGRODL_PRETRAINED",
    str(Path(__file__).resolve().parents[3] / "shared" / "pretrained" / "mobilenet_v2_imagenet" / "tf2_mobilenet_v2_1.0_224_ptq.tflite"),
))


class TfInput(nn.Module):
    """The product's input (x / 255, ImageNet mean/std) -> the scale TensorFlow's MobileNetV2 was trained on (x / 127.5 - 1)."""

    def __init__(self) -> None:
        super().__init__()
        std = torch.tensor(STD, dtype=torch.float32).reshape(1, 3, 1, 1)
        mean = torch.tensor(MEAN, dtype=torch.float32).reshape(1, 3, 1, 1)
        self.register_buffer("scale", 2 * std)
        self.register_buffer("shift", 2 * mean - 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * self.scale + self.shift


def imagenet_mobilenet_v2(num_classes: int = NUM_CLASSES + 1, pretrained: Path | None = PRETRAINED_TFLITE) -> GapClassifier:
    """MobileNetV2 started from the ImageNet weights (converted from TFLite), input scale folded in as `features.0`.

    num_classes defaults to the 10 diseases plus 'not a tomato leaf'. `pretrained=None` starts from random weights.
    """
    m = torchvision.models.mobilenet_v2(weights=None)
    if pretrained is not None:
        m.load_state_dict(mobilenet_v2_state_dict(pretrained))
    features = nn.Sequential(TfInput(), *m.features)
    return GapClassifier(features, m.last_channel, num_classes, dropout=0.2)


def imagenet_resnet50(num_classes: int = NUM_CLASSES + 1, weights: dict[str, torch.Tensor] | None = None) -> GapClassifier:
    """ResNet50 as Keras computes it (v1 strides, epsilon 0.001, `CaffeInput` as `features.0`), with the ImageNet trunk
    weights when given (keras_resnet.resnet50_state_dict or the GPU pack's copy); GAP, dropout, a new linear layer."""
    from .keras_resnet import resnet50_features

    return GapClassifier(resnet50_features(weights), 2048, num_classes, dropout=0.2)


def torchvision_name(arch: str) -> str:
    if arch not in ARCHS:
        raise ValueError(f"unknown arch {arch!r}; choose one of {sorted(ARCHS)}")
    return ARCHS[arch]


def build_model(arch: str, num_classes: int = NUM_CLASSES) -> GapClassifier:
    """Fresh model (weights=None: nothing is downloaded)."""
    name = torchvision_name(arch)
    if arch == "mobilenet_v2_imagenet":
        return imagenet_mobilenet_v2(num_classes + 1)
    if arch == "resnet50_imagenet":
        return imagenet_resnet50(num_classes)
    tv = torchvision.models
    if name.startswith("mobilenet_v3"):
        m = getattr(tv, name)(weights=None)
        channels = m.features[-1].out_channels if hasattr(m.features[-1], "out_channels") else m.features[-1][0].out_channels
        return GapClassifier(m.features, channels, num_classes, dropout=0.2)
    if name == "mobilenet_v2":
        m = tv.mobilenet_v2(weights=None)
        return GapClassifier(m.features, m.last_channel, num_classes, dropout=0.2)
    if name == "resnet50":
        m = tv.resnet50(weights=None)
        feats = nn.Sequential(m.conv1, m.bn1, m.relu, m.maxpool, m.layer1, m.layer2, m.layer3, m.layer4)
        return GapClassifier(feats, 2048, num_classes, dropout=0.0)
    if name == "tiny_cnn":
        feats = nn.Sequential(
            nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
            nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.MaxPool2d(4),
        )
        return GapClassifier(feats, 16, num_classes, dropout=0.0)
    if name in ("vgg16_bn", "vgg16"):
        m = getattr(tv, name)(weights=None)
        feats = nn.Sequential(*list(m.features.children())[:-1])  # drop the last max-pool: 14x14 CAM at 224
        return GapClassifier(feats, 512, num_classes, dropout=0.2)
    raise ValueError(name)


def count_params(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())

"""Prediction helpers shared by training, finishing, warm start and evaluation: the device, the batched
preprocessing of cached images, logits (over symmetric views), and BatchNorm re-estimation.

Imports nothing of train.py, so train.py, warmstart.py and evaluate.py can all import it at the top.
"""
from __future__ import annotations

import numpy as np
import torch
from torch import nn

from .classes import CLASS_IDS
from .data import Cache
from .models import symmetry_views
from .preprocess import MEAN, STD, _weights


def resolve_device(name: str) -> torch.device:
    if name == "auto":
        name = "cuda" if torch.cuda.is_available() else "cpu"
    if name.startswith("cuda"):
        torch.backends.cudnn.benchmark = True
        if hasattr(torch.backends.cuda, "matmul"):
            torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.allow_tf32 = True
    return torch.device(name)


def eval_tensor(images_u8: np.ndarray, size: int) -> torch.Tensor:
    """Batch of cached uint8 HxWx3 images -> normalised NCHW float32, the maths of preprocess.py.

    Computed in float32 (differs from the float64 reference by ~1e-6; a check in finish.py warns above 1e-4).
    """
    x = torch.from_numpy(np.asarray(images_u8)).to(torch.float32)
    n, h, w, _ = x.shape
    if h != w:
        raise ValueError("cached images are square")
    wr = torch.from_numpy(_weights(h, size)).to(torch.float32)
    wc = torch.from_numpy(_weights(w, size)).to(torch.float32)
    x = torch.einsum("ih,nhwc->niwc", wr, x)
    x = torch.einsum("jw,niwc->nijc", wc, x)
    mean = torch.tensor(MEAN, dtype=torch.float32) * 255.0
    std = torch.tensor(STD, dtype=torch.float32) * 255.0
    x = (x - mean) / std
    return x.permute(0, 3, 1, 2).contiguous()


def eval_all(images_u8: np.ndarray, idx_sorted: np.ndarray, size: int, batch: int = 64) -> torch.Tensor:
    """Preprocessed tensors of cache images idx_sorted (ascending), computed once for reuse."""
    out = torch.empty((len(idx_sorted), 3, size, size), dtype=torch.float32)
    for s in range(0, len(idx_sorted), batch):
        out[s : s + batch] = eval_tensor(images_u8[idx_sorted[s : s + batch]], size)
    return out


@torch.no_grad()
def view_logits(model: nn.Module, x: torch.Tensor, views: int = 1, batch: int = 64) -> np.ndarray:
    """Logits of preprocessed images under each of the first `views` symmetries: shape (views, N, classes)."""
    model.eval()
    dev = next(model.parameters()).device
    out = [[model(v.to(dev)).float().cpu().numpy() for v in symmetry_views(x[s : s + batch], views)]
           for s in range(0, len(x), batch)]
    return np.stack([np.concatenate([b[k] for b in out]) for k in range(views)])


def logits_of(model: nn.Module, x: torch.Tensor, batch: int = 64, views: int = 1) -> np.ndarray:
    """Logits of preprocessed images, averaged over `views` symmetric views (as an export with those views does)."""
    return view_logits(model, x, views, batch).mean(axis=0)


@torch.no_grad()
def predict_logits(model: nn.Module, cache: Cache, idx: np.ndarray, size: int, batch: int = 64) -> np.ndarray:
    model.eval()
    dev = next(model.parameters()).device
    out = []
    for s in range(0, len(idx), batch):
        sel = np.sort(idx[s : s + batch])
        order = np.argsort(np.argsort(idx[s : s + batch]))
        x = eval_tensor(cache.images[sel], size)
        out.append(model(x.to(dev)).float().cpu().numpy()[order])
    return np.concatenate(out) if out else np.zeros((0, len(CLASS_IDS)), dtype=np.float32)


@torch.no_grad()
def recalibrate_bn(model: nn.Module, cache: Cache, idx: np.ndarray, size: int, n: int = 1024, batch: int = 64,
                   seed: int = 0) -> int:
    """Re-estimate BatchNorm running statistics at `size` (exact average over n training images).

    Progressive resizing trains mostly at a lower resolution and torchvision's MobileNetV3 uses BN
    momentum 0.01, so the running statistics lag behind the final resolution.
    """
    bns = [m for m in model.modules() if isinstance(m, nn.modules.batchnorm._BatchNorm)]
    if not bns or not len(idx):
        return 0
    rng = np.random.default_rng(seed)
    pick = np.sort(rng.choice(idx, size=min(n, len(idx)), replace=False))
    saved = [(m.momentum) for m in bns]
    for m in bns:
        m.reset_running_stats()
        m.momentum = None  # cumulative moving average
    dev = next(model.parameters()).device
    model.train()
    for s in range(0, len(pick), batch):
        model(eval_tensor(cache.images[pick[s : s + batch]], size).to(dev))
    for m, mom in zip(bns, saved):
        m.momentum = mom
    model.eval()
    return int(len(pick))

"""A lab expert that shares the ResNet50's trunk (`graft tail-expert`, then `graft expert`).

The GPU-trained ResNet50 saw 230 lab photos per class (the pack that travels), so it is right on fewer lab photos than
its trunk allows. This trains a copy of its last TAIL_BLOCKS bottleneck blocks and a 10-class head on every lab
training photo, from the maps of the block before them (frozen, run once per view through onnxruntime-node and cached
as float16, as the MobileNet's CPU recipe caches its trunk), starting from the network's own weights:

    photo -> trunk of the export (shared) -> cut -> its last blocks -> the network's head          (as before)
                                                 -> a copy of the last blocks -> a lab head      (the expert)

The expert is an ONNX file whose one input is named after the cut tensor of the export, so `graft expert` joins it to
that tensor instead of to `input` (ensemble.expert_logits_model): the trunk runs once, and the expert costs about a
tenth of the network. `graft expert` then weighs its logits by `lab_like`, as it does for a separate expert, and
`quantize` makes its convolutions int8 with the trunk's. The epoch kept is the one with the highest lab validation
accuracy; a checkpoint after each epoch lets a stopped run go on (`--resume`).

`bash ml/run.sh graft tail-expert --model F.onnx --out E.onnx`   (F: a float ResNet50 export)
"""
from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import onnx
import torch
import torch.nn as nn
import torch.nn.functional as F
from onnx import helper
from PIL import Image

from . import data as D
from .card import card_path, write_card
from .classes import NUM_CLASSES
from .evaluate import ort_outputs
from .export import file_digest
from .transfer import normalise_u8, to224
from .warmstart import onnx_tensors

TAIL_BLOCKS = 2  # the last bottleneck blocks of layer4 (features.8) that the expert copies
SEED = 2034
VIEWS = 3  # per lab training photo: the photo as the product sees it, then VIEWS - 1 varied ones
EPOCHS = 6
LR = 3e-4
WEIGHT_DECAY = 0.05
BATCH = 64
LABEL_SMOOTHING = 0.1
RUNS_DIR = D.REPO_ROOT / "ml" / "runs" / "tail-expert"


def _block_prefix(k: int) -> str:
    return f"/features/features.8/features.8.{k}"


def cut_tensor(graph: onnx.GraphProto, blocks: int = TAIL_BLOCKS) -> str:
    """The output of the ResNet50 block before its last `blocks` ones (layer4 holds blocks features.8.0 to .2)."""
    first = 3 - blocks
    name = f"{_block_prefix(first - 1)}/relu_2/Relu_output_0"
    if first < 1 or not any(name in n.output for n in graph.node):
        raise SystemExit("error: the file is not a ResNet50 export (no output of block features.8.%d)" % (first - 1))
    return name


class Bottleneck(nn.Module):
    """A ResNet v1 bottleneck with its BatchNorms folded into the convolutions' biases, as exported."""

    def __init__(self, convs: list[nn.Conv2d]) -> None:
        super().__init__()
        self.conv1, self.conv2, self.conv3 = convs

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.relu(self.conv2(F.relu(self.conv1(x))))
        return F.relu(self.conv3(y) + x)


class TailExpert(nn.Module):
    """The copied blocks (`features`, so that `quantize` takes their convolutions for the trunk's) and a lab head."""

    def __init__(self, blocks: list[Bottleneck], fc: nn.Linear) -> None:
        super().__init__()
        self.features = nn.Sequential(*blocks)
        self.drop = nn.Dropout(0.2)
        self.fc = fc

    def forward(self, maps: torch.Tensor) -> torch.Tensor:
        return self.fc(self.drop(self.features(maps).mean((2, 3))))


def from_export(model_path: Path, blocks: int = TAIL_BLOCKS) -> tuple[TailExpert, str]:
    """The expert, initialised from the export's own last blocks and the disease rows of its head; and the cut."""
    m = onnx.load(str(model_path))
    g = m.graph
    cut = cut_tensor(g, blocks)
    w = onnx_tensors(m)
    nodes = {n.name: n for n in g.node}

    def conv(name: str) -> nn.Conv2d:
        n = nodes[name]
        weight = w[n.input[1]].astype(np.float32)
        pads = next((list(a.ints) for a in n.attribute if a.name == "pads"), [0] * 4)
        c = nn.Conv2d(weight.shape[1], weight.shape[0], weight.shape[2], padding=pads[0])
        c.weight.data = torch.from_numpy(weight.copy())
        c.bias.data = torch.from_numpy(w[n.input[2]].astype(np.float32).copy())
        return c

    tail = [Bottleneck([conv(f"{_block_prefix(k)}/conv{j}/Conv") for j in (1, 2, 3)]) for k in range(3 - blocks, 3)]
    gemm = next(n for n in g.node if n.op_type == "Gemm" and "fc.weight" in n.input)
    fw, fb = w[gemm.input[1]].astype(np.float32), w[gemm.input[2]].astype(np.float32)
    fc = nn.Linear(fw.shape[1], NUM_CLASSES)
    fc.weight.data, fc.bias.data = torch.from_numpy(fw[:NUM_CLASSES].copy()), torch.from_numpy(fb[:NUM_CLASSES].copy())
    return TailExpert(tail, fc), cut


# ---------------------------------------------------------------- views and their cached maps
def lab_view(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A varied 224 px view of a 256 px lab photo: a square crop of 65-100 % of its side, brightness and contrast,
    a quarter turn and a mirror image (lab leaves lie any way up)."""
    side = int(image.shape[0] * rng.uniform(0.65, 1.0))
    x0, y0 = (int(v) for v in rng.integers(0, image.shape[0] - side + 1, 2))
    im = Image.fromarray(np.asarray(image)).crop((x0, y0, x0 + side, y0 + side)).resize((224, 224), Image.BILINEAR)
    a = np.asarray(im).astype(np.float32) * rng.uniform(0.8, 1.2) + rng.uniform(-20, 20)
    a = np.rot90(np.clip(a, 0, 255).astype(np.uint8), int(rng.integers(0, 4)))
    return np.ascontiguousarray(a[:, ::-1] if rng.random() < 0.5 else a)


def cut_maps(model_path: Path, cut: str, images: list[np.ndarray] | np.ndarray, batch: int = 256) -> np.ndarray:
    """The cut tensor of the export on each 224 px uint8 image, float16 [N, C, H, W] (onnxruntime-node, on a
    temporary copy of the file with the cut as its one output)."""
    m = onnx.load(str(model_path))
    m.graph.node.append(helper.make_node("Identity", [cut], ["tail_cut"]))
    del m.graph.output[:]
    m.graph.output.append(helper.make_tensor_value_info("tail_cut", onnx.TensorProto.FLOAT, None))
    probe = model_path.with_suffix(".tail-probe.onnx")
    onnx.save(m, str(probe))
    try:
        out = [ort_outputs(probe, normalise_u8(np.asarray(images[s:s + batch])))["tail_cut"].astype(np.float16)
               for s in range(0, len(images), batch)]
    finally:
        probe.unlink(missing_ok=True)
    flat = np.concatenate(out)
    channels = 2048
    side = int(round((flat.shape[1] / channels) ** 0.5))
    return flat.reshape(len(flat), channels, side, side)


def cached_view_maps(model_path: Path, cut: str, cache, idx: np.ndarray, view: int, cache_dir: Path) -> np.ndarray:
    """The maps of view `view` of the lab photos `idx` (0: as the product sees them), cached per file and view."""
    key = f"{file_digest(model_path)['sha256'][:12]}_{D.split_hash([cache.paths[i] for i in idx])[:12]}_{view}"
    f = cache_dir / "tail-expert" / f"maps_{key}.npy"
    if f.exists():
        return np.load(f, mmap_mode="r")
    t0 = time.time()
    rng = np.random.default_rng(SEED + view)
    images = [to224(np.asarray(cache.images[i])) if view == 0 else lab_view(cache.images[i], rng) for i in idx]
    maps = cut_maps(model_path, cut, images)
    f.parent.mkdir(parents=True, exist_ok=True)
    np.save(f.with_suffix(".tmp.npy"), maps)
    f.with_suffix(".tmp.npy").replace(f)
    print(f"maps of view {view}: {len(idx)} photos ({time.time() - t0:.0f}s)", flush=True)
    return np.load(f, mmap_mode="r")


# ---------------------------------------------------------------- training
def expert_logits(net: TailExpert, maps: np.ndarray, batch: int = 128) -> np.ndarray:
    net.eval()
    with torch.no_grad():
        return torch.cat([net(torch.from_numpy(np.asarray(maps[s:s + batch], np.float32)))
                          for s in range(0, len(maps), batch)]).numpy()


def train(net: TailExpert, views: list[np.ndarray], y: np.ndarray, val: np.ndarray, y_val: np.ndarray,
          epochs: int, lr: float, run_dir: Path, resume: bool = False) -> tuple[dict, list[dict]]:
    """AdamW with a one-cycle schedule over every view of every lab training photo (class-balanced cross-entropy,
    label smoothing, a random mirror image of the maps); a checkpoint after each epoch in `run_dir`. Returns the
    state of the epoch with the highest lab validation accuracy (epoch 0: the network's own blocks) and the history."""
    torch.manual_seed(SEED)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=WEIGHT_DECAY)
    per_epoch = len(views) * len(y) // BATCH
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, lr, total_steps=epochs * per_epoch, pct_start=0.1)
    weight = torch.tensor(len(y) / (NUM_CLASSES * np.bincount(y, minlength=NUM_CLASSES)), dtype=torch.float32)
    ckpt = run_dir / "last.pt"
    history = [{"epoch": 0, "val_accuracy": round(float((expert_logits(net, val).argmax(1) == y_val).mean()), 4)}]
    best = (history[0]["val_accuracy"], {k: v.clone() for k, v in net.state_dict().items()})
    start = 0
    if resume and ckpt.exists():
        state = torch.load(ckpt)
        net.load_state_dict(state["net"]), opt.load_state_dict(state["opt"]), sched.load_state_dict(state["sched"])
        start, history, best = state["epoch"], state["history"], (state["best_acc"], state["best"])
        print(f"resumed after epoch {start}", flush=True)
    n = len(y)
    for epoch in range(start, epochs):
        rng = np.random.default_rng(SEED + 100 + epoch)
        order = rng.permutation(len(views) * n)
        net.train()
        t0, total = time.time(), 0.0
        for s in range(0, per_epoch * BATCH, BATCH):
            ids = np.sort(order[s:s + BATCH])
            xb = torch.from_numpy(np.stack([views[i // n][i % n] for i in ids]).astype(np.float32))
            if rng.random() < 0.5:
                xb = xb.flip(3)
            loss = F.cross_entropy(net(xb), torch.from_numpy(y[ids % n]), weight=weight,
                                   label_smoothing=LABEL_SMOOTHING)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss)
        acc = float((expert_logits(net, val).argmax(1) == y_val).mean())
        history.append({"epoch": epoch + 1, "loss": round(total / per_epoch, 4), "val_accuracy": round(acc, 4),
                        "seconds": round(time.time() - t0, 1)})
        print(f"epoch {epoch + 1}: {json.dumps(history[-1])}", flush=True)
        if acc > best[0]:
            best = (acc, {k: v.clone() for k, v in net.state_dict().items()})
        run_dir.mkdir(parents=True, exist_ok=True)
        torch.save({"net": net.state_dict(), "opt": opt.state_dict(), "sched": sched.state_dict(), "epoch": epoch + 1,
                    "history": history, "best_acc": best[0], "best": best[1]}, ckpt.with_suffix(".tmp"))
        ckpt.with_suffix(".tmp").replace(ckpt)
    return best[1], history


def export_expert(net: TailExpert, cut: str, channels_side: tuple[int, int], dst: Path) -> None:
    """The expert as ONNX: its one input is named after the cut tensor, its one output `logits` [N, 10]."""
    dummy = torch.zeros(1, channels_side[0], channels_side[1], channels_side[1])
    with torch.no_grad():
        torch.onnx.export(net.eval(), dummy, str(dst), opset_version=17, input_names=[cut], output_names=["logits"],
                          dynamic_axes={cut: {0: "N"}, "logits": {0: "N"}}, do_constant_folding=True)


def make(model_path: Path, dst: Path, cache_dir: Path = D.DEFAULT_CACHE_DIR, epochs: int = EPOCHS, lr: float = LR,
         views: int = VIEWS, resume: bool = False) -> dict:
    """`graft tail-expert`: caches the cut maps of every lab training photo's views and of the lab validation
    photos, trains the expert (the epoch with the highest lab validation accuracy kept), exports it to `dst` and
    writes its card (with its lab test accuracy, read after the choice). Returns the card."""
    if not model_path.is_file():
        raise SystemExit(f"error: {model_path} not found")
    if any(i.op_type == "DequantizeLinear" for i in onnx.load(str(model_path)).graph.node):
        raise SystemExit(f"error: {model_path} is an int8 file: train the expert on the float export, then quantize")
    t0 = time.time()
    prep = D.prepare(cache_dir=cache_dir)
    net, cut = from_export(model_path)
    idx = {k: prep.idx[k] for k in ("train", "val", "test")}
    train_maps = [cached_view_maps(model_path, cut, prep.cache, idx["train"], v, cache_dir) for v in range(views)]
    val_maps = cached_view_maps(model_path, cut, prep.cache, idx["val"], 0, cache_dir)
    y = {k: np.asarray(prep.cache.labels[v]) for k, v in idx.items()}
    run_dir = RUNS_DIR / file_digest(model_path)["sha256"][:12]
    best, history = train(net, train_maps, y["train"], val_maps, y["val"], epochs, lr, run_dir, resume)
    net.load_state_dict(best)
    test_maps = cut_maps(model_path, cut, [to224(np.asarray(prep.cache.images[i])) for i in idx["test"]])
    test_acc = float((expert_logits(net, test_maps).argmax(1) == y["test"]).mean())
    dst.parent.mkdir(parents=True, exist_ok=True)
    export_expert(net, cut, train_maps[0].shape[1:3], dst)
    kept = max(history, key=lambda h: (h["val_accuracy"], -h["epoch"]))
    card = {
        "name": dst.stem, "display_name": "ResNet50 lab tail expert", "created_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "architecture": f"a copy of the last {TAIL_BLOCKS} bottleneck blocks of {model_path.name} (ResNet50 features.8) "
                        f"and a {NUM_CLASSES}-class head, on the cut tensor {cut} of that file",
        "parameters": int(sum(p.numel() for p in net.parameters())),
        "file": {"name": dst.name, **file_digest(dst)},
        "shares_trunk_of": {"name": model_path.name, **file_digest(model_path), "cut": cut},
        "training": {"photos": "lab training split only", "views_per_photo": views, "epochs": epochs, "lr": lr,
                     "optimizer": f"AdamW (weight decay {WEIGHT_DECAY}), one-cycle, batch {BATCH}, class-balanced "
                                  f"cross-entropy, label smoothing {LABEL_SMOOTHING}, dropout 0.2, random mirror image",
                     "start": "the network's own blocks and the disease rows of its head", "seed": SEED,
                     "history": history, "kept_epoch": kept["epoch"], "seconds": round(time.time() - t0, 1),
                     "command": f"bash ml/run.sh graft tail-expert --model {model_path.name} --out {dst.name}"
                                f" --epochs {epochs} --lr {lr} --views {views}"},
        "metrics": {"split": "test", "evaluated_with": "PyTorch, on the file's cut maps (onnxruntime-node)",
                    "n": int(len(y["test"])), "accuracy": round(test_acc, 4),
                    "val_accuracy": kept["val_accuracy"], "note": "alone, 10 disease classes, before any graft"},
    }
    write_card(card, card_path(dst))
    print(f"expert: lab validation {kept['val_accuracy']} (epoch {kept['epoch']}), lab test {test_acc:.4f}; wrote {dst}",
          flush=True)
    return card

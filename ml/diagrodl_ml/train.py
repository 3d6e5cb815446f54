"""Training loop: progressive resizing, AdamW + OneCycle, checkpoint every epoch, --resume."""
from __future__ import annotations

import json
import math
import os
import random
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

from .augment import TrainAugment, texture_bank
from .classes import CLASS_IDS
from .data import Cache
from .models import build_model, torchvision_name
from .predict import predict_logits, resolve_device
from .warmstart import load_export

REPO_ROOT = Path(__file__).resolve().parents[2]
RUNS_DIR = REPO_ROOT / "ml" / "runs"


@dataclass
class TrainConfig:
    arch: str = "mobilenet"
    epochs: int = 16
    batch_size: int = 48
    lr: float = 4e-3
    weight_decay: float = 0.05
    low_size: int = 128
    mid_size: int = 176
    final_size: int = 224
    final_epochs: int = 2
    mid_epochs: int = 1
    p_composite: float = 0.5
    label_smoothing: float = 0.0
    seed: int = 7
    threads: int = 2
    workers: int = 1
    max_train_images: int = 0  # 0 = all (tests use a handful)
    run_dir: str = ""
    # > 0: schedule by wall-clock instead of epochs (shared CPUs): sizes and the one-cycle LR follow
    # the fraction of this many minutes of training time used; training stops when it is spent.
    time_budget_min: float = 0.0
    low_until: float = 0.78  # time-budget mode: fraction of the budget at low_size, then mid until mid_until
    mid_until: float = 0.86
    val_every: int = 1
    extend_budget_min: float = 0.0  # with --resume: add this many minutes to a time-budget run (continues annealing)
    device: str = "cpu"  # cpu | cuda | auto (ResNet50/VGG16 belong on a GPU machine)
    # channels_last: NHWC tensors for the convolutions, ~1.9x faster for MobileNetV3 on CPU (PyTorch 1.13, oneDNN)
    memory_format: str = "channels_last"  # channels_last | contiguous
    warmup: float = 0.2  # share of the one-cycle schedule spent warming the learning rate up
    # continue from one of the project's own exports (warmstart.py); empty = random initialisation
    init_onnx: str = ""

    def size_for_progress(self, p: float) -> int:
        return self.low_size if p < self.low_until else self.mid_size if p < self.mid_until else self.final_size

    def size_for_epoch(self, epoch: int) -> int:
        """epoch is 0-based. Last `final_epochs` at final_size, `mid_epochs` before at mid_size."""
        if epoch >= self.epochs - self.final_epochs:
            return self.final_size
        if epoch >= self.epochs - self.final_epochs - self.mid_epochs:
            return self.mid_size
        return self.low_size

    def schedule(self) -> list[dict[str, int]]:
        out: list[dict[str, int]] = []
        for e in range(self.epochs):
            s = self.size_for_epoch(e)
            if out and out[-1]["size"] == s:
                out[-1]["epochs"] += 1
            else:
                out.append({"size": s, "epochs": 1})
        return out


def one_cycle_lr(p: float, max_lr: float, pct: float = 0.2, div: float = 20.0, final_div: float = 200.0) -> float:
    """Cosine one-cycle learning rate at training progress p in [0, 1] (same shape as torch's OneCycleLR)."""
    lr0 = max_lr / div
    p = min(max(p, 0.0), 1.0)
    if p < pct:
        return lr0 + (max_lr - lr0) * (1 - math.cos(math.pi * p / pct)) / 2
    lo = lr0 / final_div
    return lo + (max_lr - lo) * (1 + math.cos(math.pi * (p - pct) / (1 - pct))) / 2


def set_seed(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


class TrainSet(Dataset):
    def __init__(self, cache: Cache, idx: np.ndarray, augment: TrainAugment) -> None:
        self.cache = cache
        self.idx = idx
        self.augment = augment
        self.size = 224

    def __len__(self) -> int:
        return len(self.idx)

    def __getitem__(self, i: int) -> tuple[torch.Tensor, int]:
        j = int(self.idx[i])
        x = self.augment(np.asarray(self.cache.images[j]), np.asarray(self.cache.masks[j]), self.size)
        return torch.from_numpy(x), int(self.cache.labels[j])


def _fmt_time(s: float) -> str:
    s = max(0, int(s))
    return f"{s // 3600:d}:{(s % 3600) // 60:02d}:{s % 60:02d}"


class Progress:
    def __init__(self, total: int, prefix: str) -> None:
        self.total = total
        self.prefix = prefix
        self.t0 = time.time()
        self.tty = sys.stdout.isatty()
        self.last = 0.0

    def update(self, done: int, extra: str, eta_total: float | None = None) -> None:
        now = time.time()
        if not self.tty and done < self.total and now - self.last < 20:
            return
        self.last = now
        el = now - self.t0
        eta = el / max(done, 1) * (self.total - done)
        width = 24
        fill = int(width * done / max(1, self.total))
        bar = "#" * fill + "." * (width - fill)
        tail = f" | run ETA {_fmt_time(eta_total)}" if eta_total is not None else ""
        line = f"{self.prefix} [{bar}] {done}/{self.total} {extra} | {_fmt_time(el)}<{_fmt_time(eta)}{tail}"
        print(("\r" + line) if self.tty else line, end="" if self.tty and done < self.total else "\n", flush=True)


def class_weights(labels: np.ndarray, n_classes: int) -> torch.Tensor:
    counts = np.bincount(labels, minlength=n_classes).astype(np.float64)
    w = np.where(counts > 0, (counts.mean() / np.maximum(counts, 1)) ** 0.5, 0.0)
    return torch.tensor(w, dtype=torch.float32)


def train(cfg: TrainConfig, cache: Cache, train_idx: np.ndarray, val_idx: np.ndarray, resume: bool = False) -> Path:
    """Runs (or resumes) training; returns the run directory holding last.pt."""
    torch.set_num_threads(cfg.threads)
    set_seed(cfg.seed)
    run_dir = Path(cfg.run_dir) if cfg.run_dir else RUNS_DIR / cfg.arch
    run_dir.mkdir(parents=True, exist_ok=True)
    ckpt_path = run_dir / "last.pt"
    if cfg.max_train_images:
        train_idx = train_idx[: cfg.max_train_images]

    device = resolve_device(cfg.device)
    if cfg.memory_format not in ("channels_last", "contiguous"):
        raise ValueError(f"memory_format must be channels_last or contiguous, not {cfg.memory_format!r}")
    mem = torch.channels_last if cfg.memory_format == "channels_last" else torch.contiguous_format
    model = build_model(cfg.arch).to(device, memory_format=mem)
    drop_last = len(train_idx) > cfg.batch_size  # avoids a 1-image BatchNorm batch
    steps_per_epoch = len(train_idx) // cfg.batch_size if drop_last else math.ceil(len(train_idx) / cfg.batch_size)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    sched = torch.optim.lr_scheduler.OneCycleLR(
        opt, max_lr=cfg.lr, total_steps=cfg.epochs * steps_per_epoch, pct_start=cfg.warmup, div_factor=20, final_div_factor=200
    )
    history: list[dict[str, float]] = []
    start_epoch = 0
    elapsed = 0.0
    if resume and ckpt_path.exists():
        ck = torch.load(ckpt_path, map_location=device)
        saved = ck["config"]
        keys: tuple[str, ...] = ("arch", "epochs", "time_budget_min")
        if cfg.extend_budget_min > 0 and saved.get("time_budget_min", 0) > 0:
            cfg.time_budget_min = float(saved["time_budget_min"]) + cfg.extend_budget_min
            keys = ("arch", "epochs")
            print(f"resume: time budget extended to {cfg.time_budget_min} min", flush=True)
        if any(saved.get(k) != getattr(cfg, k) for k in keys):
            print(f"resume: checkpoint has {', '.join(f'{k}={saved.get(k)}' for k in keys)}; using those", flush=True)
            cfg = TrainConfig(**{**asdict(cfg), **{k: saved[k] for k in keys if k in saved}})
            return train(cfg, cache, train_idx, val_idx, resume=True)
        model.load_state_dict(ck["model"])
        opt.load_state_dict(ck["optimizer"])
        sched.load_state_dict(ck["scheduler"])
        history = ck["history"]
        start_epoch = ck["epoch"] + 1
        elapsed = ck["elapsed_s"]
        print(f"resumed from {ckpt_path} after epoch {start_epoch} ({_fmt_time(elapsed)} trained)", flush=True)
    elif resume:
        print("resume: no checkpoint yet, starting fresh", flush=True)
    if cfg.init_onnx and start_epoch == 0:
        info = load_export(model, Path(cfg.init_onnx), cache.images, train_idx, cfg.final_size, cfg.seed)
        model.to(device, memory_format=mem)
        msg = f"initialised from {info['source']} ({info['batchnorms_unfolded']} BatchNorms unfolded)"
        if len(val_idx):
            acc = float((predict_logits(model, cache, val_idx, cfg.final_size).argmax(1) == cache.labels[val_idx]).mean())
            msg += f"; its val acc @{cfg.final_size}px {acc:.4f}"
        print(msg, flush=True)

    textures = texture_bank(96, seed=cfg.seed)
    aug = TrainAugment(textures, p_composite=cfg.p_composite, seed=cfg.seed)
    ds = TrainSet(cache, train_idx, aug)
    weights = class_weights(cache.labels[train_idx], len(CLASS_IDS))
    loss_fn = nn.CrossEntropyLoss(weight=weights.to(device), label_smoothing=cfg.label_smoothing)
    print(
        f"training {cfg.arch} ({torchvision_name(cfg.arch)}): {len(train_idx)} train / {len(val_idx)} val images, "
        + (f"time budget {cfg.time_budget_min} min (sizes {cfg.low_size}/{cfg.mid_size}/{cfg.final_size} px until "
           f"{cfg.low_until}/{cfg.mid_until}/1.0 of it)" if cfg.time_budget_min > 0 else f"{cfg.epochs} epochs, sizes {cfg.schedule()}")
        + f", batch {cfg.batch_size}, {cfg.threads} threads, device {device}",
        flush=True,
    )
    timed = cfg.time_budget_min > 0
    budget_s = cfg.time_budget_min * 60.0
    epoch = start_epoch - 1
    while True:
        epoch += 1
        if timed:
            if elapsed >= budget_s:
                break
        elif epoch >= cfg.epochs:
            break
        t_ep = time.time()
        size = cfg.size_for_progress(elapsed / budget_s) if timed else cfg.size_for_epoch(epoch)
        ds.size = size
        g = torch.Generator()
        g.manual_seed(cfg.seed * 1000 + epoch)
        epoch_seed = cfg.seed * 1000 + epoch

        def init_worker(wid: int, _s: int = epoch_seed) -> None:
            torch.set_num_threads(1)
            ds.augment.reseed(_s * 10 + wid)

        aug.reseed(epoch_seed * 10 + 9)
        loader = DataLoader(
            ds, batch_size=cfg.batch_size, shuffle=True, generator=g, num_workers=cfg.workers,
            worker_init_fn=init_worker if cfg.workers else None, drop_last=drop_last,
            persistent_workers=False, pin_memory=device.type == "cuda",
            **({"prefetch_factor": 4} if cfg.workers else {}),
        )
        model.train()
        bar = Progress(len(loader), f"epoch {epoch + 1}{'' if timed else '/' + str(cfg.epochs)} @{size}px")
        stopped_early = False
        tot_loss, tot_ok, tot_n = 0.0, 0, 0
        for b, (x, y) in enumerate(loader):
            if timed:
                prog = (elapsed + time.time() - t_ep) / budget_s
                if prog >= 1.0:
                    stopped_early = True
                    break
                for grp in opt.param_groups:
                    grp["lr"] = one_cycle_lr(prog, cfg.lr, pct=cfg.warmup)
            x = x.to(device, non_blocking=True).contiguous(memory_format=mem)
            y = y.to(device, non_blocking=True)
            logits = model(x)
            loss = loss_fn(logits, y)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            if not timed:
                sched.step()
            tot_loss += float(loss) * len(y)
            tot_ok += int((logits.argmax(1) == y).sum())
            tot_n += len(y)
            done_frac = (epoch - start_epoch + (b + 1) / len(loader))
            run_el = time.time() - bar.t0
            # rough run ETA: this epoch's pace, scaled by (size/this size)^2 for later epochs
            per_px = run_el / max(1e-9, (b + 1) / len(loader)) / size**2
            if timed:
                eta_total = budget_s - (elapsed + time.time() - t_ep)
            else:
                rest = sum(per_px * cfg.size_for_epoch(e) ** 2 for e in range(epoch + 1, cfg.epochs))
                eta_total = per_px * size**2 * (1 - (b + 1) / len(loader)) + rest
            bar.update(
                b + 1,
                f"loss {tot_loss / max(1, tot_n):.4f} acc {tot_ok / max(1, tot_n):.4f} lr {opt.param_groups[0]['lr']:.2e}",
                eta_total=eta_total,
            )
            del done_frac
        if stopped_early and tot_n == 0:  # the time budget ran out before this epoch's first batch: nothing trained, nothing to record
            break
        ep_time = time.time() - t_ep
        last = stopped_early or (timed and elapsed + ep_time >= budget_s) or (not timed and epoch + 1 >= cfg.epochs)
        if len(val_idx) and (last or (epoch + 1) % max(1, cfg.val_every) == 0 or size != cfg.low_size):
            val_logits = predict_logits(model, cache, val_idx, size)
            val_acc = float((val_logits.argmax(1) == cache.labels[val_idx]).mean())
        else:
            val_acc = float("nan")
        ep_time = time.time() - t_ep
        elapsed += ep_time
        rec = {"epoch": epoch + 1, "size": size, "train_loss": round(tot_loss / max(1, tot_n), 5),
               "train_acc": round(tot_ok / max(1, tot_n), 5), "seconds": round(ep_time, 1),
               "fraction_of_epoch": round(tot_n / len(ds), 4)}
        if val_acc == val_acc:
            rec["val_acc"] = round(val_acc, 5)
        history.append(rec)
        print(f"epoch {epoch + 1}{'' if timed else '/' + str(cfg.epochs)} done in {_fmt_time(ep_time)}: train loss {tot_loss / max(1, tot_n):.4f} "
              f"acc {tot_ok / max(1, tot_n):.4f} | val acc {val_acc:.4f} @{size}px"
              f"{' | run ' + _fmt_time(elapsed) + ' of ' + _fmt_time(budget_s) if timed else ''}", flush=True)
        tmp = ckpt_path.with_suffix(".tmp")
        torch.save(
            {"model": model.state_dict(), "optimizer": opt.state_dict(), "scheduler": sched.state_dict(),
             "epoch": epoch, "history": history, "elapsed_s": elapsed, "config": asdict(cfg)},
            tmp,
        )
        os.replace(tmp, ckpt_path)
        (run_dir / "history.json").write_text(json.dumps(history, indent=1))
    return run_dir


def load_checkpoint(run_dir: Path) -> tuple[nn.Module, dict]:
    ck = torch.load(run_dir / "last.pt", map_location="cpu")  # plain tensors/dicts: fine with weights_only too
    model = build_model(ck["config"]["arch"])
    model.load_state_dict(ck["model"])
    model.eval()
    return model, ck

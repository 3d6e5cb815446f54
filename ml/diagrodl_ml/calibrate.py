"""Temperature scaling and expected calibration error."""
from __future__ import annotations

import numpy as np
import torch


def softmax(logits: np.ndarray, temperature: float = 1.0) -> np.ndarray:
    z = logits / temperature
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def ece(probs: np.ndarray, labels: np.ndarray, bins: int = 15) -> float:
    """Expected calibration error of the top-1 confidence, equal-width bins on (0, 1]."""
    conf = probs.max(axis=1)
    correct = (probs.argmax(axis=1) == labels).astype(np.float64)
    edges = np.linspace(0.0, 1.0, bins + 1)
    total = 0.0
    for lo, hi in zip(edges[:-1], edges[1:]):
        sel = (conf > lo) & (conf <= hi)
        if sel.any():
            total += sel.mean() * abs(correct[sel].mean() - conf[sel].mean())
    return float(total)


def fit_temperature(logits: np.ndarray, labels: np.ndarray) -> float:
    """Minimise the validation NLL over log T (LBFGS), T clamped to [0.05, 20]."""
    lg = torch.tensor(logits, dtype=torch.float64)
    y = torch.tensor(labels, dtype=torch.long)
    log_t = torch.zeros(1, dtype=torch.float64, requires_grad=True)
    opt = torch.optim.LBFGS([log_t], lr=0.1, max_iter=200, line_search_fn="strong_wolfe")

    def closure() -> torch.Tensor:
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(lg / log_t.exp(), y)
        loss.backward()
        return loss

    opt.step(closure)
    return float(np.clip(log_t.exp().item(), 0.05, 20.0))


def nll(probs: np.ndarray, labels: np.ndarray) -> float:
    return float(-np.log(np.clip(probs[np.arange(len(labels)), labels], 1e-12, 1.0)).mean())


def choose_threshold(probs: np.ndarray, labels: np.ndarray, max_correct_rejected: float = 0.02) -> dict[str, float]:
    """Rejection threshold on the top calibrated probability, chosen on the validation split.

    The threshold is the `max_correct_rejected` quantile of the top probability of correctly
    classified validation images (so at most ~2% of right answers are withheld), clamped to
    [0.5, 0.95]. Reports how many wrong answers it catches.
    """
    conf = probs.max(axis=1)
    pred = probs.argmax(axis=1)
    ok = pred == labels
    t = float(np.quantile(conf[ok], max_correct_rejected)) if ok.any() else 0.5
    t = float(np.clip(round(t, 3), 0.5, 0.95))
    acc_mask = conf >= t
    return {
        "threshold": t,
        "val_coverage": float(acc_mask.mean()),
        "val_accuracy_accepted": float(ok[acc_mask].mean()) if acc_mask.any() else 0.0,
        "val_correct_rejected": float((~acc_mask & ok).sum() / max(1, ok.sum())),
        "val_errors_rejected": float((~acc_mask & ~ok).sum() / max(1, (~ok).sum())) if (~ok).any() else 1.0,
        "val_errors": int((~ok).sum()),
    }

"""Temperature scaling (optionally bias-corrected), expected calibration error and the rejection threshold."""
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
    return fit_calibration(logits, labels)[0]


def bias_term(bias, gate, n: int):
    """What the class biases add to the scaled logits of n photos: 0 without biases, `bias` itself, or
    `gate[i] * bias` when a gate is given (a lab gate's value per photo, so that biases fitted on lab photos act on
    lab-like photos only)."""
    if bias is None:
        return 0.0
    return np.asarray(bias) if gate is None else np.asarray(gate, np.float64).reshape(n, 1) * np.asarray(bias)


def fit_calibration(logits: np.ndarray, labels: np.ndarray, bias_l2: float | None = None,
                    gate: np.ndarray | None = None) -> tuple[float, np.ndarray]:
    """Temperature T, and with `bias_l2` set also per-class biases b, minimising the NLL of softmax(z / T + b).

    With biases this is bias-corrected temperature scaling (Alexandari et al., ICML 2020): b shifts each class's
    prior, which plain temperature scaling cannot do. `bias_l2` weighs an L2 penalty on b (b is centred, since
    softmax ignores a common shift); without one, the biases of classes with no validation error grow until the
    optimiser stops. T is clamped to [0.05, 20]. With `gate` (one value in 0..1 per photo), the model is
    softmax(z / T + gate * b): the biases act in proportion to the gate.
    """
    lg = torch.tensor(logits, dtype=torch.float64)
    y = torch.tensor(labels, dtype=torch.long)
    g = None if gate is None else torch.tensor(np.asarray(gate, np.float64).reshape(-1, 1))
    log_t = torch.zeros(1, dtype=torch.float64, requires_grad=True)
    bias = torch.zeros(lg.shape[1], dtype=torch.float64, requires_grad=bias_l2 is not None)
    params = [log_t] + ([bias] if bias_l2 is not None else [])
    opt = torch.optim.LBFGS(params, lr=0.1 if bias_l2 is None else 0.5, max_iter=200 if bias_l2 is None else 500,
                            line_search_fn="strong_wolfe")

    def closure() -> torch.Tensor:
        opt.zero_grad()
        b = bias - bias.mean()
        loss = torch.nn.functional.cross_entropy(lg / log_t.exp() + (b if g is None else g * b), y)
        if bias_l2:
            loss = loss + bias_l2 * b.pow(2).sum()
        loss.backward()
        return loss

    opt.step(closure)
    b = (bias - bias.mean()).detach().numpy()
    return float(np.clip(log_t.exp().item(), 0.05, 20.0)), b


def calibrated(logits: np.ndarray, temperature: float, bias: np.ndarray | None = None,
               gate: np.ndarray | None = None) -> np.ndarray:
    """softmax(logits / T + b), or softmax(logits / T + gate * b) with a gate per photo: what the exported graph's
    `probabilities` output computes."""
    return softmax(logits / temperature + bias_term(bias, gate, len(logits)), 1.0)


BIAS_L2_GRID = (1e-2, 1e-3, 0.0)


def choose_calibration(logits: np.ndarray, labels: np.ndarray, folds: int = 5, repeats: int = 10,
                       seed: int = 0, others: dict[str, tuple] | None = None, gate: np.ndarray | None = None) -> dict:
    """Temperature scaling, or temperature + per-class biases (one L2 weight of BIAS_L2_GRID), by cross-validation.

    Each candidate is fitted on 4/5 of the validation split and scored by its NLL on the other fifth, over
    `repeats` shuffles; the lowest mean held-out NLL wins and is refitted on the whole split. The held-out
    accuracy and per-class recall of every candidate are reported alongside (they do not decide).
    `others`: validation sets of other photos ({name: (logits, labels)}, the field validation part). Biases fitted
    on lab photos move the answer (the argmax) on those too, so they are kept only if the top-1 accuracy summed
    over the lab split and `others` is at least that of the temperature alone (`bias_check` says how it went).
    `gate`: a lab gate's value for each lab photo; the biases are then fitted and applied as gate * b
    (fit_calibration), and each entry of `others` carries its photos' gate values as a third element.
    Returns {temperature, bias (None for plain scaling), bias_l2, method, cv: [...], bias_check?}.
    """
    y = np.asarray(labels)
    rng = np.random.default_rng(seed)
    splits = []
    for _ in range(repeats):
        perm = rng.permutation(len(y))
        splits += [(np.setdiff1d(perm, f), f) for f in np.array_split(perm, folds)]
    candidates: list[float | None] = [None, *BIAS_L2_GRID]
    cv = []
    for l2 in candidates:
        losses, preds, truth = [], [], []
        for fit_idx, held in splits:
            t, b = fit_calibration(logits[fit_idx], y[fit_idx], l2, _part(gate, fit_idx))  # b: zeros without biases
            p = calibrated(logits[held], t, b, _part(gate, held))
            losses.append(nll(p, y[held]))
            preds.append(p.argmax(1))
            truth.append(y[held])
        pr, tr = np.concatenate(preds), np.concatenate(truth)
        recalls = [float((pr[tr == k] == k).mean()) for k in np.unique(tr)]
        cv.append({"bias_l2": l2, "nll": float(np.mean(losses)), "accuracy": float((pr == tr).mean()),
                   "min_recall": min(recalls)})
    best = min(cv, key=lambda c: c["nll"])
    t, b = fit_calibration(logits, y, best["bias_l2"], gate)
    with_bias = best["bias_l2"] is not None
    out = {"temperature": t, "bias": b if with_bias else None, "bias_l2": best["bias_l2"], "cv": cv}
    if with_bias and others:
        t0, _ = fit_calibration(logits, y, None)
        sets = {"lab": (logits, y, gate), **{k: (v + (None,))[:3] for k, v in others.items()}}

        def top1(temp: float, bias: np.ndarray | None) -> dict[str, float]:
            return {k: float((calibrated(z, temp, bias, g).argmax(1) == np.asarray(lab)).mean())
                    for k, (z, lab, g) in sets.items()}

        kept, alone = top1(t, b), top1(t0, None)
        out["bias_check"] = {"with_bias": kept, "temperature_alone": alone, "kept": sum(kept.values()) >= sum(alone.values())}
        if not out["bias_check"]["kept"]:
            out.update(temperature=t0, bias=None, bias_l2=None)
    out["method"] = "temperature and per-class bias" if out["bias"] is not None else "temperature"
    if gate is not None and out["bias"] is not None:
        out["method"] += " scaled by the lab gate"
    return out


def bias_gate(calibration: dict, outputs: dict[str, np.ndarray]) -> np.ndarray | None:
    """The per-photo scale of a card's class biases on a file's `outputs`: its `lab_like` output when the
    biases are scaled by the lab gate (quantize.recalibrate), else None (they apply in full)."""
    if calibration.get("class_bias_scaled_by") != "lab_like":
        return None
    return np.asarray(outputs["lab_like"]).reshape(-1)


def _part(gate: np.ndarray | None, idx: np.ndarray) -> np.ndarray | None:
    return None if gate is None else np.asarray(gate).reshape(-1)[idx]


def calibration_method(bias_l2: float | None, gated: bool = False) -> str:
    """The card's words for a choose_calibration result (`gated`: the biases were fitted with the lab gate)."""
    if bias_l2 is None:
        return "temperature scaling fitted on the lab validation split (LBFGS on NLL); ECE with 15 equal-width bins"
    if gated:
        return ("bias-corrected temperature scaling on lab-like photos: probabilities = softmax(logits / T + g b) over the "
                "10 disease logits, g the photo's `lab_like` value (the lab gate), T and per-class biases b fitted on "
                f"the lab validation split (LBFGS on NLL + {bias_l2:g} * |b|^2), so the biases the lab photos call for "
                "leave field-like photos alone; ECE with 15 equal-width bins")
    return ("bias-corrected temperature scaling: probabilities = softmax(logits / T + b) over the 10 disease logits, T and "
            f"per-class biases b fitted on the lab validation split (LBFGS on NLL + {bias_l2:g} * |b|^2); "
            "ECE with 15 equal-width bins")


def nll(probs: np.ndarray, labels: np.ndarray) -> float:
    return float(-np.log(np.clip(probs[np.arange(len(labels)), labels], 1e-12, 1.0)).mean())


def energy(logits: np.ndarray, temperature: float) -> np.ndarray:
    """logsumexp(logits / T) per row, without class biases: what the exported graph's `energy` output computes."""
    z = logits / temperature
    m = z.max(axis=1)
    return m + np.log(np.exp(z - m[:, None]).sum(axis=1))


LAB_LIKE_CUT = 0.5  # a `lab_like` output below it: a field-like photo (packages/contracts/src/diagnosis.ts LAB_LIKE_CUT)


def thresholds_for(rejection: dict, n: int, lab_like: np.ndarray | None = None) -> np.ndarray:
    """The confidence threshold of each of n photos: the rule's `field_threshold` for field-like photos (`lab_like`
    below LAB_LIKE_CUT) when the rule has one, else its `threshold` (packages/contracts thresholdFor)."""
    t = np.full(n, float(rejection["threshold"]))
    ft = rejection.get("field_threshold")
    if ft is not None and lab_like is not None:
        t[np.asarray(lab_like).reshape(-1) < LAB_LIKE_CUT] = float(ft)
    return t


def accepted(probs: np.ndarray, rejection: dict, energies: np.ndarray | None = None,
             lab_like: np.ndarray | None = None) -> np.ndarray:
    """Which answers stand: top probability at the photo's threshold (thresholds_for) or above, and energy at its
    floor or above (if any)."""
    ok = probs.max(axis=1) >= thresholds_for(rejection, len(probs), lab_like)
    floor = rejection.get("energy_threshold")
    if floor is not None and energies is not None:
        ok &= energies >= floor
    return ok


def choose_threshold(probs: np.ndarray, labels: np.ndarray, max_correct_rejected: float = 0.02,
                     energies: np.ndarray | None = None, energy_quantile: float = 0.005) -> dict[str, float]:
    """Rejection rule, chosen on the validation split.

    The threshold is the `max_correct_rejected` quantile of the top probability of correctly
    classified validation images (so at most ~2% of right answers are withheld), clamped to
    [0.5, 0.95]. With `energies` (logsumexp of the logits / T), an energy floor is added: the
    `energy_quantile` quantile of the energy of correctly classified validation images. Class biases
    raise the top probability of every image, including ones that are not leaves at all; the energy
    ignores them. Reports how many right answers are withheld and wrong answers caught.
    """
    conf = probs.max(axis=1)
    pred = probs.argmax(axis=1)
    ok = pred == labels
    t = float(np.quantile(conf[ok], max_correct_rejected)) if ok.any() else 0.5
    t = float(np.clip(round(t, 3), 0.5, 0.95))
    rule: dict = {"threshold": t}
    if energies is not None and ok.any():
        rule["energy_threshold"] = float(round(float(np.quantile(energies[ok], energy_quantile)), 3))
    acc_mask = accepted(probs, rule, energies)
    return {
        **rule,
        "val_coverage": float(acc_mask.mean()),
        "val_accuracy_accepted": float(ok[acc_mask].mean()) if acc_mask.any() else 0.0,
        "val_correct_rejected": float((~acc_mask & ok).sum() / max(1, ok.sum())),
        "val_errors_rejected": float((~acc_mask & ~ok).sum() / max(1, (~ok).sum())) if (~ok).any() else 1.0,
        "val_errors": int((~ok).sum()),
    }

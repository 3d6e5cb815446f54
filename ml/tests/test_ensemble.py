"""The lab expert inside the shipped graph (ensemble.py), on lab-like photos: the summed logits, on the files, by
onnxruntime-node."""
from __future__ import annotations

import shutil
import tempfile
import unittest
from pathlib import Path

import numpy as np
import onnx
import torch

from diagrodl_ml.calibrate import softmax
from diagrodl_ml.classes import NUM_CLASSES
from diagrodl_ml.ensemble import add_expert, expert_logits_model, ramp, without_expert
from diagrodl_ml.labgate import add_lab_like, fit_gate, fit_linear, gate_of, pooled_features
from diagrodl_ml.evaluate import node_ort_available, ort_outputs
from diagrodl_ml.export import add_views, export_onnx
from diagrodl_ml.models import build_model
from diagrodl_ml.quantize import _disease_logits_tensor, probe_outputs
from diagrodl_ml.transfer import LAB_LIKE_CUT, normalise_u8, set_report

SIZE = 32


def _net(classes: int, seed: int) -> torch.nn.Module:
    torch.manual_seed(seed)
    m = build_model("tiny_cnn", classes).eval()
    with torch.no_grad():
        m.fc.weight.mul_(20)  # answers that differ between the views and between the two networks
    return m


def _logits(path: Path, x: np.ndarray) -> np.ndarray:
    return probe_outputs(path, [_disease_logits_tensor(onnx.load(str(path)).graph)], [x])[0][0]


@unittest.skipUnless(node_ort_available(), "onnxruntime-node is not installed (npm ci)")
class LabExpertTest(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = Path(tempfile.mkdtemp())
        self.x = np.random.default_rng(3).normal(0, 1, (4, 3, SIZE, SIZE)).astype(np.float32)
        self.bias = np.linspace(-0.4, 0.4, NUM_CLASSES)
        main = _net(NUM_CLASSES + 1, 1)
        export_onnx(main, 1.3, self.tmp / "main1.onnx", size=SIZE, bias=self.bias, leaf=(0.8, -0.1))
        add_views(self.tmp / "main1.onnx", self.tmp / "main.onnx", 2)
        expert = _net(NUM_CLASSES, 2)
        for views in (1, 2, 4):  # PyTorch's own multi-view export: the view count is a Constant node
            export_onnx(expert, 1.1, self.tmp / f"expert{views}.onnx", size=SIZE, views=views)
        add_views(self.tmp / "expert1.onnx", self.tmp / "expert_rw4.onnx", 4)  # add_views: an initializer

    def tearDown(self) -> None:
        shutil.rmtree(self.tmp, ignore_errors=True)

    def _expert_logits(self, src: str, views: int) -> np.ndarray:
        m, out = expert_logits_model(self.tmp / src, views)
        onnx.save(m, str(self.tmp / "e.onnx"))
        return ort_outputs(self.tmp / "e.onnx", self.x)[out]

    def test_fewer_views_of_an_expert_are_the_export_with_that_many(self) -> None:
        for src in ("expert4.onnx", "expert_rw4.onnx"):
            for views in (1, 2, 4):
                ref = _logits(self.tmp / f"expert{views}.onnx", self.x)
                np.testing.assert_allclose(self._expert_logits(src, views), ref, atol=1e-5, err_msg=f"{src}, {views}")
        self.assertGreater(np.abs(_logits(self.tmp / "expert4.onnx", self.x) - _logits(self.tmp / "expert1.onnx", self.x)).max(), 1e-3)
        with self.assertRaises(ValueError):
            expert_logits_model(self.tmp / "expert2.onnx", 4)

    def test_expert_on_lab_like_photos_of_a_two_view_file_keeps_leaf_cam_and_lab_like(self) -> None:
        """graft lab-like then graft expert on a network that averages two views: `lab_like` reads each photo's own
        view, the expert (two views) adds weight * ramp(lab_like) of its logits, and --replace gives the file back."""
        u8 = np.random.default_rng(4).integers(0, 256, (8, SIZE, SIZE, 3), dtype=np.uint8)
        x = normalise_u8(u8)
        main, gated, summed = self.tmp / "main.onnx", self.tmp / "gated.onnx", self.tmp / "sum.onnx"
        feats = pooled_features(main, u8)
        # every view's features, the photos' own first (ort_outputs folds the 2N rows into N)
        head = next(n for n in onnx.load(str(main)).graph.node if n.op_type == "Gemm" and "fc.weight" in n.input)
        both = probe_outputs(main, [head.input[0]], [x[:1]])[0][0].reshape(2, -1)
        np.testing.assert_allclose(feats[:1], both[:1], atol=1e-6)
        self.assertGreater(np.abs(both[0] - both[1]).max(), 1e-4)  # the mirror image's differ
        gate = (np.random.default_rng(5).normal(0, 1, feats.shape[1]), 0.2)
        g = gate_of(feats, gate)
        self.assertTrue((g > 0.05).any() and (g < 0.95).any(), "the gate should vary across the photos")
        add_lab_like(main, gated, gate)
        with self.assertRaises(ValueError):  # a file without `lab_like`
            add_expert(main, self.tmp / "expert4.onnx", summed, 0.7, 2, 0.5)
        start = float(np.median(g))
        add_expert(gated, self.tmp / "expert4.onnx", summed, 0.7, 2, start)
        got, before = ort_outputs(summed, x), ort_outputs(gated, x)
        np.testing.assert_allclose(before["lab_like"].reshape(-1), g, atol=1e-5)
        z = (_logits(main, x).astype(np.float64)
             + 0.7 * ramp(g, start)[:, None] * _logits(self.tmp / "expert2.onnx", x)) / 1.3
        np.testing.assert_allclose(got["probabilities"], softmax(z + self.bias, 1.0), atol=1e-5)
        np.testing.assert_allclose(got["energy"].reshape(-1), np.log(np.exp(z).sum(1)), atol=1e-4)
        field_like = g <= start
        np.testing.assert_allclose(got["probabilities"][field_like], before["probabilities"][field_like], atol=1e-6)
        self.assertGreater(np.abs(got["probabilities"] - before["probabilities"]).max(), 1e-3)
        for k in ("leaf", "cam", "lab_like"):
            np.testing.assert_allclose(got[k], before[k], atol=1e-6, err_msg=k)
        with self.assertRaises(ValueError):  # one expert only
            add_expert(summed, self.tmp / "expert4.onnx", self.tmp / "again.onnx", 0.3, 1, 0.5)
        # set_report splits its figures by photo kind on the `lab_like` output
        kinds = set_report(got, got["probabilities"].argmax(1), {"threshold": 0.0})["by_photo_kind"]
        self.assertEqual(kinds["lab_like"]["n"] + kinds["field_like"]["n"], len(x))
        self.assertEqual(kinds["lab_like"]["n"], int((g >= LAB_LIKE_CUT).sum()))
        # graft expert --replace: taking the expert out gives the lab-like file back, gate and all
        without_expert(summed, self.tmp / "alone.onnx")
        alone = ort_outputs(self.tmp / "alone.onnx", x)
        self.assertEqual(set(alone), set(before))
        for k in before:
            np.testing.assert_allclose(alone[k], before[k], atol=1e-6, err_msg=k)
        nodes = [n.name for n in onnx.load(str(self.tmp / "alone.onnx")).graph.node]
        self.assertFalse(any(n.startswith("expert__") for n in nodes))
        self.assertTrue(any(n.startswith("labgate__") for n in nodes))
        with self.assertRaises(ValueError):
            without_expert(gated, self.tmp / "again.onnx")


class LinearFitTest(unittest.TestCase):
    def test_fits_act_on_raw_inputs_and_separate_two_clouds(self) -> None:
        rng = np.random.default_rng(0)
        a, b = rng.normal(5, 2, (200, 6)), rng.normal(9, 2, (200, 6))
        a[:, 0] += 100  # a large offset: the standardisation must be folded into the returned weights
        b[:, 0] += 100
        w, c = fit_gate(a, b)
        self.assertGreater(((a @ w + c) > 0).mean(), 0.95)
        self.assertGreater(((b @ w + c) < 0).mean(), 0.95)
        x = np.concatenate([a, b])
        y = np.repeat([0, 1], 200)
        wm, bm = fit_linear(x, y, 2, 1e-3)
        self.assertGreater(((x @ wm + bm).argmax(1) == y).mean(), 0.95)


if __name__ == "__main__":
    unittest.main()

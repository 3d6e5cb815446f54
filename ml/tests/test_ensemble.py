"""The lab expert inside the shipped graph (ensemble.py): the summed logits, on the files, by onnxruntime-node."""
from __future__ import annotations

import shutil
import tempfile
import unittest
from pathlib import Path

import numpy as np
import onnx
import torch

from diagrodl_ml.calibrate import calibrated, softmax
from diagrodl_ml.classes import NUM_CLASSES
from diagrodl_ml.ensemble import add_expert, expert_logits_model, without_expert
from diagrodl_ml.labgate import add_lab_like_output, add_gate, combined, fit_gate, fit_linear, gate_of, probe, tensors
from diagrodl_ml.evaluate import node_ort_available, ort_outputs
from diagrodl_ml.export import add_views, export_onnx
from diagrodl_ml.models import build_model
from diagrodl_ml.quantize import _disease_logits_tensor, probe_outputs, scale_bias_by_gate
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

    def test_summed_graph_calibrates_main_plus_weighted_expert_and_keeps_leaf_and_cam(self) -> None:
        add_expert(self.tmp / "main.onnx", self.tmp / "expert4.onnx", self.tmp / "sum.onnx", 0.3, 2)
        got, main = ort_outputs(self.tmp / "sum.onnx", self.x), ort_outputs(self.tmp / "main.onnx", self.x)
        z = (_logits(self.tmp / "main.onnx", self.x).astype(np.float64)
             + 0.3 * _logits(self.tmp / "expert2.onnx", self.x)) / 1.3
        np.testing.assert_allclose(got["probabilities"], softmax(z + self.bias, 1.0), atol=1e-5)
        np.testing.assert_allclose(got["energy"].reshape(-1), np.log(np.exp(z).sum(1)), atol=1e-4)
        self.assertGreater(np.abs(got["probabilities"] - main["probabilities"]).max(), 1e-3)
        for k in ("leaf", "cam"):
            np.testing.assert_allclose(got[k], main[k], atol=1e-6, err_msg=k)
        with self.assertRaises(ValueError):
            add_expert(self.tmp / "sum.onnx", self.tmp / "expert4.onnx", self.tmp / "again.onnx", 0.3, 1)

    def test_gated_graph_computes_the_gate_formula_and_keeps_leaf_and_cam(self) -> None:
        add_expert(self.tmp / "main.onnx", self.tmp / "expert4.onnx", self.tmp / "sum.onnx", 0.3, 2)
        u8 = np.random.default_rng(4).integers(0, 256, (4, SIZE, SIZE, 3), dtype=np.uint8)
        x = normalise_u8(u8)
        p = probe(self.tmp / "sum.onnx", u8)
        names = tensors(onnx.load(str(self.tmp / "sum.onnx")).graph)
        # every view's features, the photos' own first (ort_outputs folds the 2N rows into N)
        both = probe_outputs(self.tmp / "sum.onnx", [names["features"]], [x[:1]])[0][0].reshape(2, -1)
        np.testing.assert_allclose(p["features"][:1], both[:1], atol=1e-6)
        self.assertGreater(np.abs(both[0] - both[1]).max(), 1e-4)  # the mirror image's differ
        self.assertEqual(p["features"].shape, (len(x), both.shape[1]))
        gate = (np.random.default_rng(5).normal(0, 1, p["features"].shape[1]), 0.2)
        g = gate_of(p["features"], gate)
        self.assertTrue((g > 0.05).any() and (g < 0.95).any(), "the gate should vary across the photos")
        add_gate(self.tmp / "sum.onnx", self.tmp / "gated.onnx", {"gate": gate, "w_lab": 2.0, "w_other": 0.3})
        got, before = ort_outputs(self.tmp / "gated.onnx", x), ort_outputs(self.tmp / "sum.onnx", x)
        z = combined(p, gate, 2.0, 0.3) / 1.3
        np.testing.assert_allclose(z, (p["main"] + (0.3 + 1.7 * g[:, None]) * p["expert"]) / 1.3)
        np.testing.assert_allclose(got["probabilities"], softmax(z + self.bias, 1.0), atol=1e-5)
        self.assertGreater(np.abs(got["probabilities"] - before["probabilities"]).max(), 1e-3)
        for k in ("leaf", "cam"):
            np.testing.assert_allclose(got[k], before[k], atol=1e-6, err_msg=k)
        # the gate is an output too, `lab_like` [N]; a second one is refused
        self.assertNotIn("lab_like", before)
        np.testing.assert_allclose(got["lab_like"].reshape(-1), g, atol=1e-5)
        with self.assertRaises(ValueError):
            add_lab_like_output(onnx.load(str(self.tmp / "gated.onnx")).graph)
        # set_report splits its figures by photo kind on that output
        y = got["probabilities"].argmax(1)
        kinds = set_report(got, y, {"threshold": 0.0})["by_photo_kind"]
        self.assertEqual(kinds["lab_like"]["n"] + kinds["field_like"]["n"], len(x))
        self.assertEqual(kinds["lab_like"]["n"], int((g >= LAB_LIKE_CUT).sum()))
        with self.assertRaises(ValueError):
            tensors(onnx.load(str(self.tmp / "gated.onnx")).graph)
        with self.assertRaises(ValueError):  # a file without a lab expert
            tensors(onnx.load(str(self.tmp / "main.onnx")).graph)
        # graft expert --replace: taking the expert and its gate out gives the main network's outputs back
        without_expert(self.tmp / "gated.onnx", self.tmp / "alone.onnx")
        alone, main = ort_outputs(self.tmp / "alone.onnx", x), ort_outputs(self.tmp / "main.onnx", x)
        self.assertEqual(set(alone), set(main))
        for k in main:
            np.testing.assert_allclose(alone[k], main[k], atol=1e-6, err_msg=k)
        self.assertFalse(any(n.name.startswith(("expert__", "labgate__"))
                             for n in onnx.load(str(self.tmp / "alone.onnx")).graph.node))
        with self.assertRaises(ValueError):
            without_expert(self.tmp / "main.onnx", self.tmp / "again.onnx")

    def test_class_biases_scaled_by_the_gate_act_on_lab_like_photos_only(self) -> None:
        """quantize.scale_bias_by_gate: the graph adds g * class_bias; without_expert puts the full bias back."""
        add_expert(self.tmp / "main.onnx", self.tmp / "expert4.onnx", self.tmp / "sum.onnx", 0.3, 2)
        u8 = np.random.default_rng(4).integers(0, 256, (4, SIZE, SIZE, 3), dtype=np.uint8)
        x = normalise_u8(u8)
        p = probe(self.tmp / "sum.onnx", u8)
        gate = (np.random.default_rng(5).normal(0, 1, p["features"].shape[1]), 0.2)
        add_gate(self.tmp / "sum.onnx", self.tmp / "gated.onnx", {"gate": gate, "w_lab": 2.0, "w_other": 0.3})
        m = onnx.load(str(self.tmp / "gated.onnx"))
        self.assertTrue(scale_bias_by_gate(m.graph))
        self.assertFalse(scale_bias_by_gate(m.graph))  # once only
        onnx.checker.check_model(m)
        onnx.save(m, str(self.tmp / "scaled.onnx"))
        got = ort_outputs(self.tmp / "scaled.onnx", x)
        g = gate_of(p["features"], gate)
        self.assertTrue((g > 0.05).any() and (g < 0.95).any(), "the gate should vary across the photos")
        z = combined(p, gate, 2.0, 0.3) / 1.3
        np.testing.assert_allclose(got["probabilities"], softmax(z + g[:, None] * self.bias, 1.0), atol=1e-5)
        np.testing.assert_allclose(got["probabilities"], calibrated(combined(p, gate, 2.0, 0.3), 1.3, self.bias, g),
                                   atol=1e-5)
        before = ort_outputs(self.tmp / "gated.onnx", x)
        for k in ("energy", "leaf", "cam", "lab_like"):
            np.testing.assert_allclose(got[k], before[k], atol=1e-6, err_msg=k)
        without_expert(self.tmp / "scaled.onnx", self.tmp / "alone.onnx")
        alone, main = ort_outputs(self.tmp / "alone.onnx", x), ort_outputs(self.tmp / "main.onnx", x)
        for k in main:
            np.testing.assert_allclose(alone[k], main[k], atol=1e-6, err_msg=k)


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

"""`graft lab-like` (labgate.add_lab_like): the gate alone on a network without a lab expert. The new output `lab_like`
is sigmoid(gate . pooled features + c) of each photo, and every other output of the file is unchanged."""
from __future__ import annotations

import shutil
import tempfile
import unittest
from pathlib import Path

import numpy as np
import torch

from diagrodl_ml.classes import NUM_CLASSES
from diagrodl_ml.evaluate import node_ort_available, ort_outputs
from diagrodl_ml.export import export_onnx
from diagrodl_ml.labgate import LAB_LIKE, add_lab_like, pooled_features
from diagrodl_ml.models import build_model


@unittest.skipUnless(node_ort_available(), "onnxruntime-node is not installed (npm ci)")
class LabLikeAloneTest(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = Path(tempfile.mkdtemp())
        torch.manual_seed(0)
        self.model = build_model("tiny_cnn", NUM_CLASSES + 1).eval()
        self.src = self.tmp / "tiny.onnx"
        export_onnx(self.model, 1.3, self.src, size=48, leaf=(0.8, 0.1))

    def tearDown(self) -> None:
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_lab_like_is_the_gate_of_the_pooled_features_and_nothing_else_changes(self) -> None:
        rng = np.random.default_rng(3)
        x = rng.normal(size=(5, 3, 48, 48)).astype(np.float32)
        gate = (rng.normal(size=16), 0.3)
        dst = self.tmp / "gated.onnx"
        add_lab_like(self.src, dst, gate)
        before, after = ort_outputs(self.src, x), ort_outputs(dst, x)
        self.assertNotIn(LAB_LIKE, before)
        for k, v in before.items():
            np.testing.assert_array_equal(after[k], v, err_msg=k)
        with torch.no_grad():
            pooled = self.model.features(torch.from_numpy(x)).mean(dim=(2, 3)).numpy().astype(np.float64)
        want = 1 / (1 + np.exp(-(pooled @ gate[0] + gate[1])))
        import onnx
        out = next(o for o in onnx.load(str(dst)).graph.output if o.name == LAB_LIKE)
        self.assertEqual([d.dim_param for d in out.type.tensor_type.shape.dim], ["N"])
        np.testing.assert_allclose(after[LAB_LIKE].reshape(-1), want, rtol=1e-4, atol=1e-5)
        with self.assertRaises(SystemExit):  # once only
            add_lab_like(dst, self.tmp / "twice.onnx", gate)

    def test_an_expert_weighed_by_lab_like_adds_only_on_lab_like_photos(self) -> None:
        """graft expert on a file with `lab_like`: main + weight * clip((g - start) / (1 - start), 0, 1) * expert."""
        import onnx
        from diagrodl_ml.calibrate import softmax
        from diagrodl_ml.ensemble import add_expert, expert_logits_model, ramp, without_expert
        from diagrodl_ml.quantize import _disease_logits_tensor, probe_outputs
        rng = np.random.default_rng(4)
        x = rng.normal(size=(8, 3, 48, 48)).astype(np.float32)
        gated, summed = self.tmp / "gated.onnx", self.tmp / "summed.onnx"
        add_lab_like(self.src, gated, (rng.normal(size=16) * 5, 2.5))  # lab_like 0.41 to 0.78
        torch.manual_seed(1)
        expert = build_model("tiny_cnn", NUM_CLASSES).eval()
        with torch.no_grad():
            expert.fc.weight.mul_(20)
        export_onnx(expert, 1.1, self.tmp / "expert.onnx", size=48)
        with self.assertRaises(ValueError):  # a file without `lab_like`
            add_expert(self.src, self.tmp / "expert.onnx", summed, 0.7, 1, ramp_from=0.6)
        add_expert(gated, self.tmp / "expert.onnx", summed, 0.7, 1, ramp_from=0.6)
        before, after = ort_outputs(gated, x), ort_outputs(summed, x)
        g = before[LAB_LIKE].reshape(-1)
        self.assertTrue((g < 0.6).any() and (g > 0.6).any(), "the gate should fall on both sides of the start")
        main = probe_outputs(gated, [_disease_logits_tensor(onnx.load(str(gated)).graph)], [x])[0][0]
        e, e_out = expert_logits_model(self.tmp / "expert.onnx", 1)
        onnx.save(e, str(self.tmp / "e.onnx"))
        ex = ort_outputs(self.tmp / "e.onnx", x)[e_out]
        want = softmax((main + 0.7 * ramp(g, 0.6)[:, None] * ex) / 1.3, 1.0)
        np.testing.assert_allclose(after["probabilities"], want, atol=1e-5)
        field_like = g <= 0.6
        np.testing.assert_allclose(after["probabilities"][field_like], before["probabilities"][field_like], atol=1e-6)
        self.assertGreater(np.abs(after["probabilities"] - before["probabilities"]).max(), 1e-3)
        for k in ("leaf", "cam", LAB_LIKE):
            np.testing.assert_array_equal(after[k], before[k], err_msg=k)
        # graft expert --replace takes the expert out and keeps the gate: the file as it was
        without_expert(summed, self.tmp / "back.onnx", keep_lab_like=True)
        back = ort_outputs(self.tmp / "back.onnx", x)
        self.assertEqual(sorted(back), sorted(before))
        for k, v in before.items():
            np.testing.assert_allclose(back[k], v, atol=1e-6, err_msg=k)

    def test_class_biases_scaled_by_the_lab_like_gate(self) -> None:
        """quantize.scale_bias_by_gate on a `graft lab-like` file, whose gate is computed after the calibration's Add
        (`recalibrate` failed on such a file until 2026-11-28): the graph stays in topological order and adds
        g * class_bias, every other output unchanged."""
        import onnx
        from diagrodl_ml.calibrate import softmax
        from diagrodl_ml.quantize import GATE_TENSOR, scale_bias_by_gate

        rng = np.random.default_rng(5)
        bias = rng.normal(0, 0.5, NUM_CLASSES).astype(np.float32)
        src = self.tmp / "biased.onnx"
        export_onnx(self.model, 1.3, src, size=48, bias=bias, leaf=(0.8, 0.1))
        gate = (rng.normal(size=16), 0.3)
        add_lab_like(src, self.tmp / "gated.onnx", gate)
        m = onnx.load(str(self.tmp / "gated.onnx"))
        self.assertTrue(scale_bias_by_gate(m.graph))
        onnx.checker.check_model(m)
        onnx.save(m, str(self.tmp / "scaled.onnx"))
        x = rng.normal(size=(6, 3, 48, 48)).astype(np.float32)
        got, before = ort_outputs(self.tmp / "scaled.onnx", x), ort_outputs(self.tmp / "gated.onnx", x)
        with torch.no_grad():
            z = self.model(torch.from_numpy(x)).numpy().astype(np.float64)[:, :NUM_CLASSES]
        g = before[LAB_LIKE].reshape(-1, 1)
        self.assertTrue(any(GATE_TENSOR in n.output for n in m.graph.node))
        np.testing.assert_allclose(got["probabilities"], softmax(z / 1.3 + g * bias, 1.0), atol=1e-5)
        for k in ("energy", "leaf", "cam", LAB_LIKE):
            np.testing.assert_allclose(got[k], before[k], atol=1e-6, err_msg=k)

    def test_pooled_features_are_read_from_the_file(self) -> None:
        u8 = np.random.default_rng(4).integers(0, 256, (3, 48, 48, 3), dtype=np.uint8)
        got = pooled_features(self.src, u8)
        from diagrodl_ml.transfer import normalise_u8
        with torch.no_grad():
            want = self.model.features(torch.from_numpy(normalise_u8(u8))).mean(dim=(2, 3)).numpy()
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


if __name__ == "__main__":
    unittest.main()

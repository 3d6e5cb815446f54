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

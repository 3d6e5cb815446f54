"""The lab expert on the ResNet50's own trunk (labtail.py): its copy of the last blocks gives the export's logits, and
grafted by `graft expert` it reads the trunk's tensor (no second trunk) and adds weight * ramp(lab_like) of its logits;
`quantize` makes its convolutions int8 with the trunk's. On files, by onnxruntime-node."""
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
from diagrodl_ml.ensemble import add_expert, expert_outputs, ramp, without_expert
from diagrodl_ml.evaluate import node_ort_available, ort_outputs
from diagrodl_ml.export import export_onnx
from diagrodl_ml.labgate import add_lab_like, gate_of, pooled_features
from diagrodl_ml.labtail import cut_maps, cut_tensor, expert_logits, export_expert, from_export
from diagrodl_ml.models import imagenet_resnet50
from diagrodl_ml.quantize import _disease_logits_tensor, probe_outputs, quantize_model
from diagrodl_ml.transfer import normalise_u8

SIZE = 64  # layer4 maps of 2 x 2


@unittest.skipUnless(node_ort_available(), "onnxruntime-node is not installed (npm ci)")
class TailExpertTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = Path(tempfile.mkdtemp())
        torch.manual_seed(0)
        net = imagenet_resnet50(NUM_CLASSES + 1).eval()
        with torch.no_grad():  # BatchNorm statistics that are not the identity, so that folding them matters
            for m in net.modules():
                if isinstance(m, torch.nn.BatchNorm2d):
                    m.running_mean.uniform_(-0.1, 0.1)
                    m.running_var.uniform_(0.5, 2.0)
                    m.weight.uniform_(0.2, 0.6)
            net.fc.weight.mul_(50)  # answers that differ between the photos
        cls.bias = np.linspace(-0.3, 0.3, NUM_CLASSES)
        cls.main = cls.tmp / "main.onnx"
        export_onnx(net, 1.2, cls.main, size=SIZE, bias=cls.bias, leaf=(0.8, -0.1))
        cls.u8 = np.random.default_rng(1).integers(0, 256, (6, SIZE, SIZE, 3), dtype=np.uint8)

    @classmethod
    def tearDownClass(cls) -> None:
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def _logits(self, path: Path) -> np.ndarray:
        return probe_outputs(path, [_disease_logits_tensor(onnx.load(str(path)).graph)], [normalise_u8(self.u8)])[0][0]

    def test_the_copy_of_the_last_blocks_gives_the_exports_disease_logits(self) -> None:
        net, cut = from_export(self.main)
        self.assertEqual(cut, "/features/features.8/features.8.0/relu_2/Relu_output_0")
        maps = cut_maps(self.main, cut, self.u8)
        self.assertEqual(maps.shape, (len(self.u8), 2048, 2, 2))
        np.testing.assert_allclose(expert_logits(net, maps), self._logits(self.main), atol=2e-2, rtol=1e-3)
        with self.assertRaises(SystemExit):
            cut_tensor(onnx.load(str(self.main)).graph, blocks=3)

    def test_grafted_it_reads_the_trunk_and_quantize_takes_its_convolutions(self) -> None:
        net, cut = from_export(self.main)
        with torch.no_grad():  # an expert that differs from the network's own blocks
            net.fc.weight.mul_(-3)
        expert = self.tmp / "expert.onnx"
        export_expert(net, cut, (2048, 2), expert)
        gated, summed = self.tmp / "gated.onnx", self.tmp / "sum.onnx"
        feats = pooled_features(self.main, self.u8)
        gate = (np.random.default_rng(2).normal(0, 0.05, feats.shape[1]), 0.1)
        g = gate_of(feats, gate)
        self.assertTrue((g > 0.1).any() and (g < 0.9).any(), "the gate should vary across the photos")
        add_lab_like(self.main, gated, gate)
        start = float(np.median(g))
        add_expert(gated, expert, summed, 0.6, 1, start)
        convs = lambda p: sum(n.op_type == "Conv" for n in onnx.load(str(p)).graph.node)  # noqa: E731
        self.assertEqual(convs(summed), convs(gated) + 6)  # two bottlenecks of three convolutions, and no second trunk
        ex = expert_outputs(expert, 1, {"x": self.u8}, gated)["x"]
        np.testing.assert_allclose(ex, expert_logits(net, cut_maps(self.main, cut, self.u8)), atol=2e-2, rtol=1e-3)
        x = normalise_u8(self.u8)
        got, before = ort_outputs(summed, x), ort_outputs(gated, x)
        z = (self._logits(self.main).astype(np.float64) + 0.6 * ramp(g, start)[:, None] * ex) / 1.2
        np.testing.assert_allclose(got["probabilities"], softmax(z + self.bias, 1.0), atol=1e-4)
        self.assertGreater(np.abs(got["probabilities"] - before["probabilities"]).max(), 1e-3)
        for k in ("leaf", "cam", "lab_like"):
            np.testing.assert_allclose(got[k], before[k], atol=1e-5, err_msg=k)
        without_expert(summed, self.tmp / "alone.onnx")
        np.testing.assert_allclose(ort_outputs(self.tmp / "alone.onnx", x)["probabilities"], before["probabilities"],
                                   atol=1e-6)
        # int8: every convolution, the expert's among them, reads int8 weights, and the answers stay close
        m = onnx.load(str(summed))
        from diagrodl_ml.quantize import activation_ranges, activations_to_quantize
        names = activations_to_quantize(m.graph)
        self.assertTrue(any(n.startswith("expert__/features/") for n in names))
        quantize_model(summed, self.tmp / "int8.onnx", activation_ranges(summed, names, [x]))
        q = onnx.load(str(self.tmp / "int8.onnx")).graph
        made = {o: n for n in q.node for o in n.output}
        conv_weights = [made[n.input[1]].op_type if n.input[1] in made else "float" for n in q.node if n.op_type == "Conv"]
        self.assertEqual(len(conv_weights), convs(summed))
        self.assertEqual(conv_weights.count("float"), 1)  # the class-activation map's, as in every int8 copy
        self.assertEqual(set(conv_weights), {"DequantizeLinear", "float"})
        np.testing.assert_allclose(ort_outputs(self.tmp / "int8.onnx", x)["probabilities"], got["probabilities"],
                                   atol=0.1)


if __name__ == "__main__":
    unittest.main()

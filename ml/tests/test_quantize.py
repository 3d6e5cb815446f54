"""The int8 (QDQ) copy of an export: every trunk convolution reads int8 weights and quantized
activations, the head stays float, and onnxruntime-node gives nearly the float network's outputs."""
from __future__ import annotations

import shutil
import tempfile
import unittest
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto

from diagrodl_ml.evaluate import node_ort_available, ort_outputs
from diagrodl_ml.export import _fp16_initializers
from diagrodl_ml.fixtures import tiny_reference
from diagrodl_ml.quantize import WEIGHT_MAX, activation_ranges, activations_to_quantize, lab_like_shares, quantize_model


@unittest.skipUnless(node_ort_available(), "node with onnxruntime-node is needed to run ONNX")
class QuantizeTest(unittest.TestCase):
    def test_int8_copy_of_the_shipped_architecture(self) -> None:
        tmp = Path(tempfile.mkdtemp(prefix="diagrodl-q-"))
        try:
            meta = tiny_reference(tmp, "mobilenet_v2_imagenet", 64, views=2)
            n = meta["n"]
            src, dst = tmp / "model.onnx", tmp / "int8.onnx"
            x = np.fromfile(tmp / "input.f32", dtype=np.float32).reshape(n, 3, 64, 64)
            names = activations_to_quantize(onnx.load(str(src)).graph)
            # the scaled input, 17 blocks' activations, the residual sums
            self.assertGreater(len(names), 40)
            ranges = activation_ranges(src, names, [x[: n // 2], x[n // 2 :]])
            self.assertTrue(all(lo < hi for lo, hi in ranges.values()))  # no empty range
            quantize_model(src, dst, ranges)

            g = onnx.load(str(dst)).graph
            ops = [nd.op_type for nd in g.node]
            self.assertEqual(ops.count("QuantizeLinear"), len(names))
            inits = {i.name: i for i in g.initializer}
            dq_out = {nd.output[0]: nd for nd in g.node if nd.op_type == "DequantizeLinear"}
            trunk = [nd for nd in g.node if nd.op_type == "Conv" and nd.output[0].startswith("/features/")]
            self.assertEqual(len(trunk), 52)
            for conv in trunk:
                w = dq_out[conv.input[1]]  # the weight is dequantized from int8
                self.assertEqual(inits[w.input[0]].data_type, TensorProto.INT8)
                self.assertIn(conv.input[0], dq_out)  # and so is the activation it reads
            # the linear head and the heatmap's convolution stay float (their weights are plain initializers)
            head = [nd for nd in g.node if nd.op_type == "Gemm" or (nd.op_type == "Conv" and nd not in trunk)]
            self.assertEqual(len(head), 2)
            self.assertTrue(all(inits[nd.input[1]].data_type == TensorProto.FLOAT for nd in head))

            want, got = ort_outputs(src, x), ort_outputs(dst, x)
            self.assertEqual(set(got), set(want))
            np.testing.assert_allclose(got["probabilities"].sum(1), 1.0, atol=1e-5)
            self.assertLess(np.abs(got["probabilities"] - want["probabilities"]).max(), 0.05)
            self.assertLess(np.abs(got["leaf"] - want["leaf"]).max(), 0.05)

            # every trunk convolution uses the int8 range, per output channel
            for conv in trunk:
                q = onnx.numpy_helper.to_array(inits[dq_out[conv.input[1]].input[0]])
                self.assertEqual(int(np.abs(q).max()), WEIGHT_MAX, conv.name)

            # a file whose large weights are stored as float16 (export --fp16, the GPU networks): the int8 weights
            # are read through their Casts, and the Casts and float16 weights they replace leave the file
            half, half_q = tmp / "half.onnx", tmp / "half_int8.onnx"
            onnx.save(_fp16_initializers(onnx.load(str(src))), str(half))
            casts = sum(nd.op_type == "Cast" for nd in onnx.load(str(half)).graph.node)
            self.assertGreater(casts, 10)
            quantize_model(half, half_q, activation_ranges(half, names, [x[: n // 2], x[n // 2 :]]))
            gq = onnx.load(str(half_q)).graph
            trunk_q = [nd for nd in gq.node if nd.op_type == "Conv" and nd.output[0].startswith("/features/")]
            self.assertEqual(len(trunk_q), 52)
            made_by = {o: nd for nd in gq.node for o in nd.output}
            self.assertTrue(all(made_by[c.input[1]].op_type == "DequantizeLinear" for c in trunk_q))
            self.assertLess(sum(nd.op_type == "Cast" for nd in gq.node), casts)  # only the head's are left
            read = {i for nd in gq.node for i in nd.input} | {o.name for o in gq.output}
            self.assertTrue(all(o in read for nd in gq.node if nd.op_type == "Cast" for o in nd.output))
            got16 = ort_outputs(half_q, x)
            self.assertLess(np.abs(got16["probabilities"] - want["probabilities"]).max(), 0.05)
            self.assertLess(half_q.stat().st_size, half.stat().st_size)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    def test_int8_copy_of_the_resnet50(self) -> None:
        # ResNet50's activation is a Relu, not ReLU6's Clip: an activated convolution output is quantized once, after
        # its Relu (the next convolution's input), so onnxruntime folds the Relu into QLinearConv's output range
        tmp = Path(tempfile.mkdtemp(prefix="diagrodl-q-"))
        try:
            meta = tiny_reference(tmp, "resnet50_imagenet", 64)
            n = meta["n"]
            src, dst = tmp / "model.onnx", tmp / "int8.onnx"
            x = np.fromfile(tmp / "input.f32", dtype=np.float32).reshape(n, 3, 64, 64)
            g = onnx.load(str(src)).graph
            names = activations_to_quantize(g)
            consumers = {}
            for nd in g.node:
                for i in nd.input:
                    consumers.setdefault(i, []).append(nd.op_type)
            trunk = [nd for nd in g.node if nd.op_type == "Conv" and nd.output[0].startswith("/features/")]
            self.assertEqual(len(trunk), 53)
            activated = [c.output[0] for c in trunk if "Relu" in consumers.get(c.output[0], [])]
            self.assertEqual(len(activated), 33)  # all but the 16 blocks' last convolutions and the 4 shortcuts
            self.assertFalse(set(activated) & set(names))
            self.assertTrue(all(c.input[0] in names for c in trunk))
            quantize_model(src, dst, activation_ranges(src, names, [x]))
            want, got = ort_outputs(src, x), ort_outputs(dst, x)
            # an untrained ResNet50's logits are large (its softmax saturates), so the int8 copy is compared on the
            # predicted class and on the energy (logsumexp of the logits), relative to its size
            np.testing.assert_array_equal(got["probabilities"].argmax(1), want["probabilities"].argmax(1))
            rel = np.abs(got["energy"] - want["energy"]) / np.abs(want["energy"])
            self.assertLess(float(rel.max()), 0.05)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    def test_lab_like_shares_count_photos_at_the_cut_as_lab_like(self) -> None:
        # the int8 copy's card measures them again on its own gate (recalibrate): quantization moves its features
        shares = lab_like_shares(np.array([[0.9], [0.5], [0.49], [1.0]]), np.array([0.1, 0.2, 0.7]))
        self.assertEqual(shares, {"lab": 0.75, "field": 0.3333})


if __name__ == "__main__":
    unittest.main()

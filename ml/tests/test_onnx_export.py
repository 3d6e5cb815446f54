"""The pipeline's ONNX export, run by onnxruntime-node (the server's runtime, through
ml/onnx_run.mjs), gives PyTorch's probabilities, energy and leaf output (within 1e-4) and CAMs
(within 1e-3), with a dynamic batch. Moved here from the server's tests so that those need no
PyTorch; the server's preprocessing is checked against the pipeline's in
apps/server/src/inference/preprocess.test.ts."""
from __future__ import annotations

import shutil
import tempfile
import unittest
from pathlib import Path

import numpy as np
import onnx

from diagrodl_ml.classes import CLASS_IDS
from diagrodl_ml.evaluate import node_ort_available, ort_outputs
from diagrodl_ml.fixtures import tiny_reference

# arch, input size, symmetric views averaged in the graph (8: mirrors and quarter turns)
ARCHS = [
    ("mobilenet", 64, 1),
    ("mobilenet", 64, 8),
    # the shipped architecture: ImageNet MobileNetV2 with the 11th output, exported with `leaf`
    ("mobilenet_v2_imagenet", 64, 1),
    ("resnet50", 32, 1),
    # the shipped ResNet50: Keras' v1 strides, epsilon 0.001 and caffe input, with the 11th output and `leaf`
    ("resnet50_imagenet", 32, 1),
    ("vgg16", 32, 1),
]


def f32(path: Path, n: int) -> np.ndarray:
    return np.fromfile(path, dtype=np.float32).reshape(n, -1)


@unittest.skipUnless(node_ort_available(), "node with onnxruntime-node is needed to run ONNX")
class OnnxExportTest(unittest.TestCase):
    def test_onnxruntime_node_gives_pytorch_outputs(self) -> None:
        for arch, size, views in ARCHS:
            with self.subTest(arch=arch, size=size, views=views):
                tmp = Path(tempfile.mkdtemp(prefix="diagrodl-onnx-"))
                try:
                    meta = tiny_reference(tmp, arch, size, views=views)
                    has_leaf = (tmp / "leaf.f32").exists()
                    graph = onnx.load(str(tmp / "model.onnx")).graph
                    self.assertEqual([i.name for i in graph.input], ["input"])
                    want = ["probabilities", "cam", "energy"] + (["leaf"] if has_leaf else [])
                    self.assertEqual([o.name for o in graph.output], want)
                    n = meta["n"]
                    x = np.fromfile(tmp / "input.f32", dtype=np.float32).reshape(n, 3, size, size)
                    out = ort_outputs(tmp / "model.onnx", x)
                    self.assertEqual(out["probabilities"].shape, (n, len(CLASS_IDS)))
                    self.assertEqual(out["cam"].shape[1], int(np.prod(meta["cam_shape"][1:])))
                    for name, tol in (("probabilities", 1e-4), ("energy", 1e-4), ("cam", 1e-3)) + (
                        (("leaf", 1e-4),) if has_leaf else ()
                    ):
                        np.testing.assert_allclose(out[name], f32(tmp / f"{name}.f32", n), atol=tol, err_msg=name)
                    # dynamic batch: a single image works too
                    one = ort_outputs(tmp / "model.onnx", x[:1], skip=("cam",))
                    self.assertEqual(one["probabilities"].shape, (1, len(CLASS_IDS)))
                finally:
                    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()

"""The int8 files answer the same on every x86-64 CPU: onnxruntime's default uint8 x int8 kernel clips pairs of
products at 16 bits on CPUs without VNNI, and the sessions the product and `ml:evaluate` create
(apps/server/src/inference/ort-session.mjs) ask for its exact kernel there. The probe is
apps/server/src/testing/fixtures/int8-pairs/pairs.onnx (its README.md)."""
from __future__ import annotations

import shutil
import tempfile
import unittest
from pathlib import Path

import numpy as np

from diagrodl_ml.evaluate import node_ort_available, ort_outputs
from diagrodl_ml.fixtures import INT8_PROBE_CHANNELS, INT8_PROBE_EXACT, write_int8_pair_probe

REPO = Path(__file__).resolve().parents[2]
PROBE = REPO / "apps" / "server" / "src" / "testing" / "fixtures" / "int8-pairs" / "pairs.onnx"


class Int8PairProbeTest(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="diagrodl-int8-probe-"))

    def tearDown(self) -> None:
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_committed_probe_is_what_the_pipeline_writes(self) -> None:
        write_int8_pair_probe(self.tmp / "pairs.onnx")
        self.assertEqual((self.tmp / "pairs.onnx").read_bytes(), PROBE.read_bytes(),
                         "rebuild it: PYTHONPATH=ml python3 -m diagrodl_ml.cli fixtures int8-probe")

    @unittest.skipUnless(node_ort_available(), "needs node and onnxruntime-node (npm ci)")
    def test_products_are_exact_through_the_pipelines_runner(self) -> None:
        ones = np.ones((2, INT8_PROBE_CHANNELS, 4, 4), np.float32)
        out = ort_outputs(PROBE, ones)["output"]
        # 32.5 here means each pair of products was clipped at 32,767 (a CPU without VNNI, default kernel)
        np.testing.assert_array_equal(out, np.full_like(out, INT8_PROBE_EXACT))
        # half the input: 128 x 127 x 2 = 32,512 fits an int16 whatever the kernel, so this half is a control
        half = ort_outputs(PROBE, ones * (128 / 255))["output"]
        np.testing.assert_allclose(half, np.full_like(half, INT8_PROBE_EXACT * 128 / 255), atol=0.5)


if __name__ == "__main__":
    unittest.main()

"""The speed of one file's graph as `gpu ensemble-card` reads it (gpufinish.graph_speed, member_speeds): timed inside
the runner (evaluate.ort_run) at the server's batch, with the machine's CPU use read around it, so that a reading
taken while another process shares the cores is told apart and no card is written from it."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import unittest
from pathlib import Path

import numpy as np

from diagrodl_ml.evaluate import node_ort_available, ort_outputs, ort_run
from diagrodl_ml.gpufinish import MAX_OTHERS_CPU_SHARE, PRODUCT_BATCH, graph_speed, member_speeds, others_cpu_share

REPO = Path(__file__).resolve().parents[2]
TINY = REPO / "apps" / "server" / "src" / "testing" / "fixtures" / "tiny-model" / "model.onnx"
MODELS = REPO / "models"


class OthersShareTest(unittest.TestCase):
    def test_the_batch_is_the_server_s(self):
        server = (REPO / "apps" / "server" / "src" / "inference" / "onnx-model.ts").read_text()
        self.assertEqual(int(re.search(r"export const MAX_BATCH = (\d+);", server).group(1)), PRODUCT_BATCH)

    def test_the_share_is_the_machine_s_busy_time_less_the_runner_s_over_all_its_cores(self):
        self.assertAlmostEqual(others_cpu_share({"machine_busy_s": 1.5, "self_cpu_s": 0.5, "wall_s": 1.0, "cpus": 2}),
                               0.5)
        # the two clocks' rounding can put the machine a little under the runner: never a negative share
        self.assertEqual(others_cpu_share({"machine_busy_s": 0.49, "self_cpu_s": 0.5, "wall_s": 1.0, "cpus": 2}), 0.0)
        self.assertIsNone(others_cpu_share({"machine_busy_s": None, "self_cpu_s": 0.5, "wall_s": 1.0, "cpus": 2}))


@unittest.skipUnless(node_ort_available(), "needs node and onnxruntime-node (npm ci)")
class GraphSpeedTest(unittest.TestCase):
    def test_the_runner_times_each_batch_and_gives_the_same_outputs(self):
        x = np.random.default_rng(0).normal(0, 1, (20, 3, 64, 64)).astype(np.float32)
        out, timing = ort_run(TINY, x, batch_size=PRODUCT_BATCH)
        self.assertEqual(timing["batch"], PRODUCT_BATCH)
        self.assertEqual(len(timing["seconds"]), 3)  # 8 + 8 + 4 photos
        self.assertTrue(all(s > 0 for s in timing["seconds"]))
        self.assertGreaterEqual(timing["wall_s"], sum(timing["seconds"]))
        whole = ort_outputs(TINY, x)  # the runner's own batch of 32: the same values
        self.assertEqual(set(out), set(whole))
        for name in out:
            np.testing.assert_allclose(out[name], whole[name], rtol=1e-5, atol=1e-6)
        with self.assertRaises(ValueError):
            graph_speed(TINY, x[:PRODUCT_BATCH + 1])

    @unittest.skipUnless(Path("/proc/stat").exists(), "reads the machine's CPU use from /proc/stat")
    def test_a_reading_taken_while_other_processes_share_the_cores_is_told_apart_and_refused(self):
        x = np.random.default_rng(1).normal(0, 1, (48, 3, 224, 224)).astype(np.float32)
        quiet = graph_speed(MODELS / "mobilenet.onnx", x, tries=1)
        self.assertGreater(quiet["images_per_s"], 0)
        self.assertGreaterEqual(quiet["others_cpu_share"], 0.0)
        self.assertLessEqual(quiet["others_cpu_share"], 1.0)
        # one busy loop per core, for as long as the timing takes
        loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(os.cpu_count() or 2)]
        try:
            busy = graph_speed(MODELS / "mobilenet.onnx", x, tries=1)
            self.assertGreater(busy["others_cpu_share"], MAX_OTHERS_CPU_SHARE)
            with self.assertRaises(SystemExit) as refused:
                member_speeds(MODELS, ["mobilenet"], x)
            self.assertIn("other processes used part of the CPU", str(refused.exception))
        finally:
            for p in loops:
                p.kill()
                p.wait()


if __name__ == "__main__":
    unittest.main()

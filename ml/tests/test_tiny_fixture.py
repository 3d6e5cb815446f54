"""The server tests' tiny model (apps/server/src/testing/fixtures/tiny-model/) is committed so the
server tests need no PyTorch; this checks it is still what the pipeline builds. Rebuild it with
`PYTHONPATH=ml python3 -m diagrodl_ml.cli fixtures tiny-model` (see the fixture's README.md)."""
from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
import unittest
from pathlib import Path

import numpy as np
import onnx

from diagrodl_ml.classes import CLASS_IDS
from diagrodl_ml.evaluate import node_ort_available, ort_outputs
from diagrodl_ml.fixtures import TINY_FIXTURE_ARCH, TINY_FIXTURE_SIZE, tiny_reference
from diagrodl_ml.models import build_model, count_params
from diagrodl_ml.preprocess import MEAN, STD

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "apps" / "server" / "src" / "testing" / "fixtures" / "tiny-model"
REBUILD = "PYTHONPATH=ml python3 -m diagrodl_ml.cli fixtures tiny-model"


class TinyFixtureTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = Path(tempfile.mkdtemp(prefix="diagrodl-tiny-check-"))
        cls.meta = tiny_reference(cls.tmp, TINY_FIXTURE_ARCH, TINY_FIXTURE_SIZE)
        cls.card = json.loads((FIXTURE / "card.json").read_text(encoding="utf-8"))

    @classmethod
    def tearDownClass(cls) -> None:
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_card_describes_the_committed_file(self) -> None:
        data = (FIXTURE / "model.onnx").read_bytes()
        self.assertLess(len(data), 4 * 1024 * 1024, "the fixture should stay small")
        self.assertEqual(self.card["file"]["sha256"], hashlib.sha256(data).hexdigest(), REBUILD)
        self.assertEqual(self.card["file"]["size_bytes"], len(data), REBUILD)

    def test_card_fields_match_the_pipeline(self) -> None:
        card = self.card
        self.assertEqual(tuple(card["classes"]), CLASS_IDS)
        self.assertEqual(card["input"]["size"], TINY_FIXTURE_SIZE)
        self.assertEqual(card["input"]["shape"], ["N", 3, TINY_FIXTURE_SIZE, TINY_FIXTURE_SIZE])
        np.testing.assert_allclose(card["input"]["mean"], MEAN)
        np.testing.assert_allclose(card["input"]["std"], STD)
        self.assertEqual(card["input"]["name"], "input")
        self.assertEqual(card["architecture"], TINY_FIXTURE_ARCH)
        self.assertEqual(card["parameters"], count_params(build_model(TINY_FIXTURE_ARCH)))

    def test_same_graph_inputs_and_outputs(self) -> None:
        committed = onnx.load(str(FIXTURE / "model.onnx")).graph
        fresh = onnx.load(str(self.tmp / "model.onnx")).graph
        self.assertEqual([i.name for i in committed.input], [i.name for i in fresh.input], REBUILD)
        self.assertEqual([o.name for o in committed.output], [o.name for o in fresh.output], REBUILD)

    @unittest.skipUnless(node_ort_available(), "node with onnxruntime-node is needed to run ONNX")
    def test_committed_graph_gives_what_pytorch_gives_now(self) -> None:
        size = TINY_FIXTURE_SIZE
        x = np.fromfile(self.tmp / "input.f32", dtype=np.float32).reshape(-1, 3, size, size)
        out = ort_outputs(FIXTURE / "model.onnx", x)
        for name, tol in (("probabilities", 1e-4), ("energy", 1e-4), ("cam", 1e-3)):
            want = np.fromfile(self.tmp / f"{name}.f32", dtype=np.float32).reshape(len(x), -1)
            np.testing.assert_allclose(out[name], want, atol=tol, err_msg=f"{name}: {REBUILD}")


if __name__ == "__main__":
    unittest.main()

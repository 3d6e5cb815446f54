"""The lab head tried on both networks' features (labhead.py): what it reads from the file, and its table."""
from __future__ import annotations

import json
import shutil
import tempfile
import unittest
from pathlib import Path

import numpy as np
import torch

from diagrodl_ml.calibrate import bias_gate, calibrated
from diagrodl_ml.card import card_path
from diagrodl_ml.evaluate import node_ort_available, ort_outputs
from diagrodl_ml.export import export_onnx
from diagrodl_ml.labhead import head_table, knn_vote, probe
from diagrodl_ml.models import build_model
from diagrodl_ml.transfer import normalise_u8

SHIPPED = Path(__file__).resolve().parents[2] / "models" / "mobilenet.onnx"


@unittest.skipUnless(node_ort_available(), "onnxruntime-node is not installed (npm ci)")
class ProbeTest(unittest.TestCase):
    def test_the_tensors_read_are_the_files_own(self) -> None:
        """On the shipped file: the logits read give its probabilities through its calibration, the gate read is its
        `lab_like` output, and each network's features give its own logits through its head."""
        u8 = np.random.default_rng(3).integers(0, 256, (5, 224, 224, 3), dtype=np.uint8)
        u8[:2] = u8[:2] // 4 + np.array([40, 120, 30], np.uint8)  # two greenish, three noise
        tmp = Path(tempfile.mkdtemp())
        try:
            shutil.copy(SHIPPED, tmp / "m.onnx")  # the probe's temporary copy goes beside the file, not into models/
            p = probe(tmp / "m.onnx", u8)
            out = ort_outputs(tmp / "m.onnx", normalise_u8(u8))
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        self.assertEqual({k: v.shape for k, v in p.items()},
                         {"main": (5, 1280), "expert": (5, 576), "logits": (5, 10), "gate": (5, 1)})
        cal = json.loads(card_path(SHIPPED).read_text())["calibration"]
        z = calibrated(p["logits"], cal["temperature"], np.asarray(cal["class_bias"]), bias_gate(cal, {"lab_like": p["gate"]}))
        np.testing.assert_allclose(z, out["probabilities"], atol=1e-5)
        np.testing.assert_allclose(p["gate"][:, 0], out["lab_like"].reshape(-1), atol=1e-6)

    def test_a_file_without_expert_and_gate_is_refused(self) -> None:
        tmp = Path(tempfile.mkdtemp())
        try:
            torch.manual_seed(1)
            export_onnx(build_model("tiny_cnn", 11).eval(), 1.0, tmp / "t.onnx", size=32, leaf=(0.8, 2.0))
            with self.assertRaisesRegex(ValueError, "no lab expert and lab gate"):
                probe(tmp / "t.onnx", np.zeros((1, 32, 32, 3), np.uint8))
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


class TableTest(unittest.TestCase):
    def test_knn_votes_for_the_nearest_rows(self) -> None:
        train = np.array([[1.0, 0.0], [0.9, 0.1], [0.0, 1.0]])
        votes = knn_vote(train, np.array([0, 0, 1]), np.array([[0.2, 1.0], [1.0, 0.05]]), k=2, classes=2)
        np.testing.assert_array_equal(votes, [[1, 1], [2, 0]])

    def test_a_head_on_the_feature_that_holds_the_class_is_right_and_the_file_row_is_the_files(self) -> None:
        rng = np.random.default_rng(0)
        classes, n = 3, 300

        def photos(y: np.ndarray, gate: float) -> dict[str, np.ndarray]:
            main = rng.normal(0, 1, (len(y), 4))  # holds nothing of the class
            expert = np.eye(classes)[y] * 3 + rng.normal(0, 0.3, (len(y), classes))
            logits = rng.normal(0, 1, (len(y), classes))  # a file that guesses
            return {"main": main, "expert": expert, "logits": logits, "gate": np.full((len(y), 1), gate)}

        y_tr, y_lab, y_field = (rng.integers(0, classes, k) for k in (n, 90, 30))
        val = {"lab": photos(y_lab, 1.0), "field": photos(y_field, 0.0)}
        rows = head_table(photos(y_tr, 1.0), y_tr, val, {"lab": y_lab, "field": y_field}, classes)
        file_lab = float((val["lab"]["logits"].argmax(1) == y_lab).mean())
        self.assertTrue(rows[0].startswith(f"the file: lab {file_lab:.4f}"))
        expert_row = next(r for r in rows if r.startswith("expert, L2 0.001"))
        self.assertIn("alone lab 1.0000", expert_row)
        self.assertIn(f"w 4: 1.0000 / {float((val['field']['logits'].argmax(1) == y_field).mean()):.4f}", expert_row)
        self.assertTrue(rows[-1].startswith("nearest neighbours"))


if __name__ == "__main__":
    unittest.main()

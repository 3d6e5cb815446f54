"""The familiarity cap on `leaf` (familiar.py): the graph computes the formula, the floor rule, the references."""
from __future__ import annotations

import json
import shutil
import tempfile
import unittest
from pathlib import Path

import numpy as np
import onnx
import torch

from diagrodl_ml.card import card_path
from diagrodl_ml.evaluate import node_ort_available, ort_outputs
from diagrodl_ml.export import add_views, export_onnx
from diagrodl_ml.familiar import (PREFIX, add_to_graph, capped_leaf, choose_floor, held_out_classes, own_features,
                                  references, similarity, unit)
from diagrodl_ml.models import build_model
from diagrodl_ml.transfer import normalise_u8

SIZE = 32
SHIPPED = Path(__file__).resolve().parents[2] / "models" / "mobilenet.onnx"


@unittest.skipUnless(node_ort_available(), "onnxruntime-node is not installed (npm ci)")
class GraphTest(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = Path(tempfile.mkdtemp())
        torch.manual_seed(4)
        net = build_model("tiny_cnn", 11).eval()
        export_onnx(net, 1.2, self.tmp / "one.onnx", size=SIZE, leaf=(0.8, 2.0))
        add_views(self.tmp / "one.onnx", self.tmp / "m.onnx", 2)  # the own view is the first N rows of the features
        self.u8 = np.random.default_rng(5).integers(0, 256, (6, SIZE, SIZE, 3), dtype=np.uint8)

    def tearDown(self) -> None:
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_the_graph_caps_leaf_by_the_formula_and_changes_nothing_else(self) -> None:
        feats = own_features(self.tmp / "m.onnx", self.u8)
        self.assertEqual(feats.shape[0], 6)
        rng = np.random.default_rng(6)
        cents = unit(rng.normal(0, 1, (7, feats.shape[1]))).astype(np.float16).astype(np.float64)
        s = similarity(feats, cents, k=2)
        floor = float(np.median(s))  # half the photos below it: capped
        m = onnx.load(str(self.tmp / "m.onnx"))
        add_to_graph(m.graph, cents, floor, 0.9, k=2)
        onnx.checker.check_model(m)
        onnx.save(m, str(self.tmp / "f.onnx"))
        x = normalise_u8(self.u8)
        before, after = ort_outputs(self.tmp / "m.onnx", x), ort_outputs(self.tmp / "f.onnx", x)
        want = capped_leaf(before["leaf"].reshape(-1), s, floor, 0.9)
        np.testing.assert_allclose(after["leaf"].reshape(-1), want, atol=1e-5)
        self.assertTrue(((after["leaf"].reshape(-1) < 0.9) == ((before["leaf"].reshape(-1) < 0.9) | (s < floor))).all())
        self.assertTrue((s < floor).any() and (s >= floor).any())
        for k in before:
            if k != "leaf":
                np.testing.assert_array_equal(before[k], after[k])
        with self.assertRaises(ValueError):
            add_to_graph(m.graph, cents, floor, 0.9)


class RulesTest(unittest.TestCase):
    def test_floor_is_the_highest_within_both_allowances(self) -> None:
        s_lab = np.linspace(0.6, 1.0, 1000)
        s_field = np.asarray([0.55, 0.6, 0.7, 0.9])
        f = choose_floor(s_lab, s_field, max_lab=0.005, max_field=1)
        self.assertLessEqual((s_lab < f).mean(), 0.005)
        self.assertLessEqual((s_field < f).sum(), 1)
        self.assertGreater(f, 0.55)  # one field photo may fall below
        f2 = choose_floor(s_lab, s_field, max_lab=0.2, max_field=0)
        self.assertLess(f2, 0.55)

    def test_references_and_a_class_left_out(self) -> None:
        rng = np.random.default_rng(7)
        centres = unit(rng.normal(0, 1, (10, 16)))
        y = np.repeat(np.arange(10), 30)
        x = centres[y] + rng.normal(0, 0.05, (300, 16))
        c, cls = references(x, y, x[:100], y[:100])
        self.assertEqual(len(c), len(cls))
        np.testing.assert_array_equal(c, c.astype(np.float16).astype(np.float64))
        self.assertGreater(similarity(x, c).min(), 0.9)  # every photo near its own class's centroids
        yv = np.repeat(np.arange(10), 5)
        xv = centres[yv] + rng.normal(0, 0.05, (50, 16))
        out = held_out_classes(xv, yv, xv[:0], yv[:0], c, cls)
        self.assertEqual(len(out), 10)
        self.assertGreater(np.median(list(out.values())), 0.9)  # well-separated classes: a left-out one is far


@unittest.skipUnless(SHIPPED.is_file() and card_path(SHIPPED).is_file(), "no shipped model")
class ShippedTest(unittest.TestCase):
    def test_the_card_describes_the_cap_in_the_graph(self) -> None:
        card = json.loads(card_path(SHIPPED).read_text())
        if "familiarity" not in card:
            self.skipTest("the shipped file has no familiarity cap")
        fam = card["familiarity"]
        init = {i.name: i for i in onnx.load(str(SHIPPED)).graph.initializer}
        self.assertEqual(list(init[PREFIX + "centroids_t"].dims)[1], fam["centroids"])
        self.assertAlmostEqual(float(onnx.numpy_helper.to_array(init[PREFIX + "floor"])), fam["floor"], places=6)
        self.assertEqual(fam["crosses_at"], card["rejection"]["leaf_threshold"])


if __name__ == "__main__":
    unittest.main()

"""The ensemble's member weights chosen on validation (gpufinish.choose_weights) and its outputs as the server
computes them (gpufinish.combine), on made-up validation outputs: no data, no network."""
from __future__ import annotations

import unittest

import numpy as np

from diagrodl_ml.calibrate import softmax
from diagrodl_ml.classes import NUM_CLASSES
from diagrodl_ml.gpufinish import ENSEMBLE_WEIGHT_GRID, choose_weights, combine, ensemble_speed

SIZES = {"lab": 300, "field": 120, "negatives": 40, "synthetic": 20}


def _member(y: dict[str, np.ndarray], skill: float, seed: int) -> dict[str, dict[str, np.ndarray]]:
    """Calibrated-looking probabilities: logits of noise (its own seed) plus `skill` on the true class."""
    rng = np.random.default_rng(seed)
    out = {}
    for k, n in SIZES.items():
        z = rng.normal(0, 1, (n, NUM_CLASSES))
        if k in y:
            z[np.arange(n), y[k]] += skill * (2.5 if k == "lab" else 1.0)
        out[k] = {"probabilities": softmax(z), "leaf": np.full(n, 0.0 if k in ("negatives", "synthetic") else 1.0)}
    return out


class EnsembleWeightsTest(unittest.TestCase):
    def setUp(self):
        rng = np.random.default_rng(7)
        self.y = {k: rng.integers(0, NUM_CLASSES, SIZES[k]) for k in ("lab", "field")}
        # two useful networks with errors of their own, and one that guesses
        self.outs = {"a": _member(self.y, 2.0, 1), "b": _member(self.y, 1.6, 2), "c": _member(self.y, 0.0, 3)}

    def test_combine_is_the_weighted_mean_of_probabilities_and_the_plain_mean_of_leaves(self):
        outs = {"a": {"probabilities": np.array([[1.0, 0.0]]), "leaf": np.array([1.0])},
                "b": {"probabilities": np.array([[0.0, 1.0]]), "leaf": np.array([0.0])},
                "c": {"probabilities": np.array([[0.5, 0.5]]), "leaf": np.array([0.0])}}
        got = combine(outs, {"a": 3.0, "b": 1.0, "c": 0.0})
        np.testing.assert_allclose(got["probabilities"], [[0.75, 0.25]])
        np.testing.assert_allclose(got["leaf"], [0.5])  # c, weighed 0, is not a member

    def test_the_guessing_network_is_left_out_and_the_kept_row_has_the_lowest_field_log_loss(self):
        weights, rows = choose_weights(self.outs, self.y["lab"], self.y["field"])
        self.assertEqual(weights["a"], 1.0)  # the first network weighs 1
        self.assertEqual(weights["c"], 0.0)
        self.assertGreater(weights["b"], 0.0)
        self.assertEqual(len(rows), len(ENSEMBLE_WEIGHT_GRID) ** 2 - 1)  # a alone is not an ensemble
        self.assertEqual(rows[0]["weights"], weights)
        self.assertTrue(all(r["members"] >= 2 for r in rows))
        self.assertEqual(rows[0]["field_log_loss"], min(r["field_log_loss"] for r in rows))
        # the kept weights beat the first network alone on field validation top-1
        alone = float((self.outs["a"]["field"]["probabilities"].argmax(1) == self.y["field"]).mean())
        self.assertGreater(rows[0]["field_top1"], alone)
        # ties on log loss go to the higher field top-1, then to fewer members
        keys = [(r["field_log_loss"], -r["field_top1"], r["members"]) for r in rows]
        self.assertEqual(keys, sorted(keys))

    def test_two_networks_give_one_weight_to_choose(self):
        outs = {k: self.outs[k] for k in ("a", "b")}
        weights, rows = choose_weights(outs, self.y["lab"], self.y["field"], grid=(0.0, 0.5, 1.0))
        self.assertEqual([r["weights"]["b"] for r in rows if r["weights"]["b"] == 0.0], [])
        self.assertEqual(len(rows), 2)
        self.assertIn(weights["b"], (0.5, 1.0))

    def test_members_too_slow_together_are_ranked_after_every_fast_enough_candidate(self):
        # b is the useful second network but slow: with it the ensemble runs at 1 / (1/100 + 1/20) = 16.7 images/s
        speeds = {"a": 100.0, "b": 20.0, "c": 90.0}
        self.assertAlmostEqual(ensemble_speed(speeds, ["a", "b"]), 1 / (1 / 100 + 1 / 20))
        free, _ = choose_weights(self.outs, self.y["lab"], self.y["field"])
        self.assertGreater(free["b"], 0.0)
        weights, rows = choose_weights(self.outs, self.y["lab"], self.y["field"], speeds=speeds, min_speed=40.0)
        self.assertEqual(weights["b"], 0.0)  # only a + c runs at 40 images/s or more
        self.assertGreater(weights["c"], 0.0)
        self.assertEqual(len(rows), len(ENSEMBLE_WEIGHT_GRID) ** 2 - 1)  # the slow candidates stay, ranked last
        fast = [r["images_per_s"] >= 40.0 for r in rows]
        self.assertEqual(fast, sorted(fast, reverse=True))
        self.assertEqual(rows[0]["images_per_s"], round(ensemble_speed(speeds, ["a", "c"]), 1))
        # no speed floor: the same ranking as without speeds
        same, _ = choose_weights(self.outs, self.y["lab"], self.y["field"], speeds=speeds)
        self.assertEqual(same, free)


if __name__ == "__main__":
    unittest.main()

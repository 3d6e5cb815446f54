"""The confidence thresholds chosen on validation (fieldtrain.choose_thresholds) and applied per photo kind
(calibrate.thresholds_for, transfer.decide), on made-up validation outputs: no data, no network."""
from __future__ import annotations

import unittest

import numpy as np

from diagrodl_ml.calibrate import LAB_LIKE_CUT, accepted, choose_threshold, thresholds_for
from diagrodl_ml.classes import NUM_CLASSES
from diagrodl_ml.fieldtrain import FIELD_ACCEPTED_GOAL, LAB_REFUSED_TARGET, choose_thresholds, decision_rule
from diagrodl_ml.transfer import decide, set_report


def _probs(top: np.ndarray, labels: np.ndarray, right: np.ndarray) -> np.ndarray:
    """Rows whose top probability is `top`, on the label where `right`, on the next class otherwise."""
    n = len(top)
    p = np.tile(((1 - top) / (NUM_CLASSES - 1))[:, None], (1, NUM_CLASSES))
    cls = np.where(right, labels, (labels + 1) % NUM_CLASSES)
    p[np.arange(n), cls] = top
    return p


def _validation(seed: int = 0):
    """Lab photos: right 98% of the time, the right ones mostly above 0.95 and one in ten over 0.70..0.95. Field
    photos: right half the time, the wrong ones never above 0.90, the right ones over 0.60..1.0."""
    rng = np.random.default_rng(seed)
    y_lab = rng.integers(0, NUM_CLASSES, 500)
    right_lab = rng.random(500) < 0.98
    top_right = np.where(rng.random(500) < 0.1, rng.uniform(0.70, 0.95, 500), rng.uniform(0.95, 1.0, 500))
    top_lab = np.where(right_lab, top_right, rng.uniform(0.5, 0.9, 500))
    y_field = rng.integers(0, NUM_CLASSES, 100)
    right_field = np.arange(100) % 2 == 0
    top_field = np.where(right_field, rng.uniform(0.60, 1.0, 100), rng.uniform(0.4, 0.9, 100))
    leaf = {"lab": np.ones(500), "field": np.ones(100), "negatives": np.zeros(50), "synthetic": np.zeros(50)}
    lab_like = {"lab": np.full(500, 0.9), "field": np.full(100, 0.1)}
    return (_probs(top_lab, y_lab, right_lab), y_lab, _probs(top_field, y_field, right_field), y_field, leaf, lab_like)


class ThresholdsTest(unittest.TestCase):
    def test_thresholds_for_holds_field_like_photos_to_the_field_threshold(self) -> None:
        rule = {"threshold": 0.6, "field_threshold": 0.9}
        g = np.array([0.9, LAB_LIKE_CUT, LAB_LIKE_CUT - 0.01, 0.0])
        np.testing.assert_array_equal(thresholds_for(rule, 4, g), [0.6, 0.6, 0.9, 0.9])
        np.testing.assert_array_equal(thresholds_for(rule, 4), [0.6] * 4)  # no lab_like output: one threshold
        np.testing.assert_array_equal(thresholds_for({"threshold": 0.6}, 4, g), [0.6] * 4)
        probs = _probs(np.full(4, 0.8), np.zeros(4, int), np.ones(4, bool))
        np.testing.assert_array_equal(accepted(probs, rule, lab_like=g), [True, True, False, False])

    def test_one_threshold_for_all_costs_right_lab_answers_that_the_split_keeps(self) -> None:
        p_lab, y_lab, p_field, y_field, leaf, lab_like = _validation()
        _, single, _ = choose_thresholds(p_lab, y_lab, p_field, y_field, leaf)
        _, split, notes = choose_thresholds(p_lab, y_lab, p_field, y_field, leaf, lab_like)
        base = split["threshold"]
        self.assertNotIn("field_threshold", single)
        self.assertGreater(single["threshold"], base)  # raised for every photo
        self.assertEqual(split["field_threshold"], single["threshold"])  # the same field photos decide it
        self.assertLess(split["val_correct_rejected"], single["val_correct_rejected"])
        self.assertGreater(split["val_coverage"], single["val_coverage"])
        self.assertIn("field-like photos", notes[0])
        # the field goal holds with the split rule, and the value below it misses it
        right_f = p_field.argmax(1) == y_field
        acc = accepted(p_field, split, lab_like=lab_like["field"])
        self.assertGreaterEqual(right_f[acc].mean(), FIELD_ACCEPTED_GOAL)
        below = {**split, "field_threshold": split["field_threshold"] - 0.005}
        acc_below = accepted(p_field, below, lab_like=lab_like["field"])
        self.assertLess(right_f[acc_below].mean(), FIELD_ACCEPTED_GOAL)

    def test_lab_like_photos_get_the_highest_threshold_that_meets_the_lab_refusal_target(self) -> None:
        p_lab, y_lab, p_field, y_field, leaf, lab_like = _validation()
        leaf["lab"][:3] = 0.0  # three lab photos called "not a leaf": they count as refused too
        base = choose_threshold(p_lab, y_lab)["threshold"]
        _, split, notes = choose_thresholds(p_lab, y_lab, p_field, y_field, leaf, lab_like)
        _, single, _ = choose_thresholds(p_lab, y_lab, p_field, y_field, leaf)

        def refused(rule: dict) -> float:
            return float(1 - ((leaf["lab"] >= 0.99) & accepted(p_lab, rule, lab_like=lab_like["lab"])).mean())

        self.assertGreater(refused({"threshold": base}), LAB_REFUSED_TARGET)  # the 2nd percentile alone misses it
        self.assertLess(split["threshold"], base)
        self.assertLessEqual(refused(split), LAB_REFUSED_TARGET)
        self.assertGreater(refused({**split, "threshold": split["threshold"] + 0.005}), LAB_REFUSED_TARGET)
        self.assertEqual(split["field_threshold"], single["threshold"])  # field-like photos keep the field rule's
        self.assertIn(f"lowered from {base} to {split['threshold']}", notes[-1])
        self.assertGreaterEqual(single["threshold"], base)  # one threshold for every photo is never lowered
        acc = accepted(p_lab, split, lab_like=lab_like["lab"])
        self.assertAlmostEqual(split["val_coverage"], float(acc.mean()))

    def test_the_lab_like_threshold_stays_when_the_lab_refusal_target_is_met(self) -> None:
        p_lab, y_lab, p_field, y_field, leaf, lab_like = _validation()
        y_lab = p_lab.argmax(1)  # every lab answer right, and 1 % of them below 0.99
        low = np.arange(500) % 100 == 0
        p_lab = np.where(low[:, None], p_lab, _probs(np.full(500, 0.99), y_lab, np.ones(500, bool)))
        base = choose_threshold(p_lab, y_lab)["threshold"]
        _, split, notes = choose_thresholds(p_lab, y_lab, p_field, y_field, leaf, lab_like)
        self.assertEqual(split["threshold"], base)
        self.assertFalse(any("lowered" in n for n in notes))

    def test_the_rule_reaches_decide_and_the_set_report(self) -> None:
        rule = decision_rule({"rule": {"threshold": 0.6, "field_threshold": 0.9}, "leaf": {"leaf_threshold": 0.5}})
        self.assertEqual(rule, {"threshold": 0.6, "field_threshold": 0.9, "leaf_threshold": 0.5})
        self.assertNotIn("field_threshold", decision_rule({"rule": {"threshold": 0.6}, "leaf": {"leaf_threshold": 0.5}}))
        labels = np.zeros(4, int)
        out = {"probabilities": _probs(np.array([0.8, 0.8, 0.95, 0.8]), labels, np.ones(4, bool)),
               "leaf": np.array([0.9, 0.9, 0.9, 0.1]), "lab_like": np.array([0.9, 0.1, 0.1, 0.1])}
        acc, not_leaf = decide(out, rule)
        np.testing.assert_array_equal(acc, [True, False, True, False])
        np.testing.assert_array_equal(not_leaf, [False, False, False, True])
        rep = set_report(out, labels, rule)
        self.assertEqual(rep["accepted_share"], 0.5)
        self.assertEqual(rep["by_photo_kind"]["field_like"]["accepted_share"], round(1 / 3, 4))


if __name__ == "__main__":
    unittest.main()

"""The prediction-time crop centred on the leaf (leafcrop.py): the box, the crop and the combined answers."""
from __future__ import annotations

import unittest

import numpy as np

from diagrodl_ml.leafcrop import ANSWERS, answers, crop_resize, leaf_box


class LeafBoxTest(unittest.TestCase):
    def test_box_covers_the_hot_cells_and_stays_square_inside_the_frame(self) -> None:
        cam = np.zeros((7, 7))
        cam[1, 5], cam[2, 6] = 1.0, 0.6  # near the top-right corner: the square is pushed back inside
        top, left, side = leaf_box(cam, threshold=0.5, margin=0.1, min_side=0.4)
        self.assertAlmostEqual(side, 0.4 * 224)  # the cells span 64 px, 76.8 with the margin, below the minimum
        self.assertGreaterEqual(top, 0)
        self.assertLessEqual(left + side, 224 + 1e-9)
        self.assertLessEqual(top, 32)  # covers rows 1-2 (pixels 32-96) ...
        self.assertGreaterEqual(top + side, 96)
        self.assertLessEqual(left, 160)  # ... and columns 5-6 (160-224)
        self.assertAlmostEqual(left + side, 224)

    def test_threshold_at_the_peak_keeps_one_cell_and_a_cold_map_keeps_the_frame(self) -> None:
        cam = np.zeros((7, 7))
        cam[3, 3], cam[0, 0] = 1.0, 0.9
        self.assertEqual(leaf_box(cam, 0.99, 0.0, 0.0), (96.0, 96.0, 32.0))
        self.assertEqual(leaf_box(cam, 0.5, 0.0, 0.0), (0.0, 0.0, 128.0))  # both cells
        self.assertEqual(leaf_box(np.zeros((7, 7)), 0.5, 0.1, 0.3), (0.0, 0.0, 224.0))


class CropTest(unittest.TestCase):
    def test_the_whole_frame_is_the_image_and_a_half_is_its_ramp_stretched(self) -> None:
        size = 16
        ramp = np.broadcast_to(np.arange(size, dtype=np.float32), (1, 3, size, size)).copy()  # value = column
        x = np.concatenate([ramp, ramp[:, :, ::-1].copy()])
        same = crop_resize(x, [(0.0, 0.0, float(size))] * 2)
        np.testing.assert_allclose(same, x, atol=1e-5)
        left_half = crop_resize(ramp, [(0.0, 0.0, size / 2)])[0, 0, 0]
        # pixel centres of the output map to columns (j + 0.5) / 2 - 0.5 of the input, clamped at the border
        expected = np.clip((np.arange(size) + 0.5) / 2 - 0.5, 0, size - 1)
        np.testing.assert_allclose(left_half, expected, atol=1e-5)


class AnswersTest(unittest.TestCase):
    def test_the_crop_counts_only_where_asked(self) -> None:
        p1 = np.array([[0.6, 0.4], [0.6, 0.4]])
        p2 = np.array([[0.1, 0.9], [0.1, 0.9]])
        got = answers(p1, p2, np.array([0.9, 0.1]))  # a lab-like photo, then a field-like one
        self.assertEqual(list(got), list(ANSWERS))
        self.assertEqual(got["base"].tolist(), [0, 0])
        self.assertEqual(got["crop"].tolist(), [1, 1])
        self.assertEqual(got["mean"].tolist(), [1, 1])  # log 0.06 < log 0.36
        self.assertEqual(got["mean if field-like"].tolist(), [0, 1])
        self.assertEqual(got["crop if field-like"].tolist(), [0, 1])


if __name__ == "__main__":
    unittest.main()

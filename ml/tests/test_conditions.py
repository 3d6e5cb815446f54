"""The photo conditions (conditions.py): each one changes what it names and nothing else, on a made-up leaf (a
green ellipse on grey, its mask) and a made-up background: no data, no network."""
from __future__ import annotations

import unittest

import numpy as np

from diagrodl_ml.conditions import CONDITIONS, condition_image, condition_sets


def _leaf(seed: int = 0, size: int = 256) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:size, 0:size]
    inside = ((yy - size / 2) / (0.4 * size)) ** 2 + ((xx - size / 2) / (0.3 * size)) ** 2 < 1
    rgb = np.full((size, size, 3), 128, np.uint8)
    rgb[inside] = np.clip(np.array([40, 140, 50]) + rng.normal(0, 12, (int(inside.sum()), 3)), 0, 255)
    return rgb, (inside * 255).astype(np.uint8)


def _image(name: str, bg: np.ndarray, others=(), seed: int = 3) -> np.ndarray:
    rgb, mask = _leaf()
    return condition_image(name, rgb, mask, bg, 77, list(others), np.random.default_rng(seed))


class ConditionsTest(unittest.TestCase):
    def setUp(self) -> None:
        self.bg = np.random.default_rng(1).integers(0, 256, (224, 224, 3), dtype=np.uint8)
        self.base = _image("real_background", self.bg)
        self.leaf = np.abs(self.base.astype(int) - self.bg.astype(int)).sum(2) > 0  # where the leaf went

    def test_every_condition_is_a_224_px_rgb_photo(self) -> None:
        for name in CONDITIONS:
            with self.subTest(name):
                im = _image(name, self.bg, [_leaf(5)])
                self.assertEqual((im.shape, im.dtype), ((224, 224, 3), np.uint8))

    def test_the_leaf_goes_to_the_same_place_under_every_condition_built_on_the_base(self) -> None:
        self.assertGreater(self.leaf.mean(), 0.2)  # the leaf fills much of the frame
        plain = _image("plain_background", self.bg)
        # the same leaf pixels (all but its soft edge, blended with the background); only the background differs
        same = (plain == self.base).all(2)
        self.assertGreater(same[self.leaf].mean(), 0.8)
        rgb, mask = _leaf()
        elsewhere = condition_image("plain_background", rgb, mask, self.bg, 78, [], np.random.default_rng(3))
        self.assertLess((elsewhere == self.base).all(2)[self.leaf].mean(), 0.5)  # another placement seed
        self.assertGreater(np.abs(plain[~self.leaf].astype(int) - self.bg[~self.leaf]).mean(), 30)
        dark = _image("dark", self.bg)
        self.assertTrue(np.array_equal(dark, (self.base.astype(np.float32) * 0.5).astype(np.uint8)))

    def test_small_in_frame_makes_the_leaf_small(self) -> None:
        small = _image("small_in_frame", self.bg)
        covered = (np.abs(small.astype(int) - self.bg.astype(int)).sum(2) > 0).mean()
        self.assertLess(covered, 0.35 * self.leaf.mean())

    def test_blur_shadow_and_jpeg_change_the_photo_and_keep_its_layout(self) -> None:
        for name in ("hard_shadow", "sun_glare", "defocus", "motion_blur", "jpeg_medium", "jpeg_low"):
            with self.subTest(name):
                im = _image(name, self.bg).astype(int)
                diff = np.abs(im - self.base.astype(int)).mean()
                self.assertGreater(diff, 1.0)
                self.assertLess(diff, 60.0)
        # a lower JPEG quality loses more
        low, medium = (np.abs(_image(n, self.bg).astype(int) - self.base.astype(int)).mean()
                       for n in ("jpeg_low", "jpeg_medium"))
        self.assertGreater(low, medium)

    def test_the_lab_photo_is_the_photo_resized(self) -> None:
        rgb, _ = _leaf()
        lab = _image("lab", self.bg)
        self.assertEqual(lab.shape, (224, 224, 3))
        self.assertLess(np.abs(lab.astype(int).mean((0, 1)) - rgb.astype(int).mean((0, 1))).max(), 1.0)

    def test_an_unknown_condition_is_refused(self) -> None:
        with self.assertRaises(ValueError):
            _image("fog", self.bg)

    def test_the_sets_are_fixed_by_their_seed(self) -> None:
        class Cache:
            pass
        c = Cache()
        leaves = [_leaf(s) for s in range(4)]
        c.images, c.masks = [lf[0] for lf in leaves], [lf[1] for lf in leaves]
        c.labels = np.array([0, 0, 1, 1])
        a, ya = condition_sets(c, [self.bg])
        b, _ = condition_sets(c, [self.bg])
        self.assertEqual(list(a), list(CONDITIONS))
        self.assertTrue(all(np.array_equal(a[k], b[k]) for k in a))
        self.assertEqual(ya.tolist(), [0, 0, 1, 1])
        self.assertFalse(np.array_equal(a["real_background"], condition_sets(c, [self.bg], seed=9)[0]["real_background"]))


if __name__ == "__main__":
    unittest.main()

"""The Python mirror flattens transparency onto white exactly as the server's libvips does."""
import io
import unittest

import numpy as np
from PIL import Image

from diagrodl_ml import preprocess as P


class FlattenTest(unittest.TestCase):
    def test_transparent_pixels_are_white_whatever_they_hide(self) -> None:
        outs = []
        for hidden in (0, 255, 90):
            rgba = np.zeros((48, 64, 4), np.uint8)
            rgba[..., :3] = (hidden, hidden // 2, 255 - hidden)
            rgba[:, 17:48] = (40, 130, 35, 255)
            buf = io.BytesIO()
            Image.fromarray(rgba, "RGBA").save(buf, format="PNG")
            outs.append(P.load_rgb(buf.getvalue()))
        np.testing.assert_array_equal(outs[0], outs[1])
        np.testing.assert_array_equal(outs[0], outs[2])
        self.assertEqual(outs[0][0, 0].tolist(), [255, 255, 255])
        self.assertEqual(outs[0][0, 20].tolist(), [40, 130, 35])

    def test_partial_alpha_follows_libvips(self) -> None:
        # floor((c a + 255 (255 - a)) / 255): a = 128 over c = 0 gives 127, over c = 200 gives 227
        rgba = np.array([[[0, 200, 255, 128]]], np.uint8)
        self.assertEqual(P.flatten_on_white(rgba)[0, 0].tolist(), [127, 227, 255])

    def test_palette_transparency_and_plain_rgb(self) -> None:
        pal = Image.new("P", (4, 4), 0)
        pal.putpalette([0, 0, 0, 10, 200, 10] + [0] * 762)
        pal.putpixel((1, 1), 1)
        pal.info["transparency"] = 0
        buf = io.BytesIO()
        pal.save(buf, format="PNG", transparency=0)
        out = P.load_rgb(buf.getvalue())
        self.assertEqual(out[0, 0].tolist(), [255, 255, 255])
        self.assertEqual(out[1, 1].tolist(), [10, 200, 10])
        rgb = np.full((3, 3, 3), 77, np.uint8)
        buf = io.BytesIO()
        Image.fromarray(rgb, "RGB").save(buf, format="PNG")
        np.testing.assert_array_equal(P.load_rgb(buf.getvalue()), rgb)


if __name__ == "__main__":
    unittest.main()

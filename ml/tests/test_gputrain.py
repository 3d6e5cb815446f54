"""ResNet50 / VGG16 on a GPU machine (gputrain.py) and their finishing here (gpufinish.py): the pack, one epoch of
`gpu train` on the CPU with a tiny network, the weights read back, and the raw logits read from the exported file;
the MobileNetV2 from the ImageNet start (`--arch mobilenet_v2_imagenet`): its start computes the converted network's
function, one epoch on the CPU, its weights read back."""
from __future__ import annotations

import json
import shutil
import tempfile
import unittest
from pathlib import Path

import numpy as np
import torch

from diagrodl_ml.classes import NUM_CLASSES
from diagrodl_ml.evaluate import node_ort_available
from diagrodl_ml.export import export_onnx
from diagrodl_ml.fixtures import make_synthetic_dataset
from diagrodl_ml.gpufinish import raw_logits, training_section
from diagrodl_ml.gputrain import (
    IMAGENET_ARCH, NOT_LEAF, PACK_PRETRAINED, EpochViews, GpuConfig, decode_pack, encode, load_weights, start_model, train_gpu,
    pack, pack_lab_photo, write_pack,
)
from diagrodl_ml.models import PRETRAINED_TFLITE, imagenet_mobilenet_v2
from diagrodl_ml.predict import eval_tensor
from diagrodl_ml.models import build_model
from diagrodl_ml.preprocess import load_rgb


class GpuTrainTest(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = Path(tempfile.mkdtemp())
        make_synthetic_dataset(self.tmp / "lab", per_class=2, size=96)
        rng = np.random.default_rng(0)
        items = [(pack_lab_photo(load_rgb(f), 96, "jpeg", 65), "lab", i) for i, d in enumerate(sorted((self.tmp / "lab").iterdir()))
                 for f in sorted(d.iterdir())]
        items += [(encode(rng.integers(0, 255, (224, 224, 3), dtype=np.uint8), "webp", 90), "field", k) for k in (0, 3, 9)]
        items += [(encode(rng.integers(0, 255, (64, 64, 3), dtype=np.uint8), "webp", 90), "negative", NOT_LEAF) for _ in range(4)]
        self.index = write_pack(self.tmp / "pack", items, {"lab_size": 96})

    def tearDown(self) -> None:
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_pack_decodes_to_the_training_sets_with_leaf_masks(self) -> None:
        self.assertEqual(self.index["counts"], {"lab": 20, "field": 3, "negative": 4, "other_crop": 0})
        dec, index = decode_pack(self.tmp / "pack", workers=1)
        self.assertEqual(len(dec.lab), 20)
        self.assertEqual(sorted(set(dec.lab_labels.tolist())), list(range(NUM_CLASSES)))
        self.assertEqual(dec.field_labels.tolist(), [0, 3, 9])
        self.assertTrue(all(m.shape == (96, 96) and 0 < (m > 127).mean() < 1 for m in dec.lab_masks))
        self.assertTrue(all(x.shape == (224, 224, 3) for x in dec.field + dec.negatives))  # to224, as the product
        cfg = GpuConfig(synthetic=5, background=3, field_views=2)
        ev = EpochViews(dec, cfg, epoch=0)
        self.assertEqual(len(ev), 20 * 3 + 3 * 2 + 4 + 5 + 3)
        labels = [ev[i][1] for i in range(len(ev))]
        self.assertEqual(labels.count(NOT_LEAF), 4 + 5 + 3)
        x, y, w = ev[len(ev) - 1]
        self.assertEqual((tuple(x.shape), x.dtype, y), ((224, 224, 3), torch.uint8, NOT_LEAF))
        again = EpochViews(dec, cfg, epoch=0)[7][0]
        self.assertTrue(torch.equal(ev[7][0], again), "a view is fixed by (seed, epoch, index)")

    def test_lab_photos_are_packed_at_their_size_in_the_format_asked_for(self) -> None:
        rgb = np.random.default_rng(1).integers(0, 255, (256, 256, 3), dtype=np.uint8)
        for fmt, magic in (("jpeg", b"\xff\xd8"), ("webp", b"RIFF"), ("png", b"\x89PNG")):
            data = pack_lab_photo(rgb, 224, fmt, 65)
            self.assertTrue(data.startswith(magic), fmt)
            self.assertEqual(load_rgb(data).shape, (224, 224, 3))
        small = np.asarray(load_rgb(pack_lab_photo(rgb, 256, "png", 0)))
        self.assertTrue(np.array_equal(small, rgb), "png at the photo's own size is the photo")
        self.assertLess(len(pack_lab_photo(rgb, 224, "jpeg", 40)), len(pack_lab_photo(rgb, 224, "jpeg", 90)))
        with self.assertRaisesRegex(ValueError, "lab_format"):
            pack(self.tmp / "never", lab_format="gif")
        self.assertFalse((self.tmp / "never").exists())

    def test_train_gpu_on_the_cpu_writes_weights_that_load_back(self) -> None:
        cfg = GpuConfig(archs=["tiny_cnn"], epochs=1, batch_size=8, workers=1, max_side=32, synthetic=4, background=2,
                        field_views=1)
        summary = train_gpu(self.tmp / "pack", self.tmp / "out", cfg)
        self.assertGreater(summary["steps"], 0)
        hist = json.loads((self.tmp / "out" / "tiny_cnn.history.json").read_text())
        self.assertEqual(hist["arch"], "tiny_cnn")
        self.assertEqual(hist["history"][0]["tiny_cnn"]["views"], summary["steps"] * 8)
        model = load_weights("tiny_cnn", self.tmp / "out" / "tiny_cnn.npz")
        z = np.load(self.tmp / "out" / "tiny_cnn.npz")
        for k, v in model.state_dict().items():
            np.testing.assert_array_equal(v.numpy(), z[k].astype(v.numpy().dtype))
        self.assertEqual(model.fc.out_features, NUM_CLASSES + 1)

    def test_a_run_goes_on_from_an_earlier_run_s_weights_and_records_the_chain(self) -> None:
        cfg = GpuConfig(archs=["tiny_cnn"], epochs=1, batch_size=8, workers=1, max_side=32, synthetic=4, background=2,
                        field_views=1)
        train_gpu(self.tmp / "pack", self.tmp / "run1", cfg)
        first = self.tmp / "run1" / "tiny_cnn.npz"
        dec, _ = decode_pack(self.tmp / "pack", workers=1)
        start = start_model("tiny_cnn", self.tmp / "pack", dec, 32, first)
        self.assertTrue(start.training)
        for k, v in load_weights("tiny_cnn", first).state_dict().items():  # the earlier weights, not a fresh start
            torch.testing.assert_close(start.state_dict()[k], v)
        cfg.init, cfg.lr = {"tiny_cnn": str(first)}, {"tiny_cnn": 0.01}
        train_gpu(self.tmp / "pack", self.tmp / "run2", cfg)
        hist = json.loads((self.tmp / "run2" / "tiny_cnn.history.json").read_text())
        src = hist["initialised_from"]
        self.assertEqual((src["file"], src["epochs"], src["initialised_from"]), ("tiny_cnn.npz", 1, None))
        self.assertEqual(len(src["sha256"]), 64)
        section = training_section("tiny_cnn", hist, 1.0)
        self.assertEqual(section["initialised_from"], src)
        self.assertIn("--init tiny_cnn=PREVIOUS/tiny_cnn.npz --lr 0.01", section["command"])
        self.assertNotIn("initialised_from", training_section("tiny_cnn", json.loads(
            (self.tmp / "run1" / "tiny_cnn.history.json").read_text()), 1.0))
        for bad in ({"vgg16": str(first)}, {"tiny_cnn": str(self.tmp / "missing.npz")}):
            cfg.init = bad
            with self.assertRaises(SystemExit):
                train_gpu(self.tmp / "pack", self.tmp / "run3", cfg)

    def test_the_imagenet_start_needs_its_weights_in_the_pack(self) -> None:
        dec, _ = decode_pack(self.tmp / "pack", workers=1)
        with self.assertRaises(SystemExit) as e:
            start_model(IMAGENET_ARCH, self.tmp / "pack", dec, 32)
        self.assertIn(PACK_PRETRAINED, str(e.exception))

    @unittest.skipUnless(PRETRAINED_TFLITE.is_file(), "the ImageNet weights are not here")
    def test_imagenet_start_unfolded_then_one_epoch_and_its_weights_load_back(self) -> None:
        shutil.copyfile(PRETRAINED_TFLITE, self.tmp / "pack" / PACK_PRETRAINED)
        dec, _ = decode_pack(self.tmp / "pack", workers=1)
        start = start_model(IMAGENET_ARCH, self.tmp / "pack", dec, 64).eval()
        self.assertEqual(start.fc.out_features, NUM_CLASSES + 1)
        folded = imagenet_mobilenet_v2(NUM_CLASSES + 1, self.tmp / "pack" / PACK_PRETRAINED).eval()
        folded.load_state_dict({k: v for k, v in start.state_dict().items() if k.startswith("fc.")}, strict=False)
        x = eval_tensor(np.stack(dec.lab[:4]), 64)
        with torch.no_grad():  # unfolding changes how the network trains, not what it computes
            np.testing.assert_allclose(start(x).numpy(), folded(x).numpy(), atol=1e-3)
        cfg = GpuConfig(archs=[IMAGENET_ARCH], epochs=1, batch_size=8, workers=1, max_side=32, synthetic=2,
                        background=1, field_views=1)
        summary = train_gpu(self.tmp / "pack", self.tmp / "out", cfg)
        self.assertGreater(summary["steps"], 0)
        model = load_weights(IMAGENET_ARCH, self.tmp / "out" / f"{IMAGENET_ARCH}.npz")
        z = np.load(self.tmp / "out" / f"{IMAGENET_ARCH}.npz")
        for k, v in model.state_dict().items():
            np.testing.assert_array_equal(v.numpy(), z[k].astype(v.numpy().dtype))
        self.assertFalse(np.allclose(model.fc.weight.detach().numpy(), start.fc.weight.detach().numpy()), "it trained")

    @unittest.skipUnless(node_ort_available(), "onnxruntime-node is not installed (npm ci)")
    def test_raw_logits_of_the_exported_file_are_the_network_s(self) -> None:
        torch.manual_seed(1)
        model = build_model("tiny_cnn", NUM_CLASSES + 1).eval()
        path = self.tmp / "probe.onnx"
        export_onnx(model, 1.0, path, size=48, leaf=(1.0, 0.0))
        imgs = np.random.default_rng(2).integers(0, 255, (5, 48, 48, 3), dtype=np.uint8)
        got = raw_logits(path, imgs, batch=2)
        from diagrodl_ml.transfer import normalise_u8

        with torch.no_grad():
            want = model(torch.from_numpy(normalise_u8(imgs))).numpy()
        self.assertEqual(got.shape, (5, NUM_CLASSES + 1))
        np.testing.assert_allclose(got, want, atol=1e-4)


if __name__ == "__main__":
    unittest.main()

"""Fast tests of the ML pipeline (a couple of minutes on two cores)."""
from __future__ import annotations

import json
import re
import shutil
import tempfile
import unittest
from pathlib import Path

import numpy as np

from diagrodl_ml import data as D
from diagrodl_ml.calibrate import choose_threshold, ece, fit_temperature, softmax
from diagrodl_ml.classes import CLASS_IDS, FOLDER_TO_CLASS
from diagrodl_ml.export import file_digest
from diagrodl_ml.preprocess import area_resize, area_weights, preprocess_rgb

REPO = Path(__file__).resolve().parents[2]


class ClassesTest(unittest.TestCase):
    def test_matches_contracts(self) -> None:
        ts = (REPO / "packages" / "contracts" / "src" / "classes.ts").read_text(encoding="utf-8")
        block = ts.split("export const CLASS_IDS = [", 1)[1].split("]", 1)[0]
        self.assertEqual(tuple(re.findall(r"'([a-z_]+)'", block)), CLASS_IDS)
        for folder, cid in FOLDER_TO_CLASS.items():
            self.assertIn(f"'{cid}'", ts)
            self.assertIn(folder, ts)
        self.assertEqual(sorted(FOLDER_TO_CLASS.values()), sorted(CLASS_IDS))


class PreprocessTest(unittest.TestCase):
    def test_area_weights_rows_sum_to_one(self) -> None:
        for n_in, n_out in ((256, 224), (300, 224), (100, 224), (224, 224), (7, 3)):
            w = area_weights(n_in, n_out)
            np.testing.assert_allclose(w.sum(axis=1), 1.0, atol=1e-12)

    def test_identity_and_constant(self) -> None:
        rng = np.random.default_rng(0)
        img = rng.integers(0, 256, (224, 224, 3)).astype(np.uint8)
        np.testing.assert_allclose(area_resize(img, 224), img, atol=1e-9)
        flat = np.full((333, 257, 3), 77, dtype=np.uint8)
        np.testing.assert_allclose(area_resize(flat[:257], 224), 77.0, atol=1e-9)
        x = preprocess_rgb(flat)
        self.assertEqual(x.shape, (3, 224, 224))
        self.assertEqual(x.dtype, np.float32)


class CalibrationTest(unittest.TestCase):
    def test_temperature_reduces_ece_of_overconfident_logits(self) -> None:
        rng = np.random.default_rng(1)
        n, k = 2000, 10
        y = rng.integers(0, k, n)
        logits = rng.normal(0, 1, (n, k))
        logits[np.arange(n), y] += 2.0
        logits *= 4.0  # overconfident
        t = fit_temperature(logits, y)
        self.assertGreater(t, 1.5)
        self.assertLess(ece(softmax(logits, t), y), ece(softmax(logits), y))
        r = choose_threshold(softmax(logits, t), y)
        self.assertTrue(0.5 <= r["threshold"] <= 0.95)

    def test_energy_floor_rejects_what_only_a_class_bias_made_confident(self) -> None:
        from diagrodl_ml.calibrate import accepted, calibrated, energy

        rng = np.random.default_rng(5)
        y = rng.integers(0, 10, 1000)
        logits = rng.normal(0, 1, (1000, 10))
        logits[np.arange(1000), y] += 6.0
        bias = np.zeros(10)
        bias[2] = 3.0
        r = choose_threshold(calibrated(logits, 1.0, bias), y, energies=energy(logits, 1.0))
        self.assertIn("energy_threshold", r)
        self.assertLessEqual(r["val_correct_rejected"], 0.03)
        flat = rng.normal(0, 0.3, (200, 10))  # no class stands out: not an image of any class
        p = calibrated(flat, 1.0, bias)
        self.assertGreater(float((p.argmax(1) == 2).mean()), 0.9)  # the bias alone makes them class 2...
        without_floor = accepted(p, {"threshold": r["threshold"]})
        with_floor = accepted(p, r, energy(flat, 1.0))
        self.assertGreater(float(without_floor.mean()), 0.5)  # ...confidently enough to pass the threshold
        self.assertEqual(int(with_floor.sum()), 0)  # the energy floor turns them all away

    def test_class_bias_corrects_an_underpredicted_class(self) -> None:
        from diagrodl_ml.calibrate import calibrated, choose_calibration, nll

        def sample(seed: int, n: int = 1500) -> tuple[np.ndarray, np.ndarray]:
            rng = np.random.default_rng(seed)
            y = rng.integers(0, 10, n)
            logits = rng.normal(0, 1, (n, 10))
            logits[np.arange(n), y] += 3.0
            logits[:, 2] -= 2.5  # the network under-predicts class 2, whatever the image
            return logits, y

        logits, y = sample(2)
        c = choose_calibration(logits, y, repeats=2)
        self.assertEqual(c["method"], "temperature and per-class bias")
        self.assertEqual(len(c["cv"]), 4)
        self.assertIsNone(c["cv"][0]["bias_l2"])
        self.assertLess(min(r["nll"] for r in c["cv"][1:]), c["cv"][0]["nll"])
        self.assertGreater(c["bias"][2], 1.5)
        self.assertAlmostEqual(float(np.sum(c["bias"])), 0.0, places=6)
        fresh, y2 = sample(3)  # judged on images it was not fitted on
        plain = softmax(fresh, fit_temperature(logits, y))
        fixed = calibrated(fresh, c["temperature"], c["bias"])
        recall = lambda p: float((p.argmax(1)[y2 == 2] == 2).mean())  # noqa: E731
        self.assertGreater(recall(fixed), recall(plain) + 0.2)
        self.assertLess(nll(fixed, y2), nll(plain, y2))

    def test_class_bias_is_dropped_when_it_costs_other_photos_more_top1_than_it_wins_on_lab(self) -> None:
        from diagrodl_ml.calibrate import choose_calibration

        rng = np.random.default_rng(2)
        y = rng.integers(0, 10, 1500)
        lab = rng.normal(0, 1, (1500, 10))
        lab[np.arange(1500), y] += 3.0
        lab[:, 2] -= 2.5  # on lab photos the network under-predicts class 2: a bias corrects it

        def other(shift: float) -> tuple[np.ndarray, np.ndarray]:
            yf = rng.integers(0, 10, 300)
            z = rng.normal(0, 1, (300, 10))
            z[np.arange(300), yf] += 1.0
            z[:, 2] += shift
            return z, yf

        self.assertIsNotNone(choose_calibration(lab, y, repeats=2)["bias"])  # lab photos alone keep it
        # other photos on which class 2 is not under-predicted: the lab bias makes it win there wrongly
        dropped = choose_calibration(lab, y, repeats=2, others={"field": other(0.8)})
        chk = dropped["bias_check"]
        self.assertFalse(chk["kept"])
        self.assertLess(sum(chk["with_bias"].values()), sum(chk["temperature_alone"].values()))
        self.assertGreater(chk["with_bias"]["lab"], chk["temperature_alone"]["lab"])
        self.assertIsNone(dropped["bias"])
        self.assertEqual(dropped["method"], "temperature")
        # other photos that share the lab photos' under-prediction: the bias helps both and stays
        kept = choose_calibration(lab, y, repeats=2, others={"field": other(-2.5)})
        self.assertTrue(kept["bias_check"]["kept"])
        self.assertGreater(kept["bias"][2], 1.5)
        self.assertEqual(kept["method"], "temperature and per-class bias")

    def test_class_bias_scaled_by_a_lab_gate_is_kept_where_a_plain_one_is_dropped(self) -> None:
        """Biases fitted as gate * b on lab photos (gate near 1) leave photos the gate calls field-like (near 0)
        nearly as they were, so the top-1 check no longer drops them."""
        from diagrodl_ml.calibrate import calibrated, choose_calibration

        rng = np.random.default_rng(2)
        y = rng.integers(0, 10, 1500)
        lab = rng.normal(0, 1, (1500, 10))
        lab[np.arange(1500), y] += 3.0
        lab[:, 2] -= 2.5  # on lab photos the network under-predicts class 2
        yf = rng.integers(0, 10, 300)
        field = rng.normal(0, 1, (300, 10))
        field[np.arange(300), yf] += 1.0
        field[:, 2] += 0.8  # not on field photos: a full bias would make class 2 win there wrongly
        g_lab, g_field = rng.uniform(0.9, 1.0, 1500), rng.uniform(0.0, 0.05, 300)
        self.assertIsNone(choose_calibration(lab, y, repeats=2, others={"field": (field, yf)})["bias"])
        c = choose_calibration(lab, y, repeats=2, others={"field": (field, yf, g_field)}, gate=g_lab)
        self.assertTrue(c["bias_check"]["kept"])
        self.assertEqual(c["method"], "temperature and per-class bias scaled by the lab gate")
        self.assertGreater(c["bias"][2], 1.5)
        self.assertGreater(c["bias_check"]["with_bias"]["lab"], c["bias_check"]["temperature_alone"]["lab"])
        self.assertGreaterEqual(c["bias_check"]["with_bias"]["field"], c["bias_check"]["temperature_alone"]["field"] - 0.01)
        # gate 0: the temperature alone; gate 1: the full bias
        t, b = c["temperature"], c["bias"]
        np.testing.assert_allclose(calibrated(field, t, b, np.zeros(300)), softmax(field, t), atol=1e-12)
        np.testing.assert_allclose(calibrated(lab, t, b, np.ones(1500)), calibrated(lab, t, b), atol=1e-12)

    def test_plain_temperature_wins_when_the_classes_are_balanced(self) -> None:
        from diagrodl_ml.calibrate import choose_calibration

        rng = np.random.default_rng(4)
        y = rng.integers(0, 10, 1500)
        logits = rng.normal(0, 1, (1500, 10))
        logits[np.arange(1500), y] += 3.0
        c = choose_calibration(logits, y, repeats=2)
        self.assertEqual(c["method"], "temperature")
        self.assertIsNone(c["bias"])
        self.assertEqual(min(c["cv"], key=lambda r: r["nll"])["bias_l2"], None)


class SplitTest(unittest.TestCase):
    def test_grouped_split_on_shared_data(self) -> None:
        if not D.DEFAULT_DATA_DIR.is_dir():
            self.skipTest(f"{D.DEFAULT_DATA_DIR} not present")
        items = D.scan()
        split = D.grouped_stratified_split(items)
        groups = {s: {it.group for it in v} for s, v in split.items()}
        self.assertFalse(groups["train"] & groups["val"])
        self.assertFalse(groups["train"] & groups["test"])
        self.assertFalse(groups["val"] & groups["test"])
        self.assertEqual(sum(len(v) for v in split.values()), len(items))
        for s in ("train", "val", "test"):
            committed = D.SPLITS_DIR / f"{s}.txt"
            if committed.exists():
                paths = [p for p in committed.read_text(encoding="utf-8").splitlines() if p]
                self.assertEqual(paths, [it.rel_path for it in split[s]], f"ml/splits/{s}.txt is stale")


class GroupedIntervalTest(unittest.TestCase):
    """The lab test top-1's interval over the split's groups (evaluate.grouped_interval)."""

    def test_a_photo_s_group_from_its_path_is_the_scan_s(self) -> None:
        name = "00416648-be6e-4bd4-bc8d-82f43f8a7240___GCREC_Bact.Sp 3110.jpg"
        self.assertEqual(D.path_group(f"Tomato___Bacterial_spot/{name}"), D.source_group("bacterial_spot", name))
        self.assertEqual(D.path_group(f"Tomato___Bacterial_spot/{name}"), "bacterial_spot|gcrec_bact#sp #|311")

    def test_near_twins_are_photos_of_one_source_a_few_numbers_apart(self) -> None:
        bs, eb = "Tomato___Bacterial_spot", "Tomato___Early_blight"
        reference = [f"{bs}/a___GCREC_Bact.Sp 3110.jpg", f"{eb}/b___RS_Erly.B 7416.jpg", f"{bs}/c___no number.jpg"]
        query = [f"{bs}/d___GCREC_Bact.Sp 3113.jpg",  # 3 apart: a twin
                 f"{bs}/e___GCREC_Bact.Sp 3107.jpg",  # 3 apart the other way, in another group (block 310): a twin
                 f"{bs}/f___GCREC_Bact.Sp 3114.jpg",  # 4 apart: not
                 f"{eb}/g___GCREC_Bact.Sp 3111.jpg",  # the same source number in another class: not
                 f"{bs}/h___RS_Erly.B 3111.jpg",  # another source: not
                 f"{bs}/c___no number.jpg",  # no number, and itself: not
                 f"{bs}/a___GCREC_Bact.Sp 3110.jpg"]  # the reference photo itself: not its own twin
        self.assertEqual(D.near_twins(query, reference).tolist(), [True, True, False, False, False, False, False])
        self.assertEqual(D.near_twins(query[:3], reference, gap=1).tolist(), [False, False, False])
        photos = D.lab_test_photos(query[:2], reference)
        self.assertEqual(photos.groups, ["bacterial_spot|gcrec_bact#sp #|311", "bacterial_spot|gcrec_bact#sp #|310"])
        self.assertEqual(photos.twins.tolist(), [True, True])

    def test_the_figures_without_near_twins(self) -> None:
        from diagrodl_ml.evaluate import metrics

        labels = np.repeat(np.arange(10), 4)
        probs = np.eye(10)[labels]
        probs[[0, 1, 4]] = np.eye(10)[5]  # three wrong: two of class 0, one of class 1
        twins = np.zeros(40, dtype=bool)
        twins[[0, 1, 2]] = True  # the two wrong photos of class 0 have a twin in training
        m = metrics(probs, labels, D.LabTestPhotos([f"g{i // 2}" for i in range(40)], twins))
        self.assertEqual((m["n"], m["accuracy"], m["groups"]), (40, 0.925, 20))
        alone = m["without_near_twins"]
        self.assertEqual((alone["n"], alone["accuracy"], alone["min_recall"]), (37, round(36 / 37, 4), 0.75))
        self.assertLessEqual(alone["accuracy_ci95_by_group"][0], alone["accuracy"])
        self.assertEqual(alone["twin_gap"], D.TWIN_GAP)
        self.assertNotIn("groups", metrics(probs, labels))

    def test_errors_that_come_in_groups_widen_the_interval(self) -> None:
        from diagrodl_ml.evaluate import grouped_interval
        from diagrodl_ml.transfer import wilson

        right = np.ones(1000, dtype=bool)
        right[:20] = False
        one_each = [f"g{i}" for i in range(1000)]
        lo, hi = grouped_interval(right, one_each)
        w_lo, w_hi = wilson(980, 1000)
        self.assertLess(abs(lo - w_lo), 0.006)  # photos on their own: about the usual interval
        self.assertLess(abs(hi - w_hi), 0.006)
        by_four = [f"g{i // 4}" for i in range(1000)]  # the 20 errors fill 5 groups of 4
        c_lo, c_hi = grouped_interval(right, by_four)
        self.assertLess(c_lo, lo)
        self.assertGreater(c_hi - c_lo, 1.3 * (hi - lo))
        self.assertEqual(grouped_interval(right, by_four), [c_lo, c_hi])  # fixed seed: the same figures again
        self.assertLessEqual(c_lo, 0.98)
        self.assertGreaterEqual(c_hi, 0.98)
        with self.assertRaisesRegex(ValueError, "one group per photo"):
            grouped_interval(right, by_four[:-1])


class TinyTrainExportTest(unittest.TestCase):
    """A synthetic image set trains each architecture for one short epoch, exports ONNX and writes a card."""

    tmp: Path

    @classmethod
    def setUpClass(cls) -> None:
        from diagrodl_ml.fixtures import make_synthetic_dataset

        cls.tmp = Path(tempfile.mkdtemp(prefix="diagrodl-ml-test-"))
        make_synthetic_dataset(cls.tmp / "data", per_class=4, size=48)

    @classmethod
    def tearDownClass(cls) -> None:
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def _run(self, arch: str, size: int) -> None:
        import onnx

        from diagrodl_ml.cli import main

        out = self.tmp / arch
        rc = main([
            "train", "--arch", arch, "--epochs", "1", "--batch-size", "10", "--low-size", str(size),
            "--mid-size", str(size), "--final-size", str(size), "--final-epochs", "1", "--mid-epochs", "0",
            "--workers", "0", "--ood", "4", "--no-ort", "--from-scratch",
            "--data-dir", str(self.tmp / "data"), "--cache-dir", str(self.tmp / "cache"),
            "--splits-dir", str(out / "splits"), "--models-dir", str(out / "models"), "--run-dir", str(out / "run"),
        ])
        self.assertEqual(rc, 0)
        name = {"mobilenet": "mobilenet", "resnet50": "resnet50", "vgg16": "vgg16"}[arch]
        onnx_path = out / "models" / f"{name}.onnx"
        card = json.loads((out / "models" / f"{name}.card.json").read_text())
        m = onnx.load(str(onnx_path))
        onnx.checker.check_model(m)
        self.assertEqual([i.name for i in m.graph.input], ["input"])
        self.assertEqual([o.name for o in m.graph.output], ["probabilities", "cam", "energy"])
        self.assertEqual(m.opset_import[0].version, 17)
        self.assertEqual(m.graph.input[0].type.tensor_type.shape.dim[0].dim_param, "N")
        self.assertEqual(card["file"], {**file_digest(onnx_path), "name": onnx_path.name,
                                        "weights_dtype": "float16" if arch != "mobilenet" else "float32"})
        self.assertEqual(card["classes"], list(CLASS_IDS))
        self.assertEqual(len(card["metrics"]["confusion_matrix"]), 10)
        lo, hi = card["metrics"]["accuracy_ci95_by_group"]
        self.assertLessEqual(lo, card["metrics"]["accuracy"])
        self.assertGreaterEqual(hi, card["metrics"]["accuracy"])
        self.assertGreater(card["metrics"]["groups"], 0)
        self.assertLessEqual(card["metrics"].get("without_near_twins", {"n": 0})["n"], card["metrics"]["n"])
        self.assertEqual(card["training"]["epochs"], 1)
        for k in ("temperature", "val_ece_before", "val_ece_after", "test_ece_before", "test_ece_after"):
            self.assertIn(k, card["calibration"])
        self.assertIn("threshold", card["rejection"])
        self.assertEqual(len(card["data"]["split"]["file_list_sha256"]["test"]), 64)
        self.assertEqual(card["outputs"]["cam"]["shape"][1], 10)

    def test_mobilenet(self) -> None:
        self._run("mobilenet", 32)
        # finish --from-onnx: the same network re-calibrated into a new file and card, training as recorded
        import onnx

        from diagrodl_ml.cli import main

        out = self.tmp / "mobilenet"
        rc = main([
            "finish", "--arch", "mobilenet", "--from-onnx", str(out / "models" / "mobilenet.onnx"), "--max-views", "2",
            "--ood", "0", "--no-ort", "--data-dir", str(self.tmp / "data"), "--cache-dir", str(self.tmp / "cache"),
            "--splits-dir", str(out / "splits"), "--models-dir", str(out / "again"),
        ])
        self.assertEqual(rc, 0)
        before = json.loads((out / "models" / "mobilenet.card.json").read_text())
        after = json.loads((out / "again" / "mobilenet.card.json").read_text())
        onnx.checker.check_model(onnx.load(str(out / "again" / "mobilenet.onnx")))
        self.assertEqual(after["training"], before["training"])
        self.assertEqual(after["data"], before["data"])
        self.assertTrue(any(n.startswith("re-finished from mobilenet.onnx (sha256 " + before["file"]["sha256"][:12])
                            for n in after["notes"]))
        self.assertEqual(sum(n.startswith("calibration chosen by") for n in after["notes"]), 1)
        self.assertEqual(after["file"], {**file_digest(out / "again" / "mobilenet.onnx"), "name": "mobilenet.onnx",
                                         "weights_dtype": "float32"})

    def test_resnet50(self) -> None:
        self._run("resnet50", 32)

    def test_vgg16(self) -> None:
        self._run("vgg16", 32)


class SymmetryViewsTest(unittest.TestCase):
    """Test-time views: the eight symmetries of the square, and the export averages exactly what finish chose on."""

    def test_views_are_the_symmetries_of_the_square(self) -> None:
        import torch

        from diagrodl_ml.models import symmetry_views

        x = torch.arange(16, dtype=torch.float32).reshape(1, 1, 4, 4)
        for n in (1, 2, 4, 8):
            views = symmetry_views(x, n)
            self.assertEqual(len({tuple(v.flatten().tolist()) for v in views}), n)
            self.assertTrue(torch.equal(views[0], x))
        corners = {(v[0, 0, 0, 0].item(), v[0, 0, 0, 3].item()) for v in symmetry_views(x, 8)}
        self.assertEqual(len(corners), 8)  # each symmetry puts a different corner pair on top
        with self.assertRaises(ValueError):
            symmetry_views(x, 3)
        with self.assertRaises(ValueError):
            symmetry_views(torch.zeros(1, 1, 4, 5), 8)

    def test_export_wrapper_averages_the_views_and_keeps_the_plain_cam(self) -> None:
        import torch

        from diagrodl_ml.calibrate import softmax
        from diagrodl_ml.export import CalibratedCamModel
        from diagrodl_ml.models import build_model
        from diagrodl_ml.predict import logits_of, view_logits

        torch.manual_seed(5)
        model = build_model("mobilenet").eval()
        with torch.no_grad():  # an untrained network answers almost the same whatever the view
            for m in model.modules():
                if isinstance(m, torch.nn.BatchNorm2d):
                    m.weight.uniform_(0.5, 2.0)
                    m.bias.uniform_(-0.5, 0.5)
        x = torch.randn(3, 3, 64, 64)
        per_view = view_logits(model, x, 8, batch=2)
        self.assertEqual(per_view.shape, (8, 3, len(CLASS_IDS)))
        self.assertFalse(np.allclose(per_view[0], per_view[1]))
        with torch.no_grad():
            plain_probs, plain_cam, plain_energy = CalibratedCamModel(model, 1.3, 1)(x)
            for n in (2, 4, 8):
                probs, cam, energy = CalibratedCamModel(model, 1.3, n)(x)
                z = logits_of(model, x, views=n) / 1.3
                np.testing.assert_allclose(energy.numpy(), np.log(np.exp(z).sum(axis=1)), atol=1e-4)
                np.testing.assert_allclose(probs.numpy(), softmax(logits_of(model, x, views=n), 1.3), atol=1e-5)
                np.testing.assert_allclose(per_view[:n].mean(axis=0), logits_of(model, x, views=n), atol=1e-5)
                np.testing.assert_allclose(cam.numpy(), plain_cam.numpy(), atol=1e-5)
        np.testing.assert_allclose(plain_probs.numpy(), softmax(logits_of(model, x), 1.3), atol=1e-5)
        bias = np.linspace(-1.0, 1.0, len(CLASS_IDS))
        with torch.no_grad():
            probs, _, biased_energy = CalibratedCamModel(model, 1.3, 2, bias)(x)
            _, _, energy2 = CalibratedCamModel(model, 1.3, 2)(x)
        np.testing.assert_allclose(biased_energy.numpy(), energy2.numpy(), atol=1e-6)  # the biases leave it alone
        from diagrodl_ml.calibrate import calibrated
        np.testing.assert_allclose(probs.numpy(), calibrated(logits_of(model, x, views=2), 1.3, bias), atol=1e-5)


class WarmStartTest(unittest.TestCase):
    """An exported ONNX file (BatchNorm folded) is unfolded back into an equivalent PyTorch model."""

    def test_unfolded_model_matches_the_original(self) -> None:
        import torch

        from diagrodl_ml.finish import init_provenance
        from diagrodl_ml.export import CalibratedCamModel, export_onnx
        from diagrodl_ml.models import build_model
        from diagrodl_ml.warmstart import load_folded_onnx

        torch.manual_seed(3)
        original = build_model("mobilenet")
        with torch.no_grad():  # non-trivial BatchNorm statistics and affine parameters
            for m in original.modules():
                if isinstance(m, torch.nn.BatchNorm2d):
                    m.running_mean.uniform_(-0.5, 0.5)
                    m.running_var.uniform_(0.5, 2.0)
                    m.weight.uniform_(0.5, 1.5)
                    m.bias.uniform_(-0.2, 0.2)
        original.eval()
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "mobilenet.onnx"
            export_onnx(original, 1.7, path, size=64)
            x = torch.randn(24, 3, 64, 64)
            restored = build_model("mobilenet")
            info = load_folded_onnx(restored, path, x[:16])
            self.assertAlmostEqual(info["temperature_in_file"], 1.7, places=5)
            self.assertGreater(info["batchnorms_unfolded"], 30)
            restored.eval()
            with torch.no_grad():
                a, b = original(x), restored(x)
            np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=1e-3, atol=1e-3 * float(a.abs().max()))
            with self.assertRaises(ValueError):
                load_folded_onnx(build_model("resnet50"), path, x[:4])
            # an export averaging 8 symmetric views (one batched pass), and the earlier two-pass mirror-averaged
            # format (the network twice in the graph), which the shipped model of 2026-11-21 used
            viewed = Path(d) / "views8.onnx"
            export_onnx(original, 1.7, viewed, size=64, views=8)
            legacy = Path(d) / "mirrored.onnx"

            class TwoPass(CalibratedCamModel):
                def forward(self, x):  # type: ignore[override]
                    f = self.features(x)
                    a = self.fc(f.mean(dim=(2, 3)))
                    b = self.fc(self.features(torch.flip(x, dims=[3])).mean(dim=(2, 3)))
                    cam = torch.nn.functional.conv2d(f, self.fc.weight[:, :, None, None])
                    return torch.softmax((a + b) * 0.5 * self.inv_t, dim=1), cam

            torch.onnx.export(TwoPass(original, 1.7), torch.zeros(1, 3, 64, 64), str(legacy), opset_version=17)
            for f in (viewed, legacy):
                restored2 = build_model("mobilenet")
                load_folded_onnx(restored2, f, x[:16])
                restored2.eval()
                with torch.no_grad():
                    np.testing.assert_allclose(restored2(x).numpy(), a.numpy(), rtol=1e-3, atol=1e-3 * float(a.abs().max()))
            (Path(d) / "mobilenet.card.json").write_text(json.dumps({"training": {"epochs": 48}, "metrics": {"accuracy": 0.9}}))
            prov = init_provenance(path)
            self.assertEqual(prov["epochs"], 48)
            self.assertEqual(prov["sha256"], file_digest(path)["sha256"])


class ShippedModelTest(unittest.TestCase):
    def test_cards_match_files(self) -> None:
        models = REPO / "models"
        cards = sorted(models.glob("*.card.json"))
        if not cards:
            self.skipTest("no shipped model yet")
        total = 0
        for cp in cards:
            card = json.loads(cp.read_text())
            if card["name"] == "ensemble":  # no file of its own: each member must be the file it was measured on
                for m in card["members"]:
                    dig = file_digest(models / f"{m['id']}.onnx")
                    self.assertEqual((dig["sha256"], dig["size_bytes"]), (m["sha256"], m["size_bytes"]),
                                     f"{m['id']}.onnx is not the file the ensemble card was measured on")
                continue
            f = models / card["file"]["name"]
            self.assertTrue(f.exists(), f"{f} missing for {cp.name}")
            dig = file_digest(f)
            self.assertEqual(dig["sha256"], card["file"]["sha256"], f"{f.name}: sha256 differs from its card")
            self.assertEqual(dig["size_bytes"], card["file"]["size_bytes"])
            total += dig["size_bytes"]
        self.assertLessEqual(sum(p.stat().st_size for p in models.iterdir() if p.is_file()), 120 * 1024 * 1024)


if __name__ == "__main__":
    unittest.main()

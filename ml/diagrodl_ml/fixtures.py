"""Tiny synthetic dataset and tiny exports for the fast tests."""
from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import numpy as np
import onnx
import torch
from onnx import TensorProto, helper, numpy_helper
from PIL import Image, ImageDraw

from .classes import CLASS_IDS, FOLDER_TO_CLASS
from .export import CalibratedCamModel, export_onnx, file_digest
from .models import build_model, imagenet_mobilenet_v2, imagenet_resnet50
from .preprocess import preprocess_file


def make_synthetic_dataset(root: Path, per_class: int = 4, size: int = 64, seed: int = 0) -> Path:
    """A green 'leaf' ellipse on a grey background with class-dependent spots, saved as JPEGs."""
    rng = np.random.default_rng(seed)
    for folder, cid in FOLDER_TO_CLASS.items():
        k = CLASS_IDS.index(cid)
        d = root / folder
        d.mkdir(parents=True, exist_ok=True)
        for i in range(per_class):
            im = Image.new("RGB", (size, size), (150, 150, 160))
            dr = ImageDraw.Draw(im)
            dr.ellipse([size * 0.15, size * 0.1, size * 0.85, size * 0.9], fill=(40, 120 + 5 * k, 40))
            for _ in range(k + 1):
                x, y = rng.uniform(size * 0.3, size * 0.7, 2)
                r = size * 0.04
                dr.ellipse([x - r, y - r, x + r, y + r], fill=(120 + 12 * k, 60, 20 * (k % 3)))
            im.save(d / f"{i:08d}-0000-0000-0000-000000000000___SYN_{cid} {100 * k + 20 * i}.jpg", quality=90)
    return root


def tiny_reference(out_dir: Path, arch: str = "mobilenet", size: int = 64, seed: int = 0, views: int = 1) -> dict:
    """Untrained tiny export + a reference input and PyTorch's outputs, for the onnxruntime-node test."""
    torch.manual_seed(seed)
    torch.set_num_threads(2)
    out_dir.mkdir(parents=True, exist_ok=True)
    # the fine-tuned architecture gets random weights here (no ImageNet file needed) and its leaf output
    model = (imagenet_mobilenet_v2(pretrained=None) if arch == "mobilenet_v2_imagenet"
             else imagenet_resnet50() if arch == "resnet50_imagenet" else build_model(arch)).eval()
    temperature = 1.7
    leaf = (0.8, -0.3) if model.fc.out_features > len(CLASS_IDS) else None
    info = export_onnx(model, temperature, out_dir / "model.onnx", size=size, views=views, leaf=leaf)
    rng = np.random.default_rng(seed)
    x = rng.normal(0, 1, (3, 3, size, size)).astype(np.float32)
    # one real JPEG through the Python preprocessing as the last sample
    jpg = out_dir / "sample.jpg"
    make_jpeg(jpg, rng)
    x[2] = preprocess_file(jpg, size)
    with torch.no_grad():
        probs, cam, energy, *rest = CalibratedCamModel(model, temperature, views, leaf=leaf)(torch.from_numpy(x))
    if rest:
        (out_dir / "leaf.f32").write_bytes(rest[0].numpy().astype(np.float32).tobytes())
    (out_dir / "input.f32").write_bytes(x.tobytes())
    (out_dir / "probabilities.f32").write_bytes(probs.numpy().astype(np.float32).tobytes())
    (out_dir / "cam.f32").write_bytes(cam.numpy().astype(np.float32).tobytes())
    (out_dir / "energy.f32").write_bytes(energy.numpy().astype(np.float32).tobytes())
    meta = {**info, "arch": arch, "size": size, "n": 3, "cam_shape": list(cam.shape), "views": views}
    (out_dir / "meta.json").write_text(json.dumps(meta))
    return meta


# The server tests' tiny model (apps/server/src/testing/fixtures/tiny-model/): an untrained
# two-convolution network at 64 px from tiny_reference (a few KB), and its card (only its `file`
# block follows the ONNX file).
TINY_FIXTURE_ARCH = "tiny_cnn"
TINY_FIXTURE_SIZE = 64


def write_tiny_fixture(out_dir: Path) -> dict:
    """Rebuilds the server's tiny test model in `out_dir` (model.onnx) and points the card there
    (card.json: sha256 and size of the new file, every other field kept)."""
    work = Path(tempfile.mkdtemp(prefix="diagrodl-tiny-fixture-"))
    try:
        meta = tiny_reference(work, TINY_FIXTURE_ARCH, TINY_FIXTURE_SIZE)
        out_dir.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(work / "model.onnx", out_dir / "model.onnx")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    card_path = out_dir / "card.json"
    card = json.loads(card_path.read_text())
    card["file"].update(file_digest(out_dir / "model.onnx"))  # the copy is the export: meta has the same digest
    card_path.write_text(json.dumps(card, indent=2) + "\n")
    return meta


# The int8 pair probe: one 1x1 convolution, int8 in the product's QDQ form, whose every pair of adjacent
# products overflows an int16 (255 x 127 x 2 = 64,770). With the input all 1.0 (uint8 255) each output is exactly
# INT8_PROBE_CHANNELS x 1.0 x 1.0 = 64 (uint8 128 at scale 0.5). A CPU without VNNI under onnxruntime's default
# kernel clips each pair at 32,767 and gives 32.5; the server's session options (ort-session.mjs) must give 64.
INT8_PROBE_CHANNELS = 64
INT8_PROBE_EXACT = 64.0


def write_int8_pair_probe(path: Path) -> dict:
    """Writes the int8 pair probe (ONNX, opset 13, a few hundred bytes) to `path`; returns its digest."""
    c, o = INT8_PROBE_CHANNELS, 4
    init = [numpy_helper.from_array(np.asarray(v), name) for name, v in (
        ("x_scale", np.float32(1 / 255)), ("x_zero", np.uint8(0)),
        ("w", np.full((o, c, 1, 1), 127, np.int8)), ("w_scale", np.float32(1 / 127)), ("w_zero", np.int8(0)),
        ("y_scale", np.float32(0.5)), ("y_zero", np.uint8(0)))]
    nodes = [helper.make_node("QuantizeLinear", ["input", "x_scale", "x_zero"], ["x_q"]),
             helper.make_node("DequantizeLinear", ["x_q", "x_scale", "x_zero"], ["x_dq"]),
             helper.make_node("DequantizeLinear", ["w", "w_scale", "w_zero"], ["w_dq"]),
             helper.make_node("Conv", ["x_dq", "w_dq"], ["y"]),
             helper.make_node("QuantizeLinear", ["y", "y_scale", "y_zero"], ["y_q"]),
             helper.make_node("DequantizeLinear", ["y_q", "y_scale", "y_zero"], ["output"])]
    graph = helper.make_graph(
        nodes, "int8_pair_probe", [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["N", c, 4, 4])],
        [helper.make_tensor_value_info("output", TensorProto.FLOAT, ["N", o, 4, 4])], init)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="diagrodl")
    model.ir_version = 8
    path.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(path))
    return file_digest(path)


def make_jpeg(path: Path, rng: np.random.Generator, w: int = 300, h: int = 220, quality: int = 85) -> None:
    """A non-square JPEG with smooth and sharp content (exercises crop + area resize)."""
    yy, xx = np.mgrid[0:h, 0:w]
    img = np.stack([
        127 + 120 * np.sin(xx / 17.0 + rng.uniform(0, 6)),
        127 + 120 * np.cos(yy / 9.0),
        (xx * 3 + yy * 5) % 256,
    ], axis=-1)
    img = np.clip(img + rng.normal(0, 10, img.shape), 0, 255).astype(np.uint8)
    im = Image.fromarray(img)
    ImageDraw.Draw(im).ellipse([w * 0.2, h * 0.2, w * 0.6, h * 0.7], fill=(30, 140, 40))
    im.save(path, quality=quality)



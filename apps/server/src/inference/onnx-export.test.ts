// The training pipeline's ONNX export, loaded by onnxruntime-node, gives PyTorch's probabilities,
// energy and leaf output (within 1e-4) and CAMs; the shipped model matches its card.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLASS_IDS } from '@diagrodl/contracts/classes';
import { modelCardSchema } from '@diagrodl/contracts/model-card';
import { INPUT_SIZE, MEAN, STD, preprocessImage } from './preprocess.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const PYTHON = '/usr/bin/python3';

function f32(file: string): Float32Array {
  const b = readFileSync(file);
  return new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
}

function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs((a[i] as number) - (b[i] as number)));
  return m;
}

// the last number is how many symmetric views of each image the graph averages (8: mirrors and quarter turns)
const ARCHS: [string, number, number][] = [
  ['mobilenet', 64, 1],
  ['mobilenet', 64, 8],
  // the shipped architecture: ImageNet MobileNetV2 with the 11th output, exported with its `leaf` output
  ['mobilenet_v2_imagenet', 64, 1],
  ['resnet50', 32, 1],
  ['vgg16', 32, 1],
];

describe.each(ARCHS)(
  'ONNX export of a tiny %s (%i px, %i view(s) averaged) from the training pipeline in onnxruntime-node',
  (arch, size, views) => {
    let dir = '';
    let meta: { size: number; n: number; cam_shape: number[] } = { size: 0, n: 0, cam_shape: [] };

    beforeAll(() => {
      try {
        execFileSync(PYTHON, ['-c', 'import torch, torchvision, onnx, PIL'], { stdio: 'pipe' });
      } catch {
        throw new Error(
          'Debian python3-torch/torchvision/onnx/pil missing: run `bash ml/setup.sh` (root)',
        );
      }
      dir = mkdtempSync(path.join(tmpdir(), 'diagrodl-onnx-'));
      const out = execFileSync(
        PYTHON,
        [
          '-m',
          'diagrodl_ml.cli',
          'tiny-reference',
          '--out',
          dir,
          '--arch',
          arch,
          '--size',
          String(size),
          '--views',
          String(views),
        ],
        {
          cwd: REPO,
          env: { ...process.env, PYTHONPATH: path.join(REPO, 'ml'), OMP_NUM_THREADS: '2' },
          stdio: 'pipe',
        },
      );
      meta = JSON.parse(out.toString().trim().split('\n').pop() as string);
    }, 180_000);

    afterAll(() => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('matches PyTorch probabilities, energy and leaf (when present) within 1e-4 and CAMs within 1e-3', async () => {
      const session = await ort.InferenceSession.create(path.join(dir, 'model.onnx'));
      expect(session.inputNames).toEqual(['input']);
      const hasLeaf = existsSync(path.join(dir, 'leaf.f32'));
      expect(session.outputNames).toEqual(
        hasLeaf ? ['probabilities', 'cam', 'energy', 'leaf'] : ['probabilities', 'cam', 'energy'],
      );
      const x = f32(path.join(dir, 'input.f32'));
      const res = await session.run({
        input: new ort.Tensor('float32', x, [meta.n, 3, meta.size, meta.size]),
      });
      const probs = res.probabilities as ort.Tensor;
      const cam = res.cam as ort.Tensor;
      expect(probs.dims).toEqual([meta.n, CLASS_IDS.length]);
      expect(cam.dims).toEqual(meta.cam_shape);
      expect(
        maxAbsDiff(probs.data as Float32Array, f32(path.join(dir, 'probabilities.f32'))),
      ).toBeLessThanOrEqual(1e-4);
      expect(
        maxAbsDiff(cam.data as Float32Array, f32(path.join(dir, 'cam.f32'))),
      ).toBeLessThanOrEqual(1e-3);
      const energy = res.energy as ort.Tensor;
      expect(energy.dims).toEqual([meta.n]);
      expect(
        maxAbsDiff(energy.data as Float32Array, f32(path.join(dir, 'energy.f32'))),
      ).toBeLessThanOrEqual(1e-4);
      if (hasLeaf) {
        const leaf = res.leaf as ort.Tensor;
        expect(leaf.dims).toEqual([meta.n]);
        expect(
          maxAbsDiff(leaf.data as Float32Array, f32(path.join(dir, 'leaf.f32'))),
        ).toBeLessThanOrEqual(1e-4);
      }
      // dynamic batch: a single image works too
      const one = await session.run({
        input: new ort.Tensor('float32', x.subarray(0, 3 * meta.size * meta.size), [
          1,
          3,
          meta.size,
          meta.size,
        ]),
      });
      expect((one.probabilities as ort.Tensor).dims).toEqual([1, CLASS_IDS.length]);
    });

    it('the server preprocessing of the reference JPEG equals the tensor PyTorch was given', async () => {
      const ours = await preprocessImage(readFileSync(path.join(dir, 'sample.jpg')), meta.size);
      const x = f32(path.join(dir, 'input.f32'));
      const plane = 3 * meta.size * meta.size;
      expect(maxAbsDiff(ours.tensor, x.subarray(2 * plane, 3 * plane))).toBeLessThanOrEqual(1e-3);
    });
  },
);

const SHIPPED = path.join(REPO, 'models', 'mobilenet.onnx');
const SHIPPED_CARD = path.join(REPO, 'models', 'mobilenet.card.json');

describe.skipIf(!existsSync(SHIPPED_CARD))('shipped models/mobilenet.onnx', () => {
  it('matches its card (sha256, size, schema, preprocessing constants)', () => {
    const card = modelCardSchema.parse(JSON.parse(readFileSync(SHIPPED_CARD, 'utf8')));
    const bytes = readFileSync(SHIPPED);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(card.file.sha256);
    expect(bytes.length).toBe(card.file.size_bytes);
    expect(card.classes).toEqual([...CLASS_IDS]);
    expect(card.input.size).toBe(INPUT_SIZE);
    expect(card.input.mean).toEqual([...MEAN]);
    expect(card.input.std).toEqual([...STD]);
  });

  it('runs on a preprocessed image: probabilities sum to 1, one CAM per class', async () => {
    const session = await ort.InferenceSession.create(SHIPPED);
    const img = await preprocessImage(
      await (
        await import('sharp')
      )
        .default({ create: { width: 300, height: 260, channels: 3, background: '#3a7a30' } })
        .jpeg()
        .toBuffer(),
    );
    const res = await session.run({
      input: new ort.Tensor('float32', img.tensor, [1, 3, INPUT_SIZE, INPUT_SIZE]),
    });
    const p = Array.from((res.probabilities as ort.Tensor).data as Float32Array);
    expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 4);
    const cam = res.cam as ort.Tensor;
    expect(cam.dims.slice(0, 2)).toEqual([1, CLASS_IDS.length]);
  });
});

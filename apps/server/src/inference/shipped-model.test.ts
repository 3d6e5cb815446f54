// Each shipped model (models/<id>.onnx) matches its card and runs. That the pipeline's ONNX export gives PyTorch's
// outputs in onnxruntime-node is checked by ml/tests/test_onnx_export.py (the server's tests need
// no PyTorch).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { CLASS_IDS } from '@diagrodl/contracts/classes';
import { modelCardSchema } from '@diagrodl/contracts/model-card';
import { INPUT_SIZE, MEAN, STD, preprocessImage } from './preprocess.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

describe.each(['mobilenet', 'resnet50', 'vgg16'])('shipped models/%s.onnx', (id) => {
  const SHIPPED = path.join(REPO, 'models', `${id}.onnx`);
  const SHIPPED_CARD = path.join(REPO, 'models', `${id}.card.json`);
  if (!existsSync(SHIPPED_CARD)) {
    it.skip(`not shipped (no models/${id}.card.json)`, () => undefined);
    return;
  }
  it('matches its card (sha256, size, schema, preprocessing constants)', () => {
    const card = modelCardSchema.parse(JSON.parse(readFileSync(SHIPPED_CARD, 'utf8')));
    const bytes = readFileSync(SHIPPED);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(card.file.sha256);
    expect(bytes.length).toBe(card.file.size_bytes);
    expect(card.name).toBe(id);
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
    const card = modelCardSchema.parse(JSON.parse(readFileSync(SHIPPED_CARD, 'utf8')));
    if (card.rejection.leaf_threshold !== undefined) expect(res.leaf).toBeDefined();
  });
});

// The server's preprocessing (sharp) and the training pipeline's (PIL, ml/diagrodl_ml/preprocess.py)
// must turn the same image into the same tensor (within 1e-3).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  INPUT_SIZE,
  InputBufferPool,
  areaWeights,
  batchTensors,
  preprocessImage,
} from './preprocess.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const PYTHON = '/usr/bin/python3';
const SHARED = path.resolve(REPO, '..', 'shared', 'data', 'plantvillage-tomato');

const PY_PREPROCESS = `
import sys
sys.path.insert(0, sys.argv[1])
from diagrodl_ml.preprocess import preprocess_file
args = sys.argv[2:]
for src, dst in zip(args[0::2], args[1::2]):
    open(dst, "wb").write(preprocess_file(src).tobytes())
`;

function pythonReady(): void {
  try {
    execFileSync(PYTHON, ['-c', 'import numpy, PIL'], { stdio: 'pipe' });
  } catch {
    throw new Error('Debian python3 with numpy and PIL is missing: run `bash ml/setup.sh` (root)');
  }
}

function synthetic(width: number, height: number, seed: number): Buffer {
  const data = Buffer.alloc(width * height * 3);
  let s = seed;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      s = (s * 1103515245 + 12345) & 0x7fffffff;
      const o = (y * width + x) * 3;
      const leaf =
        (x - width / 2) ** 2 / (width * 0.3) ** 2 + (y - height / 2) ** 2 / (height * 0.35) ** 2 <
        1;
      data[o] = leaf ? 40 + (s % 40) : 127 + Math.round(100 * Math.sin(x / 7));
      data[o + 1] = leaf ? 120 + ((s >> 8) % 60) : 140 + Math.round(80 * Math.cos(y / 11));
      data[o + 2] = leaf ? 30 : (x * 3 + y * 5) % 256;
    }
  }
  return data;
}

describe('preprocessing: sharp (server) vs PIL (training pipeline)', () => {
  let dir = '';
  const files: string[] = [];

  beforeAll(async () => {
    pythonReady();
    dir = mkdtempSync(path.join(tmpdir(), 'diagrodl-pre-'));
    const raw = (w: number, h: number, seed: number) =>
      sharp(synthetic(w, h, seed), { raw: { width: w, height: h, channels: 3 } });
    const add = async (name: string, p: Promise<Buffer>) => {
      writeFileSync(path.join(dir, name), await p);
      files.push(name);
    };
    await add('landscape-420.jpg', raw(320, 240, 1).jpeg({ quality: 80 }).toBuffer());
    await add(
      'portrait-444.jpg',
      raw(201, 333, 2).jpeg({ quality: 92, chromaSubsampling: '4:4:4' }).toBuffer(),
    );
    await add('small-upscaled.jpg', raw(150, 150, 3).jpeg({ quality: 75 }).toBuffer());
    await add(
      'exif-rotated.jpg',
      raw(300, 200, 4).jpeg({ quality: 85 }).withMetadata({ orientation: 6 }).toBuffer(),
    );
    await add('grey.jpg', raw(260, 260, 5).greyscale().jpeg({ quality: 85 }).toBuffer());
    await add(
      'alpha.png',
      sharp(synthetic(230, 250, 6), { raw: { width: 230, height: 250, channels: 3 } })
        .ensureAlpha(0.5)
        .png()
        .toBuffer(),
    );
    // every alpha from 0 to 255 over every channel value: sharp's flatten and the Python mirror's agree
    const ramp = Buffer.alloc(256 * 256 * 4);
    for (let y = 0; y < 256; y++) {
      for (let x = 0; x < 256; x++) ramp.set([x, (x * 7 + y) % 256, 255 - x, y], (y * 256 + x) * 4);
    }
    await add(
      'alpha-ramp.png',
      sharp(ramp, { raw: { width: 256, height: 256, channels: 4 } })
        .png()
        .toBuffer(),
    );
    if (existsSync(SHARED)) {
      // two real PlantVillage photos (256x256 JPEG, the training data's format)
      for (const folder of ['Tomato___Bacterial_spot', 'Tomato___healthy']) {
        const f = readdirSync(path.join(SHARED, folder)).sort()[0];
        if (f) {
          writeFileSync(
            path.join(dir, `pv-${folder}.jpg`),
            readFileSync(path.join(SHARED, folder, f)),
          );
          files.push(`pv-${folder}.jpg`);
        }
      }
    }
    const args = files.flatMap((f) => [path.join(dir, f), path.join(dir, `${f}.f32`)]);
    execFileSync(PYTHON, ['-c', PY_PREPROCESS, path.join(REPO, 'ml'), ...args], { stdio: 'pipe' });
  }, 120_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('area weights sum to one per output pixel', () => {
    for (const [a, b] of [
      [256, 224],
      [333, 224],
      [150, 224],
    ] as const) {
      const t = areaWeights(a, b);
      for (const w of t.weights) expect(w.reduce((x, y) => x + y, 0)).toBeCloseTo(1, 12);
    }
  });

  it('gives the same tensors as the Python pipeline within 1e-3', async () => {
    expect(files.length).toBeGreaterThanOrEqual(6);
    for (const f of files) {
      const ours = await preprocessImage(readFileSync(path.join(dir, f)));
      const buf = readFileSync(path.join(dir, `${f}.f32`));
      const ref = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
      expect(ours.tensor.length).toBe(3 * INPUT_SIZE * INPUT_SIZE);
      expect(ref.length).toBe(ours.tensor.length);
      let max = 0;
      for (let i = 0; i < ref.length; i++)
        max = Math.max(max, Math.abs((ref[i] as number) - (ours.tensor[i] as number)));
      expect(max, `${f}: max |sharp - PIL| = ${max}`).toBeLessThanOrEqual(1e-3);
    }
  });

  it('flattens transparency onto white: the colour a transparent pixel hides changes nothing', async () => {
    const tensors: Float32Array[] = [];
    for (const hidden of [0, 255, 90]) {
      const rgba = Buffer.alloc(64 * 48 * 4);
      for (let i = 0; i < 64 * 48; i++) {
        const leaf = i % 64 > 16 && i % 64 < 48;
        rgba.set(leaf ? [40, 130, 35, 255] : [hidden, hidden / 2, 255 - hidden, 0], i * 4);
      }
      const png = await sharp(rgba, { raw: { width: 64, height: 48, channels: 4 } })
        .png()
        .toBuffer();
      tensors.push((await preprocessImage(png)).tensor);
    }
    expect(tensors[1]).toEqual(tensors[0]);
    expect(tensors[2]).toEqual(tensors[0]);
    // the transparent corner is white: (1 - mean) / std in every channel
    expect(tensors[0]![0]).toBeCloseTo((1 - 0.485) / 0.229, 5);
  });

  it('applies the EXIF orientation', async () => {
    const out = await preprocessImage(readFileSync(path.join(dir, 'exif-rotated.jpg')));
    expect([out.width, out.height]).toEqual([200, 300]);
    expect(out.tensor.length).toBe(3 * INPUT_SIZE * INPUT_SIZE);
  });
});

describe('input buffers (InputBufferPool, batchTensors)', () => {
  const image = (tensor: Float32Array) => ({ tensor, width: 2, height: 2, size: 2 });

  it('gives a buffer back to the next request, and keeps only what it may', () => {
    const pool = new InputBufferPool(100, 2);
    const a = pool.take(60);
    expect(a.length).toBe(60);
    pool.give(a);
    expect(pool.kept).toBe(1);
    const b = pool.take(40); // a smaller request gets a view of the kept buffer
    expect(b.buffer).toBe(a.buffer);
    expect(b.length).toBe(40);
    expect(pool.kept).toBe(0);
    const c = pool.take(40); // nothing kept now: a new one
    expect(c.buffer).not.toBe(a.buffer);
    pool.give(b);
    pool.give(b); // given twice: kept once
    expect(pool.kept).toBe(1);
    pool.give(c);
    pool.give(new Float32Array(50));
    expect(pool.kept).toBe(2); // at most maxFree, the largest kept
    expect(pool.take(60).buffer).toBe(a.buffer);
    pool.give(new Float32Array(101)); // over maxLength: let go
    pool.give(new Float32Array(0)); // empty: let go
    expect(pool.kept).toBe(1);
    expect(pool.take(70).length).toBe(70); // none kept is large enough: a new one
    expect(pool.kept).toBe(1);
  });

  it('batches views of one buffer without copying, and copies anything else', () => {
    const all = Float32Array.from({ length: 12 }, (_, i) => i);
    const views = [0, 1, 2].map((k) => image(all.subarray(k * 4, (k + 1) * 4)));
    const batch = batchTensors(views.slice(1));
    expect(batch.buffer).toBe(all.buffer);
    expect(Array.from(batch)).toEqual([4, 5, 6, 7, 8, 9, 10, 11]);
    // out of order, or separate arrays: a new buffer with the same values in the given order
    const swapped = batchTensors([views[2]!, views[0]!]);
    expect(swapped.buffer).not.toBe(all.buffer);
    expect(Array.from(swapped)).toEqual([8, 9, 10, 11, 0, 1, 2, 3]);
    const apart = batchTensors([image(Float32Array.of(1, 2)), image(Float32Array.of(3, 4))]);
    expect(Array.from(apart)).toEqual([1, 2, 3, 4]);
    expect(batchTensors([]).length).toBe(0);
  });
});

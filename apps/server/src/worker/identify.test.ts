// The worker's identification: the same answers and images however the work overlaps, a photo
// that cannot be decoded is null, a failing model rejects the call, and the next photo is decoded
// early only within the pixel bound.
import fs from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photoImages } from '../images/photo-images.ts';
import { ModelRegistry } from '../inference/registry.ts';
import { type DecodedRgb, decodeRgb } from '../inference/preprocess.ts';
import { leafPhoto } from '../testing/diagnosis.ts';
import { makeModelsDir } from '../testing/tiny-model.ts';
import { MAX_HELD_PIXELS, identifyPhotos } from './identify.ts';
import type { Identified } from './model-worker.ts';

describe('identifyPhotos', () => {
  let dir = '';
  let registry: ModelRegistry;
  let photos: Buffer[] = [];
  beforeAll(async () => {
    dir = makeModelsDir(['mobilenet']);
    registry = await ModelRegistry.load(dir);
    photos = await Promise.all(
      [1, 2, 3].map(async (seed) =>
        sharp(await leafPhoto({ seed }))
          .resize(1600, 1200, { fit: 'fill' })
          .jpeg()
          .toBuffer(),
      ),
    );
  });
  afterAll(async () => {
    await registry.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** identifyPhotos with a model and a decoder that log the order of their calls. */
  async function logged(bytes: Buffer[], maxHeldPixels?: number) {
    const events: string[] = [];
    const decodedOf: DecodedRgb[] = [];
    const model = registry.get('mobilenet')!;
    const out = await identifyPhotos(
      {
        classify: async (images) => {
          events.push(`classify ${bytes.findIndex((_, i) => decodedOf[i] === images[0])}`);
          return model.classify(images);
        },
      },
      bytes,
      {
        maxHeldPixels,
        decode: async (b) => {
          const i = bytes.indexOf(b);
          events.push(`decode ${i}`);
          const d = await decodeRgb(b);
          decodedOf[i] = d;
          return d;
        },
      },
    );
    return { out, events };
  }

  it('gives each photo the answer and images it gets alone, the next decoded while one is classified', async () => {
    const model = registry.get('mobilenet')!;
    const alone: Identified[] = [];
    for (const b of photos) {
      const photo = await decodeRgb(b);
      const [r] = await model.classify([photo]);
      alone.push({ ...r!, ...(await photoImages(photo, r!.cam)) });
    }
    const { out, events } = await logged(photos);
    expect(out).toHaveLength(3);
    out.forEach((r, i) => {
      expect(r!.probabilities).toEqual(alone[i]!.probabilities);
      expect(r!.heatmap.equals(alone[i]!.heatmap)).toBe(true);
      expect(r!.thumbnail.equals(alone[i]!.thumbnail)).toBe(true);
    });
    // two 1.9 MP photos fit in the bound: photo 1 is decoded before photo 0 is classified
    expect(events).toEqual([
      'decode 0',
      'decode 1',
      'classify 0',
      'decode 2',
      'classify 1',
      'classify 2',
    ]);
    expect(1600 * 1200 * 2).toBeLessThan(MAX_HELD_PIXELS);
  });

  it('decodes one photo at a time when two would hold more pixels than the bound', async () => {
    const { out, events } = await logged(photos, 1600 * 1200 * 2 - 1);
    expect(out.every((r) => r !== null)).toBe(true);
    expect(events).toEqual([
      'decode 0',
      'classify 0',
      'decode 1',
      'classify 1',
      'decode 2',
      'classify 2',
    ]);
  });

  it('gives null for a photo that cannot be decoded, and identifies the others', async () => {
    const bad = Buffer.from('not a photo');
    const { out } = await logged([photos[0]!, bad, photos[1]!]);
    expect(out[0]).not.toBeNull();
    expect(out[1]).toBeNull();
    expect(out[2]).not.toBeNull();
    const { out: first } = await logged([bad, photos[2]!]);
    expect(first[0]).toBeNull();
    expect(first[1]).not.toBeNull();
  });

  it("rejects the whole call when the model fails: that is not the photo's fault", async () => {
    const failing = {
      classify: () => Promise.reject(new Error('onnxruntime: out of memory')),
    };
    await expect(identifyPhotos(failing, [photos[0]!, photos[1]!])).rejects.toThrow(
      'out of memory',
    );
    await expect(identifyPhotos({ classify: async () => [] }, [photos[0]!])).rejects.toThrow(
      'no answer',
    );
  });
});

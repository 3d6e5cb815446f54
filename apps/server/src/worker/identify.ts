/**
 * Identification of a few photos, one after another (the worker's `identify`): each photo decoded
 * once, classified, and turned into its heatmap and thumbnail. Three things overlap on the two
 * cores, all from the one decoded image:
 * - the heatmap's 1024 px base is resized by sharp (libuv's thread) while the photo is resized for
 *   the model on this thread and the model runs;
 * - the next photo is decoded (sharp again) while this one is classified and drawn, when the two
 *   together hold no more decoded pixels than one photo of the upload limit may (40 MP, 120 MB of
 *   RGB): so the worker never holds more than it did with one photo at a time.
 * A photo that cannot be decoded is null (the photo is at fault; the others are not redone). A
 * failure after the decode (the model or the image work) is not the photo's fault: it rejects the
 * whole call, so that the caller keeps the photos (identification-runner.ts).
 */
import sharp from 'sharp';
import { heatmapBase, photoImages } from '../images/photo-images.ts';
import type { Classifier } from '../inference/classifier.ts';
import { type DecodedRgb, decodeRgb } from '../inference/preprocess.ts';
import type { Identified } from './model-worker.ts';

/** The most decoded pixels held at once: one photo at the upload limit (modules/diagnosis/uploads.ts). */
export const MAX_HELD_PIXELS = 40_000_000;

/** A photo's pixel count from its header (Infinity when it cannot be read: it is not decoded early). */
async function pixelsOf(bytes: Buffer): Promise<number> {
  try {
    const { width, height } = await sharp(bytes).metadata();
    return width && height ? width * height : Infinity;
  } catch {
    return Infinity;
  }
}

export async function identifyPhotos(
  model: Pick<Classifier, 'classify'>,
  photos: readonly Buffer[],
  opts: { maxHeldPixels?: number; decode?: (bytes: Buffer) => Promise<DecodedRgb> } = {},
): Promise<(Identified | null)[]> {
  const maxHeld = opts.maxHeldPixels ?? MAX_HELD_PIXELS;
  const decode = opts.decode ?? decodeRgb;
  const out: (Identified | null)[] = [];
  let ahead: Promise<DecodedRgb> | undefined; // the next photo's decode, started early
  for (let i = 0; i < photos.length; i++) {
    const early = ahead;
    ahead = undefined;
    let photo: DecodedRgb;
    try {
      photo = await (early ?? decode(photos[i] as Buffer));
    } catch {
      out.push(null);
      continue;
    }
    const base = heatmapBase(photo);
    base.catch(() => undefined); // a failure is reported when it is awaited
    const next = photos[i + 1];
    if (next && photo.width * photo.height + (await pixelsOf(next)) <= maxHeld) {
      ahead = decode(next);
      ahead.catch(() => undefined); // likewise, in its turn (it is awaited above, or dropped)
    }
    const [r] = await model.classify([photo]);
    if (!r) throw new Error('the model gave no answer for a photo');
    out.push({ ...r, ...(await photoImages(photo, r.cam, await base)) });
  }
  return out;
}

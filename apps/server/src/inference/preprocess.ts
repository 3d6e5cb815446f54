/**
 * Image preprocessing for the tomato leaf models, mirrored exactly by the training pipeline
 * (ml/diagrodl_ml/preprocess.py, PIL + numpy); a test checks both give the same tensor
 * within 1e-3 on the same JPEG.
 *
 * 1. Decode (sharp/libvips, libjpeg-turbo), apply the EXIF orientation, 8-bit RGB; transparent
 *    pixels are flattened onto white (floor((c a + 255 (255 - a)) / 255)), so the colour hidden under
 *    a transparent background never reaches the network.
 * 2. Centre-crop to a square whose side is the shorter side (offset floor((W - S) / 2)).
 * 3. Resize to 224x224 with an exact area-average filter in float64 (rows, then columns).
 *    libvips' and PIL's resize kernels differ, so both sides implement this step themselves.
 * 4. x / 255, minus MEAN, divided by STD per channel; NCHW Float32Array.
 * Steps 2-4 are one piece of code shared with the browser (@diagrodl/contracts/inference/preprocess).
 */
import sharp from 'sharp';
import { INPUT_SIZE, toModelInput } from '@diagrodl/contracts/inference/preprocess';

// The arithmetic (crop, area resize, normalisation) is shared with the browser's on-device
// diagnosis: packages/contracts/src/inference/preprocess.ts. Only decoding is the server's.
export { INPUT_SIZE, MEAN, STD, areaWeights } from '@diagrodl/contracts/inference/preprocess';
/** Refuse images above this many pixels (decompression bombs). */
export const MAX_INPUT_PIXELS = 100_000_000;
/**
 * How strict every decode of a photo is: the upload check, identification and the stored images
 * use the same level, so a file the upload accepts (a PNG with a wrong checksum, say) is never
 * dropped later. Truncated data is refused.
 */
export const DECODE_FAIL_ON = 'truncated' as const;

export interface PreprocessedImage {
  /** [1, 3, size, size] normalised, NCHW. */
  tensor: Float32Array;
  /** Size of the decoded, oriented image before cropping. */
  width: number;
  height: number;
  size: number;
}

export interface DecodedRgb {
  data: Buffer;
  width: number;
  height: number;
}

/** Decode to packed 8-bit RGB with the EXIF orientation applied, transparency flattened onto white. */
export async function decodeRgb(bytes: Buffer | Uint8Array): Promise<DecodedRgb> {
  const { data, info } = await sharp(bytes, {
    limitInputPixels: MAX_INPUT_PIXELS,
    failOn: DECODE_FAIL_ON,
  })
    .autoOrient()
    .toColourspace('srgb')
    .flatten({ background: '#ffffff' })
    .removeAlpha()
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 3)
    throw new Error(`expected 3 channels after decoding, got ${info.channels}`);
  return { data, width: info.width, height: info.height };
}

/** A photo as classify() takes it: the image file, or the image decodeRgb already decoded. */
export type PhotoInput = Buffer | DecodedRgb;

/** Full preprocessing of an uploaded image file (JPEG, PNG, WebP, ...). */
export async function preprocessImage(
  bytes: Buffer | Uint8Array,
  size: number = INPUT_SIZE,
): Promise<PreprocessedImage> {
  return preprocessDecoded(await decodeRgb(bytes), size);
}

/** Preprocessing of an image decodeRgb decoded (crop, area resize, normalisation). */
export function preprocessDecoded(
  { data, width, height }: DecodedRgb,
  size: number = INPUT_SIZE,
): PreprocessedImage {
  return { tensor: toModelInput(data, width, height, size), width, height, size };
}

/** Stacks several preprocessed tensors into one [N, 3, size, size] batch. */
export function batchTensors(items: readonly PreprocessedImage[]): Float32Array {
  const per = items[0] ? items[0].tensor.length : 0;
  const out = new Float32Array(per * items.length);
  items.forEach((it, n) => out.set(it.tensor, n * per));
  return out;
}

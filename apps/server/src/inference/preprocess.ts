/**
 * Image preprocessing for the tomato leaf models, mirrored exactly by the training pipeline
 * (ml/diagrodl_ml/preprocess.py, PIL + numpy); a test checks both give the same tensor
 * within 1e-3 on the same JPEG.
 *
 * 1. Decode (sharp/libvips, libjpeg-turbo), apply the EXIF orientation, 8-bit RGB (alpha dropped).
 * 2. Centre-crop to a square whose side is the shorter side (offset floor((W - S) / 2)).
 * 3. Resize to 224x224 with an exact area-average filter in float64 (rows, then columns).
 *    libvips' and PIL's resize kernels differ, so both sides implement this step themselves.
 * 4. x / 255, minus MEAN, divided by STD per channel; NCHW Float32Array.
 */
import sharp from 'sharp';

export const INPUT_SIZE = 224;
export const MEAN: readonly [number, number, number] = [0.485, 0.456, 0.406];
export const STD: readonly [number, number, number] = [0.229, 0.224, 0.225];
/** Refuse images above this many pixels (decompression bombs). */
export const MAX_INPUT_PIXELS = 100_000_000;

export interface PreprocessedImage {
  /** [1, 3, size, size] normalised, NCHW. */
  tensor: Float32Array;
  /** Size of the decoded, oriented image before cropping. */
  width: number;
  height: number;
  /** The size x size RGB image the model sees (rounded to 8 bits), for heatmap overlays. */
  rgb224: Buffer;
  size: number;
}

export interface DecodedRgb {
  data: Buffer;
  width: number;
  height: number;
}

/** Decode to packed 8-bit RGB with the EXIF orientation applied. */
export async function decodeRgb(bytes: Buffer | Uint8Array): Promise<DecodedRgb> {
  const { data, info } = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
    .autoOrient()
    .toColourspace('srgb')
    .removeAlpha()
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 3)
    throw new Error(`expected 3 channels after decoding, got ${info.channels}`);
  return { data, width: info.width, height: info.height };
}

interface Taps {
  start: Int32Array;
  count: Int32Array;
  weights: Float64Array[];
}

/** Output pixel i averages the source interval [i*r, (i+1)*r), r = nIn/nOut (same as area_weights in Python). */
export function areaWeights(nIn: number, nOut: number): Taps {
  const scale = nIn / nOut;
  const start = new Int32Array(nOut);
  const count = new Int32Array(nOut);
  const weights: Float64Array[] = [];
  for (let i = 0; i < nOut; i++) {
    const s = i * scale;
    const e = (i + 1) * scale;
    const j0 = Math.floor(s);
    const j1 = Math.min(Math.ceil(e), nIn);
    const w = new Float64Array(Math.max(0, j1 - j0));
    for (let j = j0; j < j1; j++) {
      const overlap = Math.min(e, j + 1) - Math.max(s, j);
      w[j - j0] = overlap > 0 ? overlap / scale : 0;
    }
    start[i] = j0;
    count[i] = j1 - j0;
    weights.push(w);
  }
  return { start, count, weights };
}

/**
 * Centre-square crop + area resize of packed RGB (stride width*3) to size x size.
 * Returns float64 HWC values on the 0..255 scale.
 */
export function cropResize(
  rgb: Uint8Array,
  width: number,
  height: number,
  size: number,
): Float64Array {
  const s = Math.min(width, height);
  const top = Math.floor((height - s) / 2);
  const left = Math.floor((width - s) / 2);
  const taps = areaWeights(s, size);
  // rows: tmp[i][x][c] = sum_y w[i][y] * src[top + y][left + x][c]
  const tmp = new Float64Array(size * s * 3);
  for (let i = 0; i < size; i++) {
    const j0 = taps.start[i] as number;
    const w = taps.weights[i] as Float64Array;
    const out = i * s * 3;
    for (let k = 0; k < w.length; k++) {
      const wk = w[k] as number;
      if (wk === 0) continue;
      const row = ((top + j0 + k) * width + left) * 3;
      for (let x = 0; x < s * 3; x++)
        tmp[out + x] = (tmp[out + x] as number) + wk * (rgb[row + x] as number);
    }
  }
  // columns: dst[i][j][c] = sum_x w[j][x] * tmp[i][x][c]
  const dst = new Float64Array(size * size * 3);
  for (let i = 0; i < size; i++) {
    const rowIn = i * s * 3;
    const rowOut = i * size * 3;
    for (let j = 0; j < size; j++) {
      const j0 = taps.start[j] as number;
      const w = taps.weights[j] as Float64Array;
      let r = 0;
      let g = 0;
      let b = 0;
      for (let k = 0; k < w.length; k++) {
        const wk = w[k] as number;
        const p = rowIn + (j0 + k) * 3;
        r += wk * (tmp[p] as number);
        g += wk * (tmp[p + 1] as number);
        b += wk * (tmp[p + 2] as number);
      }
      const o = rowOut + j * 3;
      dst[o] = r;
      dst[o + 1] = g;
      dst[o + 2] = b;
    }
  }
  return dst;
}

/** HWC float (0..255) -> normalised NCHW Float32Array [1, 3, size, size]. */
export function normalize(hwc: Float64Array, size: number): Float32Array {
  const plane = size * size;
  const out = new Float32Array(3 * plane);
  for (let p = 0; p < plane; p++) {
    for (let c = 0; c < 3; c++) {
      out[c * plane + p] =
        ((hwc[p * 3 + c] as number) / 255 - (MEAN[c] as number)) / (STD[c] as number);
    }
  }
  return out;
}

/** Full preprocessing of an uploaded image file (JPEG, PNG, WebP, ...). */
export async function preprocessImage(
  bytes: Buffer | Uint8Array,
  size: number = INPUT_SIZE,
): Promise<PreprocessedImage> {
  const { data, width, height } = await decodeRgb(bytes);
  const hwc = cropResize(data, width, height, size);
  const rgb224 = Buffer.alloc(hwc.length);
  for (let i = 0; i < hwc.length; i++)
    rgb224[i] = Math.min(255, Math.max(0, Math.round(hwc[i] as number)));
  return { tensor: normalize(hwc, size), width, height, rgb224, size };
}

/** Stacks several preprocessed tensors into one [N, 3, size, size] batch. */
export function batchTensors(items: readonly PreprocessedImage[]): Float32Array {
  const per = items[0] ? items[0].tensor.length : 0;
  const out = new Float32Array(per * items.length);
  items.forEach((it, n) => out.set(it.tensor, n * per));
  return out;
}

/**
 * The model input, decided once for every side that runs the model: the server (sharp decodes,
 * apps/server/src/inference/preprocess.ts), the browser (the canvas decodes,
 * apps/web/src/features/diagnosis/device/) and, mirrored in Python, the training pipeline
 * (ml/diagrodl_ml/preprocess.py). Pure arithmetic, no decoder: each side decodes to packed
 * 8-bit RGB (or RGBA) with the EXIF orientation applied, then:
 *
 * 1. Centre-crop to a square whose side is the shorter side (offset floor((W - S) / 2)).
 * 2. Resize to 224x224 with an exact area-average filter in float64 (rows, then columns).
 * 3. x / 255, minus MEAN, divided by STD per channel; NCHW Float32Array.
 */

export const INPUT_SIZE = 224;
export const MEAN: readonly [number, number, number] = [0.485, 0.456, 0.406];
export const STD: readonly [number, number, number] = [0.229, 0.224, 0.225];

export interface Taps {
  start: Int32Array;
  count: Int32Array;
  weights: Float64Array[];
}

/** The centre square the model sees: side = the shorter side, offsets floor((W - S) / 2). */
export function centreSquare(
  width: number,
  height: number,
): { side: number; left: number; top: number } {
  const side = Math.min(width, height);
  return { side, left: Math.floor((width - side) / 2), top: Math.floor((height - side) / 2) };
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
 * The row pass's buffer, reused from one photo to the next (zeroed): a new one per photo cost more
 * time in allocation and garbage collection than the arithmetic. Photos whose shorter side (the
 * side of the centre square) is over 2048 px get their own, so one huge photo does not keep a huge
 * buffer alive.
 */
let rowBuffer = new Float64Array(0);
const ROW_BUFFER_MAX = INPUT_SIZE * 2048 * 3;
function scratch(length: number): Float64Array {
  if (length > ROW_BUFFER_MAX) return new Float64Array(length);
  if (rowBuffer.length < length) rowBuffer = new Float64Array(length);
  else rowBuffer.fill(0, 0, length);
  return rowBuffer.subarray(0, length);
}

/**
 * Centre-square crop + area resize of packed pixels (3 channels RGB or 4 channels RGBA, whose
 * alpha is ignored; stride width*channels) to size x size. Returns float64 HWC RGB values on
 * the 0..255 scale, into `out` when it is given and of that length.
 */
export function cropResize(
  pixels: ArrayLike<number>,
  width: number,
  height: number,
  size: number,
  channels: 3 | 4 = 3,
  out?: Float64Array,
): Float64Array {
  const { side: s, left, top } = centreSquare(width, height);
  const taps = areaWeights(s, size);
  // rows: tmp[i][x][c] = sum_y w[i][y] * src[top + y][left + x][c]
  const tmp = scratch(size * s * 3);
  for (let i = 0; i < size; i++) {
    const j0 = taps.start[i] as number;
    const w = taps.weights[i] as Float64Array;
    const out = i * s * 3;
    for (let k = 0; k < w.length; k++) {
      const wk = w[k] as number;
      if (wk === 0) continue;
      const row = ((top + j0 + k) * width + left) * channels;
      if (channels === 3) {
        for (let x = 0; x < s * 3; x++)
          tmp[out + x] = (tmp[out + x] as number) + wk * (pixels[row + x] as number);
      } else {
        for (let x = 0; x < s; x++) {
          const o = out + x * 3;
          const p = row + x * 4;
          tmp[o] = (tmp[o] as number) + wk * (pixels[p] as number);
          tmp[o + 1] = (tmp[o + 1] as number) + wk * (pixels[p + 1] as number);
          tmp[o + 2] = (tmp[o + 2] as number) + wk * (pixels[p + 2] as number);
        }
      }
    }
  }
  // columns: dst[i][j][c] = sum_x w[j][x] * tmp[i][x][c]
  const dst = out && out.length === size * size * 3 ? out : new Float64Array(size * size * 3);
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
  for (let c = 0; c < 3; c++) {
    const mean = MEAN[c] as number;
    const std = STD[c] as number;
    const base = c * plane;
    for (let p = 0; p < plane; p++) out[base + p] = ((hwc[p * 3 + c] as number) / 255 - mean) / std;
  }
  return out;
}

let resized = new Float64Array(0);

/** The model input of decoded pixels: cropResize then normalize (the resized image in a reused buffer). */
export function toModelInput(
  pixels: ArrayLike<number>,
  width: number,
  height: number,
  size: number = INPUT_SIZE,
  channels: 3 | 4 = 3,
): Float32Array {
  if (resized.length !== size * size * 3) resized = new Float64Array(size * size * 3);
  return normalize(cropResize(pixels, width, height, size, channels, resized), size);
}

/** Why a model card's input does not fit this preprocessing, or null. */
export function inputProblem(input: {
  mean: readonly number[];
  std: readonly number[];
}): string | null {
  const same = (a: readonly number[], b: readonly number[]) =>
    a.length === b.length && a.every((v, i) => Math.abs(v - (b[i] as number)) < 1e-9);
  if (!same(input.mean, MEAN) || !same(input.std, STD)) {
    return "the card's normalisation differs from the server's preprocessing";
  }
  return null;
}

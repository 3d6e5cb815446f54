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
  /** weights[i]: output pixel i's weights (a view into `flat` at `offset[i]`). */
  weights: Float64Array[];
  flat: Float64Array;
  offset: Int32Array;
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
  const offset = new Int32Array(nOut + 1);
  for (let i = 0; i < nOut; i++) {
    const j0 = Math.floor(i * scale);
    const j1 = Math.min(Math.ceil((i + 1) * scale), nIn);
    start[i] = j0;
    count[i] = Math.max(0, j1 - j0);
    offset[i + 1] = (offset[i] as number) + (count[i] as number);
  }
  const flat = new Float64Array(offset[nOut] as number);
  const weights: Float64Array[] = [];
  for (let i = 0; i < nOut; i++) {
    const s = i * scale;
    const e = (i + 1) * scale;
    const j0 = start[i] as number;
    const o = offset[i] as number;
    for (let j = j0; j < j0 + (count[i] as number); j++) {
      const overlap = Math.min(e, j + 1) - Math.max(s, j);
      flat[o + j - j0] = overlap > 0 ? overlap / scale : 0;
    }
    weights.push(flat.subarray(o, o + (count[i] as number)));
  }
  return { start, count, weights, flat, offset };
}

/** The taps of the last few sizes seen (a batch of photos from one camera shares them). */
const tapCache = new Map<number, Taps>();
function cachedTaps(nIn: number, nOut: number): Taps {
  const key = nIn * 65536 + nOut;
  let taps = tapCache.get(key);
  if (!taps) {
    if (tapCache.size >= 8) tapCache.clear();
    taps = areaWeights(nIn, nOut);
    tapCache.set(key, taps);
  }
  return taps;
}

/**
 * The row pass's buffer, reused from one photo to the next: a new one per photo cost more time in
 * allocation and garbage collection than the arithmetic. Photos whose shorter side (the side of
 * the centre square) is over 2048 px get their own, so one huge photo does not keep a huge buffer
 * alive.
 */
let rowBuffer = new Float64Array(0);
const ROW_BUFFER_MAX = INPUT_SIZE * 2048 * 3;
function scratch(length: number): Float64Array {
  if (length > ROW_BUFFER_MAX) return new Float64Array(length);
  if (rowBuffer.length < length) rowBuffer = new Float64Array(length);
  return rowBuffer;
}

/** Where the resized image goes: float64 HWC on the 0..255 scale, or the normalised NCHW input. */
type Sink = { hwc: Float64Array } | { nchw: Float32Array };

/**
 * The one area resize (centre square, rows then columns, float64). Each output value is the same
 * sum, in the same order, whichever sink it goes to, so the two give bit-identical values.
 */
function resample(
  pixels: ArrayLike<number>,
  width: number,
  height: number,
  size: number,
  channels: 3 | 4,
  sink: Sink,
): void {
  const { side: s, left, top } = centreSquare(width, height);
  const { start, count, flat: w, offset } = cachedTaps(s, size);
  const rowLen = s * 3;
  // rows: tmp[i][x][c] = sum_y w[i][y] * src[top + y][left + x][c], summed from 0 in y order
  // (0 + w0 a is w0 a exactly, so the two-row case below is that same sum)
  const tmp = scratch(size * rowLen);
  for (let i = 0; i < size; i++) {
    const o = i * rowLen;
    const j0 = start[i] as number;
    const n = count[i] as number;
    const wo = offset[i] as number;
    const p0 = ((top + j0) * width + left) * channels;
    const stride = width * channels;
    if (n === 2) {
      // the common case of a small photo (e.g. 256 px): two source rows per output row
      const w0 = w[wo] as number;
      const w1 = w[wo + 1] as number;
      const p1 = p0 + stride;
      if (channels === 3) {
        for (let x = 0; x < rowLen; x++)
          tmp[o + x] = w0 * (pixels[p0 + x] as number) + w1 * (pixels[p1 + x] as number);
      } else {
        for (let q = o, p = 0; q < o + rowLen; q += 3, p += 4) {
          tmp[q] = w0 * (pixels[p0 + p] as number) + w1 * (pixels[p1 + p] as number);
          tmp[q + 1] = w0 * (pixels[p0 + p + 1] as number) + w1 * (pixels[p1 + p + 1] as number);
          tmp[q + 2] = w0 * (pixels[p0 + p + 2] as number) + w1 * (pixels[p1 + p + 2] as number);
        }
      }
      continue;
    }
    for (let x = 0, px = p0; x < rowLen; x += 3, px += channels) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let k = 0, p = px; k < n; k++, p += stride) {
        const wk = w[wo + k] as number;
        r += wk * (pixels[p] as number);
        g += wk * (pixels[p + 1] as number);
        b += wk * (pixels[p + 2] as number);
      }
      tmp[o + x] = r;
      tmp[o + x + 1] = g;
      tmp[o + x + 2] = b;
    }
  }
  // columns: dst[i][j][c] = sum_x w[j][x] * tmp[i][x][c]
  const hwc = 'hwc' in sink ? sink.hwc : null;
  const nchw = 'nchw' in sink ? sink.nchw : null;
  const plane = size * size;
  for (let i = 0; i < size; i++) {
    const rowIn = i * rowLen;
    for (let j = 0; j < size; j++) {
      const n = count[j] as number;
      const wo = offset[j] as number;
      let p = rowIn + (start[j] as number) * 3;
      let r = 0;
      let g = 0;
      let b = 0;
      for (let k = 0; k < n; k++, p += 3) {
        const wk = w[wo + k] as number;
        r += wk * (tmp[p] as number);
        g += wk * (tmp[p + 1] as number);
        b += wk * (tmp[p + 2] as number);
      }
      const q = i * size + j;
      if (nchw) {
        nchw[q] = normalised(r, 0);
        nchw[plane + q] = normalised(g, 1);
        nchw[2 * plane + q] = normalised(b, 2);
      } else if (hwc) {
        hwc[q * 3] = r;
        hwc[q * 3 + 1] = g;
        hwc[q * 3 + 2] = b;
      }
    }
  }
}

/** One value on the 0..255 scale -> the network's input for channel c. */
function normalised(v: number, c: 0 | 1 | 2): number {
  return (v / 255 - (MEAN[c] as number)) / (STD[c] as number);
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
  const hwc = out && out.length === size * size * 3 ? out : new Float64Array(size * size * 3);
  resample(pixels, width, height, size, channels, { hwc });
  return hwc;
}

/** HWC float (0..255) -> normalised NCHW Float32Array [1, 3, size, size]. */
export function normalize(hwc: Float64Array, size: number): Float32Array {
  const plane = size * size;
  const out = new Float32Array(3 * plane);
  for (const c of [0, 1, 2] as const) {
    const base = c * plane;
    for (let p = 0; p < plane; p++) out[base + p] = normalised(hwc[p * 3 + c] as number, c);
  }
  return out;
}

/**
 * The model input of decoded pixels: cropResize then normalize, in one pass that writes the
 * normalised NCHW values straight from the column sums (the same values as the two steps).
 * Into `out` when it is given (its length must be 3 * size * size): the server preprocesses a
 * whole request into one buffer, so the batches it hands onnxruntime are views, not copies.
 */
export function toModelInput(
  pixels: ArrayLike<number>,
  width: number,
  height: number,
  size: number = INPUT_SIZE,
  channels: 3 | 4 = 3,
  out?: Float32Array,
): Float32Array {
  if (out && out.length !== 3 * size * size)
    throw new Error(`toModelInput: out holds ${out.length} values, not 3 x ${size} x ${size}`);
  const nchw = out ?? new Float32Array(3 * size * size);
  resample(pixels, width, height, size, channels, { nchw });
  return nchw;
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

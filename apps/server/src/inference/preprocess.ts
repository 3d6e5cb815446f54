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
 * preprocessAll does this for one request's photos, into one pooled buffer the models read.
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
  /**
   * [1, 3, size, size] normalised, NCHW. From ModelRegistry's models, a view of the request's
   * pooled buffer (InputBufferPool), reused once the request's runs are done.
   */
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

/**
 * Preprocessing of an image decodeRgb decoded (crop, area resize, normalisation), into `out`
 * when it is given (3 * size * size values).
 */
export function preprocessDecoded(
  { data, width, height }: DecodedRgb,
  size: number = INPUT_SIZE,
  out?: Float32Array,
): PreprocessedImage {
  return { tensor: toModelInput(data, width, height, size, 3, out), width, height, size };
}

/**
 * Input buffers reused from one request to the next. Each request's photos are preprocessed into
 * one buffer (ModelRegistry's preprocessAll) that is given back when its runs are done; the next
 * request takes it instead of allocating. Without this, every batch of 20 photos allocated about
 * 24 MB of arrays outside V8's heap (each photo's input, then a copy of each batch of 8), and V8
 * answered with a full garbage collection about once per batch, whose marking threads took the
 * CPU from onnxruntime's two threads (bench/diagnosis, ml/LOG.md 2026-12-02). At most `maxFree`
 * buffers of at most `maxLength` values are kept; a larger request allocates its own and lets it
 * go.
 */
export class InputBufferPool {
  private readonly free: Float32Array[] = [];
  constructor(
    readonly maxLength: number,
    readonly maxFree: number = 2,
  ) {}

  /** A buffer of `length` values (a view of a kept buffer when one is large enough). */
  take(length: number): Float32Array {
    let best = -1;
    this.free.forEach((b, i) => {
      if (b.length >= length && (best < 0 || b.length < (this.free[best] as Float32Array).length))
        best = i;
    });
    if (best < 0) return new Float32Array(length);
    const [buf] = this.free.splice(best, 1);
    return (buf as Float32Array).subarray(0, length);
  }

  /** Gives a buffer `take` returned back (after its last use). */
  give(view: Float32Array): void {
    const whole = new Float32Array(view.buffer);
    if (whole.length === 0 || whole.length > this.maxLength) return;
    if (this.free.some((b) => b.buffer === whole.buffer)) return;
    this.free.push(whole);
    if (this.free.length > this.maxFree) {
      // keep the largest ones: a smaller request fits in them
      this.free.sort((a, b) => b.length - a.length);
      this.free.length = this.maxFree;
    }
  }

  /** Buffers kept now (for tests). */
  get kept(): number {
    return this.free.length;
  }
}

/**
 * Several preprocessed tensors as one [N, 3, size, size] batch. When they already lie one after
 * another in one buffer (preprocessed into it, as the registry does), the batch is a view of that
 * buffer; otherwise they are copied into a new one.
 */
export function batchTensors(items: readonly PreprocessedImage[]): Float32Array {
  const first = items[0]?.tensor;
  if (!first) return new Float32Array(0);
  const per = first.length;
  const contiguous = items.every(
    (it, n) =>
      it.tensor.length === per &&
      it.tensor.buffer === first.buffer &&
      it.tensor.byteOffset === first.byteOffset + n * per * Float32Array.BYTES_PER_ELEMENT,
  );
  if (contiguous) return new Float32Array(first.buffer, first.byteOffset, per * items.length);
  const out = new Float32Array(per * items.length);
  items.forEach((it, n) => out.set(it.tensor, n * per));
  return out;
}

/**
 * One request's preprocessed images per input size (so the ensemble decodes each photo once), and
 * the pooled buffer each size's inputs are written into; releaseInputs gives the buffers back.
 */
export type PreprocessCache = Map<
  number,
  { images: Promise<PreprocessedImage[]>; buffer: Float32Array }
>;

/** Pooled input buffers: up to 32 photos at the input size (224 px: 19 MB), two kept. */
const INPUT_POOL = new InputBufferPool(32 * 3 * INPUT_SIZE * INPUT_SIZE);

/** Gives a request's input buffers back to the pool, once nothing writes into them any more. */
export async function releaseInputs(cache: PreprocessCache): Promise<void> {
  for (const { images, buffer } of cache.values()) {
    await images.catch(() => undefined);
    INPUT_POOL.give(buffer);
  }
  cache.clear();
}

/**
 * The inputs of `images` at `size`, preprocessed once per request (`cache`) into one pooled
 * buffer; the classifiers (onnx-model.ts, ensemble.ts) run on them.
 */
export function preprocessAll(
  images: readonly PhotoInput[],
  size: number,
  cache: PreprocessCache,
): Promise<PreprocessedImage[]> {
  let entry = cache.get(size);
  if (!entry) {
    // The next photo is decoded (sharp, on libuv's threads) while this one is cropped and resized
    // on the main thread; at most two decoded photos are held at once.
    const decode = (img: PhotoInput): Promise<DecodedRgb> => {
      const d = Buffer.isBuffer(img) ? decodeRgb(img) : Promise.resolve(img);
      d.catch(() => undefined); // a photo that fails is reported when its turn comes, not as unhandled
      return d;
    };
    // Every photo's input is written into one pooled buffer, so runRaw hands onnxruntime views
    // of it instead of copies, and a request allocates nothing large (InputBufferPool says why).
    const per = 3 * size * size;
    const all = INPUT_POOL.take(per * images.length);
    const p = (async () => {
      const out: PreprocessedImage[] = [];
      let next = images.length ? decode(images[0] as PhotoInput) : undefined;
      for (let i = 0; i < images.length; i++) {
        const current = await next!;
        next = i + 1 < images.length ? decode(images[i + 1] as PhotoInput) : undefined;
        out.push(preprocessDecoded(current, size, all.subarray(i * per, (i + 1) * per)));
      }
      return out;
    })();
    entry = { images: p, buffer: all };
    cache.set(size, entry);
  }
  return entry.images;
}

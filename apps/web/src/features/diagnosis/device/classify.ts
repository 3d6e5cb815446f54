/**
 * Diagnosis of one photo on the device: decode with the browser (EXIF orientation applied),
 * the shared preprocessing, the shipped model in onnxruntime-web, the shared decision rule and
 * the shared heatmap drawing. The same steps, constants and rule as the server's.
 */
import { type CamMap, camOverlayRgba, heatmapBaseSize } from '@diagrodl/contracts/inference/cam';
import { type Decision, decideOne } from '@diagrodl/contracts/inference/decision';
import { INPUT_SIZE, centreSquare, toModelInput } from '@diagrodl/contracts/inference/preprocess';
import { UPLOAD_LIMITS } from '@diagrodl/contracts';
import { type DeviceModel, loadDeviceModel } from './model.ts';

export interface DeviceDiagnosis {
  decision: Decision;
  cam: CamMap;
}

interface Pixels {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

function canvas(width: number, height: number): OffscreenCanvas | HTMLCanvasElement {
  if (typeof OffscreenCanvas !== 'undefined') return new OffscreenCanvas(width, height);
  const c = document.createElement('canvas');
  c.width = width;
  c.height = height;
  return c;
}

/** Paints the canvas white, so that a photo drawn on it is flattened as the server does it. */
function onWhite(
  ctx: OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D,
  width: number,
  height: number,
) {
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
}

function context2d(c: OffscreenCanvas | HTMLCanvasElement) {
  const ctx = c.getContext('2d', { willReadFrequently: true }) as
    OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D | null;
  if (!ctx) throw new Error('no 2D canvas');
  return ctx;
}

/**
 * Decodes a photo to RGBA pixels, EXIF orientation applied, no colour management; a transparent
 * background is painted white first, as the server flattens it (never the colour it hides).
 */
export async function decodePhoto(blob: Blob): Promise<Pixels> {
  const bitmap = await createImageBitmap(blob, {
    imageOrientation: 'from-image',
    colorSpaceConversion: 'none',
    premultiplyAlpha: 'none',
  });
  try {
    const { width, height } = bitmap;
    if (width * height > UPLOAD_LIMITS.maxPixels) throw new Error('too-many-pixels');
    const c = canvas(width, height);
    const ctx = context2d(c);
    onWhite(ctx, width, height);
    ctx.drawImage(bitmap, 0, 0);
    return { data: ctx.getImageData(0, 0, width, height).data, width, height };
  } finally {
    bitmap.close();
  }
}

/** The model's input tensor [1, 3, 224, 224] for a photo (the server's preprocessImage). */
export async function preprocessPhoto(
  blob: Blob,
): Promise<{ tensor: Float32Array; width: number; height: number }> {
  const { data, width, height } = await decodePhoto(blob);
  return { tensor: toModelInput(data, width, height, INPUT_SIZE, 4), width, height };
}

/** Runs the model on one photo and decides as the server does. */
export async function diagnosePhoto(model: DeviceModel, blob: Blob): Promise<DeviceDiagnosis> {
  const { tensor } = await preprocessPhoto(blob);
  const size = INPUT_SIZE;
  const input = new model.ort.Tensor('float32', tensor, [1, 3, size, size]);
  const out = await model.session.run({ input });
  const probs = out.probabilities?.data as Float32Array;
  const camT = out.cam;
  if (!probs || !camT) throw new Error('the model gave no probabilities or cam');
  const leaf = out.leaf ? Number((out.leaf.data as Float32Array)[0]) : null;
  const energy = out.energy ? Number((out.energy.data as Float32Array)[0]) : undefined;
  const labLike = out.lab_like ? Number((out.lab_like.data as Float32Array)[0]) : null;
  const decision = decideOne(model.card.rejection, { probabilities: probs, energy, leaf, labLike });
  const [, k, h, w] = camT.dims.map(Number) as [number, number, number, number];
  const plane = h * w;
  const all = camT.data as Float32Array;
  const cam: CamMap = {
    width: w,
    height: h,
    data: all.slice(decision.index * plane, (decision.index + 1) * plane),
  };
  if (k !== probs.length) throw new Error('cam and probabilities disagree');
  for (const t of Object.values(out)) t.dispose?.();
  return { decision, cam };
}

/** The heatmap image as the server draws it: the photo (at most 1024 px) with the CAM blended in. */
export async function renderHeatmap(blob: Blob, cam: CamMap): Promise<Blob> {
  const bitmap = await createImageBitmap(blob, { imageOrientation: 'from-image' });
  try {
    const { width, height } = heatmapBaseSize(bitmap.width, bitmap.height);
    const base = canvas(width, height);
    const ctx = context2d(base);
    ctx.imageSmoothingQuality = 'high';
    onWhite(ctx, width, height);
    ctx.drawImage(bitmap, 0, 0, width, height);
    const { side, left, top } = centreSquare(width, height);
    const overlay = canvas(side, side);
    context2d(overlay).putImageData(new ImageData(camOverlayRgba(cam, side), side, side), 0, 0);
    ctx.drawImage(overlay, left, top);
    if (base instanceof HTMLCanvasElement) {
      return await new Promise<Blob>((resolve, reject) =>
        base.toBlob((b) => (b ? resolve(b) : reject(new Error('toBlob'))), 'image/jpeg', 0.82),
      );
    }
    return await base.convertToBlob({ type: 'image/jpeg', quality: 0.82 });
  } finally {
    bitmap.close();
  }
}

/**
 * For the parity test and the benchmark (e2e/, bench/): the device's preprocessing and
 * diagnosis, callable from a page where this module is loaded.
 */
export interface DeviceHook {
  preprocess(bytes: Uint8Array, type: string): Promise<number[]>;
  diagnose(
    photos: { bytes: Uint8Array; type: string }[],
  ): Promise<{ label: string; reason: string | null; probability: number; ms: number }[]>;
}

const hook: DeviceHook = {
  async preprocess(bytes, type) {
    const { tensor } = await preprocessPhoto(new Blob([bytes as BlobPart], { type }));
    return Array.from(tensor);
  },
  async diagnose(photos) {
    const model = await loadDeviceModel();
    const out = [];
    for (const p of photos) {
      const t0 = performance.now();
      const { decision } = await diagnosePhoto(
        model,
        new Blob([p.bytes as BlobPart], { type: p.type }),
      );
      out.push({
        label: decision.label,
        reason: decision.reason,
        probability: decision.probability,
        ms: performance.now() - t0,
      });
    }
    return out;
  },
};
(globalThis as { diagrodlDevice?: DeviceHook }).diagrodlDevice = hook;

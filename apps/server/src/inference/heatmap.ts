/**
 * Heatmap images: the predicted class's activation map, normalised to [0, 1], colour-mapped
 * (jet) and alpha-blended over the photo with sharp. The model saw the photo's centre square
 * (see preprocess.ts), so the map covers exactly that square; the rest of the photo is shown
 * as it is.
 */
import sharp from 'sharp';
import { type CamMap, resizeMap } from './classifier.ts';

/** Longest side of stored heatmap images (the photo is shrunk to this, never enlarged). */
export const HEATMAP_MAX_SIDE = 1024;

/** Jet colour map: 0 -> dark blue, 0.5 -> green/yellow, 1 -> dark red. */
export function jet(v: number): [number, number, number] {
  const t = Math.min(1, Math.max(0, v));
  const c = (x: number) => Math.round(255 * Math.min(1, Math.max(0, x)));
  return [c(1.5 - Math.abs(4 * t - 3)), c(1.5 - Math.abs(4 * t - 2)), c(1.5 - Math.abs(4 * t - 1))];
}

/** Min-max normalisation (a flat map becomes all zeros). */
export function normaliseMap(map: CamMap): CamMap {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of map.data) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  const span = hi - lo;
  const data = new Float32Array(map.data.length);
  if (span > 1e-9)
    for (let i = 0; i < data.length; i++) data[i] = ((map.data[i] as number) - lo) / span;
  return { width: map.width, height: map.height, data };
}

/** The overlay as a JPEG: the photo (EXIF-oriented, at most 1024 px) with the CAM blended in. */
export async function renderHeatmap(
  photo: Buffer,
  cam: CamMap,
  opts: { maxSide?: number; quality?: number } = {},
): Promise<Buffer> {
  const maxSide = opts.maxSide ?? HEATMAP_MAX_SIDE;
  const base = await sharp(photo, { failOn: 'error' })
    .autoOrient()
    .resize(maxSide, maxSide, { fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb')
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height } = base.info;
  const side = Math.min(width, height);
  const left = Math.floor((width - side) / 2);
  const top = Math.floor((height - side) / 2);
  const map = resizeMap(normaliseMap(cam), side, side);
  const rgba = Buffer.alloc(side * side * 4);
  for (let i = 0; i < side * side; i++) {
    const v = map.data[i] as number;
    const [r, g, b] = jet(v);
    rgba[i * 4] = r;
    rgba[i * 4 + 1] = g;
    rgba[i * 4 + 2] = b;
    // weak activations let the leaf show through; strong ones are clearly coloured
    rgba[i * 4 + 3] = Math.round(255 * (0.2 + 0.45 * v));
  }
  return sharp(base.data, { raw: { width, height, channels: 3 } })
    .composite([{ input: rgba, raw: { width: side, height: side, channels: 4 }, left, top }])
    .jpeg({ quality: opts.quality ?? 82 })
    .toBuffer();
}

/** A small JPEG of the photo (history entries, report blocks). */
export async function thumbnailJpeg(photo: Buffer, side = 160, quality = 78): Promise<Buffer> {
  return sharp(photo, { failOn: 'error' })
    .autoOrient()
    .resize(side, side, { fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality })
    .toBuffer();
}

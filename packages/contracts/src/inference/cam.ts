/**
 * Class activation heatmaps, drawn the same way on the server (sharp) and in the browser
 * (canvas): the predicted class's map, min-max normalised, resized bilinearly over the photo's
 * centre square (the part the model saw), jet-coloured and alpha-blended over the photo.
 */

/** A class activation map (row-major, values in [0, 1]) for the predicted class. */
export interface CamMap {
  width: number;
  height: number;
  data: Float32Array;
}

/** Longest side of heatmap images (the photo is shrunk to this, never enlarged). */
export const HEATMAP_MAX_SIDE = 1024;

/** Bilinear resize of a single-channel map (align-corners=false, like the usual upsampling). */
export function resizeMap(src: CamMap, width: number, height: number): CamMap {
  if (src.width === width && src.height === height) return src;
  const out = new Float32Array(width * height);
  const sx = src.width / width;
  const sy = src.height / height;
  for (let y = 0; y < height; y++) {
    const fy = Math.min(Math.max((y + 0.5) * sy - 0.5, 0), src.height - 1);
    const y0 = Math.floor(fy);
    const y1 = Math.min(y0 + 1, src.height - 1);
    const wy = fy - y0;
    for (let x = 0; x < width; x++) {
      const fx = Math.min(Math.max((x + 0.5) * sx - 0.5, 0), src.width - 1);
      const x0 = Math.floor(fx);
      const x1 = Math.min(x0 + 1, src.width - 1);
      const wx = fx - x0;
      const a = src.data[y0 * src.width + x0] as number;
      const b = src.data[y0 * src.width + x1] as number;
      const c = src.data[y1 * src.width + x0] as number;
      const d = src.data[y1 * src.width + x1] as number;
      out[y * width + x] = (a * (1 - wx) + b * wx) * (1 - wy) + (c * (1 - wx) + d * wx) * wy;
    }
  }
  return { width, height, data: out };
}

/** One channel of the jet colour map at t in [0, 1]: red k = 3, green k = 2, blue k = 1. */
function jetChannel(t: number, k: number): number {
  return Math.round(255 * Math.min(1, Math.max(0, 1.5 - Math.abs(4 * t - k))));
}

/** Jet colour map: 0 -> dark blue, 0.5 -> green/yellow, 1 -> dark red. */
export function jet(v: number): [number, number, number] {
  const t = Math.min(1, Math.max(0, v));
  return [jetChannel(t, 3), jetChannel(t, 2), jetChannel(t, 1)];
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

/** Size of the photo shown under a heatmap: shrunk to fit maxSide x maxSide, never enlarged. */
export function heatmapBaseSize(
  width: number,
  height: number,
  maxSide: number = HEATMAP_MAX_SIDE,
): { width: number; height: number } {
  const scale = Math.min(1, maxSide / width, maxSide / height);
  if (scale >= 1) return { width, height };
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

/**
 * The RGBA overlay (side x side) laid over the photo's centre square: weak activations let the
 * leaf show through; strong ones are clearly coloured.
 */
export function camOverlayRgba(cam: CamMap, side: number): Uint8ClampedArray<ArrayBuffer> {
  const map = resizeMap(normaliseMap(cam), side, side);
  const rgba = new Uint8ClampedArray(side * side * 4);
  // jet() per pixel without its array (a heatmap has up to a million pixels)
  for (let i = 0; i < side * side; i++) {
    const v = map.data[i] as number;
    const t = Math.min(1, Math.max(0, v));
    rgba[i * 4] = jetChannel(t, 3);
    rgba[i * 4 + 1] = jetChannel(t, 2);
    rgba[i * 4 + 2] = jetChannel(t, 1);
    rgba[i * 4 + 3] = Math.round(255 * (0.2 + 0.45 * v));
  }
  return rgba;
}

import { describe, expect, it } from 'vitest';
import { MEAN, STD, centreSquare, cropResize, normalize, toModelInput } from './preprocess.ts';

/** How many values differ (compared this way, not with toEqual: a failing diff of 150,528 values
 * takes minutes to print). */
function differing(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let n = a.length === b.length ? 0 : Infinity;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) n++;
  return n;
}

describe('shared preprocessing', () => {
  it('gives the same tensor from RGBA (the browser canvas) as from RGB (the server decoder)', () => {
    const width = 301;
    const height = 257;
    const rgb = new Uint8Array(width * height * 3);
    const rgba = new Uint8ClampedArray(width * height * 4);
    for (let p = 0; p < width * height; p++) {
      for (let c = 0; c < 3; c++) {
        const v = (p * 7 + c * 91 + ((p * p) % 13)) % 256;
        rgb[p * 3 + c] = v;
        rgba[p * 4 + c] = v;
      }
      rgba[p * 4 + 3] = 255;
    }
    const a = normalize(cropResize(rgb, width, height, 224, 3), 224);
    const b = normalize(cropResize(rgba, width, height, 224, 4), 224);
    expect(differing(b, a)).toBe(0);
    expect(differing(toModelInput(rgba, width, height, 224, 4), a)).toBe(0); // the browser's call
  });

  it('crops the centre square with floor offsets and keeps a flat image flat', () => {
    expect(centreSquare(300, 200)).toEqual({ side: 200, left: 50, top: 0 });
    expect(centreSquare(200, 301)).toEqual({ side: 200, left: 0, top: 50 });
    const flat = new Uint8Array(40 * 30 * 3).fill(200);
    const out = cropResize(flat, 40, 30, 224);
    expect(out.length).toBe(224 * 224 * 3);
    expect(out.every((v) => Math.abs(v - 200) < 1e-9)).toBe(true);
  });

  it('gives the same input from reused buffers, photo after photo, as from fresh ones', () => {
    const photo = (width: number, height: number, seed: number) => {
      const px = new Uint8Array(width * height * 3);
      for (let i = 0; i < px.length; i++) px[i] = (i * 31 + seed * 17 + ((i * i) % 11)) % 256;
      return px;
    };
    // a wide photo, a small one (the row buffer must come back zeroed), the wide one again
    const sizes: [number, number][] = [
      [640, 480],
      [97, 120],
      [640, 480],
      [224, 224],
    ];
    const inputs = sizes.map(([w, h], k) => toModelInput(photo(w, h, k), w, h));
    sizes.forEach(([w, h], k) => {
      const fresh = normalize(cropResize(photo(w, h, k), w, h, 224), 224);
      expect(differing(inputs[k]!, fresh)).toBe(0);
    });
    expect(inputs[0]).not.toBe(inputs[2]); // each photo gets its own tensor
    // into a caller's buffer (the server preprocesses a request into one): the same values there
    const whole = new Float32Array(3 * 224 * 224 * 2).fill(7);
    const second = whole.subarray(3 * 224 * 224);
    expect(toModelInput(photo(97, 120, 1), 97, 120, 224, 3, second)).toBe(second);
    expect(differing(second, inputs[1]!)).toBe(0);
    expect(whole.subarray(0, 3 * 224 * 224).every((v) => v === 7)).toBe(true);
    expect(() => toModelInput(photo(97, 120, 1), 97, 120, 224, 3, whole)).toThrow(/not 3 x 224/);
    // the resized image cropResize returns is the caller's, not a buffer the next photo overwrites
    const first = cropResize(photo(50, 50, 1), 50, 50, 224);
    const copy = Float64Array.from(first);
    cropResize(photo(50, 50, 2), 50, 50, 224);
    expect(differing(first, copy)).toBe(0);
  });

  it('is the area average of its definition, for small and large photos, RGB and RGBA', () => {
    // The definition, computed another way: each output pixel is the mean of the source square
    // [i*r, (i+1)*r) x [j*r, (j+1)*r) of the centre square, every source pixel weighted by the
    // area it shares with it. The resize's fast paths (two source rows or columns per output
    // pixel, as from 256 px; many, as from a phone photo) must all agree with it.
    const size = 24;
    for (const [width, height, channels] of [
      [256, 256, 3],
      [48, 27, 3], // two rows per output (27/24)
      [301, 257, 4],
      [1000, 700, 3], // ~29 rows per output
      [24, 30, 3], // no resize, a crop
      [7, 5, 4], // upscale
    ] as const) {
      const px = new Uint8Array(width * height * channels);
      for (let i = 0; i < px.length; i++) px[i] = (i * 131 + ((i * i) % 251)) % 256;
      const { side, left, top } = centreSquare(width, height);
      const r = side / size;
      const overlap = (a: number, b: number, k: number) =>
        Math.max(0, Math.min(b, k + 1) - Math.max(a, k));
      const got = cropResize(px, width, height, size, channels);
      const input = toModelInput(px, width, height, size, channels);
      let worst = 0;
      let worstInput = 0;
      for (let i = 0; i < size; i++) {
        for (let j = 0; j < size; j++) {
          for (let c = 0; c < 3; c++) {
            let sum = 0;
            for (let y = Math.floor(i * r); y < Math.min(Math.ceil((i + 1) * r), side); y++) {
              const wy = overlap(i * r, (i + 1) * r, y);
              for (let x = Math.floor(j * r); x < Math.min(Math.ceil((j + 1) * r), side); x++) {
                const wx = overlap(j * r, (j + 1) * r, x);
                sum += wy * wx * (px[((top + y) * width + left + x) * channels + c] as number);
              }
            }
            const want = sum / (r * r);
            worst = Math.max(worst, Math.abs((got[(i * size + j) * 3 + c] as number) - want));
            const norm = (want / 255 - (MEAN[c] as number)) / (STD[c] as number);
            worstInput = Math.max(
              worstInput,
              Math.abs((input[c * size * size + i * size + j] as number) - norm),
            );
          }
        }
      }
      expect(worst, `${width}x${height}x${channels}`).toBeLessThan(1e-9);
      expect(worstInput, `${width}x${height}x${channels}`).toBeLessThan(1e-6);
    }
  });
});

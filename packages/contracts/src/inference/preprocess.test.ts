import { describe, expect, it } from 'vitest';
import { centreSquare, cropResize, normalize } from './preprocess.ts';

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
    expect(b).toEqual(a);
  });

  it('crops the centre square with floor offsets and keeps a flat image flat', () => {
    expect(centreSquare(300, 200)).toEqual({ side: 200, left: 50, top: 0 });
    expect(centreSquare(200, 301)).toEqual({ side: 200, left: 0, top: 50 });
    const flat = new Uint8Array(40 * 30 * 3).fill(200);
    const out = cropResize(flat, 40, 30, 224);
    expect(out.length).toBe(224 * 224 * 3);
    expect(out.every((v) => Math.abs(v - 200) < 1e-9)).toBe(true);
  });
});

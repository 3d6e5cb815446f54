import { describe, expect, it } from 'vitest';
import { camOverlayRgba, jet, normaliseMap, resizeMap } from './cam.ts';

describe('camOverlayRgba', () => {
  it('colours each pixel of the resized, normalised map with jet() and its alpha', () => {
    const cam = { width: 3, height: 2, data: new Float32Array([0.2, 1.4, -0.3, 0.9, 2.5, 0.2]) };
    const side = 37;
    const map = resizeMap(normaliseMap(cam), side, side);
    const rgba = camOverlayRgba(cam, side);
    expect(rgba.length).toBe(side * side * 4);
    for (let i = 0; i < side * side; i++) {
      const v = map.data[i]!;
      expect([...rgba.subarray(i * 4, i * 4 + 4)]).toEqual([
        ...jet(v),
        Math.round(255 * (0.2 + 0.45 * v)),
      ]);
    }
    // the map's minimum is dark blue and nearly transparent, its maximum dark red and more opaque
    const lo = map.data.indexOf(Math.min(...map.data));
    const hi = map.data.indexOf(Math.max(...map.data));
    expect([...rgba.subarray(lo * 4, lo * 4 + 4)]).toEqual([0, 0, 128, 51]);
    expect([...rgba.subarray(hi * 4, hi * 4 + 4)]).toEqual([128, 0, 0, 166]);
  });

  it('gives a flat map the colour of zero everywhere', () => {
    const rgba = camOverlayRgba({ width: 2, height: 2, data: new Float32Array(4).fill(3) }, 4);
    for (let i = 0; i < 16; i++)
      expect([...rgba.subarray(i * 4, i * 4 + 4)]).toEqual([0, 0, 128, 51]);
  });
});

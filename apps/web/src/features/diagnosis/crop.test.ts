// The crop square's geometry (crop.ts): kept inside the photo, in whole pixels, moved by the keys.
import { describe, expect, it } from 'vitest';
import { FULL_BOX, MIN_SIDE, clampBox, moveBox, pixelRect } from './crop.ts';

describe('the crop square', () => {
  it('is the largest centred square of the photo at first', () => {
    expect(pixelRect(FULL_BOX, 4000, 3000)).toEqual({ x: 500, y: 0, size: 3000 });
    expect(pixelRect(FULL_BOX, 3000, 4000)).toEqual({ x: 0, y: 500, size: 3000 });
  });

  it('stays inside the photo wherever it is put', () => {
    // a third of the shorter side, pushed past the top-left corner
    expect(pixelRect({ cx: 0, cy: 0, side: 1 / 3 }, 4000, 3000)).toEqual({
      x: 0,
      y: 0,
      size: 1000,
    });
    expect(pixelRect({ cx: 1, cy: 1, side: 1 / 3 }, 4000, 3000)).toEqual({
      x: 3000,
      y: 2000,
      size: 1000,
    });
    const b = clampBox({ cx: 0.99, cy: 0.5, side: 0.5 }, 4000, 3000);
    expect(b.cx).toBeCloseTo(1 - 750 / 4000, 10);
    expect(b.cy).toBe(0.5);
  });

  it('keeps its side between the smallest allowed and the whole shorter side', () => {
    expect(clampBox({ cx: 0.5, cy: 0.5, side: 0.01 }, 400, 300).side).toBe(MIN_SIDE);
    expect(clampBox({ cx: 0.5, cy: 0.5, side: 3 }, 400, 300).side).toBe(1);
    expect(pixelRect({ cx: 0.5, cy: 0.5, side: 0.5 }, 401, 301)).toEqual({
      x: 125,
      y: 75,
      size: 151,
    });
  });

  it('moves by fractions of the photo and stops at its edges', () => {
    const b = { cx: 0.5, cy: 0.5, side: 0.5 };
    expect(moveBox(b, 0.1, -0.1, 400, 400)).toEqual({ cx: 0.6, cy: 0.4, side: 0.5 });
    expect(moveBox(b, 1, 1, 400, 400)).toEqual({ cx: 0.75, cy: 0.75, side: 0.5 });
  });
});

import { describe, expect, it } from 'vitest';
import { DIAGNOSIS_MESSAGES as M } from './diagnosis.ts';

describe('the identification messages', () => {
  it('say how many images failed in correct Spanish, singular and plural', () => {
    expect(M.failedImages(1)).toBe('1 imagen no se pudo identificar y se descartó.');
    expect(M.failedImages(2)).toBe('2 imágenes no se pudieron identificar y se descartaron.');
    expect(M.failedImages(12)).toBe('12 imágenes no se pudieron identificar y se descartaron.');
  });
});

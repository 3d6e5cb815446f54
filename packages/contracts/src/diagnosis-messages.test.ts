import { describe, expect, it } from 'vitest';
import { DIAGNOSIS_MESSAGES as M, NOT_LEAF, NOT_LEAF_HINT, NOT_RECOGNISED } from './diagnosis.ts';

describe('the identification messages', () => {
  it('say how many images failed in correct Spanish, singular and plural', () => {
    expect(M.failedImages(1)).toBe('1 imagen no se pudo identificar y se descartó.');
    expect(M.failedImages(2)).toBe('2 imágenes no se pudieron identificar y se descartaron.');
    expect(M.failedImages(12)).toBe('12 imágenes no se pudieron identificar y se descartaron.');
  });
});

describe("the advice shown with 'No parece una hoja de tomate'", () => {
  // A leaf of another crop (pepper, potato, grape...) gets the not-leaf outcome: its advice says
  // the tool diagnoses tomato leaves only, which is right for a cat or a car too, and asks for a
  // photo of a tomato leaf; it keeps the photo hint it had.
  it('says, in both languages, that only tomato leaves are diagnosed and asks for a tomato leaf', () => {
    expect(NOT_LEAF.es).toBe('No parece una hoja de tomate');
    expect(NOT_LEAF_HINT.es).toContain('Esta herramienta solo diagnostica hojas de tomate');
    expect(NOT_LEAF_HINT.es).toContain('la hoja de otro cultivo');
    expect(NOT_LEAF_HINT.es).toContain('una foto que no sea de una hoja');
    expect(NOT_LEAF_HINT.es).toMatch(
      /Fotografíe una sola hoja de una planta de tomate, de cerca y que ocupe la mayor parte de la foto\.$/,
    );
    expect(NOT_LEAF.en).toBe('This does not look like a tomato leaf');
    expect(NOT_LEAF_HINT.en).toContain('This tool diagnoses tomato leaves only');
    expect(NOT_LEAF_HINT.en).toContain('a leaf of another crop');
    expect(NOT_LEAF_HINT.en).toContain('a photo that is not of a leaf');
    expect(NOT_LEAF_HINT.en).toMatch(
      /Photograph a single leaf of a tomato plant, close up, filling most of the frame\.$/,
    );
  });

  it('the low-confidence label claims nothing about other crops', () => {
    expect(NOT_RECOGNISED.es).not.toMatch(/cultivo/i);
    expect(NOT_RECOGNISED.en).not.toMatch(/crop/i);
  });
});

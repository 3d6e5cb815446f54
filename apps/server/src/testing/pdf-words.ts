// Where the words of a PDF page are (poppler's pdftotext -bbox), to check a layout: no two words
// drawn over each other.
import { execFileSync } from 'node:child_process';
import { expect } from 'vitest';

export type WordBox = { x0: number; y0: number; x1: number; y1: number; word: string };

/** The words of one page of a PDF with their boxes (pdftotext -bbox). */
export function wordBoxes(file: string, page: number): WordBox[] {
  const p = String(page);
  return [
    ...execFileSync('pdftotext', ['-bbox', '-f', p, '-l', p, file, '-'])
      .toString()
      .matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</g),
  ].map((m) => ({ x0: +m[1]!, y0: +m[2]!, x1: +m[3]!, y1: +m[4]!, word: m[5]! }));
}

/** Pairs of words whose boxes overlap (a page of at least `minWords` words). */
export function overlappingWords(boxes: WordBox[], minWords = 21): string[] {
  expect(boxes.length).toBeGreaterThanOrEqual(minWords);
  return boxes.flatMap((a, i) =>
    boxes
      .slice(i + 1)
      .filter(
        (b) => a.x0 < b.x1 - 0.5 && b.x0 < a.x1 - 0.5 && a.y0 < b.y1 - 0.5 && b.y0 < a.y1 - 0.5,
      )
      .map((b) => `${a.word} / ${b.word}`),
  );
}

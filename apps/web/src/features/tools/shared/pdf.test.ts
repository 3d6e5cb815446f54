import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { CHART, pageContent, pageTexts } from './pdf-content.test-helper.ts';
import { buildPdfReport, pdfSafe } from './pdf.ts';

const NOTES = { rowsLeftOut: '… {n} more rows', blocksLeftOut: '{n} blocks left out' };

describe('pdfSafe', () => {
  it('keeps Latin-1 and WinAnsi text and replaces what the standard fonts lack', () => {
    expect(pdfSafe('Presión · m³/h – “ok”')).toBe('Presión · m³/h – “ok”');
    expect(pdfSafe('H₂O ≥ 1 → x')).toBe('H2O >= 1 -> x');
    expect(pdfSafe('漢')).toBe('?');
  });
});

describe('buildPdfReport', () => {
  it('always makes exactly one page, cutting long tables with a note', async () => {
    const rows = Array.from({ length: 400 }, (_, i) => [String(i + 1), 'x'.repeat(30), '1.5']);
    const bytes = await buildPdfReport({
      title: 'Diseño de línea lateral',
      subtitle: 'today',
      ...NOTES,
      blocks: [
        { kind: 'pairs', heading: 'Inputs', rows: [['Po', '10 mca']] },
        { kind: 'text', text: 'A long sentence '.repeat(40), tone: 'success' },
        { kind: 'table', heading: 'Rows', columns: ['n', 'text', 'value'], rows },
        { kind: 'chart', heading: 'Chart', image: null },
      ],
    });
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe('%PDF-');
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBe(1);
    expect(doc.getTitle()).toBe('Diseño de línea lateral');
    const texts = await pageTexts(bytes);
    expect(texts.at(-1)).toMatch(/^… \d+ more rows$/);
    // Only table rows were cut, and their note says so: no note of blocks left out.
    expect(texts.filter((x) => x.includes('blocks left out'))).toEqual([]);
  });

  it('says how many blocks were cut or left out for want of room', async () => {
    const blocks = [
      // Fills the page and is cut itself.
      { kind: 'text', text: 'A long sentence '.repeat(1200) },
      { kind: 'pairs', heading: 'Inputs', rows: [['Po', '10 mca']] },
      { kind: 'table', heading: 'Summary', columns: ['a', 'b'], rows: [['1', '2']] },
      { kind: 'charts', heading: 'Charts', images: [CHART, CHART] },
      // Left out by design, not for want of room: not counted.
      { kind: 'chart', heading: 'None', image: null },
    ] as const;
    const bytes = await buildPdfReport({ title: 'Full', ...NOTES, blocks });
    expect((await PDFDocument.load(bytes)).getPageCount()).toBe(1);
    const texts = await pageTexts(bytes);
    expect(texts.at(-1)).toBe('4 blocks left out');
    expect(texts).not.toContain('Inputs');

    // A table whose header does not fit, and a chart squeezed below 40 pt, are cut too.
    const squeezed = await buildPdfReport({
      title: 'Squeezed',
      ...NOTES,
      blocks: [
        { kind: 'pairs', heading: 'Pairs', rows: Array.from({ length: 114 }, () => ['a', 'b']) },
        { kind: 'chart', heading: 'Chart', image: CHART },
      ],
    });
    expect((await pageTexts(squeezed)).at(-1)).toBe('1 blocks left out');

    const fits = await buildPdfReport({ title: 'Fits', ...NOTES, blocks: blocks.slice(1) });
    expect((await pageTexts(fits)).some((x) => x.includes('blocks left out'))).toBe(false);
  });

  it('wraps a label or value too long for its place; none is cut', async () => {
    const label =
      'Lámina bruta (neta / EU / (1 − fracción de lavado)) de un sector del riego por goteo';
    const value = 'Darcy-Weisbach con factor de fricción de Blasius (m = 1.75)';
    const rows = Array.from({ length: 8 }, (_, i) => [`${label} ${i}`, value] as const);
    const bytes = await buildPdfReport({
      title: 'Labels',
      ...NOTES,
      blocks: [{ kind: 'pairs', heading: 'Inputs', rows }],
    });
    const texts = await pageTexts(bytes);
    expect(texts.filter((x) => x.endsWith('…'))).toEqual([]);
    const words = texts.join(' ').replace(/−/g, '-');
    for (let i = 0; i < rows.length; i++) expect(words).toContain(` ${i}`);
    expect(words.split(' ').filter((w) => w === 'Blasius')).toHaveLength(rows.length);
    expect(words).toContain('(1 - fracción de lavado))');
  });

  it('draws charts side by side, each in its share of the width', async () => {
    const bytes = await buildPdfReport({
      title: 'Charts',
      ...NOTES,
      blocks: [{ kind: 'charts', heading: 'Two', images: [CHART, null, CHART] }],
    });
    expect((await PDFDocument.load(bytes)).getPageCount()).toBe(1);
    const text = await pageContent(bytes);
    // pdf-lib draws an image as 'q / 1 0 0 1 x y cm / 1 0 0 1 0 0 cm / w 0 0 h 0 0 cm / ... Do / Q'.
    const draws = text
      .split(/\bQ\b/)
      .filter((block) => / Do\b/.test(block))
      .map((block) => {
        const ops = [...block.matchAll(/(\S+) 0 0 (\S+) (\S+) (\S+) cm/g)].map((m) =>
          m.slice(1).map(Number),
        );
        const scale = ops.find((op) => op[0] !== 1)!;
        return { x: ops[0]![2]!, width: scale[0]!, height: scale[1]! };
      });
    expect(draws).toHaveLength(2);
    // Each is (595.28 − 72 − 8) / 2 = 257.64 pt wide, 340/640 as high, the second 8 pt after it.
    for (const { width, height } of draws) {
      expect(width).toBeCloseTo(257.64, 2);
      expect(height).toBeCloseTo((257.64 * 340) / 640, 2);
    }
    expect(draws[0]!.x).toBeCloseTo(36, 2);
    expect(draws[1]!.x - draws[0]!.x).toBeCloseTo(265.64, 2);
  });
});

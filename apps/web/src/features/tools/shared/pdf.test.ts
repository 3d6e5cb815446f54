import { PDFArray, PDFDocument, PDFRawStream, decodePDFRawStream } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { buildPdfReport, pdfSafe } from './pdf.ts';

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
      rowsLeftOut: '… {n} more rows',
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
  });

  it('draws charts side by side, each in its share of the width', async () => {
    // A 1×1 PNG standing for a 640×340 chart.
    const png = Uint8Array.from(
      atob(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
      ),
      (c) => c.charCodeAt(0),
    );
    const image = { png, width: 640, height: 340 };
    const bytes = await buildPdfReport({
      title: 'Charts',
      rowsLeftOut: '',
      blocks: [{ kind: 'charts', heading: 'Two', images: [image, null, image] }],
    });
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBe(1);
    const contents = doc.getPage(0).node.Contents();
    const streams =
      contents instanceof PDFArray
        ? contents.asArray().map((ref) => doc.context.lookup(ref))
        : [contents];
    const text = streams
      .map((stream) =>
        new TextDecoder('latin1').decode(decodePDFRawStream(stream as PDFRawStream).decode()),
      )
      .join('\n');
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

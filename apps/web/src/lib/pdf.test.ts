import { PDFDocument } from 'pdf-lib';
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
});

import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseCsv } from './export.ts';
import { pageTexts } from './pdf-content.test-helper.ts';
import type { Report } from './report.ts';
import { useReportExport } from './useReportExport.ts';

const REPORT: Report = {
  title: 'Programación del riego',
  blocks: [
    {
      kind: 'figures',
      heading: 'Datos',
      figures: [{ label: 'Lámina neta', value: 5.75, unit: 'mm/d' }],
    },
  ],
};

/** The files the hook downloads, caught where the page would hand them to the browser. */
function catchDownloads(): Blob[] {
  const blobs: Blob[] = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    blobs.push(blob as Blob);
    return 'blob:report';
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
  return blobs;
}

/** A Blob's bytes (jsdom's Blob may lack arrayBuffer; FileReader has it). */
function bytesOf(blob: Blob): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsArrayBuffer(blob);
  });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('useReportExport', () => {
  it('downloads the CSV with a UTF-8 byte-order mark, so Excel shows the accents', async () => {
    const blobs = catchDownloads();
    const { result } = renderHook(() => useReportExport('schedule'));
    act(() => result.current.csv(REPORT));
    expect(blobs).toHaveLength(1);
    const bytes = await bytesOf(blobs[0]!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    expect(parseCsv(text)).toEqual([['Lámina neta', '5.75', 'mm/d']]);
  });

  it('the PDF says, in the page’s language, how many blocks do not fit', async () => {
    const blobs = catchDownloads();
    const { result } = renderHook(() => useReportExport('schedule'));
    const long: Report = {
      title: REPORT.title,
      blocks: [
        { kind: 'text', text: 'Una frase larga '.repeat(1200) },
        ...REPORT.blocks,
        { kind: 'charts', heading: 'Gráfica', charts: [0] },
      ],
    };
    const { pdf } = result.current;
    await act(() => pdf(long));
    expect(blobs).toHaveLength(1);
    // The text is cut and the figures left out; the chart, with no SVG to draw, is not counted.
    const texts = await pageTexts(await bytesOf(blobs[0]!));
    expect(texts.at(-1)).toBe(
      'Bloques del informe que no caben enteros en esta página: 2 (ver el archivo CSV)',
    );
  });
});

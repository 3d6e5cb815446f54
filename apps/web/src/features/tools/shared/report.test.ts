import { describe, expect, it } from 'vitest';
import { csvNumber, reportCsvRows, reportPdfBlocks, type Report } from './report.ts';

const fmt = (v: number, d = 2) => v.toFixed(d);

const report: Report = {
  title: 'T',
  blocks: [
    {
      kind: 'figures',
      heading: 'Inputs',
      csvHeader: ['Input', 'Value', 'Unit'],
      figures: [
        { label: 'L', pdfLabel: 'L · length', value: 12.3456, unit: 'm', digits: 1 },
        { label: 'Only CSV', value: 1, only: 'csv' },
      ],
    },
    { kind: 'text', text: 'joined', joined: true, only: 'csv' },
    {
      kind: 'table',
      heading: 'Rows',
      columns: [
        { label: 'n', pdfLabel: '#' },
        { label: 'q', digits: -1 },
        { label: 'status', only: 'csv' },
      ],
      rows: [
        [1, 0.000123, 'ok'],
        [2, { csv: 5, pdf: 'five' }, 'ok'],
        [3, null, 'no'],
      ],
      pdfRows: [0, 2],
    },
    { kind: 'text', text: 'PDF only', only: 'pdf', tone: 'success' },
    { kind: 'charts', heading: 'Chart', charts: [0] },
  ],
};

describe('report description', () => {
  it('CSV: the decimals shown (at least 3), blank rows between blocks unless joined, CSV-only parts kept', () => {
    expect(reportCsvRows(report)).toEqual([
      ['Input', 'Value', 'Unit'],
      // 1 decimal shown: 3 in the CSV
      ['L', 12.346, 'm'],
      ['Only CSV', 1],
      ['joined'],
      [],
      ['n', 'q', 'status'],
      [1, 0.000123, 'ok'],
      [2, 5, 'ok'],
      [3, null, 'no'],
    ]);
  });

  it('CSV numbers: no binary noise, scientific columns with 5 significant digits', () => {
    const noisy: Report = {
      title: 'T',
      blocks: [
        {
          kind: 'table',
          heading: '',
          columns: [{ label: 'as typed' }, { label: 'mm', digits: 2 }, { label: 'q', digits: -1 }],
          rows: [[0.1 + 0.2, 5.745314148058873, 3.0555555555e-7]],
        },
      ],
    };
    expect(reportCsvRows(noisy)[1]).toEqual([0.1 + 0.2, 5.745, 3.0556e-7]);
    expect(csvNumber(5.745314148058873)).toBe(5.745);
    expect(csvNumber(2.5, 0)).toBe(2.5);
    expect(csvNumber(1234.5678912, 6)).toBe(1234.567891);
  });

  it('PDF: formatted numbers, PDF labels, sampled rows, charts by index', () => {
    const image = { png: new Uint8Array(1), width: 1, height: 1 };
    expect(reportPdfBlocks(report, fmt, [image])).toEqual([
      { kind: 'pairs', heading: 'Inputs', rows: [['L · length', '12.3 m']] },
      {
        kind: 'table',
        heading: 'Rows',
        columns: ['#', 'q'],
        rows: [
          ['1', '1.2300e-4'],
          ['3', ''],
        ],
      },
      { kind: 'text', text: 'PDF only', tone: 'success' },
      { kind: 'chart', heading: 'Chart', image },
    ]);
  });
});

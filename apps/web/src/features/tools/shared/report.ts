/**
 * One description of a tool's result (title, figures, tables, text, charts), written once per
 * tool and rendered two ways: CSV rows (plain numbers with the precision that fits, for a
 * spreadsheet) and the blocks of the one-page PDF (numbers formatted in the active language). A
 * block, a column or a cell can differ between the two (or appear in one only) where the outputs
 * were designed differently. The design file (JSON) keeps full precision.
 */
import type { CsvCell } from './export.ts';
import type { PdfBlock, PdfImage } from './pdf.ts';
import type { FixedFormatter } from './useNumberFormat.ts';

/** Which output a block or a column belongs to (both when left out). */
export type Output = 'csv' | 'pdf';

/** A cell: the same value in both outputs, or its CSV value and its PDF text. */
export type Cell = CsvCell | { csv: CsvCell; pdf: string };

export interface Column {
  label: string;
  /** The column's heading in the PDF when it differs from the CSV's. */
  pdfLabel?: string;
  /** Decimals of a number in the PDF; -1 for scientific notation with 4 decimals. */
  digits?: number;
  only?: Output;
}

/** A figure: a label, a value and its unit (a CSV row [label, value, unit]; a PDF pair). */
export interface Figure {
  label: string;
  /** The label in the PDF when it differs from the CSV's. */
  pdfLabel?: string;
  value: Cell;
  unit?: string;
  digits?: number;
  only?: Output;
}

interface BlockBase {
  only?: Output;
  /** CSV: follow the previous block without the blank row that usually separates them. */
  joined?: boolean;
}

export type ReportBlock = BlockBase &
  (
    | {
        kind: 'figures';
        heading: string;
        /** The CSV header row over the figures (none when left out). */
        csvHeader?: CsvCell[];
        figures: Figure[];
      }
    | {
        kind: 'table';
        heading: string;
        columns: Column[];
        rows: Cell[][];
        maxRows?: number;
        /** The rows the PDF shows (indexes; all when left out): a sample of a long table. */
        pdfRows?: number[];
      }
    | { kind: 'text'; text: string; tone?: 'normal' | 'danger' | 'success' }
    /** Charts side by side in the PDF (indexes into the images given to reportPdf). */
    | { kind: 'charts'; heading: string; charts: number[] }
    /** Rows written as they are to the CSV (a layout the other kinds do not cover). */
    | { kind: 'rows'; rows: CsvCell[][] }
  );

export interface Report {
  title: string;
  blocks: ReportBlock[];
}

/** A designer's section: its fields as typed, and those of its result (null without one). */
export interface CalculatedFields<Raw> {
  raw: Raw;
  calculatedRaw: Raw | null;
}

/**
 * The fields a report gives for a section: with a result, those it was calculated from (not the
 * fields edited since), so its inputs and results agree; without one, the fields as typed.
 */
export const reportedFields = <Raw>(section: CalculatedFields<Raw>): Raw =>
  section.calculatedRaw ?? section.raw;

const isSplit = (cell: Cell): cell is { csv: CsvCell; pdf: string } =>
  typeof cell === 'object' && cell !== null;

/** The fewest decimals of a number in the CSV: a measurement's precision (5.745314148 → 5.745). */
const CSV_MIN_DIGITS = 3;

/**
 * A number as the CSV gives it, without binary noise: `digits` decimals (those the screen and the
 * PDF show, at least 3), or 5 significant digits for a column in scientific notation (-1).
 */
export function csvNumber(value: number, digits = CSV_MIN_DIGITS): number {
  if (!Number.isFinite(value)) return value;
  if (digits < 0) return Number(value.toPrecision(5));
  return Number(value.toFixed(Math.max(digits, CSV_MIN_DIGITS)));
}

/** A cell's CSV value: a number with its column's or figure's decimals (as typed without). */
const csvValue = (cell: Cell, digits?: number): CsvCell => {
  const value = isSplit(cell) ? cell.csv : cell;
  return typeof value === 'number' && digits !== undefined ? csvNumber(value, digits) : value;
};

/** A cell's PDF text: split cells give theirs, numbers get `digits` decimals (or stay as written). */
export function pdfText(
  cell: Cell,
  fmt: FixedFormatter,
  digits: number | undefined,
  scientific: (value: number) => string = (v) => v.toExponential(4),
): string {
  if (isSplit(cell)) return cell.pdf;
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'string') return cell;
  if (digits === undefined) return String(cell);
  return digits < 0 ? scientific(cell) : fmt(cell, digits);
}

/** The CSV rows of a report: the blocks in order, separated by a blank row. */
export function reportCsvRows(report: Report): CsvCell[][] {
  const rows: CsvCell[][] = [];
  for (const block of report.blocks) {
    if (block.only === 'pdf' || block.kind === 'charts') continue;
    const part = csvPart(block);
    if (part.length === 0) continue;
    if (rows.length > 0 && !block.joined) rows.push([]);
    rows.push(...part);
  }
  return rows;
}

function csvPart(block: ReportBlock): CsvCell[][] {
  switch (block.kind) {
    case 'figures':
      return [
        ...(block.csvHeader ? [block.csvHeader] : []),
        ...block.figures
          .filter((f) => f.only !== 'pdf')
          .map((f) =>
            f.unit === undefined
              ? [f.label, csvValue(f.value, f.digits)]
              : [f.label, csvValue(f.value, f.digits), f.unit],
          ),
      ];
    case 'table': {
      const keep = block.columns.map((c) => c.only !== 'pdf');
      const columns = block.columns.filter((_, i) => keep[i]);
      return [
        columns.map((c) => c.label),
        ...block.rows.map((r) =>
          r.filter((_, i) => keep[i]).map((cell, i) => csvValue(cell, columns[i]!.digits)),
        ),
      ];
    }
    case 'text':
      return [[block.text]];
    case 'rows':
      return block.rows;
    case 'charts':
      return [];
  }
}

/** The PDF blocks of a report (`images`: the charts as PNG, by index). */
export function reportPdfBlocks(
  report: Report,
  fmt: FixedFormatter,
  images: readonly (PdfImage | null)[] = [],
  scientific?: (value: number) => string,
): PdfBlock[] {
  const blocks: PdfBlock[] = [];
  for (const block of report.blocks) {
    if (block.only === 'csv') continue;
    switch (block.kind) {
      case 'figures':
        blocks.push({
          kind: 'pairs',
          heading: block.heading,
          rows: block.figures
            .filter((f) => f.only !== 'csv')
            .map(
              (f) =>
                [
                  f.pdfLabel ?? f.label,
                  `${pdfText(f.value, fmt, f.digits, scientific)} ${f.unit ?? ''}`.trim(),
                ] as const,
            ),
        });
        break;
      case 'table': {
        const keep = block.columns.map((c) => c.only !== 'csv');
        const columns = block.columns.filter((_, i) => keep[i]);
        blocks.push({
          kind: 'table',
          heading: block.heading,
          columns: columns.map((c) => c.pdfLabel ?? c.label),
          rows: (block.pdfRows ? block.pdfRows.map((i) => block.rows[i]!) : block.rows).map((r) =>
            r
              .filter((_, i) => keep[i])
              .map((cell, i) => pdfText(cell, fmt, columns[i]!.digits, scientific)),
          ),
          ...(block.maxRows === undefined ? {} : { maxRows: block.maxRows }),
        });
        break;
      }
      case 'text':
        blocks.push({
          kind: 'text',
          text: block.text,
          ...(block.tone ? { tone: block.tone } : {}),
        });
        break;
      case 'charts':
        blocks.push(
          block.charts.length === 1
            ? { kind: 'chart', heading: block.heading, image: images[block.charts[0]!] ?? null }
            : {
                kind: 'charts',
                heading: block.heading,
                images: block.charts.map((i) => images[i] ?? null),
              },
        );
        break;
      case 'rows':
        break;
    }
  }
  return blocks;
}

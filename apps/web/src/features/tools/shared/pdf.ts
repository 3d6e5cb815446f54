/**
 * One-page A4 PDF reports of the engineering tools, drawn with pdf-lib: a title, blocks of
 * label/value pairs, free text, tables and a chart image, in the order given. Everything stays on
 * one page: text wraps, and a table that does not fit is cut with a note of the rows left out
 * (the CSV export has them all); any other block cut or left out for want of room is counted in a
 * note at the foot of the page.
 */
import { PDFDocument, type PDFFont, type PDFPage, StandardFonts, rgb } from 'pdf-lib';

export type PdfBlock =
  | { kind: 'pairs'; heading: string; rows: readonly (readonly [string, string])[] }
  | { kind: 'text'; text: string; tone?: 'normal' | 'danger' | 'success' }
  | {
      kind: 'table';
      heading: string;
      columns: readonly string[];
      rows: readonly (readonly string[])[];
      /** Rows to keep before cutting, when space is short (default: as many as fit). */
      maxRows?: number;
    }
  | {
      kind: 'chart';
      heading: string;
      /** The chart as PNG with its size in CSS pixels (see svgToPng), or null to leave it out. */
      image: PdfImage | null;
    }
  | {
      /** Two or more charts side by side, sharing the page width (missing ones left out). */
      kind: 'charts';
      heading: string;
      images: readonly (PdfImage | null)[];
    };

/** A chart as PNG with its size in CSS pixels (see svgToPng). */
export interface PdfImage {
  png: Uint8Array;
  width: number;
  height: number;
}

export interface PdfReport {
  title: string;
  subtitle?: string;
  blocks: readonly PdfBlock[];
  /** Text of the note when table rows are left out; {n} is replaced by the count. */
  rowsLeftOut: string;
  /**
   * Text of the foot note when blocks are cut or left out for want of room (the table rows the
   * note above counts aside); {n} is replaced by the count.
   */
  blocksLeftOut: string;
}

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 36;
const GREEN = rgb(0.12, 0.44, 0.25);
const DARK = rgb(0.1, 0.1, 0.1);
const GREY = rgb(0.45, 0.45, 0.45);
const TONES = { normal: DARK, danger: rgb(0.7, 0.1, 0.1), success: rgb(0.1, 0.45, 0.2) };

/** Characters the standard (WinAnsi) fonts lack, replaced by close equivalents. */
const REPLACEMENTS: Record<string, string> = {
  '₂': '2',
  '≤': '<=',
  '≥': '>=',
  '−': '-',
  '×': 'x',
  '→': '->',
  θ: 'theta',
  '\u00a0': ' ',
  '\u202f': ' ',
};
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** Makes text drawable with the standard fonts. */
export function pdfSafe(text: string): string {
  let out = '';
  for (const ch of text) {
    if (REPLACEMENTS[ch] !== undefined) out += REPLACEMENTS[ch];
    else if (ch === '\n' || ch === '\t') out += ' ';
    else if ((ch.charCodeAt(0) >= 0x20 && ch.charCodeAt(0) <= 0xff) || WIN_ANSI_EXTRA.has(ch)) {
      out += ch;
    } else out += '?';
  }
  return out;
}

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const words = pdfSafe(text).split(' ');
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const candidate = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(candidate, size) <= width || !line) line = candidate;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

function fit(text: string, font: PDFFont, size: number, width: number): string {
  let t = pdfSafe(text);
  if (font.widthOfTextAtSize(t, size) <= width) return t;
  while (t.length > 1 && font.widthOfTextAtSize(`${t}…`, size) > width) t = t.slice(0, -1);
  return `${t}…`;
}

class Writer {
  y = A4.height - MARGIN;
  readonly width = A4.width - 2 * MARGIN;
  /** Set when something of the block being drawn did not fit and was left out. */
  cut = false;
  constructor(
    readonly page: PDFPage,
    readonly font: PDFFont,
    readonly bold: PDFFont,
  ) {}

  room(height: number): boolean {
    return this.y - height >= MARGIN;
  }

  text(text: string, size: number, options: { bold?: boolean; color?: typeof DARK } = {}): void {
    const font = options.bold ? this.bold : this.font;
    for (const line of wrap(text, font, size, this.width)) {
      if (!this.room(size * 1.3)) {
        this.cut = true;
        return;
      }
      this.y -= size * 1.25;
      this.page.drawText(line, {
        x: MARGIN,
        y: this.y,
        size,
        font,
        color: options.color ?? DARK,
      });
    }
  }

  heading(text: string): void {
    this.y -= 6;
    this.text(text, 11, { bold: true, color: GREEN });
    this.y -= 2;
  }
}

/**
 * Label/value pairs in one or two columns; a label or value too long for its place wraps onto more
 * lines (none is cut).
 */
function drawPairs(w: Writer, rows: readonly (readonly [string, string])[]): void {
  const size = 8.5;
  const step = size * 1.4;
  const lineHeight = size * 1.2;
  const columns = rows.length > 6 ? 2 : 1;
  const colWidth = w.width / columns;
  const labelWidth = colWidth * 0.6;
  const perColumn = Math.ceil(rows.length / columns);
  // A word wider than its place (none of the tools' labels has one) is still kept on the page.
  const lines = (text: string, font: PDFFont, width: number) =>
    wrap(text, font, size, width).map((line) => fit(line, font, size, width));
  const top = w.y;
  let bottom = top;
  for (let c = 0; c < columns; c++) {
    let y = top;
    for (const [label, value] of rows.slice(c * perColumn, (c + 1) * perColumn)) {
      const labelLines = lines(label, w.font, labelWidth - 4);
      const valueLines = lines(value, w.bold, colWidth - labelWidth - 6);
      const extra = (Math.max(labelLines.length, valueLines.length) - 1) * lineHeight;
      if (y - step - extra < MARGIN) {
        w.cut = true;
        break;
      }
      y -= step;
      const x = MARGIN + c * colWidth;
      labelLines.forEach((line, i) =>
        w.page.drawText(line, { x, y: y - i * lineHeight, size, font: w.font }),
      );
      valueLines.forEach((line, i) =>
        w.page.drawText(line, { x: x + labelWidth, y: y - i * lineHeight, size, font: w.bold }),
      );
      y -= extra;
    }
    bottom = Math.min(bottom, y);
  }
  w.y = bottom;
}

/**
 * Column widths from the widest text of each column (header included), so short numeric columns
 * leave room to long text ones; scaled down to the page width when needed.
 */
function columnWidths(
  w: Writer,
  columns: readonly string[],
  rows: readonly (readonly string[])[],
  size: number,
): number[] {
  const natural = columns.map((header, i) => {
    let widest = w.bold.widthOfTextAtSize(pdfSafe(header), size);
    for (const row of rows.slice(0, 60)) {
      widest = Math.max(widest, w.font.widthOfTextAtSize(pdfSafe(row[i] ?? ''), size));
    }
    return Math.min(widest + 8, w.width * 0.5);
  });
  const total = natural.reduce((a, b) => a + b, 0);
  if (total <= w.width) {
    const extra = (w.width - total) / columns.length;
    return natural.map((n) => n + extra);
  }
  return natural.map((n) => (n * w.width) / total);
}

function drawTable(
  w: Writer,
  columns: readonly string[],
  rows: readonly (readonly string[])[],
  maxRows: number | undefined,
  leftOutNote: string,
): void {
  const size = columns.length > 7 ? 6.5 : 7.5;
  const line = size * 1.45;
  const widths = columnWidths(w, columns, rows, size);
  const lefts = widths.map((_, i) => MARGIN + widths.slice(0, i).reduce((a, b) => a + b, 0));
  const drawRow = (cells: readonly string[], font: PDFFont, shade: boolean) => {
    w.y -= line;
    if (shade) {
      w.page.drawRectangle({
        x: MARGIN,
        y: w.y - size * 0.35,
        width: w.width,
        height: line,
        color: rgb(0.93, 0.96, 0.93),
      });
    }
    cells.forEach((cell, i) => {
      w.page.drawText(fit(cell, font, size, widths[i]! - 4), {
        x: lefts[i]! + 2,
        y: w.y,
        size,
        font,
        color: DARK,
      });
    });
  };
  if (!w.room(line * 2)) {
    w.cut = true;
    return;
  }
  drawRow(columns, w.bold, true);
  const fitting = Math.max(0, Math.floor((w.y - MARGIN - line) / line));
  let shown = Math.min(rows.length, maxRows ?? rows.length, fitting);
  if (shown < rows.length && shown === fitting) shown = Math.max(0, fitting - 1);
  rows.slice(0, shown).forEach((r) => drawRow(r, w.font, false));
  if (shown < rows.length) {
    w.y -= line;
    w.page.drawText(pdfSafe(leftOutNote.replace('{n}', String(rows.length - shown))), {
      x: MARGIN,
      y: w.y,
      size,
      font: w.font,
      color: GREY,
    });
  }
}

/** Builds the one-page report and returns the PDF bytes. */
export async function buildPdfReport(report: PdfReport): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(pdfSafe(report.title));
  doc.setProducer('DiAgroDL');
  doc.setCreator('DiAgroDL');
  const page = doc.addPage([A4.width, A4.height]);
  const w = new Writer(
    page,
    await doc.embedFont(StandardFonts.Helvetica),
    await doc.embedFont(StandardFonts.HelveticaBold),
  );
  w.text(report.title, 16, { bold: true, color: GREEN });
  if (report.subtitle) w.text(report.subtitle, 8.5, { color: GREY });
  // Blocks cut or left out for want of room: the foot note says how many.
  let leftOut = 0;
  for (const block of report.blocks) {
    // A chart block without images draws nothing by design: it is not missing from the page.
    const empty =
      (block.kind === 'chart' && block.image === null) ||
      (block.kind === 'charts' && block.images.every((i) => i === null));
    if (empty) continue;
    if (!w.room(20)) {
      leftOut++;
      continue;
    }
    w.cut = false;
    switch (block.kind) {
      case 'pairs':
        w.heading(block.heading);
        drawPairs(w, block.rows);
        break;
      case 'text':
        w.y -= 3;
        w.text(block.text, 9, { color: TONES[block.tone ?? 'normal'] });
        break;
      case 'table':
        w.heading(block.heading);
        drawTable(w, block.columns, block.rows, block.maxRows, report.rowsLeftOut);
        break;
      case 'chart':
      case 'charts': {
        const images = (block.kind === 'chart' ? [block.image] : block.images).filter(
          (i): i is PdfImage => i !== null,
        );
        const gap = 8;
        const slot = (w.width - gap * (images.length - 1)) / images.length;
        // One scale for the row: every image fits its slot and the height left on the page.
        const available = w.y - MARGIN - 4 - 22;
        let scale = Math.min(1, ...images.map((i) => slot / i.width));
        const tallest = Math.max(...images.map((i) => i.height * scale));
        if (tallest > available) scale *= available / tallest;
        if (Math.max(...images.map((i) => i.height * scale)) < 40) {
          w.cut = true;
          break;
        }
        w.heading(block.heading);
        const top = w.y;
        let x = MARGIN;
        for (const image of images) {
          const height = image.height * scale;
          page.drawImage(await doc.embedPng(image.png), {
            x,
            y: top - height - 4,
            width: image.width * scale,
            height,
          });
          x += slot + gap;
          w.y = Math.min(w.y, top - height - 4);
        }
        break;
      }
    }
    if (w.cut) leftOut++;
  }
  if (leftOut > 0) {
    // In the bottom margin, which nothing else uses: the note fits however full the page is.
    const size = 7.5;
    page.drawText(
      fit(report.blocksLeftOut.replace('{n}', String(leftOut)), w.font, size, w.width),
      {
        x: MARGIN,
        y: MARGIN - 12,
        size,
        font: w.font,
        color: GREY,
      },
    );
  }
  return doc.save();
}

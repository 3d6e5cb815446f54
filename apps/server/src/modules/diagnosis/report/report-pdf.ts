/**
 * The diagnosis report PDF (pdfkit, DejaVu Sans embedded so every Spanish character prints):
 * a cover (report-cover.ts: user, date, how many photos, each photo's answer, and each model's
 * figures on lab and on field photos from its card), one block per image (photo,
 * heatmap, label, probability, top 3, two lines of advice, disease page URL), a summary
 * table with counts per class, and page numbers. A photo the model says is not a tomato leaf
 * gets 'No parece una hoja de tomate' and the photo hint instead of advice; a diagnosis of a
 * field-like photo gets the field-photo caution under its probability.
 */
import path from 'node:path';
import PDFDocument from 'pdfkit';
import {
  type DiagnosisReason,
  FIELD_PHOTO_CAUTION,
  NOT_LEAF,
  NOT_LEAF_HINT,
  NOT_RECOGNISED,
  TOP3_REFERENCE_ONLY,
  type TopClass,
} from '@diagrodl/contracts';
import { CLASS_IDS, type ClassId, className } from '@diagrodl/contracts/classes';
import { repoRoot } from '../../../config.ts';
import { ADVICE, NOT_RECOGNISED_ADVICE } from './advice.ts';
import { type CoverModel, drawCover } from './report-cover.ts';
import { AMBER, GREEN, GREY, TEXT } from './report-text.ts';

export const FONT_DIR = path.join(repoRoot, 'apps', 'server', 'assets', 'fonts');
const FONT = path.join(FONT_DIR, 'DejaVuSans.ttf');
const FONT_BOLD = path.join(FONT_DIR, 'DejaVuSans-Bold.ttf');

export interface ReportImage {
  nameImg: string;
  label: ClassId;
  predict: string;
  probability: number;
  accepted: boolean;
  /** Why it is not a diagnosis (null when accepted): 'not_leaf' prints the photo hint. */
  reason: DiagnosisReason | null;
  /** A diagnosis of a field-like photo: printed with FIELD_PHOTO_CAUTION. */
  fieldPhoto: boolean;
  top3: TopClass[];
  /** JPEG bytes (pdfkit embeds JPEG and PNG only); null draws an empty frame. */
  photo: Buffer | null;
  heatmap: Buffer | null;
  pageUrl: string;
}

export interface ReportInput {
  productName: string;
  userName: string;
  date: Date;
  /** The IANA time zone the date is written in, with the zone's name (default UTC). */
  timeZone?: string;
  language: 'es' | 'en';
  models: CoverModel[];
  images: ReportImage[];
}

/** Lines a photo's name may take in its block; a longer name is shortened in the middle. */
export const NAME_MAX_LINES = 2;

/**
 * A photo's name broken into at most `maxLines` lines of `width` points in the current font
 * (cameras make long names without spaces, like
 * `96ed7022-a152-4f1d-b934-dca1948158d2___UF.GRC_YLCV_Lab_02183.JPG`). Lines break after a
 * space, '_' or '-' (else a '.') when one is near the end, else anywhere; what does not fit is cut
 * from the middle of the last line ('…'), so the end of the name (its number, its extension)
 * stays visible.
 */
export function nameLines(
  doc: PDFKit.PDFDocument,
  name: string,
  width: number,
  maxLines = NAME_MAX_LINES,
): string[] {
  const fits = (t: string) => doc.widthOfString(t) <= width;
  const lines: string[] = [];
  let rest = name;
  while (rest) {
    if (fits(rest)) {
      lines.push(rest);
      break;
    }
    if (lines.length === maxLines - 1) {
      const tail = rest.slice(-Math.min(16, Math.floor(rest.length / 2)));
      let head = 0;
      while (fits(`${rest.slice(0, head + 1)}…${tail}`)) head++;
      lines.push(`${rest.slice(0, head)}…${tail}`);
      break;
    }
    let n = 1;
    while (n < rest.length && fits(rest.slice(0, n + 1))) n++;
    const after = (chars: string[]) => Math.max(...chars.map((c) => rest.lastIndexOf(c, n - 1)));
    const breakAt = [after([' ', '_', '-']), after(['.'])].find((b) => b >= n * 0.6);
    if (breakAt !== undefined) n = breakAt + 1;
    lines.push(rest.slice(0, n).trimEnd());
    rest = rest.slice(n).trimStart();
  }
  return lines;
}

/** Renders the report; resolves with the PDF bytes. */
export function renderDiagnosisReport(input: ReportInput): Promise<Buffer> {
  const t = TEXT[input.language];
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: 50, bottom: 60, left: 50, right: 50 },
    bufferPages: true,
    info: { Title: `${input.productName} — ${t.title}`, Author: input.productName },
  });
  doc.registerFont('body', FONT);
  doc.registerFont('bold', FONT_BOLD);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  // every share and probability a person reads: a percentage with one decimal ("97.3%")
  const pct = (v: number) =>
    new Intl.NumberFormat(t.locale, {
      style: 'percent',
      minimumFractionDigits: 1,
      maximumFractionDigits: 1,
    }).format(v);

  /* ---- cover ---- */
  drawCover(doc, input, {
    left,
    width,
    pct,
    shorten: (name, w) => nameLines(doc, name, w, 1)[0] ?? name,
  });

  /* ---- one block per image ---- */
  const blockH = 225;
  const img = 118;
  doc.addPage();
  let y = doc.page.margins.top;
  // the field-photo caution makes its block taller by its own height
  const cautionH = (im: ReportImage) =>
    im.accepted && im.fieldPhoto
      ? doc
          .font('body')
          .fontSize(8)
          .heightOfString(FIELD_PHOTO_CAUTION[input.language], {
            width: width - 2 * img - 22,
          })
      : 0;
  input.images.forEach((im, n) => {
    const needH = blockH + cautionH(im);
    if (y + needH > doc.page.height - doc.page.margins.bottom) {
      doc.addPage();
      y = doc.page.margins.top;
    }
    doc.font('bold').fontSize(12).fillColor('black');
    // the name never runs into the photo or the diagnosis column: wrapped, then shortened
    const titleLines = nameLines(doc, `${n + 1}. ${im.nameImg}`, width);
    titleLines.forEach((l, i) => doc.text(l, left, y + i * 15, { lineBreak: false }));
    const top = y + 5 + 15 * titleLines.length;
    const drawImage = (bytes: Buffer | null, x: number, caption: string) => {
      doc.rect(x, top, img, img).lineWidth(0.5).strokeColor('#bbbbbb').stroke();
      if (bytes) {
        try {
          doc.image(bytes, x, top, { fit: [img, img], align: 'center', valign: 'center' });
        } catch {
          // an unreadable image leaves the empty frame
        }
      }
      doc
        .font('body')
        .fontSize(8)
        .fillColor(GREY)
        .text(caption, x, top + img + 3, {
          width: img,
          align: 'center',
        });
    };
    drawImage(im.photo, left, t.photo);
    drawImage(im.heatmap, left + img + 8, t.heatmap);

    const tx = left + 2 * img + 22;
    const tw = width - (tx - left);
    doc
      .font('bold')
      .fontSize(11)
      .fillColor(im.accepted ? GREEN : AMBER);
    doc.text(`${t.diagnosis}: ${im.predict}`, tx, top, { width: tw });
    doc.font('body').fontSize(9.5).fillColor('black');
    doc.text(`${t.probability}: ${pct(im.probability)}`, { width: tw });
    if (im.accepted && im.fieldPhoto) {
      doc.fontSize(8).fillColor(AMBER).text(FIELD_PHOTO_CAUTION[input.language], { width: tw });
      doc.fontSize(9.5).fillColor('black');
    }
    doc.moveDown(0.3).font('bold').text(t.top3, { width: tw });
    doc.font('body');
    im.top3.forEach((c, i) =>
      doc.text(`${i + 1}. ${c.predict} — ${pct(c.probability)}`, { width: tw }),
    );
    // a refused photo's three classes are not a diagnosis: said in a line of their own, small
    if (!im.accepted) {
      doc.fontSize(8).fillColor(GREY).text(TOP3_REFERENCE_ONLY[input.language], { width: tw });
      doc.fontSize(9.5).fillColor('black');
    }
    const advice: readonly string[] =
      im.reason === 'not_leaf'
        ? [NOT_LEAF_HINT[input.language]]
        : (im.accepted ? ADVICE[im.label] : NOT_RECOGNISED_ADVICE)[input.language];
    doc.moveDown(0.3).font('bold').text(t.advice, { width: tw });
    doc.font('body').fontSize(8.5);
    for (const a of advice) doc.text(`• ${a}`, { width: tw });
    if (im.accepted) {
      doc.fillColor('#1a5fb4').text(`${t.more}: ${im.pageUrl}`, { width: tw, link: im.pageUrl });
    }
    // a long name or a caution can push the text column below the block's usual height
    y = Math.max(y + needH, doc.y + 16);
    doc
      .moveTo(left, y - 12)
      .lineTo(left + width, y - 12)
      .lineWidth(0.5)
      .strokeColor('#dddddd')
      .stroke();
  });

  /* ---- summary table ---- */
  doc.addPage();
  doc.font('bold').fontSize(16).fillColor('black').text(t.summary, left, doc.page.margins.top);
  const counts = new Map<string, number>();
  for (const id of CLASS_IDS) counts.set(className(id, input.language), 0);
  const notRec = NOT_RECOGNISED[input.language];
  const notLeaf = NOT_LEAF[input.language];
  counts.set(notRec, 0);
  counts.set(notLeaf, 0);
  for (const im of input.images) {
    const k = im.accepted
      ? className(im.label, input.language)
      : im.reason === 'not_leaf'
        ? notLeaf
        : notRec;
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const colW = [width - 100, 100];
  let ty = doc.y + 12;
  const row = (a: string, b: string, bold = false) => {
    doc
      .font(bold ? 'bold' : 'body')
      .fontSize(10)
      .fillColor('black');
    doc.text(a, left + 6, ty + 5, { width: (colW[0] as number) - 12, lineBreak: false });
    doc.text(b, left + (colW[0] as number), ty + 5, {
      width: (colW[1] as number) - 6,
      align: 'right',
    });
    doc.rect(left, ty, width, 22).lineWidth(0.5).strokeColor('#999999').stroke();
    ty += 22;
  };
  row(t.cls, t.count, true);
  for (const [k, v] of counts) row(k, String(v));
  row(t.total, String(input.images.length), true);

  /* ---- page numbers ---- */
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font('body')
      .fontSize(9)
      .fillColor(GREY)
      .text(t.page(i + 1, range.count), left, doc.page.height - 35, { width, align: 'center' });
    doc.page.margins.bottom = bottom;
  }
  doc.end();
  return done;
}

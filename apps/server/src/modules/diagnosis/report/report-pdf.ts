/**
 * The diagnosis report PDF (pdfkit, DejaVu Sans embedded so every Spanish character prints):
 * a cover (product, user, date, model and its test accuracy), one block per image (photo,
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
  models: { label: string; accuracy: number | null }[];
  images: ReportImage[];
}

const TEXT = {
  es: {
    title: 'Reporte de diagnóstico',
    subtitle: 'Identificación de enfermedades en hojas de tomate',
    user: 'Usuario',
    date: 'Fecha',
    model: 'Modelo',
    accuracy: 'exactitud en el conjunto de prueba',
    notMeasured: 'exactitud no medida (promedio de modelos)',
    images: 'Imágenes analizadas',
    accepted: 'Diagnósticos con confianza suficiente',
    disclaimer:
      'Resultado orientativo generado por un modelo de aprendizaje profundo entrenado con fotografías de laboratorio (PlantVillage). Confirme el diagnóstico con un técnico agrónomo antes de aplicar tratamientos.',
    photo: 'Fotografía',
    heatmap: 'Mapa de activación',
    diagnosis: 'Diagnóstico',
    probability: 'Probabilidad',
    top3: 'Tres clases más probables',
    advice: 'Recomendaciones',
    more: 'Más información',
    summary: 'Resumen',
    cls: 'Clase',
    count: 'Imágenes',
    total: 'Total',
    page: (i: number, n: number) => `Página ${i} de ${n}`,
    locale: 'es-MX',
  },
  en: {
    title: 'Diagnosis report',
    subtitle: 'Tomato leaf disease identification',
    user: 'User',
    date: 'Date',
    model: 'Model',
    accuracy: 'accuracy on the test set',
    notMeasured: 'accuracy not measured (average of models)',
    images: 'Images analysed',
    accepted: 'Diagnoses with enough confidence',
    disclaimer:
      'Indicative result from a deep-learning model trained on laboratory photos (PlantVillage). Have an agronomist confirm the diagnosis before any treatment.',
    photo: 'Photo',
    heatmap: 'Activation map',
    diagnosis: 'Diagnosis',
    probability: 'Probability',
    top3: 'Three most likely classes',
    advice: 'Advice',
    more: 'More information',
    summary: 'Summary',
    cls: 'Class',
    count: 'Images',
    total: 'Total',
    page: (i: number, n: number) => `Page ${i} of ${n}`,
    locale: 'en-GB',
  },
} as const;

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

const GREEN = '#2e7d32';
const GREY = '#555555';

/** `zone` when it is a time zone this server's Intl knows, else undefined. */
function knownTimeZone(zone: string | undefined): string | undefined {
  if (!zone) return undefined;
  try {
    return new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
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
  const pct = (v: number) =>
    new Intl.NumberFormat(t.locale, { style: 'percent', maximumFractionDigits: 1 }).format(v);
  const prob = (v: number) =>
    new Intl.NumberFormat(t.locale, {
      minimumFractionDigits: 4,
      maximumFractionDigits: 4,
    }).format(v);

  /* ---- cover ---- */
  doc.font('bold').fontSize(30).fillColor(GREEN).text(input.productName, left, 150, { width });
  doc.moveDown(0.3).font('bold').fontSize(20).fillColor('black').text(t.title, { width });
  doc.font('body').fontSize(13).fillColor(GREY).text(t.subtitle, { width });
  doc.moveDown(2).fontSize(12).fillColor('black');
  const line = (k: string, v: string) => {
    doc.font('bold').text(`${k}: `, { continued: true, width });
    doc.font('body').text(v, { width });
    doc.moveDown(0.3);
  };
  line(t.user, input.userName);
  line(
    t.date,
    new Intl.DateTimeFormat(t.locale, {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZone: knownTimeZone(input.timeZone) ?? 'UTC',
      timeZoneName: 'short',
    }).format(input.date),
  );
  for (const m of input.models) {
    line(
      t.model,
      `${m.label} (${m.accuracy == null ? t.notMeasured : `${t.accuracy}: ${pct(m.accuracy)}`})`,
    );
  }
  line(t.images, String(input.images.length));
  line(t.accepted, String(input.images.filter((i) => i.accepted).length));
  doc.moveDown(2).font('body').fontSize(10).fillColor(GREY).text(t.disclaimer, { width });

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
      .fillColor(im.accepted ? GREEN : '#b26a00');
    doc.text(`${t.diagnosis}: ${im.predict}`, tx, top, { width: tw });
    doc.font('body').fontSize(9.5).fillColor('black');
    doc.text(`${t.probability}: ${prob(im.probability)}`, { width: tw });
    if (im.accepted && im.fieldPhoto) {
      doc.fontSize(8).fillColor('#b26a00').text(FIELD_PHOTO_CAUTION[input.language], { width: tw });
      doc.fontSize(9.5).fillColor('black');
    }
    doc.moveDown(0.3).font('bold').text(t.top3, { width: tw });
    doc.font('body');
    im.top3.forEach((c, i) =>
      doc.text(`${i + 1}. ${c.predict} — ${prob(c.probability)}`, { width: tw }),
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

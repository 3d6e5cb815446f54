/**
 * The cover of the diagnosis report: who and when, how many photos, the summary (each photo's
 * answer and its confidence), and for each model its figures as its card measured them: on the lab
 * test photos and, beside them, on real field photos (contracts fieldRowOf: the held-out field
 * photos when the card has them), or that it was not measured there. No figure is computed here.
 */
import type { ReportInput } from './report-pdf.ts';
import { AMBER, GREEN, GREY, TEXT } from './report-text.ts';

/** A model's figures on real field photos, as its card holds them (absent: not measured). */
export interface FieldFigures {
  /** Photos in the set. */
  n: number;
  top1?: number | undefined;
  acceptedShare?: number | undefined;
  accuracyAccepted?: number | undefined;
}

/** A model as the cover shows it. */
export interface CoverModel {
  label: string;
  /** Top-1 on the lab test split (null: not measured, as for an average of models). */
  accuracy: number | null;
  /** Null: the card has no field figures. */
  field?: FieldFigures | null | undefined;
}

/** `zone` when it is a time zone this server's Intl knows, else undefined. */
function knownTimeZone(zone: string | undefined): string | undefined {
  if (!zone) return undefined;
  try {
    return new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** The lines under a model's name: its lab figure, then its field figures (or that there are none). */
export function modelFigureLines(
  m: CoverModel,
  language: 'es' | 'en',
  pct: (v: number) => string,
): string[] {
  const t = TEXT[language];
  const f = m.field;
  const field =
    f && f.acceptedShare !== undefined && f.accuracyAccepted !== undefined
      ? t.field(f.n, pct(f.acceptedShare), pct(f.accuracyAccepted))
      : f && f.top1 !== undefined
        ? t.fieldTop1(f.n, pct(f.top1))
        : t.fieldNone;
  return [m.accuracy == null ? t.labNotMeasured : t.lab(pct(m.accuracy)), field];
}

/**
 * Draws the cover on the current page. `shorten` gives a photo's name on one line of `width`
 * points in the current font (the blocks' nameLines).
 */
export function drawCover(
  doc: PDFKit.PDFDocument,
  input: ReportInput,
  opts: {
    left: number;
    width: number;
    pct: (v: number) => string;
    shorten: (name: string, width: number) => string;
  },
): void {
  const t = TEXT[input.language];
  const { left, width, pct } = opts;
  const bottom = doc.page.height - doc.page.margins.bottom;

  doc.font('bold').fontSize(26).fillColor(GREEN).text(input.productName, left, 70, { width });
  doc.moveDown(0.2).font('bold').fontSize(18).fillColor('black').text(t.title, { width });
  doc.font('body').fontSize(12).fillColor(GREY).text(t.subtitle, { width });
  doc.moveDown(1).fontSize(11).fillColor('black');
  const line = (k: string, v: string) => {
    doc.font('bold').text(`${k}: `, { continued: true, width });
    doc.font('body').text(v, { width });
    doc.moveDown(0.2);
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
  line(t.images, String(input.images.length));
  line(t.accepted, String(input.images.filter((i) => i.accepted).length));

  // what comes after the summary, measured first: the photos' rows take the room left
  const figures = input.models.map((m) => modelFigureLines(m, input.language, pct));
  doc.font('body').fontSize(9.5);
  const modelsH = input.models.reduce(
    (h, m, i) =>
      h +
      20 +
      figures[i]!.reduce((a, l) => a + doc.heightOfString(`• ${l}`, { width: width - 10 }) + 2, 0),
    40,
  );
  doc.fontSize(9);
  const disclaimerH = doc.heightOfString(t.disclaimer, { width }) + 16;

  /* ---- summary: each photo's answer ---- */
  doc.moveDown(0.6).font('bold').fontSize(13).fillColor('black').text(t.summary, left, doc.y, {
    width,
  });
  let y = doc.y + 4;
  const rowH = 15;
  const room = Math.max(2, Math.floor((bottom - y - modelsH - disclaimerH) / rowH));
  const images = input.images;
  const listed = images.length <= room ? images : images.slice(0, room - 1);
  const nameW = Math.round(width * 0.42);
  const answerX = left + 24 + nameW + 8;
  const answerW = left + width - answerX;
  listed.forEach((im, i) => {
    doc.font('body').fontSize(9.5).fillColor(GREY);
    doc.text(`${i + 1}.`, left, y, { width: 22, lineBreak: false });
    doc.fillColor('black').text(opts.shorten(im.nameImg, nameW), left + 24, y, {
      width: nameW,
      lineBreak: false,
    });
    const answer = im.accepted
      ? `${im.predict} — ${t.confidence(pct(im.probability))}`
      : im.predict;
    doc
      .font('bold')
      .fillColor(im.accepted ? GREEN : AMBER)
      .text(opts.shorten(answer, answerW), answerX, y, { width: answerW, lineBreak: false });
    y += rowH;
  });
  if (listed.length < images.length) {
    doc
      .font('body')
      .fontSize(9.5)
      .fillColor(GREY)
      .text(t.morePhotos(images.length - listed.length), left, y, { width, lineBreak: false });
    y += rowH;
  }

  /* ---- the models: the lab figure, and beside it the field ones ---- */
  doc
    .font('bold')
    .fontSize(13)
    .fillColor('black')
    .text(t.model, left, y + 12, { width });
  input.models.forEach((m, i) => {
    doc.moveDown(0.3).font('bold').fontSize(10.5).fillColor('black').text(m.label, { width });
    doc.font('body').fontSize(9.5);
    for (const l of figures[i]!) doc.text(`• ${l}`, left + 10, doc.y + 2, { width: width - 10 });
  });
  doc
    .moveDown(1.2)
    .font('body')
    .fontSize(9)
    .fillColor(GREY)
    .text(t.disclaimer, left, doc.y, { width });
}

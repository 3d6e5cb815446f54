/** Reading back what a PDF of pdf.ts draws on its page, for the tests. */
import { PDFArray, PDFDocument, PDFRawStream, decodePDFRawStream } from 'pdf-lib';
import type { PdfImage } from './pdf.ts';

/** A 1×1 PNG standing for a 640×340 chart. */
export const CHART: PdfImage = {
  png: Uint8Array.from(
    atob(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
    ),
    (c) => c.charCodeAt(0),
  ),
  width: 640,
  height: 340,
};

/** The page's content streams as text (the drawing operators). */
export async function pageContent(bytes: Uint8Array): Promise<string> {
  const doc = await PDFDocument.load(bytes);
  const contents = doc.getPage(0).node.Contents();
  const streams =
    contents instanceof PDFArray
      ? contents.asArray().map((ref) => doc.context.lookup(ref))
      : [contents];
  return streams
    .map((stream) =>
      new TextDecoder('latin1').decode(decodePDFRawStream(stream as PDFRawStream).decode()),
    )
    .join('\n');
}

/** WinAnsi's characters for the bytes 0x80-0x9F (Latin-1's elsewhere; Node decodes them as C1). */
const WIN_ANSI_80 = '€\x81‚ƒ„…†‡ˆ‰Š‹Œ\x8DŽ\x8F\x90‘’“”•–—˜™š›œ\x9DžŸ';

/** The texts drawn on the page, in order: pdf-lib writes each as '<WinAnsi hex> Tj'. */
export async function pageTexts(bytes: Uint8Array): Promise<string[]> {
  const hex = [...(await pageContent(bytes)).matchAll(/<([0-9A-Fa-f]*)> Tj/g)].map((m) => m[1]!);
  return hex.map((h) =>
    (h.match(/../g) ?? [])
      .map((byte) => {
        const code = parseInt(byte, 16);
        return code >= 0x80 && code <= 0x9f ? WIN_ANSI_80[code - 0x80]! : String.fromCharCode(code);
      })
      .join(''),
  );
}

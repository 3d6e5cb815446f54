// Turns the user manual (docs/manual/*.md, Markdown) into the PDF that the landing page offers
// for download. A small Markdown subset: #/##/### headings, paragraphs, - and 1. lists, **bold**.
import fs from 'node:fs';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import { root } from './lib.mjs';

const out = path.resolve(root, process.argv[2] ?? 'apps/web/dist/user_manual.pdf');
const dir = path.join(root, 'docs/manual');
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.md'))
  .sort();
const text = files.map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('\n\n');

const GREEN = '#1f6f3f';
// a list item: its marker (• or 1.) at LIST_MARKER_X, its text from LIST_TEXT_X
const LIST_MARKER_X = 72;
const LIST_TEXT_X = 90;
const doc = new PDFDocument({
  size: 'A4',
  margins: { top: 64, bottom: 64, left: 64, right: 64 },
  bufferPages: true,
  info: {
    Title: 'DiAgroDL: manual de usuario',
    Author: 'DiAgroDL',
    Subject: 'Manual de usuario',
    Language: 'es-MX',
  },
  lang: 'es-MX',
});
fs.mkdirSync(path.dirname(out), { recursive: true });
const tmp = `${out}.tmp`;
const stream = fs.createWriteStream(tmp);
doc.pipe(stream);

// Cover
doc.rect(0, 0, doc.page.width, 220).fill(GREEN);
doc.fillColor('#ffffff').font('Helvetica-Bold').fontSize(34).text('DiAgroDL', 64, 90);
doc.font('Helvetica').fontSize(16).text('Manual de usuario', 64, 135);
doc.fillColor('#000000').moveDown(6);
doc.y = 260;

/** Writes a line with **bold** runs. */
function rich(line, opts = {}) {
  const parts = line.split(/(\*\*[^*]+\*\*)/g).filter(Boolean);
  parts.forEach((part, i) => {
    const bold = part.startsWith('**') && part.endsWith('**');
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').text(bold ? part.slice(2, -2) : part, {
      ...opts,
      continued: i < parts.length - 1,
    });
  });
}

let paragraph = [];
const flush = () => {
  if (!paragraph.length) return;
  doc.fontSize(11).fillColor('#000000');
  rich(paragraph.join(' '), { align: 'left', lineGap: 2 });
  doc.moveDown(0.6);
  paragraph = [];
};

for (const raw of text.split('\n')) {
  const line = raw.trimEnd();
  const h = /^(#{1,3})\s+(.*)$/.exec(line);
  const bullet = /^\s*[-*]\s+(.*)$/.exec(line);
  const numbered = /^\s*(\d+)\.\s+(.*)$/.exec(line);
  if (h) {
    flush();
    const level = h[1].length;
    if (level === 1 && doc.y > 300) doc.addPage();
    doc.moveDown(level === 1 ? 0.5 : 0.4);
    doc
      .font('Helvetica-Bold')
      .fillColor(level === 3 ? '#000000' : GREEN)
      .fontSize([22, 16, 13][level - 1]);
    doc.text(h[2]);
    doc.moveDown(0.3);
  } else if (bullet || numbered) {
    flush();
    doc.fontSize(11).fillColor('#000000');
    const label = bullet ? '•' : `${numbered[1]}.`;
    const y = doc.y;
    doc.font('Helvetica').text(label, LIST_MARKER_X, y, { width: LIST_TEXT_X - LIST_MARKER_X });
    // the item's text starts right of its marker (text() above moved x back to the marker)
    doc.x = LIST_TEXT_X;
    doc.y = y;
    rich(bullet ? bullet[1] : numbered[2], {
      indent: 0,
      lineGap: 1.5,
      width: doc.page.width - 64 - LIST_TEXT_X,
      continued: false,
    });
    doc.x = 64;
    doc.moveDown(0.25);
  } else if (!line.trim()) {
    flush();
  } else {
    paragraph.push(line.trim());
  }
}
flush();

// Page numbers
const range = doc.bufferedPageRange();
for (let i = range.start; i < range.start + range.count; i++) {
  doc.switchToPage(i);
  doc.font('Helvetica').fontSize(9).fillColor('#555555');
  doc.text(
    `DiAgroDL · manual de usuario · página ${i + 1} de ${range.count}`,
    64,
    doc.page.height - 44,
    {
      width: doc.page.width - 128,
      align: 'center',
      lineBreak: false,
    },
  );
}
doc.end();
await new Promise((resolve, reject) => {
  stream.on('finish', resolve);
  stream.on('error', reject);
});
fs.renameSync(tmp, out);

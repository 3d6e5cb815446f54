// The PDF report, rendered with poppler (pdftoppm, pdftotext, pdffonts) and checked page by page.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FIELD_PHOTO_CAUTION,
  NOT_LEAF,
  NOT_LEAF_HINT,
  NOT_RECOGNISED,
  TOP3_REFERENCE_ONLY,
} from '@diagrodl/contracts';
import { CLASS_IDS, type ClassId, classInfo, className } from '@diagrodl/contracts/classes';
import { leafPhoto } from '../../../testing/diagnosis.ts';
import { overlappingWords, wordBoxes } from '../../../testing/pdf-words.ts';
import { ADVICE, NOT_RECOGNISED_ADVICE } from './advice.ts';
import { type ReportImage, renderDiagnosisReport } from './report-pdf.ts';

/** A card's held-out field figures (the shipped MobileNet's, models/mobilenet.card.json). */
const FIELD = { n: 105, top1: 0.7048, acceptedShare: 0.5905, accuracyAccepted: 0.7903 };

const LABELS: ClassId[] = [
  'late_blight',
  'early_blight',
  'healthy',
  'late_blight',
  'mosaic_virus',
  'late_blight',
];

async function images(language: 'es' | 'en'): Promise<ReportImage[]> {
  const out: ReportImage[] = [];
  for (let i = 0; i < LABELS.length; i++) {
    const label = LABELS[i]!;
    // the fifth is not recognised with confidence, the sixth is not a tomato leaf
    const reason = i === 4 ? 'low_confidence' : i === 5 ? 'not_leaf' : null;
    const accepted = reason === null;
    const photo = await leafPhoto({ width: 300, height: 220, seed: i });
    out.push({
      nameImg: `hoja_número_${i + 1}.jpg`,
      label,
      predict:
        reason === 'not_leaf'
          ? NOT_LEAF[language]
          : accepted
            ? className(label, language)
            : NOT_RECOGNISED[language],
      probability: accepted ? 0.9731 - i / 100 : 0.41,
      accepted,
      reason,
      fieldPhoto: false,
      top3: [label, 'leaf_mold', 'target_spot'].map((l, k) => ({
        label: l as ClassId,
        predict: className(l as ClassId, language),
        probability: [0.9, 0.07, 0.03][k]!,
      })),
      photo,
      heatmap: await sharp(photo).tint('#ff4400').jpeg().toBuffer(),
      pageUrl: `http://localhost:8000${classInfo(label).route}`,
    });
  }
  return out;
}

describe('diagnosis report PDF', () => {
  let dir = '';
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'diagrodl-report-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('renders cover, image blocks, summary and page numbers, in Spanish with an embedded font', async () => {
    const pdf = await renderDiagnosisReport({
      productName: 'DiAgroDL',
      userName: 'Ana Prueba (AnaLopez1)',
      date: new Date('2026-11-21T10:30:00Z'),
      timeZone: 'America/Mexico_City',
      language: 'es',
      models: [{ label: 'MobileNet v1', accuracy: 0.9812, field: FIELD }],
      images: await images('es'),
    });
    const file = path.join(dir, 'r.pdf');
    fs.writeFileSync(file, pdf);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');

    // 1 cover + 2 pages of blocks (3 per page) + 1 summary
    execFileSync('pdftoppm', ['-r', '40', '-png', file, path.join(dir, 'page')]);
    const pages = fs.readdirSync(dir).filter((f) => f.startsWith('page') && f.endsWith('.png'));
    expect(pages).toHaveLength(4);
    for (const p of pages.sort()) {
      const stats = await sharp(path.join(dir, p)).stats();
      // every page has visible content (not a blank white page)
      expect(Math.min(...stats.channels.map((c) => c.min)), p).toBeLessThan(128);
    }
    // the block pages carry the photos (colour), the cover does not
    const colourful = async (p: string) => {
      const { channels } = await sharp(path.join(dir, p)).stats();
      return (
        Math.abs(channels[0]!.mean - channels[1]!.mean) +
        Math.abs(channels[1]!.mean - channels[2]!.mean)
      );
    };
    expect(await colourful(pages[1]!)).toBeGreaterThan(await colourful(pages[0]!));

    const text = execFileSync('pdftotext', ['-layout', file, '-']).toString();
    const byPage = text.split('\f');
    expect(byPage[0]).toContain('DiAgroDL');
    expect(byPage[0]).toContain('Reporte de diagnóstico');
    expect(byPage[0]).toContain('Ana Prueba (AnaLopez1)');
    expect(byPage[0]).toContain('MobileNet v1');
    expect(byPage[0]).toMatch(/98[.,]1\s?%/);
    // the cover's summary: how many photos, and each photo's answer with its confidence
    const cover = byPage[0]!.replace(/\s+/g, ' ');
    expect(cover).toContain('Imágenes analizadas: 6');
    expect(cover).toContain('Diagnósticos con confianza suficiente: 4');
    expect(cover).toMatch(/1\. hoja_número_1\.jpg Tizón tardío — 97\.3% de confianza/);
    expect(cover).toMatch(/5\. hoja_número_5\.jpg No reconocido con confianza/);
    expect(cover).toMatch(/6\. hoja_número_6\.jpg No parece una hoja de tomate/);
    // the field figures beside the lab one, as the card holds them
    expect(cover).toContain('En fotos de laboratorio (conjunto de prueba): acierta en el 98.1%.');
    expect(cover).toContain(
      'En fotos reales de campo (105 fotos que no vio al entrenar): da un diagnóstico en el 59.1% de los casos y acierta en el 79.0% de esas veces.',
    );
    expect(overlappingWords(wordBoxes(file, 1))).toEqual([]);
    // the user's own time zone, named: 10:30 UTC is 4:30 in Mexico City
    expect(byPage[0]!.replace(/\s+/g, ' ')).toContain(
      '21 de noviembre de 2026 a las 4:30 a.m. GMT-6',
    );
    expect(byPage[1]).toContain('hoja_número_1.jpg');
    expect(byPage[1]).toContain('Tizón tardío');
    // probabilities as percentages
    expect(byPage[1]).toContain('Probabilidad: 97.3%');
    expect(byPage[1]).toContain('Moho de la hoja — 7.0%');
    expect(byPage[1]).toContain('Moho de la hoja');
    expect(byPage[1]).toContain(ADVICE.late_blight.es[0].slice(0, 30));
    expect(byPage[1]).toContain('http://localhost:8000/Late_blight');
    expect(byPage[2]).toContain('No reconocido con'); // wrapped in the block's text column
    expect(byPage[2]).toContain(NOT_RECOGNISED_ADVICE.es[0].slice(0, 30));
    // the photo that is not a tomato leaf: its own label, and the photo hint instead of advice
    const notLeafBlock = byPage[2]!.slice(byPage[2]!.indexOf('hoja_número_6.jpg'));
    expect(notLeafBlock).toMatch(/No parece una hoja de\s+tomate/);
    expect(notLeafBlock).toContain(NOT_LEAF_HINT.es.slice(0, 30));
    expect(notLeafBlock).not.toContain(NOT_RECOGNISED_ADVICE.es[0].slice(0, 30));
    // the whole hint, read in drawing order: this tool diagnoses tomato leaves only (a leaf of
    // another crop gets it too), then how to photograph a tomato leaf
    const flowEs = execFileSync('pdftotext', [file, '-']).toString().replace(/\s+/g, ' ');
    expect(flowEs).toContain(NOT_LEAF_HINT.es);
    expect(flowEs).toContain('Esta herramienta solo diagnostica hojas de tomate');
    // only the not-leaf block says so: the low-confidence advice claims nothing about other crops
    expect(flowEs.split('solo diagnostica hojas de tomate')).toHaveLength(2);
    expect(notLeafBlock).not.toContain('Más información');
    // the three classes of a refused photo are marked as no diagnosis; those of a diagnosis are not
    const flat = (s: string) => s.replace(/\s+/g, ' ');
    expect(flat(notLeafBlock)).toContain(TOP3_REFERENCE_ONLY.es);
    expect(flat(byPage[2]!).split(TOP3_REFERENCE_ONLY.es)).toHaveLength(3);
    expect(flat(byPage[1]!)).not.toContain(TOP3_REFERENCE_ONLY.es);
    // the added line keeps the refused blocks' text clear of each other and of the next block
    const words = wordBoxes(file, 3);
    expect(overlappingWords(words)).toEqual([]);
    const nextTitle = words.find((w) => w.word === 'hoja_número_6.jpg')!;
    const lastOfBlock5 = Math.max(...words.filter((w) => w.y1 < nextTitle.y0 + 1).map((w) => w.y1));
    expect(lastOfBlock5).toBeLessThan(nextTitle.y0);
    expect(byPage[3]).toContain('Resumen');
    // summary: late blight twice, one not recognised, one not a leaf, total 6
    expect(byPage[3]).toMatch(/Tizón tardío\s+2/);
    expect(byPage[3]).toMatch(/No reconocido con confianza\s+1/);
    expect(byPage[3]).toMatch(/No parece una hoja de tomate\s+1/);
    expect(byPage[3]).toMatch(/Total\s+6/);
    for (const id of CLASS_IDS) expect(byPage[3]).toContain(className(id, 'es').slice(0, 20));
    for (let i = 1; i <= 4; i++) expect(byPage[i - 1]).toContain(`Página ${i} de 4`);

    const fonts = execFileSync('pdffonts', [file]).toString();
    expect(fonts).toMatch(/DejaVuSans\s/);
    expect(fonts).toMatch(/DejaVuSans-Bold/);
    expect(
      fonts
        .split('\n')
        .filter((l) => /DejaVu/.test(l))
        .every((l) => /\byes\b/.test(l)),
    ).toBe(true);
  });

  it('writes the English report for English-speaking users', async () => {
    const pdf = await renderDiagnosisReport({
      productName: 'DiAgroDL',
      userName: 'Ben',
      date: new Date('2026-11-21T10:30:00Z'),
      language: 'en',
      models: [{ label: 'Ensemble (VGG16 + ResNet50 + MobileNet)', accuracy: null }],
      images: (await images('en')).slice(0, 1),
    });
    const file = path.join(dir, 'en.pdf');
    fs.writeFileSync(file, pdf);
    const text = execFileSync('pdftotext', ['-layout', file, '-']).toString();
    expect(text).toContain('Diagnosis report');
    // no time zone given: UTC, and it says so
    expect(text.replace(/\s+/g, ' ')).toContain('21 November 2026 at 10:30 UTC');
    expect(text).toContain('Late blight');
    expect(text).toContain('accuracy not measured');
    // no field figures on its card: said, never a number made up
    expect(text.replace(/\s+/g, ' ')).toContain(
      'Not measured on real field photos: its figures are from lab photos',
    );
    expect(text.replace(/\s+/g, ' ')).toContain('Late blight — 97.3% confidence');
    expect(text).toContain('Page 3 of 3');
  });

  it('prints the not-leaf outcome and its hint in English', async () => {
    const pdf = await renderDiagnosisReport({
      productName: 'DiAgroDL',
      userName: 'Ben',
      date: new Date('2026-11-21T10:30:00Z'),
      language: 'en',
      models: [{ label: 'MobileNet v1', accuracy: 0.98 }],
      images: (await images('en')).slice(5),
    });
    const file = path.join(dir, 'en-not-leaf.pdf');
    fs.writeFileSync(file, pdf);
    const text = execFileSync('pdftotext', ['-layout', file, '-']).toString();
    expect(text.replace(/\s+/g, ' ')).toContain(NOT_LEAF.en);
    // the hint's column runs below the photo's caption, so it is read in drawing order, not by layout
    const flow = execFileSync('pdftotext', [file, '-']).toString().replace(/\s+/g, ' ');
    expect(flow).toContain(NOT_LEAF_HINT.en);
    expect(flow).toContain('This tool diagnoses tomato leaves only');
    expect(flow).toContain(TOP3_REFERENCE_ONLY.en);
    expect(text).toMatch(/This does not look like a tomato leaf\s+1/);
  });

  it('prints the field-photo caution under a field-like diagnosis, in both languages, without overlaps', async () => {
    for (const language of ['es', 'en'] as const) {
      const all = await images(language);
      // a field-like diagnosis with a long name, a lab-like one, another field-like one
      const stem = 'IMG_20261123_campo_tomate_hoja_enferma_';
      const field = (im: ReportImage, name: string): ReportImage => ({
        ...im,
        nameImg: name,
        fieldPhoto: true,
      });
      const pdf = await renderDiagnosisReport({
        productName: 'DiAgroDL',
        userName: 'Ana Prueba (ana)',
        date: new Date('2026-11-25T10:00:00Z'),
        language,
        models: [{ label: 'MobileNet v1', accuracy: 0.97 }],
        images: [
          field(all[0]!, `${stem}${stem}${stem}.jpg`),
          all[1]!,
          field(all[2]!, 'campo_2.jpg'),
        ],
      });
      const file = path.join(dir, `field-${language}.pdf`);
      fs.writeFileSync(file, pdf);
      // a block that does not fit below the taller ones moves to the next page (in Spanish, the third)
      const flow = execFileSync('pdftotext', [file, '-']).toString().replace(/\s+/g, ' ');
      expect(flow.split(FIELD_PHOTO_CAUTION[language])).toHaveLength(3);
      const words = wordBoxes(file, 2);
      expect(overlappingWords(words)).toEqual([]);
      // the first block grew: its last line (the disease page) ends above the rule drawn 12 pt over the next title
      const url = words.find((w) => w.word.endsWith('/Late_blight'))!;
      const next = words.find((w) => w.word === '2.' && w.x0 < 100)!; // the title, not the top 3
      expect(url.y1).toBeLessThan(next.y0 - 12);
    }
  });

  it('wraps a 120-character photo name: no text overlaps, the diagnosis reads intact', async () => {
    // a camera-made name without spaces, like 96ed7022-…___UF.GRC_YLCV_Lab_02183.JPG, made longer
    const stem = '96ed7022-a152-4f1d-b934-dca1948158d2___UF.GRC_YLCV_Lab_02183';
    const name = `${stem}_${stem}`.slice(0, 116) + '.JPG';
    expect(name).toHaveLength(120);
    const [first] = await images('es');
    const pdf = await renderDiagnosisReport({
      productName: 'DiAgroDL',
      userName: 'Ana Prueba (ana)',
      date: new Date('2026-04-12T10:00:00Z'),
      language: 'es',
      models: [{ label: 'MobileNet v1', accuracy: 0.9 }],
      images: [{ ...first!, nameImg: name }],
    });
    const file = path.join(dir, 'long-name.pdf');
    fs.writeFileSync(file, pdf);
    execFileSync('pdftoppm', [
      '-r',
      '60',
      '-f',
      '2',
      '-l',
      '2',
      '-png',
      file,
      path.join(dir, 'long'),
    ]);
    expect(fs.readdirSync(dir).some((f) => f.startsWith('long') && f.endsWith('.png'))).toBe(true);

    const text = execFileSync('pdftotext', ['-f', '2', '-l', '2', file, '-']).toString();
    expect(text).toContain(`Diagnóstico: ${className('late_blight', 'es')}`);
    // the whole name is there, over two lines
    expect(text.replace(/\s+/g, '')).toContain(`1.${name}`);

    // no two words of the page overlap (the name used to run into the diagnosis column)
    expect(overlappingWords(wordBoxes(file, 2))).toEqual([]);
  });

  it('lists 40 photos on the cover as far as they fit, then says how many more, without overlaps', async () => {
    const [first] = await images('en');
    const many = Array.from({ length: 40 }, (_, i) => ({
      ...first!,
      nameImg: `IMG_20261207_field_leaf_photo_number_${String(i + 1).padStart(2, '0')}_of_a_long_series.jpg`,
      photo: null,
      heatmap: null,
    }));
    const pdf = await renderDiagnosisReport({
      productName: 'DiAgroDL',
      userName: 'Ben',
      date: new Date('2026-12-07T10:30:00Z'),
      language: 'en',
      models: [
        { label: 'MobileNet v1', accuracy: 0.9751, field: FIELD },
        { label: 'ResNet50 v1', accuracy: 0.9582, field: { n: 91, top1: 0.6286 } },
      ],
      images: many,
    });
    const file = path.join(dir, 'many.pdf');
    fs.writeFileSync(file, pdf);
    const cover = execFileSync('pdftotext', ['-layout', '-f', '1', '-l', '1', file, '-'])
      .toString()
      .replace(/\s+/g, ' ');
    expect(cover).toContain('Images analysed: 40');
    const more = /… and (\d+) more photos: see the next pages\./.exec(cover);
    expect(more).not.toBeNull();
    const listed = cover.match(/\d+\. IMG_/g) ?? [];
    expect(listed.length + Number(more![1])).toBe(40);
    expect(listed.length).toBeGreaterThan(10);
    // the second model's card has only a top-1 on field photos: that is what it says
    expect(cover).toContain(
      'On real field photos (91 photos it never trained on): its most probable class is right 62.9% of the time.',
    );
    expect(overlappingWords(wordBoxes(file, 1))).toEqual([]);
  });
});

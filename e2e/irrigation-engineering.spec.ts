/**
 * The design checks beyond the specification (README: what an engineer checks on a drip design) on the screens: the designed lateral (pressure profile, inlet pressure, emitter flows,
 * flow variation, EU and its status), the friction formula, the secondary line's pressures and
 * what the main line must deliver, and the new figures in the CSV and PDF exports.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import {
  designLateral,
  designSecondarySection,
  summarizePressures,
  uniformityStatusText,
  type SecondarySectionInput,
  localizeToolMessage,
} from '../packages/hydraulics/src/index.ts';
import { SHOTS, expect, expectAccessible, shot, test } from './fixtures.ts';
import { csvRows, download, expectRounded, num, pdfToPng, shotBoth } from './tools-helpers.ts';
import type { Locator, Page } from '@playwright/test';

const PDF_DIR = path.join(SHOTS, 'pdf');
const fixed = (value: number, digits: number) => value.toFixed(digits);

test.describe.configure({ timeout: 180_000 });

/** The value cell of one figure of the designed lateral. */
const figure = (page: Page, key: string) =>
  page.getByTestId('lateral-figures').locator(`tr[data-figure="${key}"] td.num`);

/** The text of a PDF (poppler's pdftotext). */
const pdfText = (file: string) =>
  execFileSync('pdftotext', [file, '-']).toString().replace(/\s+/g, ' ');

test.describe('lateral-line calculator: the designed lateral', () => {
  test('profile, inlet pressure, flows, variation and EU of the default design', async ({
    userPage: page,
  }) => {
    await page.goto('/Lateral_designer');
    await expect(page.getByTestId('lateral-formula')).toHaveValue('hazen-williams');
    await expect(page.getByTestId('lateral-x')).toHaveValue('0.5');
    await expect(page.getByTestId('lateral-cv')).toHaveValue('0.05');
    await expect(page.getByTestId('lateral-emittersPerPlant')).toHaveValue('1');
    await expect(page.getByTestId('lateral-fix')).toHaveValue('table');
    await page.getByTestId('lateral-calculate').click();

    const design = designLateral().design!;
    await expect(page.getByTestId('lateral-formula-used')).toHaveText(
      'Fórmula de pérdida de carga: Hazen-Williams (m = 1.852)',
    );
    await expect(page.getByTestId('lateral-design-sentence')).toHaveText(
      `La lateral más larga de la tabla (280 emisores, 56.00 m) necesita ${fixed(design.inletPressure, 2)} m en la entrada para que ningún emisor reciba menos de Po = 10.00 m.`,
    );
    expectRounded(await figure(page, 'inletPressure').textContent(), design.inletPressure, 3);
    expectRounded(await figure(page, 'qMin').textContent(), design.qMin, 4);
    expectRounded(await figure(page, 'qMax').textContent(), design.qMax, 4);
    expectRounded(await figure(page, 'flowVariation').textContent(), 100 * design.flowVariation, 2);
    expectRounded(await figure(page, 'eu').textContent(), design.eu, 2);
    const status = page.getByTestId('lateral-uniformity');
    await expect(status).toHaveText(uniformityStatusText(design, 'es', fixed));
    await expect(status).toHaveText(/^La lateral cumple: variación de caudal de 8\.7 %/);
    await expect(status).toHaveAttribute('data-status', 'success');

    const profile = page.getByTestId('lateral-profile');
    await expect(profile.getByRole('img')).toHaveAccessibleName(
      'Perfil de presión a lo largo de la lateral',
    );
    await expect(profile.locator('svg path')).toHaveCount(1);
    await expect(profile.locator('svg line[stroke-dasharray]')).toHaveCount(1);

    await page.getByTestId('lateral-emitters-toggle').click();
    const emitters = page.getByTestId('lateral-emitters').locator('tbody tr');
    await expect(emitters).toHaveCount(280);
    for (const index of [0, 279]) {
      const cells = await emitters.nth(index).locator('td').allTextContents();
      const point = design.points[index]!;
      expect(num(cells[0]!)).toBe(point.emitter);
      expectRounded(cells[3]!, point.pressure, 3);
      expectRounded(cells[4]!, point.flow, 4);
    }
    await page.getByTestId('lateral-emitters-toggle').click();
    await expect(page.getByTestId('lateral-emitters')).toHaveCount(0);

    await expectAccessible(page, 'lateral design');
    await shotBoth(page, 'lateral-design', shot);
  });

  test('Blasius, a fixed number of emitters and the Spanish warnings', async ({
    userPage: page,
  }) => {
    await page.goto('/Lateral_designer');
    // The designed lateral: 2 L/h every 0.5 m on 13.6 mm pipe, C 150, no connection loss.
    const issue = { qEmitter: 2, spaceEmitter: 0.5, lossEmitter: 0, C: 150, D: 0.0136 };
    await page.getByTestId('lateral-Q_emitter').fill('2');
    await page.getByTestId('lateral-Space_emitter').fill('0,5');
    await page.getByTestId('lateral-Loss_emitter').fill('0');
    await page.getByTestId('lateral-N_HZ').fill('150');
    await page.getByTestId('lateral-D_LL').fill('0.0136');
    await page.getByTestId('lateral-calculate').click();
    await expect(page.getByTestId('lateral-sentence')).toContainText('es 198 y');

    await page.getByTestId('lateral-formula').selectOption('darcy-weisbach-blasius');
    await expect(page.getByTestId('lateral-m')).toHaveValue('1.75');
    await expect(page.getByText('No se usa con Darcy-Weisbach (Blasius).')).toBeVisible();
    await page.getByTestId('lateral-calculate').click();
    await expect(page.getByTestId('lateral-sentence')).toContainText('es 183 y');
    await expect(page.getByTestId('lateral-formula-used')).toHaveText(
      'Fórmula de pérdida de carga: Darcy-Weisbach con factor de fricción de Blasius (m = 1.75)',
    );

    // A fixed lateral of 400 emitters, uphill: too uneven, said in Spanish with the figures.
    await page.getByTestId('lateral-Slope').fill('0.01');
    await page.getByTestId('lateral-fix').selectOption('emitters');
    await page.getByTestId('lateral-fixValue').fill('400');
    await page.getByTestId('lateral-calculate').click();
    const options = { formula: 'darcy-weisbach-blasius', emitters: 400 } as const;
    const design = designLateral({ ...issue, slope: 0.01 }, options).design!;
    expect(design.status).toBe('warning');
    const status = page.getByTestId('lateral-uniformity');
    await expect(status).toHaveAttribute('data-status', 'danger');
    await expect(status).toHaveText(
      `La variación de caudal es de ${fixed(100 * design.flowVariation, 1)} %, mayor que el 10 % admisible. La uniformidad de emisión (EU) es de ${fixed(design.eu, 1)} %, menor que el 90 % recomendado.`,
    );
    await expect(page.getByTestId('lateral-design-sentence')).toContainText(
      'La lateral de 400 emisores (200.00 m) necesita',
    );
    expectRounded(await figure(page, 'inletPressure').textContent(), design.inletPressure, 3);
    await expectAccessible(page, 'lateral design with warnings');
    await shot(page, 'lateral-design-warning');

    // A fixed length, and the inline alerts of the new inputs.
    await page.getByTestId('lateral-fix').selectOption('length');
    await page.getByTestId('lateral-fixValue').fill('50');
    await page.getByTestId('lateral-calculate').click();
    await expect(page.getByTestId('lateral-design-sentence')).toContainText(
      'La lateral de longitud fija (100 emisores, 50.00 m)',
    );
    await page.getByTestId('lateral-fixValue').fill('0,1');
    await page.getByTestId('lateral-calculate').click();
    await expect(page.getByTestId('lateral-fixValue-alert')).toHaveText(
      'La longitud debe dar de 1 a 5000 emisores con la separación indicada.',
    );
    await page.getByTestId('lateral-x').fill('2');
    await page.getByTestId('lateral-calculate').click();
    await expect(page.getByTestId('lateral-x-alert')).toHaveText('Debe estar entre 0 y 1.');
    await page.getByTestId('lateral-x').fill('0');
    await page.getByTestId('lateral-fixValue').fill('50');
    await page.getByTestId('lateral-calculate').click();
    await expect(figure(page, 'flowVariation')).toHaveText('0.00');
    await expect(page.getByTestId('lateral-x-alert')).toHaveCount(0);
  });

  test('the formula and the new figures in the CSV, PDF and saved design', async ({
    userPage: page,
  }) => {
    await page.goto('/Lateral_designer');
    await page.getByTestId('lateral-formula').selectOption('darcy-weisbach-blasius');
    await page.getByTestId('lateral-cv').fill('0,03');
    await page.getByTestId('lateral-emittersPerPlant').fill('2');
    await page.getByTestId('lateral-calculate').click();
    const result = designLateral(
      {},
      { formula: 'darcy-weisbach-blasius', cv: 0.03, emittersPerPlant: 2 },
    );
    const design = result.design!;
    await expect(page.getByTestId('lateral-uniformity')).toHaveText(
      uniformityStatusText(design, 'es', fixed),
    );

    const csv = await download(page, page.getByRole('button', { name: 'Descargar CSV' }));
    const rows = csvRows(csv.text);
    const value = (label: string) => rows.find((r) => r[0] === label)?.[1];
    expect(value('Fórmula de pérdida de carga')).toBe(
      'Darcy-Weisbach con factor de fricción de Blasius',
    );
    // The specification's code names follow the words, never alone.
    expect(Number(value('Exponente del caudal en la fórmula (solo lectura) (m)'))).toBe(1.75);
    expect(Number(value('Coeficiente de variación del fabricante (Cv)'))).toBe(0.03);
    expectRounded(value('Presión necesaria en la entrada')!, design.inletPressure, 3);
    expectRounded(value('Uniformidad de emisión EU (Keller-Karmeli)')!, design.eu, 3);
    expect(value('Estado')).toBe(uniformityStatusText(design, 'es', fixed));
    const profileHeader = rows.findIndex((r) => r[0] === 'Emisor');
    const profileRows = rows.slice(profileHeader + 1, profileHeader + 1 + design.emitters);
    expect(profileRows.map((r) => Number(r[0]))).toEqual(design.points.map((p) => p.emitter));
    expectRounded(profileRows.at(-1)![3]!, design.points.at(-1)!.pressure, 3);
    // The specification's table still ends the file, whole.
    const header = rows.findIndex((r) => r[0] === 'Emisores (N_emitter)');
    expect(header).toBeGreaterThan(profileHeader);
    expect(rows.slice(header + 1)).toHaveLength(result.rows.length);

    const pdf = await download(page, page.getByRole('button', { name: 'Descargar PDF' }));
    pdfToPng(pdf.file, PDF_DIR, 'lateral-design');
    const text = pdfText(pdf.file);
    expect(text).toContain('Darcy-Weisbach con factor de fricción de Blasius (m = 1.75)');
    expect(text).toContain('Presión necesaria en la entrada');
    expect(text).toContain(`${design.eu.toFixed(2)} %`);

    const saved = await download(page, page.getByRole('button', { name: 'Guardar diseño (JSON)' }));
    await page.getByTestId('lateral-reset').click();
    await expect(page.getByTestId('lateral-formula')).toHaveValue('hazen-williams');
    await page.getByTestId('load-json-input').setInputFiles(saved.file);
    await expect(page.getByTestId('lateral-formula')).toHaveValue('darcy-weisbach-blasius');
    await expect(page.getByTestId('lateral-cv')).toHaveValue('0,03');
    await expect(page.getByTestId('lateral-uniformity')).toHaveText(
      uniformityStatusText(design, 'es', fixed),
    );

    await page.getByTestId('language-toggle').click();
    await expect(page.getByTestId('lateral-uniformity')).toHaveText(
      uniformityStatusText(design, 'en', fixed),
    );
    await expect(page.getByTestId('lateral-formula-used')).toHaveText(
      'Friction loss formula: Darcy-Weisbach with the Blasius friction factor (m = 1.75)',
    );
    await expectAccessible(page, 'lateral design in English');
  });
});

test.describe('secondary line designer: pressures and the friction formula', () => {
  const A: SecondarySectionInput = {
    pipeType: 'PVC_CED40',
    nd: 3,
    length: 150,
    qs: 2000,
    s0: 1,
    se: 1.5,
    hfp: 3,
    pressure: 12,
  };
  const B: SecondarySectionInput = {
    pipeType: 'PVC_RD26',
    nd: 1,
    length: 100,
    qs: 400,
    s0: 2,
    se: 2,
    hfp: 2,
    formula: 'darcy-weisbach-blasius',
    pressure: 10.5,
  };

  async function fill(section: Locator, input: SecondarySectionInput) {
    await section.getByTestId('secondary-pipeType').selectOption(input.pipeType);
    for (const key of ['nd', 'length', 'qs', 's0', 'se', 'hfp', 'pressure'] as const) {
      await section.getByTestId(`secondary-${key}`).fill(String(input[key]));
    }
    await section.getByTestId('secondary-formula').selectOption(input.formula ?? 'hazen-williams');
  }

  test('inlet and outlet pressures, the profile, the main line and the exports', async ({
    userPage: page,
  }) => {
    await page.goto('/Secondary_designer');
    const sections = page.getByTestId('secondary-section');
    await expect(sections.first().getByTestId('secondary-formula')).toHaveValue('hazen-williams');
    await expect(sections.first().getByTestId('secondary-pressure')).toHaveValue('10');

    await fill(sections.nth(0), A);
    await sections.nth(0).getByTestId('secondary-calculate').click();
    await page.getByTestId('secondary-add').click();
    await fill(sections.nth(1), B);
    await sections.nth(1).getByTestId('secondary-calculate').click();
    const a = designSecondarySection(A, 1);
    const b = designSecondarySection(B, 2);
    await expect(sections.nth(1).getByTestId('secondary-status')).toHaveText(
      localizeToolMessage(b.statusText, 'es'),
    );

    await expect(sections.nth(0).getByTestId('secondary-formula-used')).toHaveText(
      'Fórmula de pérdida de carga: Hazen-Williams',
    );
    await expect(sections.nth(1).getByTestId('secondary-formula-used')).toHaveText(
      'Fórmula de pérdida de carga: Darcy-Weisbach con factor de fricción de Blasius',
    );
    await expect(sections.nth(0).getByTestId('secondary-inlet-pressure')).toHaveText(
      `Presión necesaria en la entrada de la sección: ${fixed(a.inletPressure!, 2)} m (la salida más lejana recibe 12.00 m).`,
    );
    await expect(sections.nth(1).getByTestId('secondary-inlet-pressure')).toHaveText(
      `Presión necesaria en la entrada de la sección: ${fixed(b.inletPressure!, 2)} m (la salida más lejana recibe 10.50 m).`,
    );

    await sections.nth(0).getByTestId('secondary-outlets-toggle').click();
    const outlets = sections.nth(0).getByTestId('secondary-outlets').locator('tbody tr');
    await expect(outlets).toHaveCount(a.outlets);
    for (const index of [0, a.outlets - 1]) {
      const cells = await outlets.nth(index).locator('td').allTextContents();
      expect(num(cells[0]!)).toBe(index + 1);
      expectRounded(cells[1]!, a.outletPressures![index]!, 3);
    }

    const profile = page.getByTestId('secondary-profile');
    await expect(profile.getByRole('img')).toHaveAccessibleName(
      'Perfil de presión a lo largo de cada sección',
    );
    await expect(profile.locator('svg path')).toHaveCount(2);

    await page.getByTestId('secondary-accounting').click();
    const pressures = summarizePressures([a, b]);
    expect(pressures.required!.section).toBe(1);
    await expect(page.getByTestId('secondary-pressures').locator('li')).toHaveText([
      `Sección 1: ${fixed(a.inletPressure!, 2)} m en su entrada`,
      `Sección 2: ${fixed(b.inletPressure!, 2)} m en su entrada`,
    ]);
    await expect(page.getByTestId('secondary-mainline-pressure')).toHaveText(
      `La línea principal debe entregar al menos ${fixed(a.inletPressure!, 2)} m a la entrada de la sección 1, la más exigente.`,
    );
    await expectAccessible(page, 'secondary pressures');
    await shotBoth(page, 'secondary-pressures', shot);

    const csv = await download(page, page.getByRole('button', { name: 'Descargar CSV' }));
    const rows = csvRows(csv.text);
    expect(rows[1]!.slice(-2)).toEqual(['Hazen-Williams', '12']);
    expect(rows[2]!.slice(-2)).toEqual([
      'Darcy-Weisbach con factor de fricción de Blasius',
      '10.5',
    ]);
    const inletRows = rows.filter((r) => r.length === 3 && /^\d+$/.test(r[0]!));
    expectRounded(inletRows[0]![2]!, a.inletPressure!, 3);
    expectRounded(inletRows[1]![2]!, b.inletPressure!, 3);
    const outletRows = rows.filter((r) => r.length === 4 && /^\d+$/.test(r[0]!));
    expect(outletRows).toHaveLength(a.outlets + b.outlets);
    expect(Number(outletRows[0]![2])).toBe(1);
    expectRounded(outletRows[0]![3]!, a.outletPressures![0]!, 3);
    const mainline = rows.find((r) => r[0]!.startsWith('Presión que debe entregar la línea'));
    expectRounded(mainline![1]!, a.inletPressure!, 3);

    const pdf = await download(page, page.getByRole('button', { name: 'Descargar PDF' }));
    pdfToPng(pdf.file, PDF_DIR, 'secondary-pressures');
    const text = pdfText(pdf.file);
    expect(text).toContain('Darcy-Weisbach con factor de fricción de Blasius');
    expect(text).toContain(`${fixed(a.inletPressure!, 2)} m`);

    // Clear data gives the section back its defaults, formula and pressure included.
    await sections.nth(1).getByTestId('secondary-clear').click();
    await expect(sections.nth(1).getByTestId('secondary-formula')).toHaveValue('hazen-williams');
    await expect(sections.nth(1).getByTestId('secondary-pressure')).toHaveValue('10');
    await expect(sections.nth(1).getByTestId('secondary-inlet-pressure')).toHaveCount(0);

    // A negative pressure gets the specification's alert for negative numbers.
    await sections.nth(0).getByTestId('secondary-pressure').fill('-3');
    await sections.nth(0).getByTestId('secondary-calculate').click();
    await expect(sections.nth(0).getByTestId('secondary-pressure-alert')).toHaveText(
      localizeToolMessage('No negative values!...', 'es'),
    );
  });
});

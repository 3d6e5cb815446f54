import path from 'node:path';
import { Project, Workspace, NodeProperty, LinkProperty } from 'epanet-js';
import {
  LATERAL_DEFAULTS,
  MAINLINE_MESSAGES,
  SECONDARY_MESSAGES,
  STATUS_HERE,
  UNIT_CATALOGUE,
  convert,
  designLateral,
  designMainline,
  designSecondarySection,
  equivalents,
  localizeToolMessage,
  summarizePipes,
  type MainlineInput,
  type SecondarySectionInput,
} from '../packages/hydraulics/src/index.ts';
import { SHOTS, expect, expectAccessible, setLanguage, shot, test } from './fixtures.ts';
import { csvRows, download, expectRounded, num, pdfToPng, shotBoth } from './tools-helpers.ts';
import type { Locator, Page } from '@playwright/test';

const PDF_DIR = path.join(SHOTS, 'pdf');

/** A specification message of the secondary and main-line designers as the Spanish page says it. */
const es = (message: string) => localizeToolMessage(message, 'es');

// The lateral table has hundreds of rows and the machine is shared: axe needs time.
test.describe.configure({ timeout: 180_000 });

const alertIn = (scope: Locator | Page, text: string) =>
  scope.getByRole('alert').filter({ hasText: text });

test.describe('unit converter', () => {
  test('default state, conversion, equivalents, alerts and clearing', async ({
    userPage: page,
  }) => {
    await page.goto('/Universal_conversor');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Conversor universal de unidades',
    );
    await expect(page.getByTestId('measure')).toHaveValue('flow');
    await expect(page.getByTestId('from')).toHaveValue('m3/h');
    await expect(page.getByTestId('value')).toHaveValue('1');
    await expect(page.getByTestId('to')).toHaveValue('L/s');
    await expect(page.getByTestId('converted')).toHaveValue('');

    await page.getByTestId('execute').click();
    expectRounded(
      await page.getByTestId('converted').inputValue(),
      convert('flow', 'm3/h', 'L/s', 1),
      6,
    );
    await expectAccessible(page, 'converter');

    // A decimal comma, and every equivalent in rows of three read-only boxes.
    await page.getByTestId('value').fill('2,5');
    await page.getByTestId('view-all').click();
    const boxes = page.getByTestId('equivalents').locator('input');
    await expect(boxes).toHaveCount(UNIT_CATALOGUE.flow.units.length);
    const eq = equivalents('flow', 'm3/h', 2.5);
    for (const unit of UNIT_CATALOGUE.flow.units) {
      const box = page.getByTestId('equivalents').locator(`input[data-unit="${unit.id}"]`);
      await expect(box).toHaveAttribute('readonly', '');
      const shown = await box.inputValue();
      expect(Math.abs(num(shown) - eq[unit.id]) / eq[unit.id]).toBeLessThan(1e-6);
    }
    const firstRow = await boxes.evaluateAll((els) =>
      els.slice(0, 4).map((e) => Math.round(e.getBoundingClientRect().top)),
    );
    expect(new Set(firstRow.slice(0, 3)).size).toBe(1);
    expect(firstRow[3]).toBeGreaterThan(firstRow[0]!);
    expectRounded(await page.getByTestId('converted').inputValue(), eq['L/s'], 6);
    await shotBoth(page, 'converter-equivalents', shot);

    // 'Clear all conversions' removes the converted value and the list.
    await page.getByTestId('clear-all').click();
    await expect(page.getByTestId('converted')).toHaveValue('');
    await expect(page.getByTestId('equivalents')).toHaveCount(0);

    // A value that is not a number: an inline alert, never NaN.
    await page.getByTestId('value').fill('abc');
    await page.getByTestId('execute').click();
    await expect(alertIn(page, 'Escribe un número (por ejemplo 0.3 o 0,3).')).toBeVisible();
    await expect(page.getByTestId('value')).toBeFocused();
    await expect(page.getByTestId('converted')).toHaveValue('');
    await expect(page.locator('body')).not.toContainText('NaN');

    // "1,000" is a thousand in Mexico and one in Spain: flagged as it is typed, never converted.
    await page.getByTestId('value').fill('1,000');
    await expect(
      alertIn(
        page,
        '«1,000» puede leerse como 1000 o como 1: escribe los miles sin separador (1000) y los decimales con punto o coma.',
      ),
    ).toBeVisible();
    await page.getByTestId('execute').click();
    await expect(page.getByTestId('converted')).toHaveValue('');

    // Changing the measure repopulates both lists, each starting with a placeholder.
    await page.getByTestId('value').fill('3');
    await page.getByTestId('measure').selectOption('pressure');
    for (const id of ['from', 'to']) {
      const options = page.getByTestId(id).locator('option');
      await expect(options).toHaveCount(UNIT_CATALOGUE.pressure.units.length + 1);
      await expect(options.first()).toHaveAttribute('value', '');
      await expect(page.getByTestId(id)).toHaveValue('');
    }
    await page.getByTestId('execute').click();
    // Both units at once, the focus on the first.
    await expect(alertIn(page, 'Selecciona una unidad de la lista.')).toHaveCount(2);
    await expect(page.getByTestId('from')).toBeFocused();
    await expect(page.getByTestId('converter-error-count')).toHaveText('2 datos por corregir.');
    // A value beyond 10¹² either way: a message, no result.
    await page.getByTestId('value').fill('1e15');
    await page.getByTestId('from').selectOption('bar');
    await page.getByTestId('to').selectOption('psi');
    await page.getByTestId('execute').click();
    await expect(alertIn(page, 'Debe estar entre -1e12 y 1e12.')).toBeVisible();
    await expect(page.getByTestId('converted')).toHaveValue('');
    await page.getByTestId('value').fill('3');
    await page.getByTestId('execute').click();
    expectRounded(
      await page.getByTestId('converted').inputValue(),
      convert('pressure', 'bar', 'psi', 3),
      6,
    );
    await expectAccessible(page, 'converter with alerts');
    await shotBoth(page, 'converter', shot);
  });

  test('exports, saved files, autosave and the language toggle', async ({ userPage: page }) => {
    await page.goto('/Universal_conversor');
    await page.getByTestId('measure').selectOption('length');
    await page.getByTestId('from').selectOption('km');
    await page.getByTestId('to').selectOption('mi');
    await page.getByTestId('value').fill('42.195');
    await page.getByTestId('view-all').click();

    const csv = await download(page, page.getByRole('button', { name: 'Descargar CSV' }));
    expect(csv.name).toMatch(/^diagrodl-converter-.*\.csv$/);
    const rows = csvRows(csv.text);
    const converted = rows.find((r) => r[0] === 'Valor convertido');
    // the digits the screen shows (26.218757), not the binary noise after them
    expect(converted?.[1]).toBe(convert('length', 'km', 'mi', 42.195).toFixed(6));
    expect(rows.filter((r) => r.length === 2 && Number.isFinite(Number(r[1])))).toHaveLength(
      UNIT_CATALOGUE.length.units.length + 2,
    );

    const pdf = await download(page, page.getByRole('button', { name: 'Descargar PDF' }));
    pdfToPng(pdf.file, PDF_DIR, 'converter');

    const saved = await download(
      page,
      page.getByRole('button', { name: 'Guardar archivo (JSON)' }),
    );
    expect(JSON.parse(saved.text)).toMatchObject({ kind: 'converter', data: { value: '42.195' } });

    // Autosave: the state survives a reload.
    await page.reload();
    await expect(page.getByTestId('measure')).toHaveValue('length');
    await expect(page.getByTestId('value')).toHaveValue('42.195');
    await expect(page.getByTestId('equivalents').locator('input')).toHaveCount(8);

    // Loading the saved file restores it after changes; a foreign file gets an inline alert.
    await page.getByTestId('measure').selectOption('mass');
    await page.getByTestId('load-json-input').setInputFiles(saved.file);
    await expect(page.getByTestId('to')).toHaveValue('mi');
    await page.getByTestId('load-json-input').setInputFiles({
      name: 'other.json',
      mimeType: 'application/json',
      buffer: Buffer.from('{"kind":"lateral","version":1,"data":{}}'),
    });
    await expect(alertIn(page, 'El archivo no es una conversión')).toBeVisible();

    // The specification's English button texts are said in Spanish on the Spanish page…
    await expect(
      page.getByRole('button', { name: 'Ver otras conversiones equivalentes' }),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Borrar todas las conversiones' })).toBeVisible();
    // …and the language toggle gives them as the specification writes them.
    await page.getByTestId('language-toggle').click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Universal unit converter');
    await expect(page.getByTestId('to').locator('option:checked')).toHaveText('mile (mi)');
    await expect(
      page.getByRole('button', { name: 'View others equivalent conversions' }),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Clear all conversions' })).toBeVisible();
    await expectAccessible(page, 'converter in English');
  });
});

test.describe('lateral-line calculator', () => {
  const FIELDS = [
    ['Po', 'Po'],
    ['Loss_emitter', 'lossEmitter'],
    ['Q_emitter', 'qEmitter'],
    ['Space_emitter', 'spaceEmitter'],
    ['N_HZ', 'C'],
    ['Hf_admin_perc', 'hfAdminPerc'],
    ['D_LL', 'D'],
    ['m', 'm'],
    ['Slope', 'slope'],
  ] as const;

  test('defaults, a full calculation against the engine, the chart and alerts', async ({
    userPage: page,
  }) => {
    await page.goto('/Lateral_designer');
    for (const [name, key] of FIELDS) {
      await expect(page.getByTestId(`lateral-${name}`)).toHaveValue(String(LATERAL_DEFAULTS[key]));
    }
    await expect(page.getByTestId('lateral-m')).toHaveAttribute('readonly', '');
    await expect(page.getByTestId('lateral-result')).toHaveCount(0);
    await expectAccessible(page, 'lateral default');

    await page.getByTestId('lateral-calculate').click();
    const engine = designLateral({});
    await expect(page.getByTestId('lateral-sentence')).toHaveText(
      'El número máximo de emisores es 280 y la longitud máxima de la línea lateral es 56.00 m.',
    );
    const rows = page.getByTestId('lateral-table').locator('tbody tr');
    await expect(rows).toHaveCount(engine.rows.length);
    const headers = await page.getByTestId('lateral-table').locator('thead th').allTextContents();
    // words with the specification's column name as a small tag
    expect(headers).toEqual([
      'Emisores N_emitter',
      'Longitud real (m) Le_real',
      'Longitud equivalente (m) Le_equiv',
      'Caudal acumulado (m³/s) Qa_m3/s',
      "Gradiente de pérdida (m/m) HF'",
      'Factor de Christiansen F',
      'Pérdida por fricción (m) HF_meter',
      'Desnivel (m) Slope',
      'Pérdida más desnivel (m) HF+Slope_meter',
    ]);
    const keys = ['n', 'leReal', 'leEquiv', 'qa', 'hfUnit', 'F', 'hf', 'slope', 'hfSlope'] as const;
    const digits = [0, 2, 2, -1, 6, 4, 6, 4, 6];
    for (const index of [0, 99, engine.rows.length - 1]) {
      const cells = await rows.nth(index).locator('td').allTextContents();
      keys.forEach((key, i) => {
        const value = engine.rows[index]![key];
        if (digits[i]! < 0) expect(Math.abs(num(cells[i]!) - value) / value).toBeLessThan(1e-4);
        else expectRounded(cells[i]!, value, digits[i]!);
      });
    }
    const chart = page.getByTestId('lateral-chart').getByRole('img');
    await expect(chart).toHaveAccessibleName(
      'Pérdida más desnivel (HF+Slope) contra longitud de la lateral',
    );
    await expect(page.getByTestId('lateral-chart').locator('svg path')).toHaveCount(1);
    await expect(
      page.getByTestId('lateral-chart').locator('svg line[stroke-dasharray]'),
    ).toHaveCount(1);
    await expectAccessible(page, 'lateral result');
    await shotBoth(page, 'lateral', shot);

    // Decimal comma and a downhill slope, compared with the engine.
    await page.getByTestId('lateral-Slope').fill('-0,01');
    await page.getByTestId('lateral-calculate').click();
    const downhill = designLateral({ slope: -0.01 });
    await expect(page.getByTestId('lateral-sentence')).toContainText(
      `es ${downhill.maxEmitters} y`,
    );
    await expect(rows).toHaveCount(downhill.rows.length);

    // Inline alerts (no browser dialogs).
    page.on('dialog', () => {
      throw new Error('no browser dialogs');
    });
    await page.getByTestId('lateral-Po').fill('diez');
    await page.getByTestId('lateral-calculate').click();
    await expect(page.getByTestId('lateral-Po-alert')).toHaveText(
      'Escribe un número (por ejemplo 0.3 o 0,3).',
    );
    // a Calculate with a message leaves no result of the values before
    await expect(page.getByTestId('lateral-result')).toHaveCount(0);
    await page.getByTestId('lateral-Po').fill('2,500');
    await expect(page.getByTestId('lateral-Po-alert')).toHaveText(
      '«2,500» puede leerse como 2500 o como 2.5: escribe los miles sin separador (2500) y los decimales con punto o coma.',
    );
    await page.getByTestId('lateral-calculate').click();
    await expect(page.getByTestId('lateral-Po-alert')).toContainText('«2,500» puede leerse');
    await expect(page.getByTestId('lateral-Po')).toHaveAttribute('aria-invalid', 'true');
    await page.getByTestId('lateral-Po').fill('0');
    await page.getByTestId('lateral-calculate').click();
    await expect(page.getByTestId('lateral-Po-alert')).toHaveText(
      'Debe estar entre 0.5 y 150 mca.',
    );
    await expect(page.getByTestId('lateral-Po-alert')).toHaveAttribute('role', 'alert');

    await page.getByTestId('lateral-reset').click();
    await expect(page.getByTestId('lateral-Po')).toHaveValue('10');
    await expect(page.getByTestId('lateral-result')).toHaveCount(0);
  });

  test('absurd numbers at 390 px: every message on its field, no result, the focus on the first', async ({
    userPage: page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/Lateral_designer');
    // Labels are words with their unit; the specification's code name is a tag after them.
    const flow = page.getByTestId('lateral-Q_emitter');
    await expect(flow).toHaveAccessibleName('Caudal del emisor (L/h) Q_emitter');
    await expect(page.getByTestId('lateral-D_LL')).toHaveAccessibleName(
      'Diámetro interior de la lateral (m) D_LL',
    );
    await page.getByTestId('lateral-calculate').click();
    await expect(page.getByTestId('lateral-result')).toBeVisible();

    await flow.fill('1e15');
    await page.getByTestId('lateral-D_LL').fill('16');
    await page.getByTestId('lateral-calculate').click();
    await expect(page.getByTestId('lateral-Q_emitter-alert')).toHaveText(
      'Debe estar entre 0.1 y 100 L/h.',
    );
    // A grower thinking in millimetres is told so.
    await expect(page.getByTestId('lateral-D_LL-alert')).toHaveText(
      '¿16 mm? Este dato va en m: 0.016.',
    );
    await expect(page.getByTestId('lateral-error-count')).toHaveText('2 datos por corregir.');
    await expect(page.getByTestId('lateral-result')).toHaveCount(0);
    await expect(flow).toBeFocused();
    await expect(flow).toBeInViewport();
    await expect(page.getByTestId('lateral-Q_emitter-alert')).toBeInViewport();
    await expect(page.locator('main')).not.toContainText('2,222,222');
    await expectAccessible(page, 'lateral with absurd numbers at 390 px');
    await page.screenshot({ path: path.join(SHOTS, 'lateral-errors-phone-390.png') });

    // Corrected, the result is back and the messages are gone.
    await flow.fill('1.1');
    await page.getByTestId('lateral-D_LL').fill('0,016');
    await page.getByTestId('lateral-calculate').click();
    await expect(page.getByTestId('lateral-result')).toBeVisible();
    await expect(page.getByTestId('lateral-error-count')).toHaveCount(0);
    await expect(page.locator('main [role="alert"]')).toHaveCount(0);
  });

  test('exports, saved files, autosave and the language toggle', async ({ userPage: page }) => {
    await page.goto('/Lateral_designer');
    await page.getByTestId('lateral-Po').fill('15');
    await page.getByTestId('lateral-calculate').click();
    const engine = designLateral({ Po: 15 });

    const csv = await download(page, page.getByRole('button', { name: 'Descargar CSV' }));
    const rows = csvRows(csv.text);
    const header = rows.findIndex((r) => r[0] === 'Emisores (N_emitter)');
    const table = rows.slice(header + 1);
    expect(table).toHaveLength(engine.rows.length);
    // HF+Slope with the 6 decimals the table shows
    expectRounded(table.at(-1)![8]!, engine.rows.at(-1)!.hfSlope, 6);
    expect(table.at(-1)![8]!.split('.')[1]!.length).toBeLessThanOrEqual(6);
    expect(Number(rows.find((r) => r[0] === 'Presión de operación (Po)')![1])).toBe(15);

    const pdf = await download(page, page.getByRole('button', { name: 'Descargar PDF' }));
    pdfToPng(pdf.file, PDF_DIR, 'lateral');

    const saved = await download(page, page.getByRole('button', { name: 'Guardar diseño (JSON)' }));
    await page.reload();
    await expect(page.getByTestId('lateral-Po')).toHaveValue('15');
    await expect(page.getByTestId('lateral-table').locator('tbody tr')).toHaveCount(
      engine.rows.length,
    );
    await page.getByTestId('lateral-reset').click();
    await page.getByTestId('load-json-input').setInputFiles(saved.file);
    await expect(page.getByTestId('lateral-Po')).toHaveValue('15');
    await expect(page.getByTestId('lateral-result')).toBeVisible();

    await page.getByTestId('language-toggle').click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Lateral-line calculator');
    await expect(page.getByTestId('lateral-sentence')).toHaveText(
      `The maximum number of emitters is ${engine.maxEmitters} and the maximum lateral length is ${engine.maxLength.toFixed(2)} m.`,
    );
    await expectAccessible(page, 'lateral in English');
  });
});

test.describe('secondary line designer', () => {
  async function fill(
    section: Locator,
    input: Partial<Record<keyof SecondarySectionInput, string>>,
  ) {
    if (input.pipeType !== undefined) {
      await section.getByTestId('secondary-pipeType').selectOption(input.pipeType);
    }
    for (const key of ['nd', 'length', 'qs', 's0', 'se', 'hfp'] as const) {
      if (input[key] !== undefined) await section.getByTestId(`secondary-${key}`).fill(input[key]!);
    }
  }
  const A: SecondarySectionInput = {
    pipeType: 'PVC_CED40',
    nd: 3,
    length: 150,
    qs: 2000,
    s0: 1,
    se: 1.5,
    hfp: 3,
  };
  const B: SecondarySectionInput = {
    pipeType: 'PVC_RD26',
    nd: 2,
    length: 100,
    qs: 400,
    s0: 2,
    se: 2,
    hfp: 2,
  };
  const raw = (i: SecondarySectionInput) => ({
    pipeType: i.pipeType,
    nd: String(i.nd),
    length: String(i.length),
    qs: String(i.qs),
    s0: String(i.s0),
    se: String(i.se),
    hfp: String(i.hfp),
  });

  test('a full design against the engine, the summary and its clearing', async ({
    userPage: page,
  }) => {
    await page.goto('/Secondary_designer');
    const sections = page.getByTestId('secondary-section');
    await expect(sections).toHaveCount(1);
    await expect(sections.first().getByTestId('secondary-status')).toHaveText(es(STATUS_HERE));
    await expectAccessible(page, 'secondary default');

    await fill(sections.nth(0), raw(A));
    await sections.nth(0).getByTestId('secondary-calculate').click();
    const a = designSecondarySection(A, 1);
    await expect(sections.nth(0).getByTestId('secondary-status')).toHaveText(es(a.statusText));
    await expect(sections.nth(0).getByTestId('secondary-status')).toHaveClass(/alert-success/);
    const rowsA = sections.nth(0).getByTestId('secondary-results').locator('tbody tr');
    await expect(rowsA).toHaveCount(a.stretches.length);
    for (let i = 0; i < a.stretches.length; i++) {
      const cells = await rowsA.nth(i).locator('td').allTextContents();
      const s = a.stretches[i]!;
      expect(cells[0]).toBe(s.pipeType);
      expectRounded(cells[1]!, s.nominalDiameter, 0);
      expectRounded(cells[2]!, s.length, 2);
      expectRounded(cells[3]!, s.outlets, 0);
      expectRounded(cells[4]!, s.hf, 4);
    }

    await page.getByTestId('secondary-add').click();
    await fill(sections.nth(1), { ...raw(B), s0: '2,0' });
    await sections.nth(1).getByTestId('secondary-calculate').click();
    const b = designSecondarySection(B, 2);
    await expect(sections.nth(1).getByTestId('secondary-status')).toHaveText(es(b.statusText));

    await page.getByTestId('secondary-accounting').click();
    const summary = summarizePipes([a, b]);
    const sumRows = page.getByTestId('secondary-summary').locator('tbody tr');
    await expect(sumRows).toHaveCount(summary.length);
    for (let i = 0; i < summary.length; i++) {
      const cells = await sumRows.nth(i).locator('td').allTextContents();
      expect(cells[0]).toBe(summary[i]!.pipeType);
      expectRounded(cells[1]!, summary[i]!.nominalDiameter, 0);
      expectRounded(cells[2]!, summary[i]!.totalLength, 2);
      expect(num(cells[3]!)).toBe(summary[i]!.adjustedLength);
    }
    const chart = page.getByTestId('secondary-chart');
    await expect(chart.getByRole('img')).toHaveAccessibleName(
      'Diámetro de cada tramo a lo largo de la línea',
    );
    await expect(chart.locator('svg path')).toHaveCount(2);
    await expectAccessible(page, 'secondary designed');
    await shotBoth(page, 'secondary', shot);
    await page.setViewportSize({ width: 360, height: 780 });
    await expectAccessible(page, 'secondary on a phone');
    await page.setViewportSize({ width: 1366, height: 900 });

    // Exports while the design is complete.
    const csv = await download(page, page.getByRole('button', { name: 'Descargar CSV' }));
    const rows = csvRows(csv.text);
    const stretchRows = rows.filter((r) => r.length === 6 && /^\d+$/.test(r[0]!));
    expect(stretchRows).toHaveLength(a.stretches.length + b.stretches.length);
    expectRounded(stretchRows[0]![5]!, a.stretches[0]!.hf, 4);
    const adjusted = rows.filter((r) => r.length === 4 && /^(PVC|Al)/.test(r[0]!));
    expect(adjusted.map((r) => Number(r[3]))).toEqual(summary.map((s) => s.adjustedLength));
    const pdf = await download(page, page.getByRole('button', { name: 'Descargar PDF' }));
    pdfToPng(pdf.file, PDF_DIR, 'secondary');
    const saved = await download(page, page.getByRole('button', { name: 'Guardar diseño (JSON)' }));

    // Autosave: a reload keeps the sections, their results and the summary.
    await page.reload();
    await expect(sections).toHaveCount(2);
    await expect(sections.nth(1).getByTestId('secondary-status')).toHaveText(es(b.statusText));
    await expect(page.getByTestId('secondary-summary')).toBeVisible();

    // Clear data resets the section's inputs, status and results and clears the summary.
    await sections.nth(1).getByTestId('secondary-clear').click();
    await expect(page.getByTestId('secondary-summary')).toHaveCount(0);
    await expect(sections.nth(1).getByTestId('secondary-status')).toHaveText(es(STATUS_HERE));
    await expect(sections.nth(1).getByTestId('secondary-length')).toHaveValue('');
    await expect(sections.nth(1).getByTestId('secondary-results')).toHaveCount(0);

    // Delete section removes it and clears the summary.
    await page.getByTestId('secondary-accounting').click();
    await expect(page.getByTestId('secondary-summary')).toBeVisible();
    await sections.nth(0).getByTestId('secondary-delete').click();
    await expect(sections).toHaveCount(1);
    await expect(page.getByTestId('secondary-summary')).toHaveCount(0);
    await expect(sections.first().getByRole('heading')).toHaveText('Sección 1');

    // Loading the saved file brings everything back.
    await page.getByTestId('load-json-input').setInputFiles(saved.file);
    await expect(sections).toHaveCount(2);
    await expect(sections.nth(0).getByTestId('secondary-status')).toHaveText(es(a.statusText));

    // Reset deletes every unit and the summary; pipe accounting then needs a section.
    await page.getByTestId('secondary-reset').click();
    await expect(sections).toHaveCount(0);
    await expect(page.getByTestId('secondary-summary')).toHaveCount(0);
    await page.getByTestId('secondary-accounting').click();
    await expect(page.getByTestId('secondary-page-alert')).toHaveText(
      es(SECONDARY_MESSAGES.sectionCount),
    );
  });

  test('every alert of the specification and the 20-section limit', async ({ userPage: page }) => {
    await page.goto('/Secondary_designer');
    const section = page.getByTestId('secondary-section').first();
    const calc = () => section.getByTestId('secondary-calculate').click();

    await calc();
    await expect(section.getByTestId('secondary-pipeType-alert')).toHaveText(
      es('Please select valid value in selector Pipe type of section or form 1'),
    );
    await fill(section, { pipeType: 'PVC_CED40' });
    await calc();
    await expect(section.getByTestId('secondary-nd-alert')).toHaveText(
      es('Please enter something, Numeric characters. Check input: ND in this section or form: 1'),
    );
    await fill(section, { nd: '7', length: '50', qs: '10', s0: '2', se: '2', hfp: '5' });
    await calc();
    await expect(section.getByTestId('secondary-nd-alert')).toHaveText(
      es('Please only enter numeric characters, integer type (Allowed input:1-5)...'),
    );
    await fill(section, { nd: '2', length: '-50' });
    await calc();
    await expect(section.getByTestId('secondary-length-alert')).toHaveText(
      es('No negative values!...'),
    );
    await fill(section, { length: '50', qs: 'abc' });
    await calc();
    await expect(section.getByTestId('secondary-qs-alert')).toHaveText(
      es('Float type (Allowed input:more than 0)...'),
    );
    await expect(section.getByRole('alert')).toHaveCount(1);
    await expectAccessible(page, 'secondary alert');
    await shotBoth(page, 'secondary-alert', shot);

    // One diameter is enough although ND = 2: the 'Verify your data' alert, status OK.
    await fill(section, { qs: '10' });
    await calc();
    const one = designSecondarySection(
      { pipeType: 'PVC_CED40', nd: 2, length: 50, qs: 10, s0: 2, se: 2, hfp: 5 },
      1,
    );
    await expect(section.getByTestId('secondary-result-alert')).toHaveText(
      es(SECONDARY_MESSAGES.oneDiameter(1)),
    );
    await expect(section.getByTestId('secondary-status')).toHaveText(es(one.statusText));
    expect(one.statusText).toMatch(/^This section it's OK! HF:[\d.]+ < HFp:5$/);

    // No diameter meets HFp: danger status and the 'There is no diameter' alert.
    await fill(section, { pipeType: 'Aluminum', nd: '1', length: '300', qs: '90000', hfp: '0,5' });
    await calc();
    const none = designSecondarySection(
      { pipeType: 'Aluminum', nd: 1, length: 300, qs: 90000, s0: 2, se: 2, hfp: 0.5 },
      1,
    );
    await expect(section.getByTestId('secondary-result-alert')).toHaveText(
      es(SECONDARY_MESSAGES.noDiameter(1)),
    );
    await expect(section.getByTestId('secondary-status')).toHaveText(es(none.statusText));
    expect(none.statusText).toMatch(
      /^Section 1 Verify yours data input, loss pressure is bigger than HFp! HF:[\d.]+ > HFp:0\.5$/,
    );
    await expect(section.getByTestId('secondary-status')).toHaveClass(/alert-danger/);

    // Up to 20 sections; the 21st gets the alert.
    for (let i = 2; i <= 20; i++) await page.getByTestId('secondary-add').click();
    await expect(page.getByTestId('secondary-section')).toHaveCount(20);
    await expect(page.getByTestId('secondary-page-alert')).toHaveCount(0);
    await page.getByTestId('secondary-add').click();
    await expect(page.getByTestId('secondary-page-alert')).toHaveText(
      es('Only 20 sections are allowed, restart process!!'),
    );
    await expect(page.getByTestId('secondary-section')).toHaveCount(20);
    await page.getByTestId('secondary-accounting').click();
    await expect(page.getByTestId('secondary-page-alert')).toHaveCount(0);
    await expect(page.getByTestId('secondary-summary')).toBeVisible();

    await page.getByTestId('language-toggle').click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Drip-irrigation secondary line designer',
    );
    await expect(page.getByTestId('secondary-section').first().getByRole('heading')).toHaveText(
      'Section 1',
    );
    await expect(
      page.getByTestId('secondary-section').nth(1).getByTestId('secondary-status'),
    ).toHaveText(STATUS_HERE);
    await expectAccessible(page, 'secondary in English');
  });
});

test.describe('main-line design', () => {
  const LINE: MainlineInput = {
    initialPressure: 40,
    sections: [
      { pipeType: 'PVC_RD26', nominalDiameter: 150, flow: 30, length: 420.5, slope: 0.004 },
      { pipeType: 'PVC_CED40', nominalDiameter: 100, flow: 12.5, length: 250, slope: -0.01 },
      { pipeType: 'PVC_CLASS_7', nominalDiameter: 100, flow: 8, length: 310.25, slope: 0.02 },
      { pipeType: 'Aluminum', nominalDiameter: 75, flow: 4.2, length: 120, slope: 0 },
    ],
  };

  async function fill(
    section: Locator,
    s: {
      pipeType?: string;
      nominalDiameter?: string;
      flow?: string;
      length?: string;
      slope?: string;
    },
  ) {
    if (s.pipeType !== undefined)
      await section.getByTestId('mainline-pipeType').selectOption(s.pipeType);
    if (s.nominalDiameter !== undefined) {
      await section.getByTestId('mainline-nominalDiameter').selectOption(s.nominalDiameter);
    }
    for (const key of ['flow', 'length', 'slope'] as const) {
      if (s[key] !== undefined) await section.getByTestId(`mainline-${key}`).fill(s[key]!);
    }
  }

  test('a full design against the engine, totals, profile and EPANET export', async ({
    userPage: page,
  }) => {
    await page.goto('/Principal_designer');
    const sections = page.getByTestId('mainline-section');
    await expect(sections).toHaveCount(1);
    await expect(sections.first().getByTestId('mainline-status')).toHaveText(es(STATUS_HERE));
    await expect(sections.first().getByTestId('mainline-velocity')).toHaveAttribute('readonly', '');
    await expect(sections.first().getByTestId('mainline-hf')).toHaveValue('');
    await expectAccessible(page, 'mainline default');

    await page.getByTestId('mainline-pressure').fill('40');
    for (let i = 0; i < LINE.sections.length; i++) {
      if (i > 0) await page.getByTestId('mainline-add').click();
      await expect(sections.nth(i).getByRole('heading')).toHaveText(`Sección ${i + 1}`);
      const s = LINE.sections[i]!;
      await fill(sections.nth(i), {
        pipeType: s.pipeType,
        nominalDiameter: String(s.nominalDiameter),
        flow: String(s.flow).replace('.', i === 1 ? ',' : '.'),
        length: String(s.length),
        slope: String(s.slope),
      });
    }
    await sections.nth(0).getByTestId('mainline-calculate').click();
    await expect(sections.nth(0).getByTestId('mainline-status')).toHaveText(
      es("This section it's OK!"),
    );
    await page.getByTestId('mainline-totals-button').click();
    const design = designMainline(LINE);
    for (let i = 0; i < design.sections.length; i++) {
      const r = design.sections[i]!;
      await expect(sections.nth(i).getByTestId('mainline-status')).toHaveText(es(r.message));
      expectRounded(
        await sections.nth(i).getByTestId('mainline-velocity').inputValue(),
        r.velocity!,
        3,
      );
      expectRounded(await sections.nth(i).getByTestId('mainline-hf').inputValue(), r.hf!, 3);
    }
    const totals = page.getByTestId('mainline-totals');
    const values = await totals.locator('dd').allTextContents();
    const t = design.totals;
    [t.initialPressure, t.hfTotal, t.endPressure, t.maxFlow, t.maxVelocity].forEach((v, i) =>
      expectRounded(values[i]!.split(' ')[0]!, v, 3),
    );
    await expect(page.getByTestId('mainline-totals-alert')).toHaveCount(0);
    const chart = page.getByTestId('mainline-chart');
    await expect(chart.getByRole('img')).toHaveAccessibleName(
      'Perfil de presión a lo largo de la línea',
    );
    await expect(chart.locator('svg circle')).toHaveCount(LINE.sections.length + 1);
    await expectAccessible(page, 'mainline designed');
    await shotBoth(page, 'mainline', shot);
    await page.setViewportSize({ width: 360, height: 780 });
    await expectAccessible(page, 'mainline on a phone');
    await page.setViewportSize({ width: 1366, height: 900 });

    // EPANET: the .inp file loads and solves in EPANET, pressures as the engine says.
    const inp = await download(
      page,
      page.getByRole('button', { name: 'Exportar a EPANET (.inp)' }),
    );
    expect(inp.name).toMatch(/\.inp$/);
    const ws = new Workspace();
    await ws.loadModule();
    ws.writeFile('line.inp', inp.text);
    const model = new Project(ws);
    model.open('line.inp', 'line.rpt', 'line.out');
    model.solveH();
    let head = LINE.initialPressure;
    for (let i = 1; i <= LINE.sections.length; i++) {
      head -= design.sections[i - 1]!.hf!;
      const pressure = model.getNodeValue(model.getNodeIndex(`J${i}`), NodeProperty.Pressure);
      expect(Math.abs(pressure - head)).toBeLessThan(0.05 * i + 0.05);
      const flow = model.getLinkValue(model.getLinkIndex(`P${i}`), LinkProperty.Flow);
      expect(flow).toBeCloseTo(LINE.sections[i - 1]!.flow, 6);
    }
    model.close();

    const csv = await download(page, page.getByRole('button', { name: 'Descargar CSV' }));
    const rows = csvRows(csv.text);
    const sectionRows = rows.filter((r) => r.length === 9 && /^\d+$/.test(r[0]!));
    expect(sectionRows).toHaveLength(LINE.sections.length);
    expectRounded(sectionRows[2]![7]!, design.sections[2]!.hf!, 3);
    expectRounded(rows.find((r) => r[0] === 'Presión final')![1]!, t.endPressure, 3);
    const pdf = await download(page, page.getByRole('button', { name: 'Descargar PDF' }));
    pdfToPng(pdf.file, PDF_DIR, 'mainline');
    const saved = await download(page, page.getByRole('button', { name: 'Guardar diseño (JSON)' }));

    // Autosave survives a reload.
    await page.reload();
    await expect(sections).toHaveCount(LINE.sections.length);
    await expect(page.getByTestId('mainline-totals')).toBeVisible();

    // An initial pressure below the total loss: the line cannot reach its end, and the totals say so.
    await expect(page.getByTestId('mainline-negative-end')).toHaveCount(0);
    await page.getByTestId('mainline-pressure').fill('0.5');
    await page.getByTestId('mainline-totals-button').click();
    const endLow = 0.5 - t.hfTotal;
    expect(endLow).toBeLessThan(0);
    await expect(page.getByTestId('mainline-negative-end')).toHaveText(
      `La presión final es negativa (${endLow.toFixed(3)} m): con esta presión inicial la línea no puede llevar esos caudales hasta el final. Aumenta la presión inicial o el diámetro, o acorta la línea.`,
    );
    await page.getByTestId('mainline-pressure').fill(String(LINE.initialPressure));
    await page.getByTestId('mainline-totals-button').click();
    await expect(page.getByTestId('mainline-negative-end')).toHaveCount(0);

    // Clear resets a section's inputs and the totals; delete renumbers; reset clears all.
    await sections.nth(3).getByTestId('mainline-clear').click();
    await expect(page.getByTestId('mainline-totals')).toHaveCount(0);
    await expect(sections.nth(3).getByTestId('mainline-flow')).toHaveValue('');
    await expect(sections.nth(3).getByTestId('mainline-status')).toHaveText(es(STATUS_HERE));
    await page.getByTestId('mainline-totals-button').click();
    await expect(page.getByTestId('mainline-totals-alert')).toHaveText(
      es('There are 1 sections with errors, check this please.'),
    );
    await sections.nth(0).getByTestId('mainline-delete').click();
    await expect(page.getByTestId('mainline-totals')).toHaveCount(0);
    await expect(sections).toHaveCount(3);
    await expect(sections.nth(0).getByRole('heading')).toHaveText('Sección 1');
    await page.getByTestId('mainline-reset').click();
    await expect(sections).toHaveCount(0);
    await expect(page.getByTestId('mainline-pressure')).toHaveValue('');
    await page.getByTestId('load-json-input').setInputFiles(saved.file);
    await expect(sections).toHaveCount(LINE.sections.length);
    await expect(page.getByTestId('mainline-totals')).toBeVisible();
  });

  test('every alert of the specification and the language toggle', async ({ userPage: page }) => {
    await page.goto('/Principal_designer');
    const section = page.getByTestId('mainline-section').first();
    const calc = () => section.getByTestId('mainline-calculate').click();

    await calc();
    await expect(section.getByTestId('mainline-pipeType-alert')).toHaveText(
      es('Please select type pipe in this section 1'),
    );
    await fill(section, { pipeType: 'PVC_RD26' });
    await calc();
    await expect(section.getByTestId('mainline-nominalDiameter-alert')).toHaveText(
      es(MAINLINE_MESSAGES.selectNominalDiameter(1)),
    );
    await fill(section, { nominalDiameter: '100', flow: '10.1234', length: '200', slope: '0' });
    await calc();
    await expect(section.getByTestId('mainline-flow-alert')).toHaveText(
      es('Please only enter numeric characters, float type with three decimals...'),
    );
    await fill(section, { flow: '10', length: 'doscientos' });
    await calc();
    await expect(section.getByTestId('mainline-length-alert')).toHaveText(
      es('Please only enter numeric characters, float type with three decimals...'),
    );
    await fill(section, { length: '200', slope: '1.5' });
    await calc();
    await expect(section.getByTestId('mainline-slope-alert')).toHaveText(
      es("Please only enter slope in decimal unit, it's should be -1.0 < slope < 1.0..."),
    );
    await expectAccessible(page, 'mainline alert');
    await shotBoth(page, 'mainline-alert', shot);

    await fill(section, { slope: '-0.5' });
    await calc();
    await expect(section.getByTestId('mainline-status')).toHaveText(es('the hf is negative!'));
    await expect(section.getByTestId('mainline-status')).toHaveClass(/alert-danger/);
    await fill(section, { flow: '1', slope: '0' });
    await calc();
    await expect(section.getByTestId('mainline-status')).toHaveText(
      es('Verify yours data input, the velocity in pipe is dangerous!'),
    );
    await fill(section, { pipeType: 'Aluminum', nominalDiameter: '650', flow: '10' });
    await calc();
    const unavailable =
      'Section 1 Select another nominal diameter, because it is not available in the current catalog!';
    await expect(section.getByTestId('mainline-nominalDiameter-alert')).toHaveText(es(unavailable));
    await expect(section.getByTestId('mainline-status')).toHaveText(es(unavailable));
    await expect(section.getByTestId('mainline-status')).toHaveClass(/alert-danger/);

    // Initial pressure: at least 0.1 m, otherwise the alert and the field cleared.
    await page.getByTestId('mainline-pressure').fill('0.05');
    await page.getByTestId('mainline-totals-button').click();
    await expect(page.getByTestId('mainline-pressure-alert')).toHaveText(
      es("Please enter some initial pressure in decimal unit, it's should be > 0 meters"),
    );
    await expect(page.getByTestId('mainline-pressure')).toHaveValue('');
    await page.getByTestId('mainline-pressure').fill('25,5');
    await page.getByTestId('mainline-add').click();
    const second = page.getByTestId('mainline-section').nth(1);
    await fill(second, {
      pipeType: 'PVC_CLASS_10',
      nominalDiameter: '150',
      flow: '20',
      length: '300',
      slope: '0.01',
    });
    await page.getByTestId('mainline-totals-button').click();
    await expect(page.getByTestId('mainline-totals-alert')).toHaveText(
      es('There are 1 sections with errors, check this please.'),
    );
    const design = designMainline({
      initialPressure: 25.5,
      sections: [
        { pipeType: 'Aluminum', nominalDiameter: 650, flow: 10, length: 200, slope: 0 },
        { pipeType: 'PVC_CLASS_10', nominalDiameter: 150, flow: 20, length: 300, slope: 0.01 },
      ],
    });
    const values = await page.getByTestId('mainline-totals').locator('dd').allTextContents();
    expectRounded(values[2]!.split(' ')[0]!, design.totals.endPressure, 3);

    // EPANET needs every section with an available diameter.
    await page.getByRole('button', { name: 'Exportar a EPANET (.inp)' }).click();
    await expect(page.getByTestId('export-alert')).toContainText('EPANET');

    await page.getByTestId('language-toggle').click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Main-line design');
    await expect(page.getByTestId('mainline-section').nth(1).getByRole('heading')).toHaveText(
      'Section 2',
    );
    await expect(page.getByTestId('mainline-totals').locator('dt').first()).toHaveText(
      'Initial pressure:',
    );
    await expectAccessible(page, 'mainline in English');
  });
});

test('the four screens open in English when English is the stored language', async ({
  userPage: page,
}) => {
  await setLanguage(page, 'en');
  for (const [route, heading] of [
    ['/Universal_conversor', 'Universal unit converter'],
    ['/Lateral_designer', 'Lateral-line calculator'],
    ['/Secondary_designer', 'Drip-irrigation secondary line designer'],
    ['/Principal_designer', 'Main-line design'],
  ] as const) {
    await page.goto(route);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
  }
  await expect(page.getByTestId('mainline-status')).toHaveText(STATUS_HERE);
  await page.getByTestId('language-toggle').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Diseño de línea principal');
});

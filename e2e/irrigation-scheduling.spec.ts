/**
 * Irrigation scheduling (issue 52): FAO-56 ET0, tomato Kc by stage and the drip schedule on the
 * screen, its validation messages, the CSV and PDF downloads, the saved design, the lateral page's
 * button that hands over EU, emitter flow and spacing, and the phone layout.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import {
  designLateral,
  irrigationSchedule,
  referenceEvapotranspiration,
} from '../packages/hydraulics/src/index.ts';
import { DRIP_EXAMPLE, FAO56_EXAMPLE_18 } from '../packages/hydraulics/src/worked-examples.ts';
import { SHOTS, expect, expectAccessible, shot, test } from './fixtures.ts';
import { csvRows, download, expectRounded, pdfToPng, shotBoth } from './tools-helpers.ts';
import type { Page } from '@playwright/test';

const PDF_DIR = path.join(SHOTS, 'pdf');
const ROUTE = '/Irrigation_scheduling';

test.describe.configure({ timeout: 180_000 });

/** The value cell of one figure of the results (or of the ET0 terms). */
const figure = (page: Page, key: string, table = 'schedule-figures') =>
  page.getByTestId(table).locator(`tr[data-figure="${key}"] td.num`);

const pdfText = (file: string) =>
  execFileSync('pdftotext', [file, '-']).toString().replace(/\s+/g, ' ');

/** The issue's example: ET0 5.0 and Kc 1.15 typed; 1.6 L/h every 0.30 m, laterals 1.5 m apart, EU 90 %, 20 h. */
async function typeIssueExample(page: Page) {
  await page.getByTestId('schedule-et0Source').selectOption('typed');
  await page.getByTestId('schedule-kcMode').selectOption('typed');
  await page.getByTestId('schedule-et0').fill('5,0');
  await page.getByTestId('schedule-kc').fill('1.15');
  await page.getByTestId('schedule-emitterFlow').fill('1.6');
  await page.getByTestId('schedule-emitterSpacing').fill('0,30');
  await page.getByTestId('schedule-lateralSpacing').fill('1.5');
  await page.getByTestId('schedule-eu').fill('90');
  await page.getByTestId('schedule-hoursAvailable').fill('20');
  await page.getByTestId('schedule-calculate').click();
}

test.describe('irrigation scheduling', () => {
  test('the worked examples: the issue’s schedule and FAO-56 Example 18', async ({
    userPage: page,
  }) => {
    await page.goto('/Lateral_designer');
    await page.getByRole('link', { name: 'Programación del riego' }).click();
    await expect(page).toHaveURL(new RegExp(`${ROUTE}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Programación del riego');
    await expect(page).toHaveTitle(/Programación del riego/);

    await typeIssueExample(page);
    await expect(page.getByTestId('schedule-sentence')).toHaveText(
      'Cada sector necesita 1.80 h de riego al día (lámina bruta de 6.39 mm a 3.56 mm/h); en 20.0 h caben 11 sectores.',
    );
    await expect(figure(page, 'etc')).toHaveText('5.75');
    await expect(figure(page, 'grossDepth')).toHaveText('6.389');
    await expect(figure(page, 'applicationRate')).toHaveText('3.556');
    await expect(figure(page, 'hoursPerSector')).toHaveText('1.797');
    await expect(figure(page, 'sectors')).toHaveText('11');
    await expect(page.getByTestId('schedule-et0-figures')).toHaveCount(0);

    // The pump: 2 ha and 10 m³/h.
    await page.getByTestId('schedule-area').fill('2');
    await page.getByTestId('schedule-systemFlow').fill('10');
    await page.getByTestId('schedule-calculate').click();
    const pumped = irrigationSchedule({ ...DRIP_EXAMPLE, area: 2, systemFlow: 10 });
    await expect(page.getByTestId('schedule-pump')).toHaveAttribute('data-status', 'success');
    await expect(page.getByTestId('schedule-pump')).toHaveText(
      `El equipo de 10.00 m³/h alcanza: con 11 sectores cada uno pide ${pumped.flowPerSector!.toFixed(2)} m³/h, y bastarían 8 sectores.`,
    );
    await page.getByTestId('schedule-systemFlow').fill('6');
    await page.getByTestId('schedule-calculate').click();
    await expect(page.getByTestId('schedule-pump')).toHaveAttribute('data-status', 'danger');
    await expect(page.getByTestId('schedule-pump')).toContainText(
      'hacen falta al menos 12 sectores',
    );

    // FAO-56 Example 18 (Brussels, 6 July): the screen's defaults for Penman-Monteith.
    await page.getByTestId('schedule-et0Source').selectOption('penman-monteith');
    await page.getByTestId('schedule-kcMode').selectOption('stage');
    await page.getByTestId('schedule-calculate').click();
    // the wind as the screen's default gives it: 2.778 m/s
    const fao = referenceEvapotranspiration({ ...FAO56_EXAMPLE_18, windSpeed: 2.778 });
    const terms = 'schedule-et0-figures';
    await expect(figure(page, 'et0', terms)).toHaveText('3.88');
    await expect(figure(page, 'Ra', terms)).toHaveText('41.09');
    await expect(figure(page, 'Rso', terms)).toHaveText('30.90');
    await expect(figure(page, 'Rn', terms)).toHaveText('13.28');
    await expect(figure(page, 'u2', terms)).toHaveText('2.078');
    expectRounded(await figure(page, 'es', terms).textContent(), fao.es!, 3);
    expectRounded(await figure(page, 'ea', terms).textContent(), fao.ea!, 3);
    expectRounded(await figure(page, 'etc').textContent(), 1.15 * fao.et0, 2);
    await expect(
      page.getByTestId('schedule-figures').locator('tr[data-figure="kc"] th'),
    ).toHaveText('Coeficiente de cultivo Kc (día 80, mitad del ciclo)');
    const chart = page.getByTestId('schedule-chart');
    await expect(chart.getByRole('img')).toHaveAccessibleName(
      'Kc y ETc a lo largo del ciclo del tomate',
    );
    await expect(chart.locator('svg path')).toHaveCount(2);

    await expectAccessible(page, 'irrigation scheduling');
    await shotBoth(page, 'irrigation-scheduling', shot);
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'irrigation-scheduling-phone-390');
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, 'no horizontal scroll at 390 px').toBeLessThanOrEqual(1);
    await expectAccessible(page, 'irrigation scheduling on a phone');
  });

  test('validation messages in the user’s language', async ({ userPage: page }) => {
    await page.goto(ROUTE);
    await page.getByTestId('schedule-eu').fill('0');
    await page.getByTestId('schedule-windSpeed').fill('50');
    await page.getByTestId('schedule-calculate').click();
    // Every field's message at once; a value that fits another unit says so.
    await expect(page.getByTestId('schedule-eu-alert')).toHaveText('Debe estar entre 50 y 100 %.');
    await expect(page.getByTestId('schedule-windSpeed-alert')).toHaveText(
      '¿50 km/h? Este dato va en m/s: 13.889.',
    );
    await expect(page.getByTestId('schedule-error-count')).toHaveText('2 datos por corregir.');
    await expect(page.getByTestId('schedule-windSpeed')).toBeFocused();
    await expect(page.getByTestId('schedule-result')).toHaveCount(0);
    await page.getByTestId('schedule-eu').fill('90');
    await page.getByTestId('schedule-windSpeed').fill('2.778');
    await page.getByTestId('schedule-tmax').fill('veinte');
    await page.getByTestId('schedule-calculate').click();
    await expect(page.getByTestId('schedule-tmax-alert')).toHaveText(
      'Escribe un número (por ejemplo 0.3 o 0,3).',
    );
    await expect(page.getByTestId('schedule-eu-alert')).toHaveCount(0);
    await page.getByTestId('schedule-tmax').fill('21,5');
    await page.getByTestId('schedule-sunshineHours').fill('17');
    await page.getByTestId('schedule-calculate').click();
    await expect(page.getByTestId('schedule-sunshineHours-alert')).toHaveText(
      'Las horas de sol deben estar entre 0 y las horas de luz posibles de ese día (N).',
    );
    await page.getByTestId('schedule-sunshineHours').fill('9.25');
    await page.getByTestId('schedule-hoursAvailable').fill('2,500');
    await expect(page.getByTestId('schedule-hoursAvailable-alert')).toContainText(
      '«2,500» puede leerse como 2500 o como 2.5',
    );
    await page.getByTestId('schedule-hoursAvailable').fill('20');
    await page.getByTestId('schedule-calculate').click();
    await expect(page.getByTestId('schedule-result')).toBeVisible();
    await expectAccessible(page, 'irrigation scheduling with alerts');

    await page.getByTestId('language-toggle').click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Irrigation scheduling');
    await page.getByTestId('schedule-day').fill('200');
    await page.getByTestId('schedule-calculate').click();
    await expect(page.getByTestId('schedule-day-alert')).toHaveText(
      "The day of the season must be a whole number from 1 to the season's length (the sum of the four stages).",
    );
    await page.getByTestId('schedule-day').fill('50');
    await page.getByTestId('schedule-calculate').click();
    await expect(
      page.getByTestId('schedule-figures').locator('tr[data-figure="kc"] th'),
    ).toHaveText('Crop coefficient Kc (day 50, development)');
    await expectAccessible(page, 'irrigation scheduling in English');
  });

  test('at 390 px, Calcular with Tmax empty: the focus and the view on Tmax and its message', async ({
    userPage: page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(ROUTE);
    await page.getByTestId('schedule-calculate').click();
    await expect(page.getByTestId('schedule-result')).toBeVisible();
    await page.getByTestId('schedule-tmax').fill('');
    await page.getByTestId('schedule-calculate').click();
    const tmax = page.getByTestId('schedule-tmax');
    await expect(tmax).toBeFocused();
    await expect(tmax).toBeInViewport();
    await expect(page.getByTestId('schedule-tmax-alert')).toHaveText('Escribe un valor.');
    await expect(page.getByTestId('schedule-tmax-alert')).toBeInViewport();
    await expect(page.getByTestId('schedule-error-count')).toHaveText('1 dato por corregir.');
    // No result of the values before stays on the screen.
    await expect(page.getByTestId('schedule-result')).toHaveCount(0);
    await expect(tmax).toHaveAccessibleName('Temperatura máxima (°C)');
    await expectAccessible(page, 'irrigation scheduling, Tmax empty, 390 px');
    await page.screenshot({ path: path.join(SHOTS, 'irrigation-scheduling-tmax-390.png') });
  });

  test('CSV and PDF downloads, the saved design and the autosave', async ({ userPage: page }) => {
    await page.goto(ROUTE);
    await typeIssueExample(page);
    await expect(figure(page, 'sectors')).toHaveText('11');

    const csv = await download(page, page.getByRole('button', { name: 'Descargar CSV' }));
    expect(csv.name).toMatch(/^diagrodl-schedule-\d{4}-\d{2}-\d{2}\.csv$/);
    const rows = csvRows(csv.text);
    const value = (label: string) => rows.find((r) => r[0] === label)?.[1];
    expect(value('Cómo obtener ET0')).toBe('ET0 conocida (escribirla)');
    expect(Number(value('Evapotranspiración de referencia ET0'))).toBe(5);
    // Numbers with the decimals the screen shows (at least 3), not 5.745314148058873.
    expect(value('Lámina bruta (neta / EU / (1 − fracción de lavado))')).toBe(
      (5.75 / 0.9).toFixed(3),
    );
    expect(value('Tiempo de riego de un sector')).toBe((5.75 / 0.9 / (1.6 / 0.45)).toFixed(3));
    expect(csv.text).not.toMatch(/\d\.\d{5,}/);
    expect(value('Sectores que caben en las horas disponibles')).toBe('11');
    const season = rows.findIndex((r) => r[0] === 'Día del ciclo');
    expect(rows.slice(season + 1)).toHaveLength(135);
    expect(rows[season + 1]).toEqual(['1', 'etapa inicial', '0.6', String(0.6 * 5)]);

    const pdf = await download(page, page.getByRole('button', { name: 'Descargar PDF' }));
    expect(pdf.name).toMatch(/\.pdf$/);
    pdfToPng(pdf.file, PDF_DIR, 'irrigation-scheduling');
    const text = pdfText(pdf.file);
    expect(text).toContain('Programación del riego');
    expect(text).toContain('en 20.0 h caben 11 sectores');
    expect(text).toContain('Kc y ETc a lo largo del ciclo del tomate');
    // No label is cut: the long ones wrap.
    expect(text).not.toContain('…');
    expect(text).toContain('Lámina bruta (neta / EU / (1 - fracción de lavado))');

    const saved = await download(page, page.getByRole('button', { name: 'Guardar diseño (JSON)' }));
    await page.getByTestId('schedule-reset').click();
    await expect(page.getByTestId('schedule-et0Source')).toHaveValue('penman-monteith');
    await expect(page.getByTestId('schedule-result')).toHaveCount(0);
    await page.getByTestId('load-json-input').setInputFiles(saved.file);
    await expect(page.getByTestId('schedule-et0')).toHaveValue('5,0');
    await expect(figure(page, 'sectors')).toHaveText('11');

    // The autosave brings the design and its results back after a reload.
    await page.getByTestId('schedule-hoursAvailable').fill('10');
    await page.getByTestId('schedule-calculate').click();
    await expect(figure(page, 'sectors')).toHaveText('5');
    await page.reload();
    await expect(page.getByTestId('schedule-hoursAvailable')).toHaveValue('10');
    await expect(figure(page, 'sectors')).toHaveText('5');
  });

  test('the lateral page hands over EU, emitter flow and spacing', async ({ userPage: page }) => {
    // results of the values before the hand-over: they go with it
    await page.goto(ROUTE);
    await page.getByTestId('schedule-calculate').click();
    await expect(page.getByTestId('schedule-result')).toBeVisible();
    await page.goto('/Lateral_designer');
    await expect(page.getByTestId('lateral-to-schedule')).toBeDisabled();
    await page.getByTestId('lateral-calculate').click();
    const design = designLateral().design!;
    await page.getByTestId('lateral-to-schedule').click();
    await expect(page).toHaveURL(new RegExp(`${ROUTE}$`));
    await expect(page.getByTestId('schedule-imported')).toBeVisible();
    await expect(page.getByTestId('schedule-result')).toHaveCount(0);
    const text = (v: number, digits: number) => String(Number(v.toFixed(digits)));
    await expect(page.getByTestId('schedule-eu')).toHaveValue(text(design.eu, 2));
    await expect(page.getByTestId('schedule-emitterFlow')).toHaveValue(text(design.qAvg, 4));
    await expect(page.getByTestId('schedule-emitterSpacing')).toHaveValue('0.2');
    await page.getByTestId('schedule-calculate').click();
    expectRounded(
      await figure(page, 'applicationRate').textContent(),
      Number(text(design.qAvg, 4)) / (0.2 * 1.5),
      3,
    );
    await expectAccessible(page, 'irrigation scheduling from the lateral');
    // Taken once: a reload keeps the values (autosave) without the note.
    await page.reload();
    await expect(page.getByTestId('schedule-eu')).toHaveValue(text(design.eu, 2));
    await expect(page.getByTestId('schedule-imported')).toHaveCount(0);
  });
});

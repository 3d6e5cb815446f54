/**
 * The season calendar (issue 69): the FAO-56 water balance from a daily weather file and the
 * TOMCAST / Wallin disease risk from an hourly one, at phone width in both languages; the hand-over
 * from the scheduling screen, the alerts' links, a Spanish spreadsheet's CSV (`;`, decimal commas),
 * a bad row, the field messages, and the CSV and PDF downloads.
 */
import path from 'node:path';
import {
  SAMPLE_DAILY_CSV,
  SAMPLE_DAILY_SITE,
  SAMPLE_HOURLY_CSV,
  TOMATO_STAGES,
  diseaseRisk,
  parseWeatherCsv,
  waterBalance,
} from '../packages/hydraulics/src/index.ts';
import { SHOTS, expect, expectAccessible, setLanguage, shot, test } from './fixtures.ts';
import { csvRows, download, pdfToPng } from './tools-helpers.ts';
import type { Page } from '@playwright/test';

const ROUTE = '/Season_calendar';
const PDF_DIR = path.join(SHOTS, 'pdf');

test.describe.configure({ timeout: 180_000 });

const figure = (page: Page, key: string) =>
  page.getByTestId('season-balance-figures').locator(`tr[data-figure="${key}"] td.num`);

async function expectNoSideScroll(page: Page, label: string) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, `${label}: no horizontal scroll`).toBeLessThanOrEqual(1);
}

/**
 * The balance of the daily sample with the screen's defaults, or with the scheduling screen's
 * site when it came from there (its defaults: FAO-56 Example 18, Brussels).
 */
function sampleBalance(site: { latitude: number; altitude: number } = SAMPLE_DAILY_SITE) {
  const parsed = parseWeatherCsv(SAMPLE_DAILY_CSV, 'daily');
  if (!parsed.ok || parsed.kind !== 'daily') throw new Error('the daily sample does not parse');
  return waterBalance({
    fieldCapacity: 0.3,
    wiltingPoint: 0.15,
    rootDepth: 0.7,
    p: 0.4,
    initialDepletion: 0,
    strategy: 'depletion',
    stages: { ...TOMATO_STAGES },
    latitude: site.latitude,
    altitude: site.altitude,
    days: parsed.days,
    drip: {
      emitterFlow: 1.6,
      emitterSpacing: 0.3,
      lateralSpacing: 1.5,
      eu: 90,
      leachingFraction: 0,
      hoursAvailable: 20,
    },
  });
}

function sampleRisk() {
  const parsed = parseWeatherCsv(SAMPLE_HOURLY_CSV, 'hourly');
  if (!parsed.ok || parsed.kind !== 'hourly') throw new Error('the hourly sample does not parse');
  return diseaseRisk({ hours: parsed.hours });
}

test.describe('season calendar', () => {
  test('from the scheduling screen to the water balance and the disease risk, at 390 px', async ({
    userPage: page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/Irrigation_scheduling');
    await page.getByRole('button', { name: 'Llevar al calendario de la temporada' }).click();
    await expect(page).toHaveURL(new RegExp(`${ROUTE}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Calendario de la temporada');
    await expect(page).toHaveTitle(/Calendario de la temporada/);
    await expect(page.getByTestId('season-imported')).toBeVisible();
    await expect(page.getByTestId('season-emitterFlow')).toHaveValue('1.6');

    // Water balance of the daily sample (a Spanish spreadsheet: `;` and decimal commas).
    await expect(page.getByTestId('season-latitude')).toHaveValue('50.8');
    const balance = sampleBalance({ latitude: 50.8, altitude: 100 });
    await page.getByTestId('season-daily-sample').click();
    await expect(page.getByTestId('season-daily-name')).toContainText('clima-diario-ejemplo.csv');
    await page.getByTestId('season-balance-calculate').click();
    // The results, below the form on a phone, take the focus (and so come into view).
    await expect(
      page.getByRole('heading', { name: 'Resultados del balance hídrico' }),
    ).toBeFocused();
    await expect(page.getByTestId('season-balance-sentence')).toContainText(
      `${balance.days.length} días (1 abr 2026 a 30 may 2026): ${balance.totals.irrigations} riegos`,
    );
    await expect(figure(page, 'taw')).toHaveText('105.0');
    await expect(figure(page, 'irrigations')).toHaveText(String(balance.totals.irrigations));
    await expect(figure(page, 'irrigation')).toHaveText(balance.totals.irrigation.toFixed(1));
    await expect(page.getByTestId('season-balance-table').locator('tbody tr')).toHaveCount(
      balance.days.length,
    );
    const chart = page.getByTestId('season-balance-chart');
    await expect(chart.getByRole('img', { name: 'Agotamiento del agua del suelo' })).toBeVisible();
    await expect(chart.locator('[data-bars="rain"] rect')).toHaveCount(
      balance.days.filter((d) => d.rain > 0).length,
    );
    await expectNoSideScroll(page, 'balance at 390 px');
    await shot(page, 'season-balance-phone-390');

    // Disease risk of the hourly sample: each alert links to its disease page and to a diagnosis.
    const risk = sampleRisk();
    expect(risk.tomcastAlerts.length + risk.lateBlightAlerts.length).toBeGreaterThan(0);
    await expect(page.getByTestId('season-risk-sources')).toContainText('Pitblado');
    await expect(page.getByTestId('season-risk-sources')).toContainText(
      'las condiciones locales difieren',
    );
    await page.getByTestId('season-hourly-sample').click();
    await page.getByTestId('season-risk-calculate').click();
    const alerts = page.getByTestId('season-alert');
    await expect(alerts).toHaveCount(risk.tomcastAlerts.length + risk.lateBlightAlerts.length);
    const tomcast = alerts.filter({ hasText: 'TOMCAST' }).first();
    await expect(tomcast).toContainText('aplicar protección');
    await expect(tomcast.getByRole('link', { name: 'Tizón temprano' })).toHaveAttribute(
      'href',
      '/Early_blight',
    );
    await expect(tomcast.getByRole('link', { name: 'Diagnosticar una hoja' })).toHaveAttribute(
      'href',
      '/upload?photo=take',
    );
    const late = alerts.filter({ hasText: 'Wallin' }).first();
    await expect(late.getByRole('link', { name: 'Tizón tardío' })).toHaveAttribute(
      'href',
      '/Late_blight',
    );
    await expect(page.getByTestId('season-risk-table').locator('tbody tr')).toHaveCount(
      risk.days.length,
    );
    await expectNoSideScroll(page, 'risk at 390 px');
    await expectAccessible(page, 'season calendar, es, 390 px');
    await shot(page, 'season-risk-phone-390');

    // The report: CSV (3 decimals at most) and a one-page PDF.
    await page.setViewportSize({ width: 1280, height: 900 });
    const csv = await download(page, page.getByRole('button', { name: 'Descargar CSV' }));
    const rows = csvRows(csv.text);
    expect(rows[0]).toEqual(['Dato', 'Valor', 'Unidad']);
    const dayRow = rows.find((r) => r[0] === balance.days[0]!.date);
    expect(dayRow).toBeDefined();
    for (const cell of rows.flat()) {
      if (/^-?\d+\.\d+$/.test(cell)) expect(cell.split('.')[1]!.length).toBeLessThanOrEqual(3);
    }
    const pdf = await download(page, page.getByRole('button', { name: 'Descargar PDF' }));
    pdfToPng(pdf.file, PDF_DIR, 'season-calendar');

    // The saved design opens to the same results after a reload (autosave).
    await page.reload();
    await expect(figure(page, 'irrigations')).toHaveText(String(balance.totals.irrigations));
    await expect(page.getByTestId('season-alert')).toHaveCount(
      risk.tomcastAlerts.length + risk.lateBlightAlerts.length,
    );
  });

  test('a spreadsheet’s CSV, a bad row and every field’s message, in Spanish', async ({
    userPage: page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(ROUTE);
    // Calculate without a file: said next to the file field.
    await page.getByTestId('season-balance-calculate').click();
    await expect(page.getByTestId('season-daily-alert')).toHaveText(
      'Elige un archivo de clima diario o usa el ejemplo.',
    );
    await expect(
      page.getByRole('button', { name: 'Elegir un archivo CSV: Clima diario (CSV)' }),
    ).toBeFocused();

    const lines = ['fecha;et0;lluvia'];
    for (let d = 1; d <= 10; d++) {
      lines.push(`${String(d).padStart(2, '0')}/04/2026;5,2;${d === 4 ? '12,5' : '0'}`);
    }
    await page.getByTestId('season-daily-input').setInputFiles({
      name: 'estacion.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(lines.join('\r\n')),
    });
    await expect(page.getByTestId('season-daily-name')).toContainText('estacion.csv');
    await page.getByTestId('season-balance-calculate').click();
    await expect(page.getByTestId('season-balance-table').locator('tbody tr')).toHaveCount(10);
    await expect(
      page.getByTestId('season-balance-table').locator('tbody tr').nth(3).locator('td').nth(4),
    ).toHaveText('12.5');

    // Absurd numbers: each field says why, all at once, no result, the focus on the first.
    await page.getByTestId('season-rootDepth').fill('70');
    await page.getByTestId('season-eu').fill('1e15');
    await page.getByTestId('season-balance-calculate').click();
    await expect(page.getByTestId('season-rootDepth-alert')).toHaveText(
      '¿70 cm? Este dato va en m: 0.7.',
    );
    await expect(page.getByTestId('season-eu-alert')).toHaveText('Debe estar entre 50 y 100 %.');
    await expect(page.getByTestId('season-balance-count')).toHaveText('2 datos por corregir.');
    await expect(page.getByTestId('season-balance-result')).toHaveCount(0);
    await expect(page.getByTestId('season-rootDepth')).toBeFocused();
    await shot(page, 'season-errors-phone-390');

    // An hourly file with a humidity of 150 % on its 12th row.
    const hourly = SAMPLE_HOURLY_CSV.trim().split('\n');
    const rh = hourly[0]!.split(',').indexOf('rh');
    const cells = hourly[11]!.split(',');
    cells[rh] = '150';
    hourly[11] = cells.join(',');
    await page.getByTestId('season-hourly-input').setInputFiles({
      name: 'horas.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(hourly.join('\n')),
    });
    await expect(page.getByTestId('season-hourly-name')).toContainText('horas.csv');
    await page.getByTestId('season-risk-calculate').click();
    await expect(page.getByTestId('season-hourly-rows')).toHaveText(
      'fila 12: humedad 150 % fuera de 0-100',
    );
    await expect(page.getByTestId('season-risk-result')).toHaveCount(0);
    await expectAccessible(page, 'season calendar errors, es');
  });

  test('the English page at 360 px', async ({ userPage: page }) => {
    await setLanguage(page, 'en');
    await page.setViewportSize({ width: 360, height: 780 });
    await page.goto(ROUTE);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Season calendar');
    await expect(page.getByRole('heading', { name: 'Water balance' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Disease risk' })).toBeVisible();
    await page.getByTestId('season-daily-sample').click();
    await page.getByTestId('season-balance-calculate').click();
    const balance = sampleBalance();
    await expect(page.getByTestId('season-balance-sentence')).toContainText(
      `${balance.days.length} days (Apr 1, 2026 to May 30, 2026): ${balance.totals.irrigations} irrigations`,
    );
    await page.getByTestId('season-hourly-sample').click();
    await page.getByTestId('season-risk-calculate').click();
    await expect(page.getByTestId('season-alert').first()).toContainText('apply protection');
    await expect(
      page.getByTestId('season-alert').first().getByRole('link', { name: 'Diagnose a leaf' }),
    ).toBeVisible();
    await page.getByTestId('season-rootDepth').fill('70');
    await page.getByTestId('season-balance-calculate').click();
    await expect(page.getByTestId('season-rootDepth-alert')).toHaveText(
      '70 cm? This value is in m: 0.7.',
    );
    await expectNoSideScroll(page, 'English at 360 px');
    await expectAccessible(page, 'season calendar, en, 360 px');
    await shot(page, 'season-en-phone-360');
  });
});

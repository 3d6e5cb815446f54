// In the field without signal. The installed app works offline after the first visit
// (disease pages, the main-line designer), diagnoses on the device (two leaves and a cat: the
// refusal), keeps the diagnoses through a reload, asks before logging out would discard them,
// and sends them to the history once each when the connection returns. And the browser's
// tensor equals the server's within 1e-3 on the same JPEG.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { FIELD_PHOTO_CAUTION } from '../packages/contracts/src/diagnosis.ts';
import { fieldLikeJpeg, notLeafJpeg } from '../apps/server/src/testing/photos.ts';
import { preprocessImage } from '../apps/server/src/inference/preprocess.ts';
import { expect, expectAccessible, shot, test } from './fixtures.ts';

const assets = path.join(import.meta.dirname, 'assets');
const LEAVES = ['late_blight_leaf.jpg', 'early_blight_leaf.jpg'];

/**
 * Waits until the service worker controls the page and has precached everything. (Polled with
 * expect.poll: page.waitForFunction does not await an async predicate, and the Promise it gets
 * back is truthy, so it would return at once, before the worker is even installed.)
 */
async function installed(page: Page): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const reg = await navigator.serviceWorker.getRegistration();
          if (reg?.active?.state !== 'activated' || !navigator.serviceWorker.controller) {
            return 'not controlled yet';
          }
          if (reg.installing || reg.waiting) return 'another version installing';
          // distinct URLs (a URL listed twice is cached once)
          const listed = (await (await fetch('/sw.js')).text()).match(/"url":"[^"]*"/g) ?? [];
          const wanted = new Set(listed).size;
          const name = (await caches.keys()).find((n) => n.includes('precache'));
          const have = name ? (await (await caches.open(name)).keys()).length : 0;
          return wanted > 0 && have >= wanted ? 'installed' : `precached ${have} of ${wanted}`;
        }),
      { timeout: 120_000 },
    )
    .toBe('installed');
}

/** A full page load offline, as when a grower reopens the installed app without signal. */
async function openOffline(page: Page, to: string): Promise<void> {
  await page.goto(to);
  await expect(page.getByTestId('offline-notice')).toBeVisible();
}

/** The person asks for the on-device model (nothing downloads it by itself), then it is ready. */
async function downloadModel(page: Page): Promise<void> {
  await page.getByTestId('device-download').click();
  await deviceReady(page);
}

/** The on-device model and runtime are in the cache. */
async function deviceReady(page: Page): Promise<void> {
  await expect(page.getByTestId('device-readiness')).toHaveAttribute('data-state', 'ready', {
    timeout: 120_000,
  });
}

test.describe('offline: the installed app', () => {
  test.describe.configure({ timeout: 420_000 });
  // the one spec that needs the service worker (blocked elsewhere: playwright.config.ts)
  test.use({ serviceWorkers: 'allow' });

  test('works without signal, diagnoses on the device, and syncs each diagnosis once', async ({
    userPage: page,
    context,
  }) => {
    // first visit, online: the app installs itself and keeps the model
    await page.goto('/DiAgroDL');
    await installed(page);
    await downloadModel(page);
    const manifest = await page.request.get('/manifest.webmanifest');
    expect(await manifest.json()).toMatchObject({ short_name: 'DiAgroDL', start_url: '/' });

    await context.setOffline(true);

    // every page below is a full page load without network, served by the service worker
    await openOffline(page, '/Late_blight');
    await expect(page.getByRole('heading', { level: 1 })).toContainText(/Tizón tardío/i);
    const img = page.locator('img[src*="/Disease/"]').first();
    await img.scrollIntoViewIfNeeded();
    await expect
      .poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0))
      .toBe(true);
    await openOffline(page, '/Principal_designer');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await shot(page, 'offline-notice-mainline-es');
    const manual = await page.evaluate(async () => (await fetch('/user_manual.pdf')).status);
    expect(manual).toBe(200);

    // diagnose three photos on the device: two leaves and a cat
    await openOffline(page, '/Custom');
    await deviceReady(page);
    // offline too, the device's model says how far it can be trusted (from its cached card)
    await expect(
      page.getByRole('heading', { name: '¿Qué tan confiable es MobileNet v1?' }),
    ).toBeVisible();
    await expect(page.getByTestId('field-summary')).toContainText(
      'En fotos reales de campo da un diagnóstico en el',
    );
    await page.getByRole('button', { name: 'Enviar configuración' }).click();
    await page.getByRole('link', { name: 'Subir imágenes' }).click();
    await expect(page).toHaveURL(/\/upload$/);
    await expect(page.getByTestId('camera-input')).toHaveAttribute('capture', 'environment');
    await expect(page.getByTestId('device-mode-note')).toBeVisible();
    await page.getByLabel(/Elige una o varias fotos/).setInputFiles([
      ...LEAVES.map((f) => ({
        name: f,
        mimeType: 'image/jpeg',
        buffer: fs.readFileSync(path.join(assets, f)),
      })),
      { name: 'gato.jpg', mimeType: 'image/jpeg', buffer: await notLeafJpeg() },
      { name: 'tizon-campo.jpg', mimeType: 'image/jpeg', buffer: await fieldLikeJpeg() },
    ]);
    await page.getByRole('button', { name: 'Guardar en este dispositivo' }).click();
    await expect(page.getByTestId('device-list').locator('tbody tr')).toHaveCount(4);
    await expectAccessible(page, '/upload offline');
    await page.getByRole('link', { name: 'Identificar y diagnosticar imágenes' }).click();
    await page.getByRole('button', { name: 'Iniciar identificación' }).click();
    await expect(page.getByTestId('predict-status')).toHaveText(
      'Identificación terminada: 4 imágenes.',
      { timeout: 180_000 },
    );
    await page.getByRole('link', { name: 'Visualizar diagnóstico' }).click();
    await expect(page.getByTestId('report-offline')).toBeVisible();
    await page.getByRole('link', { name: 'Visualizar resultados del diagnóstico' }).click();
    await page.getByRole('button', { name: 'Mostrar el diagnóstico' }).click();
    const rows = page.getByTestId('diagnosis-row');
    await expect(rows).toHaveCount(4);
    const cat = rows.filter({ hasText: 'gato.jpg' });
    await expect(cat).toHaveAttribute('data-reason', 'not_leaf');
    await expect(cat.getByTestId('row-label')).toHaveText('No parece una hoja de tomate');
    await expect(cat.getByTestId('row-hint')).toBeVisible();
    // the field-like photo: diagnosed on the device, with the field-photo caution (the lab ones without)
    const field = rows.filter({ hasText: 'tizon-campo.jpg' });
    await expect(field.getByTestId('row-label')).toHaveText('Tizón tardío');
    await expect(field.getByTestId('row-caution')).toHaveText(FIELD_PHOTO_CAUTION.es);
    await expect(rows.getByTestId('row-caution')).toHaveCount(1);
    const heat = rows.first().getByTestId('heatmap');
    await expect
      .poll(() => heat.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0))
      .toBe(true);
    await expect(rows.getByTestId('row-device')).toHaveCount(4);
    await shot(page, 'offline-results-es');

    // a reload while offline keeps the unsent diagnoses
    await openOffline(page, '/Historial');
    await page.reload();
    const history = page.getByTestId('history-list');
    await expect(history.locator('[data-testid="history-item"][data-device="unsent"]')).toHaveCount(
      4,
    );
    await expect(history.getByTestId('history-device').first()).toHaveText('en este dispositivo');
    await expect(page.getByTestId('history-offline')).toBeVisible();
    await expectAccessible(page, '/Historial offline');
    await shot(page, 'offline-history-device-es');

    // logging out would discard them: asked first; cancelled
    await page.getByRole('button', { name: 'Cerrar sesión' }).first().click();
    await expect(page.getByTestId('logout-unsent')).toContainText(
      'Hay 4 diagnósticos hechos en este dispositivo',
    );
    await page.getByRole('button', { name: 'Cancelar y conservarlos' }).click();
    await expect(history.locator('[data-testid="history-item"][data-device="unsent"]')).toHaveCount(
      4,
    );

    // back online: each one reaches the server's history once
    await context.setOffline(false);
    await expect(page.getByTestId('offline-notice')).toHaveCount(0);
    await expect(history.locator('[data-testid="history-item"][data-device="sent"]')).toHaveCount(
      4,
      {
        timeout: 60_000,
      },
    );
    await expect(history.locator('[data-testid="history-item"][data-device="unsent"]')).toHaveCount(
      0,
    );
    await page.reload();
    await expect(page.getByTestId('history-item')).toHaveCount(4);
    const server = await (await page.request.get('/diagrodl/history/')).json();
    expect(server).toHaveLength(4);
    expect(new Set(server.map((h: { client_id: string }) => h.client_id)).size).toBe(4);
    expect(server.find((h: { name_img: string }) => h.name_img === 'gato.jpg')).toMatchObject({
      reason: 'not_leaf',
      model: 'mobilenet',
    });
    // the device sent the model's lab_like too: only the field-like photo carries the caution
    const kinds = (server as { name_img: string; lab_like: number | null; field_photo: boolean }[])
      .map((h) => [h.name_img, typeof h.lab_like, h.field_photo])
      .sort();
    expect(kinds).toEqual([
      ['early_blight_leaf.jpg', 'number', false],
      ['gato.jpg', 'number', false],
      ['late_blight_leaf.jpg', 'number', false],
      ['tizon-campo.jpg', 'number', true],
    ]);
    await shot(page, 'offline-history-synced-es');
  });

  test("the browser's tensor equals the server's within 1e-3 on the same photo", async ({
    userPage: page,
  }) => {
    await page.goto('/Custom');
    await downloadModel(page);
    await page.waitForFunction(() => 'diagrodlDevice' in window, undefined, { timeout: 60_000 });
    // a leaf cut out on a transparent background that hides black: both flatten it onto white
    const side = 120;
    const rgba = Buffer.alloc(side * side * 4);
    for (let i = 0; i < side * side; i++) {
      const [x, y] = [i % side, Math.floor(i / side)];
      const leaf = (x - 60) ** 2 / 50 ** 2 + (y - 60) ** 2 / 35 ** 2 < 1;
      rgba.set(leaf ? [45 + (i % 40), 125 + (i % 50), 35, 255] : [0, 0, 0, 0], i * 4);
    }
    const cutOut = await sharp(rgba, { raw: { width: side, height: side, channels: 4 } })
      .png()
      .toBuffer();
    const photos: { name: string; bytes: Buffer; type?: string }[] = [
      ...[...LEAVES, 'hoja sana.jpg'].map((f) => ({
        name: f,
        bytes: fs.readFileSync(path.join(assets, f)),
      })),
      { name: 'gato.jpg', bytes: await notLeafJpeg() },
      { name: 'recortada.png', bytes: cutOut, type: 'image/png' },
    ];
    for (const p of photos) {
      const browser = await page.evaluate(
        async ([b64, type]) => {
          const bytes = Uint8Array.from(atob(b64 as string), (c) => c.charCodeAt(0));
          const hook = (
            window as unknown as {
              diagrodlDevice: { preprocess(b: Uint8Array, t: string): Promise<number[]> };
            }
          ).diagrodlDevice;
          return hook.preprocess(bytes, type as string);
        },
        [p.bytes.toString('base64'), p.type ?? 'image/jpeg'],
      );
      const server = (await preprocessImage(p.bytes)).tensor;
      expect(browser.length, p.name).toBe(server.length);
      let maxDiff = 0;
      for (let i = 0; i < server.length; i++) {
        maxDiff = Math.max(maxDiff, Math.abs((browser[i] as number) - (server[i] as number)));
      }
      expect(maxDiff, `${p.name}: largest difference`).toBeLessThan(1e-3);
    }
  });
});

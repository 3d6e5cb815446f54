// The first minutes of a grower (issue 71): /upload downloads no model by itself (it offers the
// on-device model with its size, and fetches it when asked), one press gives the answer in the
// upper three quarters of a phone's first screen, in percent, "Diagnosticar otra hoja" goes
// straight back to /upload with the same configuration ("Iniciar nueva identificación" keeping it:
// diagnosis.spec.ts), a portrait photo's heatmap says the model looked at the central square, and
// the pages in both languages at 390 and 1280 px.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, expectAccessible, setLanguage, shot, test } from './fixtures.ts';

const assets = path.join(import.meta.dirname, 'assets');
const asset = (name: string) => fs.readFileSync(path.join(assets, name));
const jpeg = (name: string, buffer: Buffer) => ({ name, mimeType: 'image/jpeg', buffer });

/** The late-blight leaf (256 px square) with 64 px of soil above and below: a portrait photo. */
function portraitLeaf(): Promise<Buffer> {
  return sharp(asset('late_blight_leaf.jpg'))
    .extend({ top: 64, bottom: 64, background: '#6b5a3a' })
    .jpeg({ quality: 92 })
    .toBuffer();
}

/** A request for the on-device model or its WebAssembly runtime (not its small JSON card). */
const isModelFile = (url: string) => /\.(onnx|wasm)(\?|$)/.test(new URL(url).pathname);

const PHONE = { width: 390, height: 844 };
const TEXT = {
  es: {
    pick: /Elige una o varias fotos/,
    press: 'Diagnosticar',
    another: 'Diagnosticar otra hoja',
    confidence: /^\d{1,3}\.\d% de confianza$/,
    square: 'El modelo miró el cuadrado central de la foto',
  },
  en: {
    pick: /Choose one or more leaf photos/,
    press: 'Diagnose',
    another: 'Diagnose another leaf',
    confidence: /^\d{1,3}\.\d% confidence$/,
    square: 'The model looked at the central square of the photo',
  },
} as const;

/** Picks `files` on /upload and presses the one primary action; resolves on the results. */
async function onePress(page: Page, lang: 'es' | 'en', files: ReturnType<typeof jpeg>[]) {
  await page.getByLabel(TEXT[lang].pick).setInputFiles(files);
  await page.getByRole('button', { name: TEXT[lang].press, exact: true }).click();
  await expect(page).toHaveURL(/\/Get_predict$/, { timeout: 30_000 });
  await expect(page.getByTestId('answer-item')).toHaveCount(Math.min(files.length, 5), {
    timeout: 30_000,
  });
}

test.describe('the first minutes', () => {
  test.describe.configure({ timeout: 180_000 });

  test('/upload opened with no photo chosen requests no model file; asked, it downloads it', async ({
    userPage: page,
  }) => {
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    // nor do the tool's home and the configuration page, where the same offer stands
    for (const route of ['/DiAgroDL', '/Custom']) {
      await page.goto(route);
      await expect(page.getByTestId('device-readiness')).toHaveAttribute('data-state', 'offer');
      await page.waitForLoadState('networkidle');
    }
    await page.goto('/upload');
    // the offer with the model's size is there: the page has read all it reads by itself
    const offer = page.getByRole('button', { name: /^Descargar el modelo \(\d+(\.\d)? MB\)$/ });
    await expect(offer).toBeVisible();
    await expect(page.getByTestId('device-readiness')).toHaveAttribute('data-state', 'offer');
    await page.waitForLoadState('networkidle');
    expect(requested.length).toBeGreaterThan(0);
    expect(requested.filter(isModelFile)).toEqual([]);
    // one primary action; the specification's two buttons under it, secondary
    await expect(page.getByRole('button', { name: 'Diagnosticar', exact: true })).toHaveClass(
      /btn-primary/,
    );
    for (const name of ['Subir imágenes seleccionadas', 'Identificar y diagnosticar imágenes']) {
      await expect(page.getByRole('button', { name })).toHaveClass(/btn-outline-secondary/);
    }
    await expectAccessible(page, '/upload, nothing chosen');

    // preparing offline use: the model and its runtime come when the person asks
    const model = page.waitForRequest((r) => new URL(r.url()).pathname.endsWith('.onnx'));
    await offer.click();
    await model;
    await expect(page.getByTestId('device-readiness')).toHaveAttribute('data-state', 'ready', {
      timeout: 120_000,
    });
  });

  for (const lang of ['es', 'en'] as const) {
    test(`a phone (390 px, ${lang}): after one press the answer fills the first screen's upper three quarters`, async ({
      userPage: page,
    }) => {
      await setLanguage(page, lang);
      await page.setViewportSize(PHONE);
      await page.goto('/upload');
      await expect(page.getByTestId('device-readiness')).toHaveAttribute('data-state', 'offer');
      await shot(page, `first-minutes-upload-${lang}-390`);
      await onePress(page, lang, [jpeg('hoja.jpg', asset('early_blight_leaf.jpg'))]);

      const answer = page.getByTestId('answer-item').first();
      await expect(answer.getByTestId('answer-confidence')).toHaveText(TEXT[lang].confidence);
      // the first screen: the page at the top, the answer (disease and confidence) in its upper 3/4
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      for (const part of [
        answer.getByTestId('answer-label'),
        answer.getByTestId('answer-confidence'),
      ]) {
        const box = (await part.boundingBox())!;
        expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height * 0.75);
      }
      // above the buttons, which are all there
      const actions = (await page.getByTestId('results-actions').boundingBox())!;
      expect((await answer.boundingBox())!.y).toBeLessThan(actions.y);
      await expect(page.getByRole('link', { name: TEXT[lang].another })).toHaveClass(/btn-primary/);
      // every probability a person reads is a percentage
      await expect(page.getByTestId('row-probability')).toHaveText(/^\d{1,3}\.\d%$/);
      // a square photo: no word about the central square
      await expect(page.getByTestId('heatmap-square')).toHaveCount(0);
      await expectAccessible(page, `/Get_predict at 390 px (${lang})`);
      await shot(page, `first-minutes-results-${lang}-390`);

      // "Diagnosticar otra hoja": straight to /upload, the camera ready, the same configuration
      const config = await (await page.request.get('/diagrodl/post_custom/')).json();
      await page.getByRole('link', { name: TEXT[lang].another }).click();
      await expect(page).toHaveURL(/\/upload\?photo=take$/);
      await expect(page.getByTestId('camera-input')).toBeFocused();
      await onePress(page, lang, [jpeg('retrato.jpg', await portraitLeaf())]);
      expect(await (await page.request.get('/diagrodl/post_custom/')).json()).toEqual(config);
      // the portrait photo's card says the model looked at its central square
      const portrait = page.getByTestId('diagnosis-row').filter({ hasText: 'retrato.jpg' });
      await portrait.getByTestId('heatmap').scrollIntoViewIfNeeded();
      await expect(portrait.getByTestId('heatmap-square')).toContainText(TEXT[lang].square);
      const square = page.getByTestId('diagnosis-row').filter({ hasText: 'hoja.jpg' });
      const squareHeat = square.getByTestId('heatmap');
      await squareHeat.scrollIntoViewIfNeeded();
      await expect
        .poll(() =>
          squareHeat.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
        )
        .toBeGreaterThan(0);
      await expect(square.getByTestId('heatmap-square')).toHaveCount(0);
    });

    test(`a desktop (1280 px, ${lang}): /upload and the results after one press`, async ({
      userPage: page,
    }) => {
      await setLanguage(page, lang);
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto('/upload');
      await expect(page.getByTestId('device-readiness')).toHaveAttribute('data-state', 'offer');
      await page
        .getByLabel(TEXT[lang].pick)
        .setInputFiles([jpeg('retrato.jpg', await portraitLeaf())]);
      await expect(page.getByTestId('selection-list').locator('tbody tr')).toHaveCount(1);
      await shot(page, `first-minutes-upload-${lang}-1280`);
      await page.getByRole('button', { name: TEXT[lang].press, exact: true }).click();
      await expect(page.getByTestId('answer-item')).toHaveCount(1, { timeout: 30_000 });
      await expect(page.getByTestId('heatmap-square')).toContainText(TEXT[lang].square);
      await expectAccessible(page, `/Get_predict at 1280 px (${lang})`);
      await shot(page, `first-minutes-results-${lang}-1280`);
    });
  }

  test('/Get_predict opened anew shows the latest results at once', async ({ userPage: page }) => {
    await page.goto('/upload');
    await onePress(page, 'es', [jpeg('tizon.jpg', asset('late_blight_leaf.jpg'))]);
    await page.goto('/');
    await page.goto('/Get_predict');
    await expect(page.getByTestId('diagnosis-row')).toHaveCount(1);
    await expect(page.getByTestId('answer-label')).toHaveText('Tizón tardío');
    await expect(page.getByRole('button', { name: 'Mostrar el diagnóstico' })).toBeVisible();
  });
});

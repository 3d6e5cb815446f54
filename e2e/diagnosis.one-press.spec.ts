// The grower's path, on a phone (390 × 844): from the camera to a diagnosis in one press.
// 'Diagnosticar' on /upload sends the photos, identifies them with the model the person chose
// or, never having chosen, the server's default one, and opens /Get_predict with the
// diagnosis shown: for one field photo and for twenty, in Spanish and English, and on the
// device without signal. From the signed-in home it takes three actions. A refused photo is
// taken again or cropped from its card, and only that photo gets a new answer.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { Page } from '@playwright/test';
import { FIELD_PHOTO_CAUTION } from '../packages/contracts/src/diagnosis.ts';
import { fieldLikeJpeg, notLeafJpeg, otherCropJpeg } from '../apps/server/src/testing/photos.ts';
import { expect, expectAccessible, setLanguage, shot, test } from './fixtures.ts';

const assets = path.join(import.meta.dirname, 'assets');
const asset = (name: string) => fs.readFileSync(path.join(assets, name));
const jpeg = (name: string, buffer: Buffer) => ({ name, mimeType: 'image/jpeg', buffer });

/** The late-blight leaf at 300 px in a corner of a flat blue 1200 × 900 photo: not recognised. */
async function leafSmallInFrame(): Promise<Buffer> {
  const leaf = await sharp(asset('late_blight_leaf.jpg')).resize(300, 300).toBuffer();
  return sharp({ create: { width: 1200, height: 900, channels: 3, background: '#0000ff' } })
    .composite([{ input: leaf, left: 100, top: 100 }])
    .jpeg({ quality: 92 })
    .toBuffer();
}

/** A diagnosis or a refusal is shown for each photo named (within the 30 s). */
async function answered(page: Page, names: string[]): Promise<void> {
  await expect(page).toHaveURL(/\/Get_predict$/, { timeout: 30_000 });
  const rows = page.getByTestId('diagnosis-row');
  await expect(rows).toHaveCount(names.length, { timeout: 30_000 });
  const shown = await rows.getByRole('heading', { level: 2 }).allInnerTexts();
  expect(
    shown.map((s) => s.replace(/en este dispositivo|on this device/, '').trim()).sort(),
  ).toEqual([...names].sort());
  for (const label of await rows.getByTestId('row-label').all()) {
    await expect(label).toHaveText(/\S/);
  }
}

const phone = { viewport: { width: 390, height: 844 } };

test.describe('one press: from the photo to the diagnosis', () => {
  test.use(phone);
  test.describe.configure({ timeout: 180_000 });

  test('a first-time user: one field photo, "Diagnosticar", the diagnosis shown', async ({
    userPage: page,
  }) => {
    // never visited /Custom
    expect(await (await page.request.get('/diagrodl/post_custom/')).json()).toEqual({
      config: null,
    });
    await page.goto('/upload');
    await page
      .getByLabel(/Elige una o varias fotos/)
      .setInputFiles(jpeg('tizon-campo.jpg', await fieldLikeJpeg()));
    await expect(page.getByTestId('selection-list').locator('tbody tr')).toHaveCount(1);
    // the specification's buttons are all there, beside the new one
    await expect(page.getByRole('button', { name: 'Subir imágenes seleccionadas' })).toBeVisible();
    await expect(
      page.getByRole('button', { name: 'Identificar y diagnosticar imágenes' }),
    ).toBeDisabled();
    const press = page.getByRole('button', { name: 'Diagnosticar', exact: true });
    await expect(press).toHaveClass(/btn-primary/);
    await expectAccessible(page, '/upload with "Diagnosticar"');
    await shot(page, 'one-press-upload-es-phone');
    await press.click();

    await answered(page, ['tizon-campo.jpg']);
    const row = page.getByTestId('diagnosis-row');
    await expect(row.getByTestId('row-label')).toHaveText('Tizón tardío');
    await expect(row.getByTestId('row-caution')).toHaveText(FIELD_PHOTO_CAUTION.es);
    // a diagnosis links to its disease page and to the history
    await expect(row.getByRole('link', { name: 'Qué hacer: Tizón tardío' })).toHaveAttribute(
      'href',
      '/Late_blight#prevention',
    );
    await expect(row.getByRole('link', { name: /^Ver en mi historial/ })).toHaveAttribute(
      'href',
      '/Historial',
    );
    // the specification's buttons of /Get_predict stay
    await expect(page.getByRole('button', { name: 'Mostrar el diagnóstico' })).toBeVisible();
    await expect(
      page.getByRole('button', { name: 'Descargar el reporte del diagnóstico (PDF)' }),
    ).toBeVisible();
    // the server's default model was configured for this person
    const models = (await (await page.request.get('/diagrodl/models/')).json()) as {
      id: string;
      modeloVersion: string;
      isDefault?: boolean;
    }[];
    const byDefault = models.find((m) => m.isDefault)!;
    expect(byDefault).toBeDefined();
    expect(await (await page.request.get('/diagrodl/post_custom/')).json()).toMatchObject({
      config: { modelo_version: byDefault.modeloVersion, modelId: byDefault.id },
    });
    await expectAccessible(page, '/Get_predict after "Diagnosticar"');
    await shot(page, 'one-press-results-es-phone');
  });

  test('a second press shows its photo first, the earlier one after it', async ({
    userPage: page,
  }) => {
    const press = page.getByRole('button', { name: 'Diagnosticar', exact: true });
    await page.goto('/upload');
    await page
      .getByLabel(/Elige una o varias fotos/)
      .setInputFiles(jpeg('gato.jpg', await notLeafJpeg()));
    await press.click();
    await answered(page, ['gato.jpg']);
    // one photo of this press only: no groups
    await expect(page.getByTestId('results-earlier')).toHaveCount(0);

    await page.goto('/upload');
    await page
      .getByLabel(/Elige una o varias fotos/)
      .setInputFiles(jpeg('tizon-campo.jpg', await fieldLikeJpeg()));
    await press.click();
    await answered(page, ['gato.jpg', 'tizon-campo.jpg']);
    await expect(page.getByTestId('results-fresh')).toHaveText('La foto de esta vez');
    await expect(page.getByTestId('results-earlier')).toHaveText(
      'Una foto anterior, aún en esta identificación',
    );
    const names = page.getByTestId('diagnosis-row').getByRole('heading', { level: 2 });
    await expect(names.first()).toHaveText('tizon-campo.jpg');
    await expect(names.last()).toHaveText('gato.jpg');
    await expectAccessible(page, '/Get_predict with an earlier photo');
  });

  test('twenty photos in one press', async ({ userPage: page }) => {
    const sources = [
      ['late_blight_leaf.jpg', asset('late_blight_leaf.jpg')],
      ['early_blight_leaf.jpg', asset('early_blight_leaf.jpg')],
      ['hoja sana.jpg', asset('hoja sana.jpg')],
      ['tizon-campo.jpg', await fieldLikeJpeg()],
      ['gato.jpg', await notLeafJpeg()],
      ['pimiento.jpg', await otherCropJpeg()],
    ] as const;
    const files = Array.from({ length: 20 }, (_, i) => {
      const [name, buffer] = sources[i % sources.length]!;
      return jpeg(`${String(i + 1).padStart(2, '0')}-${name.replace(' ', '-')}`, buffer);
    });
    await page.goto('/upload');
    await page.getByLabel(/Elige una o varias fotos/).setInputFiles(files);
    await expect(page.getByTestId('selection-list').locator('tbody tr')).toHaveCount(20);
    await page.getByRole('button', { name: 'Diagnosticar', exact: true }).click();
    // the progress is shown while it works
    await expect(page.getByTestId('predict-status')).toBeVisible();
    await answered(
      page,
      files.map((f) => f.name),
    );
    await expect(page.getByTestId('results-summary')).toBeVisible();
    expect(await (await page.request.get('/diagrodl/posts/')).json()).toHaveLength(20);
    expect(await (await page.request.get('/diagrodl/pending/')).json()).toEqual([]);
  });

  test('the English page: "Diagnose"', async ({ userPage: page }) => {
    await setLanguage(page, 'en');
    await page.goto('/upload');
    await page
      .getByLabel(/Choose one or more leaf photos/)
      .setInputFiles(jpeg('late_blight_leaf.jpg', asset('late_blight_leaf.jpg')));
    await expectAccessible(page, '/upload in English');
    await page.getByRole('button', { name: 'Diagnose', exact: true }).click();
    await answered(page, ['late_blight_leaf.jpg']);
    const row = page.getByTestId('diagnosis-row');
    await expect(row.getByTestId('row-label')).toHaveText('Late blight');
    await expect(row.getByRole('link', { name: /^See in my history/ })).toBeVisible();
    await expect(page.getByTestId('results-summary')).toContainText('1 diagnosis');
    await shot(page, 'one-press-results-en-phone');
  });

  test('from the signed-in home to a shown diagnosis in three actions', async ({
    userPage: page,
  }) => {
    // every action the person takes: a click, or photos chosen in a file field
    await page.addInitScript(() => {
      const log = (what: string) => {
        const all = JSON.parse(sessionStorage.getItem('actions') ?? '[]') as string[];
        sessionStorage.setItem('actions', JSON.stringify([...all, what]));
      };
      window.addEventListener(
        'click',
        (e) => {
          if (!e.isTrusted) return;
          const el = (e.target as Element).closest('a,button,input,label');
          log(`click ${el?.textContent?.trim() ?? (e.target as Element).tagName}`);
        },
        true,
      );
      window.addEventListener(
        'change',
        (e) => {
          const el = e.target as HTMLInputElement;
          if (el.type === 'file') log(`choose ${el.files?.length ?? 0}`);
        },
        true,
      );
    });
    await page.goto('/');
    await expect(page.getByTestId('welcome-variant')).toBeVisible();
    // the first action offered
    const first = page.locator('main').getByRole('link').first();
    await expect(first).toHaveText('Diagnosticar una hoja');
    await expectAccessible(page, 'the signed-in home');
    await shot(page, 'one-press-home-es-phone');

    await first.click(); // 1: open
    await expect(page).toHaveURL(/\/upload\?photo=take$/);
    const camera = page.getByTestId('camera-input');
    await expect(camera).toBeFocused();
    await expect(camera).toHaveAttribute('capture', 'environment');
    await camera.setInputFiles(jpeg('hoja.jpg', asset('early_blight_leaf.jpg'))); // 2: choose
    await page.getByRole('button', { name: 'Diagnosticar', exact: true }).click(); // 3: press
    await answered(page, ['hoja.jpg']);
    await expect(page.getByTestId('diagnosis-row').getByTestId('row-label')).toHaveText(
      'Tizón temprano',
    );

    const actions = JSON.parse(
      (await page.evaluate(() => sessionStorage.getItem('actions'))) ?? '[]',
    ) as string[];
    expect(actions).toEqual(['click Diagnosticar una hoja', 'choose 1', 'click Diagnosticar']);
    expect(actions.length).toBeLessThanOrEqual(3);
  });

  test('a visitor is sent to log in first, then lands on /upload ready for the photo', async ({
    page,
  }) => {
    await page.goto('/');
    await page.getByRole('link', { name: 'Diagnosticar una hoja' }).click();
    await expect(page).toHaveURL(/\/Login_session\?next=%2Fupload%3Fphoto%3Dtake$/);
  });

  test('a refused photo: another photo, or a crop, and only that photo is identified again', async ({
    userPage: page,
  }) => {
    await page.goto('/upload');
    await page
      .getByLabel(/Elige una o varias fotos/)
      .setInputFiles([
        jpeg('planta.jpg', await leafSmallInFrame()),
        jpeg('gato.jpg', await notLeafJpeg()),
        jpeg('tizon.jpg', asset('late_blight_leaf.jpg')),
      ]);
    await page.getByRole('button', { name: 'Diagnosticar', exact: true }).click();
    await answered(page, ['planta.jpg', 'gato.jpg', 'tizon.jpg']);
    const rows = page.getByTestId('diagnosis-row');
    const card = (name: string) => rows.filter({ hasText: name });
    const rowId = (name: string) => card(name).getAttribute('data-row-id');

    // not recognised: 'Tomar otra foto' and 'Recortar'; not a tomato leaf: what the tool diagnoses
    await expect(card('planta.jpg')).toHaveAttribute('data-reason', 'low_confidence');
    await expect(card('planta.jpg').getByTestId('row-label')).toHaveText(
      'No reconocido con confianza',
    );
    await expect(card('gato.jpg')).toHaveAttribute('data-reason', 'not_leaf');
    await expect(card('gato.jpg').getByTestId('row-hint')).toContainText(
      'Esta herramienta solo diagnostica hojas de tomate',
    );
    await expect(card('gato.jpg').getByRole('button', { name: /^Recortar/ })).toHaveCount(0);
    await expect(card('tizon.jpg').getByRole('button')).toHaveCount(0);
    await expectAccessible(page, '/Get_predict with refused photos');
    await card('planta.jpg').scrollIntoViewIfNeeded();
    await shot(page, 'one-press-refused-es-phone');

    // 'Recortar': the crop dialog on that photo, then a new answer for it only
    const before = { gato: await rowId('gato.jpg'), tizon: await rowId('tizon.jpg') };
    const planta = await rowId('planta.jpg');
    await card('planta.jpg')
      .getByRole('button', { name: /^Recortar\s*: planta\.jpg$/ })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Recortar la foto a la hoja' });
    await expect(dialog.getByTestId('crop-box')).toBeVisible();
    // a quarter of the shorter side (225 px), then a click on the leaf's centre (250, 250)
    await dialog.getByLabel('Tamaño del recorte').fill('25');
    const frame = (await dialog.getByTestId('crop-frame').boundingBox())!;
    await page.mouse.click(
      frame.x + (250 / 1200) * frame.width,
      frame.y + (250 / 900) * frame.height,
    );
    await expectAccessible(page, 'the crop dialog on a result');
    await dialog.getByRole('button', { name: 'Recortar', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('results-again')).toHaveText(
      'planta.jpg: nueva respuesta lista.',
      { timeout: 30_000 },
    );
    await expect(rows).toHaveCount(3);
    const recropped = card('planta.jpg');
    await expect(recropped).not.toHaveAttribute('data-row-id', planta!);
    await expect(recropped.getByTestId('row-label')).toHaveText(/\S/);
    // the card stayed in its place; the other photos kept their answers
    await expect(rows.first()).toContainText('planta.jpg');
    expect({ gato: await rowId('gato.jpg'), tizon: await rowId('tizon.jpg') }).toEqual(before);
    const server = (await (await page.request.get('/diagrodl/posts/')).json()) as {
      id: number;
      name_img: string;
    }[];
    expect(server.map((r) => r.name_img).sort()).toEqual(['gato.jpg', 'planta.jpg', 'tizon.jpg']);
    expect(server.map((r) => String(r.id))).not.toContain(planta);
    // the history keeps the first answer too
    expect(await (await page.request.get('/diagrodl/history/')).json()).toHaveLength(4);
    await shot(page, 'one-press-recropped-es-phone');

    // 'Tomar otra foto': the camera on a phone (a file field with capture), for that photo only
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      card('gato.jpg')
        .getByRole('button', { name: /^Tomar otra foto\s*: gato\.jpg$/ })
        .click(),
    ]);
    expect(await chooser.element().getAttribute('capture')).toBe('environment');
    await chooser.setFiles(jpeg('hoja-nueva.jpg', asset('hoja sana.jpg')));
    await expect(page.getByTestId('results-again')).toHaveText(
      'hoja-nueva.jpg: nueva respuesta lista.',
      { timeout: 30_000 },
    );
    await expect(rows).toHaveCount(3);
    await expect(card('gato.jpg')).toHaveCount(0);
    await expect(card('hoja-nueva.jpg').getByTestId('row-label')).toHaveText('Sana');
    expect(await rowId('tizon.jpg')).toBe(before.tizon);
  });
});

test.describe('one press on the device, without signal', () => {
  test.use(phone);
  test.describe.configure({ timeout: 300_000 });

  test('the photos are kept and diagnosed on the phone, and the diagnosis shown', async ({
    userPage: page,
    context,
  }) => {
    // online once: the tool's home keeps the model on the device when asked
    await page.goto('/DiAgroDL');
    await page.getByTestId('device-download').click();
    await expect(page.getByTestId('device-readiness')).toHaveAttribute('data-state', 'ready', {
      timeout: 120_000,
    });
    // on to /upload inside the app (a reload without signal needs the service worker, which
    // offline.spec.ts tests)
    await page.evaluate(() => {
      history.pushState({}, '', '/upload');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect(page.getByRole('heading', { level: 1, name: 'Subir imágenes' })).toBeVisible();

    // with signal, diagnosing on the device chosen
    await page.getByLabel('Diagnosticar en este dispositivo (sin enviar las fotos ahora)').check();
    await page
      .getByLabel(/Elige una o varias fotos/)
      .setInputFiles(jpeg('tizon.jpg', asset('late_blight_leaf.jpg')));
    await page.getByRole('button', { name: 'Diagnosticar', exact: true }).click();
    await answered(page, ['tizon.jpg']);

    // without signal
    await page.goBack();
    await expect(page).toHaveURL(/\/upload$/);
    await context.setOffline(true);
    await expect(page.getByTestId('device-mode-note')).toContainText('Sin conexión');
    await page
      .getByLabel(/Elige una o varias fotos/)
      .setInputFiles(jpeg('temprano.jpg', asset('early_blight_leaf.jpg')));
    await page.getByRole('button', { name: 'Diagnosticar', exact: true }).click();
    await answered(page, ['tizon.jpg', 'temprano.jpg']);
    const rows = page.getByTestId('diagnosis-row');
    await expect(rows.filter({ hasText: 'temprano.jpg' }).getByTestId('row-label')).toHaveText(
      'Tizón temprano',
    );
    // kept on the phone until the signal returns (the first one may have been sent already)
    await expect(rows.filter({ hasText: 'temprano.jpg' }).getByTestId('row-device')).toHaveText(
      'en este dispositivo',
    );
    await expectAccessible(page, '/Get_predict on the device, offline');
    await shot(page, 'one-press-device-es-phone');
    await context.setOffline(false);
  });
});

test.describe('one press on a desktop', () => {
  test.use({ viewport: { width: 1366, height: 900 } });

  test("the button beside the specification's, and the results", async ({ userPage: page }) => {
    await page.goto('/upload');
    await page
      .getByLabel(/Elige una o varias fotos/)
      .setInputFiles(jpeg('planta.jpg', await leafSmallInFrame()));
    await shot(page, 'one-press-upload-es-desktop');
    await page.getByRole('button', { name: 'Diagnosticar', exact: true }).click();
    await answered(page, ['planta.jpg']);
    await expect(page.getByRole('button', { name: /^Tomar otra foto/ })).toBeVisible();
    await shot(page, 'one-press-results-es-desktop');
  });
});

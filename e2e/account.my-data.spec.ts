// "Mis datos" on a phone (390 px): the user downloads their archive (a zip with the expected
// entries) and deletes their account from the page; afterwards they cannot log in; axe clean.
import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import yauzl from 'yauzl';
import { AUTH_MESSAGES } from '../packages/contracts/src/login.ts';
import { MY_DATA_MESSAGES as M } from '../packages/contracts/src/accounts.ts';
import { readOutbox } from '../apps/server/src/testing/mail-reader.ts';
import { MAIL_DIR } from './playwright.config.ts';
import {
  createUser,
  expect,
  expectAccessible,
  loginViaApi,
  setLanguage,
  shot,
  test,
  uniqueUserName,
} from './fixtures.ts';

const PASSWORD = 'Clave-Segura-2026';
const LEAF = fs.readFileSync(path.join(import.meta.dirname, 'assets', 'late_blight_leaf.jpg'));

/** The entry names of a zip file. */
function zipEntries(file: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: false }, (err, zip) => {
      if (err) return reject(err);
      const names: string[] = [];
      zip.on('entry', (e: yauzl.Entry) => names.push(e.fileName));
      zip.on('end', () => resolve(names.sort()));
      zip.on('error', reject);
    });
  });
}

/** One photo identified through the API (the diagnosis pages are not what this spec tests). */
async function oneDiagnosis(request: APIRequestContext): Promise<void> {
  const csrf = (await request.storageState()).cookies.find((c) => c.name === 'csrftoken')?.value;
  const headers = { 'X-CSRFToken': csrf ?? '' };
  const config = await request.post('/diagrodl/post_custom/', {
    headers,
    multipart: {
      cultivo: 'tomate',
      nivel: 'hoja',
      tipo_modelo: 'DL',
      modelo_version: 'tomato_leaf_cnn_mobilenet',
    },
  });
  expect(config.status(), await config.text()).toBe(200);
  const upload = await request.post('/diagrodl/posts/', {
    headers,
    multipart: {
      image: { name: 'hoja tizón.jpg', mimeType: 'image/jpeg', buffer: LEAF },
      name_img: 'hoja tizón.jpg',
    },
  });
  expect(upload.status(), await upload.text()).toBe(200);
  const predict = await request.post('/diagrodl/posts_predict/?wait=1', {
    headers,
    multipart: { image: 'pending' },
  });
  expect(await predict.json()).toMatchObject({ total: 1 });
}

async function askToDelete(page: Page, password: string): Promise<void> {
  await page.getByLabel('Tu contraseña').fill(password);
  await page.getByLabel(/Entiendo que se borrarán mi cuenta/).check();
  await page.getByRole('button', { name: 'Borrar mi cuenta', exact: true }).click();
  await expect(page.getByRole('dialog', { name: '¿Borrar tu cuenta?' })).toBeVisible();
}

test.describe('Mis datos', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('a user downloads their archive and deletes their account at 390 px', async ({ page }) => {
    const userName = uniqueUserName('datos');
    createUser(userName, PASSWORD);
    await loginViaApi(page.request, userName, PASSWORD);
    await oneDiagnosis(page.request);

    await page.goto('/About');
    await expect(page.getByTestId('about-your-data')).toContainText('Por cuánto tiempo');
    // About lists every tool there is
    await expect(page.getByText(/^Programación del riego:/)).toBeVisible();
    await expect(page.getByText(/^Calendario de la temporada:/)).toBeVisible();
    await page.goto('/');
    await page.getByRole('button', { name: /Abrir el menú/ }).click();
    await page.getByRole('link', { name: 'Mis datos' }).click();
    await expect(page).toHaveURL(/\/Mis_datos$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Mis datos' })).toBeVisible();
    await expectAccessible(page, '/Mis_datos 390');
    await shot(page, 'my-data-es-390');

    // the archive: a zip with the README, the rows as JSON and CSV, the photo and its images
    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Descargar mis datos (.zip)' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(
      new RegExp(`^diagrodl-${userName}-\\d{4}-\\d{2}-\\d{2}\\.zip$`),
    );
    const file = test.info().outputPath('mis-datos.zip');
    await download.saveAs(file);
    expect(fs.readFileSync(file).subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
    const names = await zipEntries(file);
    expect(names.filter((n) => !n.includes('/'))).toEqual([
      'LEEME-README.txt',
      'diagnoses.csv',
      'diagnoses.json',
      'photos.csv',
      'photos.json',
      'profile.json',
    ]);
    for (const folder of ['photos/', 'heatmaps/', 'thumbnails/']) {
      expect(
        names.filter((n) => n.startsWith(folder)),
        folder,
      ).toHaveLength(1);
    }

    // a wrong password deletes nothing
    await askToDelete(page, 'No-Es-Mi-Clave-1');
    await expectAccessible(page, '/Mis_datos dialog 390');
    await shot(page, 'my-data-dialog-es-390');
    await page.getByRole('button', { name: 'Sí, borrar mi cuenta' }).click();
    await expect(page.getByRole('dialog', { name: '¿Borrar tu cuenta?' })).toBeHidden();
    await expect(page.getByTestId('my-data-message')).toHaveAttribute('data-state', 'danger');
    await expect(page.getByTestId('my-data-message')).toContainText(M.passwordWrong);

    // the right one, confirmed: the account is gone, a mail says so
    await askToDelete(page, PASSWORD);
    await page.getByRole('button', { name: 'Sí, borrar mi cuenta' }).click();
    // the signed-in shell goes at once: the home page says the account was deleted
    await expect(page.locator('[data-shell="public"]')).toBeVisible();
    await expect(page.getByTestId('landing-notice')).toContainText(M.deleted);
    await expect(page.getByText(/Hola,/)).toHaveCount(0);
    await expectAccessible(page, '/ after deletion 390');
    await shot(page, 'my-data-deleted-es-390');
    const email = `${userName.toLowerCase()}@example.test`;
    await expect
      .poll(() => readOutbox(MAIL_DIR).some((m) => m.to.includes(email)), { timeout: 15_000 })
      .toBe(true);
    expect(readOutbox(MAIL_DIR).find((m) => m.to.includes(email))!.subject).toBe(
      'Tu cuenta de DiAgroDL se borró',
    );

    await page.goto('/Login_session');
    await page.getByLabel('Nombre de usuario').fill(userName);
    await page.getByLabel('Contraseña', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await expect(page.getByTestId('login-message')).toContainText(AUTH_MESSAGES.badCredentials);
    await page.goto('/Mis_datos');
    await expect(page).toHaveURL(/\/Login_session\?next=/);
  });

  test('the page in English, and the registration text, at 390 px and on a desktop', async ({
    page,
  }) => {
    await setLanguage(page, 'en');
    const userName = uniqueUserName('mydata');
    createUser(userName, PASSWORD);
    await page.goto('/Create_account');
    await expect(page.getByText(/in “My data” \(Account menu\) you can download/)).toBeVisible();
    await loginViaApi(page.request, userName, PASSWORD);
    for (const [label, width] of [
      ['390', 390],
      ['desktop', 1280],
    ] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/Mis_datos');
      await expect(page.getByRole('heading', { level: 1, name: 'My data' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Download my data (.zip)' })).toBeVisible();
      await expectAccessible(page, `/Mis_datos en ${label}`);
      await shot(page, `my-data-en-${label}`);
    }
    // the checks of the form come before the question
    await page.getByRole('button', { name: 'Delete my account', exact: true }).click();
    await expect(page.getByTestId('my-data-message')).toContainText(
      'Enter your password to delete your account.',
    );
    await page.getByLabel('Your password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Delete my account', exact: true }).click();
    await expect(page.getByTestId('my-data-message')).toContainText(
      'Tick the box to confirm that you want to delete your account and all your data.',
    );
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });
});

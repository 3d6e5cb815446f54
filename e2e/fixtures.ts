import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, type Page, expect, test as base } from '@playwright/test';
import { E2E_DATA_DIR } from './playwright.config.ts';

const root = path.resolve(import.meta.dirname, '..');
export const SHOTS = path.join(root, 'e2e/.artifacts/screenshots');
fs.mkdirSync(SHOTS, { recursive: true });

let counter = 0;
/** A user name unique to this run (5-15 letters and digits). */
export function uniqueUserName(prefix = 'user'): string {
  counter += 1;
  return `${prefix}${process.pid % 1000}${counter}${Math.floor(Math.random() * 90 + 10)}`.slice(
    0,
    15,
  );
}

/** Creates an account straight in the e2e server's database (no e-mail step). */
export function createUser(userName: string, password: string, extra: string[] = []): void {
  execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      'apps/server/src/cli/create-user.ts',
      '--user',
      userName,
      '--password',
      password,
      '--first-name',
      'Ana',
      '--last-name',
      'Prueba',
      '--email',
      `${userName.toLowerCase()}@example.test`,
      ...extra,
    ],
    {
      cwd: root,
      env: { ...process.env, DATA_DIR: E2E_DATA_DIR, LOG_LEVEL: 'silent' },
      stdio: 'pipe',
    },
  );
}

/** Logs in through the real API; the browser context shares the cookies. */
export async function loginViaApi(
  request: APIRequestContext,
  userName: string,
  password: string,
): Promise<void> {
  await request.get('/api/session/');
  const state = await request.storageState();
  const csrf = state.cookies.find((c) => c.name === 'csrftoken')?.value ?? '';
  const res = await request.post('/api/login/', {
    data: { username: userName, password },
    headers: { 'X-CSRFToken': csrf },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** Zero serious or critical accessibility violations on the page as it is now. */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map(
      (v) =>
        `${label}: ${v.id} (${v.impact}) ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(' | ')}`,
    ),
  ).toEqual([]);
}

export async function setLanguage(page: Page, lang: 'es' | 'en'): Promise<void> {
  await page.addInitScript((l) => localStorage.setItem('diagrodl.lang', l), lang);
}

/**
 * The server's diagnosis flow with the MobileNet: /Custom, upload `files`, identify, wait until
 * 'Visualizar diagnóstico' appears (the run is done).
 */
export async function identifyOnServer(
  page: Page,
  files: { name: string; mimeType: string; buffer: Buffer }[],
): Promise<void> {
  await page.goto('/Custom');
  await page.getByLabel('Modelos').selectOption('tomato_leaf_cnn_mobilenet');
  await page.getByRole('button', { name: 'Enviar configuración' }).click();
  await page.getByRole('link', { name: 'Subir imágenes' }).click();

  await expect(page).toHaveURL(/\/upload$/);
  await page.getByLabel(/Elige una o varias fotos/).setInputFiles(files);
  await page.getByRole('button', { name: 'Subir imágenes seleccionadas' }).click();
  await expect(page.getByTestId('uploaded-list').locator('tbody tr')).toHaveCount(files.length);
  await page.getByRole('link', { name: 'Identificar y diagnosticar imágenes' }).click();

  await expect(page).toHaveURL(/\/Predict_rows$/);
  await page.getByRole('button', { name: 'Iniciar identificación' }).click();
  await expect(page.getByRole('link', { name: 'Visualizar diagnóstico' })).toBeVisible({
    timeout: 90_000,
  });
}

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/**
 * Every page scrolls instantly. Bootstrap makes the root scroll smoothly, and a click that follows
 * a fill far above the button could land while the page was still scrolling to it (the button's
 * place moved under the pointer and the form was not submitted).
 */
function instantScroll() {
  const add = () => {
    const style = document.createElement('style');
    style.textContent = 'html { scroll-behavior: auto !important; }';
    (document.head ?? document.documentElement).append(style);
  };
  if (document.documentElement) add();
  else document.addEventListener('DOMContentLoaded', add);
}

/** A page whose context is logged in as a fresh user. */
export const test = base.extend<{ userPage: Page; userName: string }>({
  page: async ({ page }, use) => {
    await page.addInitScript(instantScroll);
    await use(page);
  },
  userName: async ({}, use) => {
    await use(uniqueUserName('e2e'));
  },
  userPage: async ({ page, userName }, use) => {
    createUser(userName, 'Clave-Segura-2026');
    await loginViaApi(page.request, userName, 'Clave-Segura-2026');
    await use(page);
  },
});

export { expect };

/** A share as the Spanish pages show it: a percentage with one decimal (es-MX: "98.1%"). */
export function pct1(x: number): string {
  return new Intl.NumberFormat('es-MX', {
    style: 'percent',
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  }).format(x);
}

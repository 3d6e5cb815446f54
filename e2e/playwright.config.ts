import path from 'node:path';
import { defineConfig } from '@playwright/test';

const root = path.resolve(import.meta.dirname, '..');
// E2E_PORT (and E2E_PORT + 1 for the maintenance server) lets several runs share a machine;
// WEB_DIST / SERVER_DIST choose which build they serve (see scripts/build.mjs).
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8123);
export const MAINTENANCE_PORT = E2E_PORT + 1;
const artifacts = path.join(root, 'e2e/.artifacts', String(E2E_PORT));
export const E2E_DATA_DIR = path.join(artifacts, 'data');
// A real SMTP server (e2e/smtp-sink.mjs) on E2E_PORT + 2 (readiness on + 3) receives the mail
// of the main server; each message lands as an .eml file in MAIL_DIR.
export const SMTP_PORT = E2E_PORT + 2;
const SMTP_HTTP_PORT = E2E_PORT + 3;
export const MAIL_DIR = path.join(artifacts, 'mail');
const serverMain = path.resolve(root, process.env.SERVER_DIST ?? 'apps/server/dist', 'main.js');
const webDist = path.resolve(root, process.env.WEB_DIST ?? 'apps/web/dist');

const serve = (port: number, dataDir: string, extra = '') =>
  `rm -rf ${dataDir} && ${extra} PORT=${port} HOST=127.0.0.1 DATA_DIR=${dataDir} WEB_DIST=${webDist} LOG_LEVEL=warn node ${serverMain}`;

/** End-to-end tests: Debian's Chromium against the built app served by the real server. */
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: path.join(artifacts, 'results'),
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  // Safety nets, not speed checks: on a machine that slowed down (2026-11-24: the whole run took
  // 16.6 min instead of 4.5) the longest test under the default took 58.9 s of the old 60 s.
  timeout: 120_000,
  expect: { timeout: 20_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    locale: 'es-MX',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    // The app registers a service worker that precaches about 10 MB (the shell, the disease
    // images, the manual) on every first visit. Each test starts from a fresh profile, so with it
    // every test downloaded the whole precache while it ran. Only the offline journey needs it
    // (e2e/offline.spec.ts allows it again).
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: [
    {
      command: serve(E2E_PORT, E2E_DATA_DIR, `SMTP_URL=smtp://127.0.0.1:${SMTP_PORT}`),
      cwd: root,
      url: `http://127.0.0.1:${E2E_PORT}/api/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: serve(
        MAINTENANCE_PORT,
        path.join(root, 'e2e/.artifacts/data-maintenance'),
        'MAINTENANCE=1',
      ),
      cwd: root,
      url: `http://127.0.0.1:${MAINTENANCE_PORT}/favicon.svg`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: `SMTP_SINK_PORT=${SMTP_PORT} SMTP_SINK_HTTP_PORT=${SMTP_HTTP_PORT} SMTP_SINK_DIR=${MAIL_DIR} node e2e/smtp-sink.mjs`,
      cwd: root,
      url: `http://127.0.0.1:${SMTP_HTTP_PORT}/`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
});

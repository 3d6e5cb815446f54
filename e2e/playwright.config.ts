import path from 'node:path';
import { defineConfig } from '@playwright/test';

const root = path.resolve(import.meta.dirname, '..');
export const E2E_PORT = 8123;
export const MAINTENANCE_PORT = 8124;
export const E2E_DATA_DIR = path.join(root, 'e2e/.artifacts/data');

const serve = (port: number, dataDir: string, extra = '') =>
  `rm -rf ${dataDir} && ${extra} PORT=${port} HOST=127.0.0.1 DATA_DIR=${dataDir} LOG_LEVEL=warn node apps/server/dist/main.js`;

/** End-to-end tests: Debian's Chromium against the built app served by the real server. */
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: path.join(root, 'e2e/.artifacts/results'),
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    locale: 'es-MX',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
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
      command: serve(E2E_PORT, E2E_DATA_DIR),
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
  ],
});

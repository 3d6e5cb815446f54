// Shared by the benches that drive the built app in a browser (bench/device, bench/upload): the
// server of the build (SERVER_DIST, serving WEB_DIST, as the e2e tests choose them) on a port of
// its own with a throwaway data folder, a user made through the server's own CLI, Debian's
// headless Chromium, and a browser context logged in as that user.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';

export const root = path.resolve(import.meta.dirname, '../..');
export const webDist = path.resolve(root, process.env.WEB_DIST ?? 'apps/web/dist');
const serverMain = path.resolve(root, process.env.SERVER_DIST ?? 'apps/server/dist', 'main.js');
export const PASSWORD = 'Clave-Banco-2026';

/**
 * Starts the built server and makes `userName` an account on it. `stop()` ends the server and
 * removes its data.
 */
export async function startBuiltApp(userName) {
  const port = 19000 + Math.floor(Math.random() * 1000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'diagrodl-bench-'));
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [serverMain], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WEB_DIST: webDist,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = () => {
    server.kill('SIGTERM');
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/api/health`)).ok) break;
      } catch {
        /* not yet */
      }
      if (i > 600) throw new Error('the server did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
    execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        'apps/server/src/cli/create-user.ts',
        '--user',
        userName,
        '--password',
        PASSWORD,
        '--first-name',
        'Banco',
        '--last-name',
        'Prueba',
        '--email',
        `${userName.toLowerCase()}@example.test`,
      ],
      { cwd: root, env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, stdio: 'pipe' },
    );
  } catch (err) {
    stop();
    throw err;
  }
  return { base, stop };
}

/** Debian's Chromium, headless, with the flags the e2e tests use. */
export function launchChromium() {
  return chromium.launch({
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
  });
}

/** A new context of `browser` on `base`, logged in as `userName` through the real API. */
export async function loggedInContext(browser, base, userName, options = {}) {
  const context = await browser.newContext({ baseURL: base, ...options });
  const request = context.request;
  await request.get('/api/session/');
  const csrf = (await context.cookies()).find((c) => c.name === 'csrftoken')?.value ?? '';
  const login = await request.post('/api/login/', {
    data: { username: userName, password: PASSWORD },
    headers: { 'X-CSRFToken': csrf },
  });
  if (!login.ok()) throw new Error(`login failed: ${login.status()}`);
  return context;
}

/**
 * Whether the service worker has kept every file it lists (distinct URLs: the web manifest and
 * icons are listed twice). Polled by the caller: page.waitForFunction does not await an async
 * predicate (the Promise it gets is truthy, so it would return at once).
 */
export function precacheComplete(page) {
  return page.evaluate(async () => {
    const listed = (await (await fetch('/sw.js')).text()).match(/"url":"[^"]*"/g) ?? [];
    const wanted = new Set(listed).size;
    const name = (await caches.keys()).find((n) => n.includes('precache'));
    const have = name ? (await (await caches.open(name)).keys()).length : 0;
    return wanted > 0 && have >= wanted;
  });
}

/**
 * Helpers for the diagnosis API tests: logged-in browsers, test images, multipart forms,
 * polling the progress, and servers restarted on the same database and media folder.
 */
import { type SpawnSyncReturns, execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { DIAGNOSIS_PATHS } from '@diagrodl/contracts';
import { type App, type AppOptions, buildApp } from '../app.ts';
import { loadConfig, repoRoot } from '../config.ts';
import { withDefaultUser } from '../db/database.ts';
import { Browser, PG_URL, type TestServer, json, startTestServer } from './harness.ts';
import { createUserDirect } from './users.ts';

export const PASSWORD = 'Secreta-123456';

/** A SQLite test server on the shipped models (MODELS_DIR when set, else models/). */
export function startShippedModelServer(): Promise<TestServer> {
  return startTestServer(
    'sqlite',
    process.env.MODELS_DIR ? { MODELS_DIR: process.env.MODELS_DIR } : {},
  );
}

/** Runs the diagnose CLI (npm run -s diagnose) on the models of `modelsDir`; stdout and stderr as text. */
export function runDiagnoseCli(modelsDir: string, ...args: string[]): SpawnSyncReturns<string> {
  return spawnSync(
    path.join(repoRoot, 'node_modules', '.bin', 'tsx'),
    [path.join(repoRoot, 'apps', 'server', 'src', 'cli', 'diagnose.ts'), ...args],
    { cwd: repoRoot, env: { ...process.env, MODELS_DIR: modelsDir }, encoding: 'utf8' },
  );
}

/** Makes the user's PDF report through the API and returns its text (pdftotext), whitespace folded. */
export async function reportText(browser: Browser): Promise<string> {
  const { url } = await json(await browser.get(DIAGNOSIS_PATHS.makeReport));
  const pdf = Buffer.from(await (await browser.get(url)).arrayBuffer());
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'diagrodl-report-'));
  try {
    fs.writeFileSync(path.join(dir, 'r.pdf'), pdf);
    return execFileSync('pdftotext', [path.join(dir, 'r.pdf'), '-'])
      .toString()
      .replace(/\s+/g, ' ');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Creates a user and returns a browser logged in as that user. */
export async function loggedIn(
  app: App,
  baseUrl: string,
  userName: string,
  opts: { language?: string } = {},
): Promise<{ browser: Browser; userId: number }> {
  const userId = await createUserDirect(app.db, {
    userName,
    password: PASSWORD,
    language: opts.language,
  });
  const browser = new Browser(baseUrl);
  await browser.get('/api/session/');
  const res = await browser.post('/api/login/', {
    json: { username: userName, password: PASSWORD },
  });
  if (res.status !== 200) throw new Error(`login of ${userName} failed: ${res.status}`);
  return { browser, userId };
}

/** A leaf-like test photo (green ellipse with brown spots on grey), encoded as asked. */
export async function leafPhoto(
  opts: { width?: number; height?: number; seed?: number; format?: 'jpeg' | 'png' | 'webp' } = {},
): Promise<Buffer> {
  const w = opts.width ?? 160;
  const h = opts.height ?? 120;
  let s = opts.seed ?? 1;
  const raw = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      s = (s * 1103515245 + 12345) & 0x7fffffff;
      const o = (y * w + x) * 3;
      const leaf = (x - w / 2) ** 2 / (w * 0.35) ** 2 + (y - h / 2) ** 2 / (h * 0.4) ** 2 < 1;
      const spot = leaf && (s % 97 === 0 || (x * 7 + y * 3 + (opts.seed ?? 1)) % 41 === 0);
      raw[o] = spot ? 130 : leaf ? 40 + (s % 30) : 150;
      raw[o + 1] = spot ? 70 : leaf ? 120 + ((s >> 8) % 50) : 150;
      raw[o + 2] = spot ? 20 : leaf ? 35 : 160;
    }
  }
  const img = sharp(raw, { raw: { width: w, height: h, channels: 3 } });
  const format = opts.format ?? 'jpeg';
  if (format === 'png') return img.png().toBuffer();
  if (format === 'webp') return img.webp().toBuffer();
  return img.jpeg({ quality: 85 }).toBuffer();
}

/** multipart body of POST /diagrodl/posts/ as the page sends it. */
export function uploadForm(
  bytes: Buffer,
  name: string,
  opts: { type?: string; nameImg?: string | null } = {},
): FormData {
  const fd = new FormData();
  fd.append('image', new Blob([new Uint8Array(bytes)], { type: opts.type ?? 'image/jpeg' }), name);
  if (opts.nameImg !== null) fd.append('name_img', opts.nameImg ?? name);
  return fd;
}

export function configForm(modeloVersion: string, over: Record<string, string> = {}): FormData {
  const fd = new FormData();
  const fields = {
    cultivo: 'tomate',
    nivel: 'hoja',
    tipo_modelo: 'DL',
    modelo_version: modeloVersion,
    ...over,
  };
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  return fd;
}

/** multipart body of POST /diagrodl/posts_predict/ as the page sends it; `ids` names the photos. */
export function predictForm(opts: { ids?: string } = {}): FormData {
  const fd = new FormData();
  fd.append('image', 'pending');
  fd.append('report', 'no');
  if (opts.ids !== undefined) fd.append('ids', opts.ids);
  return fd;
}

/** Polls GET /diagrodl/progress/ until the run is no longer running. */
export async function waitForRun(browser: Browser, timeoutMs = 60_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const p = await json(await browser.get(DIAGNOSIS_PATHS.progress));
    if (p.state !== 'running') return p;
    if (Date.now() > end) throw new Error(`identification still running: ${JSON.stringify(p)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Files (recursively) under a folder, relative paths; [] when it does not exist. */
export function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => fs.statSync(path.join(dir, f)).isFile())
    .sort();
}

/** A database + data folder that outlive one server, for restart tests. */
export interface Place {
  kind: 'sqlite' | 'postgres';
  dataDir: string;
  schema?: string;
  env: Record<string, string>;
}

export function newPlace(kind: 'sqlite' | 'postgres', env: Record<string, string>): Place {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'diagrodl-restart-'));
  const schema =
    kind === 'postgres' ? `r_${process.pid}_${Math.random().toString(36).slice(2, 10)}` : undefined;
  return { kind, dataDir, schema, env };
}

/** Starts a server on a place (same database, same media) with app options. */
export async function startAt(
  place: Place,
  options: AppOptions = {},
): Promise<{ app: App; baseUrl: string }> {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: place.dataDir,
    LOG_LEVEL: 'silent',
    ...(place.schema ? { DATABASE_URL: `${PG_URL}?schema=${place.schema}` } : {}),
    ...place.env,
  });
  const app = await buildApp(config, options);
  await app.server.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { app, baseUrl: `http://127.0.0.1:${port}` };
}

export async function removePlace(place: Place): Promise<void> {
  if (place.schema) {
    const client = new pg.Client({ connectionString: withDefaultUser(PG_URL).toString() });
    await client.connect();
    await client.query(`drop schema if exists ${place.schema} cascade`);
    await client.end();
  }
  fs.rmSync(place.dataDir, { recursive: true, force: true });
}

/** A browser for another server sharing the same session (same cookies). */
export function sameSession(from: Browser, baseUrl: string): Browser {
  const b = new Browser(baseUrl);
  for (const name of ['sessionid', 'csrftoken']) {
    const v = from.cookie(name);
    if (v) b.setCookie(name, v);
  }
  return b;
}

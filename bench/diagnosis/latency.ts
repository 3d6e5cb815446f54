/**
 * Does identification block the server for everyone else? (README: Design in a page, the identification queue; goal: under 100 ms p99)
 * One server process (embedded mode, the shipped models); user A uploads 50 twelve-megapixel
 * photos (4000 x 3000 JPEG) and identifies them with the server's default model, while user B asks GET /api/session/ over and
 * over (one request at a time, 20 ms apart). Prints B's latency (p50, p95, p99, max) while idle
 * and while A's identification runs, and how long the identification took.
 *
 *   npx tsx bench/diagnosis/latency.ts [--photos 50]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import {
  DIAGNOSIS_PATHS as P,
  type LoadedModelDetails,
} from '../../packages/contracts/src/index.ts';
import { repoRoot } from '../../apps/server/src/config.ts';
import type { Browser } from '../../apps/server/src/testing/harness.ts';
import {
  configForm,
  leafPhoto,
  predictForm,
  uploadForm,
} from '../../apps/server/src/testing/diagnosis.ts';
import {
  createUser,
  freePort,
  kill9,
  logIn,
  numberOption,
  quantile,
  startServer,
} from '../lib/servers.ts';

const PHOTOS = numberOption('--photos', 50);
const SHARED = path.resolve(repoRoot, '..', 'shared', 'data', 'plantvillage-tomato');

/** A 12-megapixel field-like photo: a PlantVillage leaf (or a synthetic one) enlarged, with grain. */
async function twelveMegapixels(): Promise<Buffer> {
  const folder = fs.existsSync(SHARED)
    ? fs.readdirSync(SHARED).find((f) => f.includes('Late_blight'))
    : undefined;
  const src = folder
    ? path.join(SHARED, folder, fs.readdirSync(path.join(SHARED, folder))[0]!)
    : await leafPhoto({ width: 400, height: 300 });
  const { data, info } = await sharp(src)
    .resize(4000, 3000)
    .raw()
    .toBuffer({ resolveWithObject: true });
  for (let i = 0; i < data.length; i += 7) data[i] = Math.min(255, data[i]! + (i % 13));
  return sharp(data, { raw: info }).jpeg({ quality: 90 }).toBuffer();
}

/** B's requests, one at a time, until `stop()` says so; returns the latencies in ms. */
async function sessionLatencies(browser: Browser, stop: () => boolean): Promise<number[]> {
  const out: number[] = [];
  while (!stop()) {
    const t = performance.now();
    const res = await browser.get('/api/session/');
    await res.arrayBuffer();
    out.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 20));
  }
  return out;
}

function summary(ms: number[]): string {
  const f = (v: number) => v.toFixed(1);
  return `n=${ms.length} p50 ${f(quantile(ms, 0.5))} ms, p95 ${f(quantile(ms, 0.95))} ms, p99 ${f(
    quantile(ms, 0.99),
  )} ms, max ${f(Math.max(...ms))} ms`;
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'diagrodl-latency-'));
const env = { DATA_DIR: work };
const port = await freePort();
const server = await startServer(port, env);
try {
  createUser(env, 'Identifier');
  createUser(env, 'Bystander1');
  const base = `http://127.0.0.1:${port}`;
  const a = await logIn(base, 'Identifier');
  const b = await logIn(base, 'Bystander1');
  const photo = await twelveMegapixels();
  const meta = await sharp(photo).metadata();
  console.log(
    `photo: ${meta.width} x ${meta.height} JPEG, ${(photo.length / 1e6).toFixed(1)} MB; ${PHOTOS} of them`,
  );
  // the model a person gets without choosing one (the server's default, `isDefault`)
  const models = (await (await a.get(P.models)).json()) as LoadedModelDetails[];
  const chosen = models.find((m) => m.isDefault) ?? models[0];
  if (!chosen) throw new Error('no model is loaded');
  console.log(`model: ${chosen.label} (the server's default)`);
  await a.post(P.config, { body: configForm(chosen.modeloVersion) });
  for (let i = 0; i < PHOTOS; i++) {
    const res = await a.post(P.posts, { body: uploadForm(photo, `field_${i}.jpg`) });
    if (res.status !== 200) throw new Error(`upload ${i}: ${res.status} ${await res.text()}`);
  }
  const idleEnd = Date.now() + 5000;
  const idle = await sessionLatencies(b, () => Date.now() > idleEnd);
  console.log(`GET /api/session/ while idle:        ${summary(idle)}`);

  let running = true;
  const started = Date.now();
  const res = await a.post(P.predict, { body: predictForm() });
  if (res.status !== 200) throw new Error(`predict: ${res.status} ${await res.text()}`);
  const watcher = (async () => {
    for (;;) {
      const p = (await (await a.get(P.progress)).json()) as { state: string; done: number };
      if (p.state !== 'running') break;
      await new Promise((r) => setTimeout(r, 500));
    }
    running = false;
  })();
  const busy = await sessionLatencies(b, () => !running);
  await watcher;
  const seconds = (Date.now() - started) / 1000;
  console.log(`GET /api/session/ while identifying: ${summary(busy)}`);
  console.log(
    `identification of ${PHOTOS} photos: ${seconds.toFixed(1)} s (${(PHOTOS / seconds).toFixed(2)} photos/s, heatmaps and thumbnails included)`,
  );
  console.log(`goal: p99 under 100 ms -> ${quantile(busy, 0.99) < 100 ? 'met' : 'NOT met'}`);
} finally {
  await kill9(server);
  fs.rmSync(work, { recursive: true, force: true });
}

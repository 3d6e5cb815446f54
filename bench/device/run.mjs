// Diagnosis on the device (README: Installable and offline), in headless Chromium (Debian's /usr/bin/chromium) against
// the built app served by the real server. Prints:
//  - what a first visit downloads for offline use: the service worker's precache (app shell,
//    pages, disease images, manual) and the diagnosis pages' own cache (model, card, WebAssembly
//    runtime), in bytes of the files and in bytes as sent (each fetched again from the server
//    with the browser's Accept-Encoding, counting the body's bytes on the wire: brotli where the
//    build made a copy, scripts/precompress.mjs);
//  - the time to diagnose 20 photos in the browser (JPEG bytes to decision: decode, shared
//    preprocessing, onnxruntime-web WASM, shared decision rule), goal < 3 s, after a one-photo
//    warm-up that loads the model (printed apart), plus p50/p95 per photo.
// Run after `npm run build` (WEB_DIST / SERVER_DIST choose other builds, as for the e2e tests).
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import {
  launchChromium,
  loggedInContext,
  precacheComplete,
  root,
  startBuiltApp,
  webDist,
} from '../lib/built-app.mjs';

const MB = (n) => `${(n / 1024 / 1024).toFixed(2)} MB`;

/** The bytes the server sends for `pathname` to a browser (Chromium's Accept-Encoding), undecoded. */
function bytesSent(base, pathname, cookie) {
  return new Promise((resolve, reject) => {
    const req = http.get(
      `${base}${pathname}`,
      { headers: { 'accept-encoding': 'gzip, deflate, br, zstd', cookie } },
      (res) => {
        let n = 0;
        res.on('data', (chunk) => (n += chunk.length));
        res.on('end', () => resolve({ n, encoding: res.headers['content-encoding'] ?? 'none' }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
  });
}

/** 20 photos: two of each PlantVillage class when the shared data is there, else the e2e photos. */
function photos() {
  const pv = path.resolve(root, '../shared/data/plantvillage-tomato');
  const out = [];
  if (fs.existsSync(pv)) {
    for (const dir of fs.readdirSync(pv).sort()) {
      const files = fs
        .readdirSync(path.join(pv, dir))
        .filter((f) => /\.jpe?g$/i.test(f))
        .sort();
      for (const f of files.slice(0, 2)) out.push(path.join(pv, dir, f));
    }
  }
  const assets = path.join(root, 'e2e/assets');
  const spare = fs.readdirSync(assets).filter((f) => f.endsWith('.jpg'));
  for (let i = 0; out.length < 20; i++) out.push(path.join(assets, spare[i % spare.length]));
  return out.slice(0, 20);
}

const app = await startBuiltApp('Banco0001');
const base = app.base;
try {
  const browser = await launchChromium();
  const context = await loggedInContext(browser, base, 'Banco0001');
  const page = await context.newPage();

  // first visit: the tool's page installs the app; the model is kept when asked for
  await page.goto('/Custom');
  await page.click('[data-testid="device-download"]');
  await page.waitForSelector('[data-testid="device-readiness"][data-state="ready"]', {
    timeout: 300_000,
  });
  // everything precached and the diagnosis hook loaded (polled: see precacheComplete)
  for (let waited = 0; ; waited += 500) {
    const hook = await page.evaluate(() => 'diagrodlDevice' in window);
    if (hook && (await precacheComplete(page))) break;
    if (waited > 300_000) throw new Error('the service worker did not precache everything');
    await page.waitForTimeout(500);
  }
  const sizes = await page.evaluate(async () => {
    const out = {};
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      const files = {};
      for (const req of await cache.keys()) {
        const res = await cache.match(req);
        files[new URL(req.url).pathname] = res ? (await res.blob()).size : 0;
      }
      out[name] = files;
    }
    return out;
  });
  const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  let device = 0;
  let deviceSent = 0;
  for (const [name, files] of Object.entries(sizes)) {
    if (!name.includes('ondevice')) continue;
    for (const [file, n] of Object.entries(files)) {
      const sent = await bytesSent(base, file, cookie);
      device += n;
      deviceSent += sent.n;
      console.log(`  on-device cache: ${file} ${MB(n)}, sent ${MB(sent.n)} (${sent.encoding})`);
    }
  }
  // the precache as the service worker lists it (sizes of the built files it fetches)
  const sw = fs.readFileSync(path.join(webDist, 'sw.js'), 'utf8');
  let precache = 0;
  let precacheJs = 0;
  let precacheSent = 0;
  let precacheJsSent = 0;
  let entries = 0;
  for (const m of sw.matchAll(/"url":"([^"]+)"/g)) {
    entries++;
    const rel = m[1].split('?')[0].replace(/^\//, '') || 'index.html';
    const file = path.join(webDist, rel);
    const n = fs.existsSync(file) ? fs.statSync(file).size : 0;
    const sent = (await bytesSent(base, `/${rel === 'index.html' ? '' : rel}`, cookie)).n;
    precache += n;
    precacheSent += sent;
    if (rel.endsWith('.js')) {
      precacheJs += n;
      precacheJsSent += sent;
    }
  }
  console.log(
    `first visit, offline diagnosis: model + card + WebAssembly runtime ${MB(device)}, sent ${MB(deviceSent)} (downloaded once, cached; not in the landing page's JavaScript)`,
  );
  console.log(
    `first visit, service worker precache: ${entries} files, ${MB(precache)}, sent ${MB(precacheSent)} (of which JavaScript ${MB(precacheJs)}, sent ${MB(precacheJsSent)}; app shell, every page, disease images, manual)`,
  );
  console.log(
    `first visit, total for everything offline: ${MB(device + precache)} in files, ${MB(deviceSent + precacheSent)} as sent`,
  );

  const list = photos().map((f) => ({
    b64: fs.readFileSync(f).toString('base64'),
    type: 'image/jpeg',
  }));
  const run = (items) =>
    page.evaluate(async (items) => {
      const hook = window.diagrodlDevice;
      const photos = items.map((p) => ({
        bytes: Uint8Array.from(atob(p.b64), (c) => c.charCodeAt(0)),
        type: p.type,
      }));
      const t0 = performance.now();
      const results = await hook.diagnose(photos);
      return { total: performance.now() - t0, results };
    }, items);
  const warm = await run(list.slice(0, 1));
  console.log(
    `model load + first photo (onnxruntime-web session from the cache): ${warm.total.toFixed(0)} ms`,
  );
  const rounds = [];
  for (let r = 0; r < 3; r++) rounds.push(await run(list));
  const totals = rounds.map((x) => x.total).sort((a, b) => a - b);
  const per = rounds.flatMap((x) => x.results.map((y) => y.ms)).sort((a, b) => a - b);
  const q = (p) => per[Math.min(per.length - 1, Math.floor(p * per.length))];
  const refused = rounds[0].results.filter((x) => x.reason).length;
  console.log(
    `20 photos on the device (headless Chromium, WASM, 1 thread): median of 3 runs ${(totals[1] / 1000).toFixed(2)} s (runs ${totals.map((t) => (t / 1000).toFixed(2)).join(', ')} s; goal < 3 s); per photo p50 ${q(0.5).toFixed(0)} ms, p95 ${q(0.95).toFixed(0)} ms; ${refused} of 20 not accepted`,
  );
  await browser.close();
} finally {
  app.stop();
}

// What /upload transfers when a signed-in person opens it with no photo chosen (issue 71: goal
// <= 1 MB; it used to fetch the 8.4 MB on-device model by itself), in headless Chromium (Debian's
// /usr/bin/chromium) against the built app served by the real server, with an empty browser cache.
// Prints:
//  - the page itself (the service worker blocked): requests and bytes as sent (headers and the
//    body as it came over the wire, compressed where the server compressed it), the largest
//    files, and how many requests were for a model file (.onnx) or its runtime (.wasm): 0;
//  - the same visit with the service worker allowed, as on a person's first visit to the app:
//    what the worker adds by keeping the app for offline use (its precache: the app shell, every
//    page, the disease images, the manual; never the model, which bench/device counts).
// Run after `npm run build` (WEB_DIST / SERVER_DIST choose other builds, as for the e2e tests).
import {
  launchChromium,
  loggedInContext,
  precacheComplete,
  startBuiltApp,
} from '../lib/built-app.mjs';

const USER = 'Banco0002';
const KB = (n) => `${(n / 1024).toFixed(1)} KB`;
const MB = (n) => `${(n / 1024 / 1024).toFixed(2)} MB`;
const isModelFile = (url) => /\.(onnx|wasm)$/.test(new URL(url).pathname);

/** Opens /upload in a fresh context logged in as the bench user; resolves with what it fetched. */
async function openUpload(browser, base, serviceWorkers) {
  const context = await loggedInContext(browser, base, USER, { serviceWorkers });
  const page = await context.newPage();
  const requests = [];
  const finished = [];
  context.on('request', (r) => requests.push(r));
  context.on('requestfinished', (r) => finished.push(r));
  await page.goto('/upload');
  // the page has read what it reads by itself: its offer of the model, with the model's size
  await page.waitForSelector('[data-testid="device-download"]');
  await page.waitForLoadState('networkidle');
  if (serviceWorkers === 'allow') {
    // until the worker has kept the whole app
    for (let waited = 0; !(await precacheComplete(page)); waited += 500) {
      if (waited > 300_000) throw new Error('the service worker did not precache everything');
      await page.waitForTimeout(500);
    }
    await page.waitForLoadState('networkidle');
  }
  const files = [];
  for (const r of finished) {
    const s = await r.sizes();
    files.push({
      url: r.url(),
      worker: r.serviceWorker() !== null,
      sent: s.responseHeadersSize + s.responseBodySize,
    });
  }
  await context.close();
  return { requests: requests.map((r) => r.url()), files };
}

const app = await startBuiltApp(USER);
try {
  const browser = await launchChromium();

  const page = await openUpload(browser, app.base, 'block');
  const total = page.files.reduce((a, f) => a + f.sent, 0);
  const models = page.requests.filter(isModelFile);
  console.log(
    `/upload opened (signed in, no photo chosen, empty cache, service worker blocked): ${page.requests.length} requests, ${KB(total)} as sent (goal <= 1 MB: ${total <= 1024 * 1024 ? 'met' : 'NOT met'}); model or runtime files requested: ${models.length}${models.length ? ` (${models.join(', ')})` : ''}`,
  );
  for (const f of [...page.files].sort((a, b) => b.sent - a.sent).slice(0, 5)) {
    console.log(`  ${KB(f.sent).padStart(9)}  ${new URL(f.url).pathname}`);
  }

  const first = await openUpload(browser, app.base, 'allow');
  const byWorker = first.files.filter((f) => f.worker).reduce((a, f) => a + f.sent, 0);
  const ownPage = first.files.filter((f) => !f.worker).reduce((a, f) => a + f.sent, 0);
  console.log(
    `the same visit as a first visit to the app (service worker allowed): the page ${KB(ownPage)}, and the worker keeping the app for offline use ${MB(byWorker)} more; model or runtime files requested: ${first.requests.filter(isModelFile).length}`,
  );
  await browser.close();
} finally {
  app.stop();
}

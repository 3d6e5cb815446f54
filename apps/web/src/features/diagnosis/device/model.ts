/**
 * The shipped MobileNet in the browser (onnxruntime-web, WebAssembly): the same model file and
 * card the server loaded, fetched from the product itself, checked against the card's sha256,
 * and kept in the Cache Storage so they are downloaded once and work offline afterwards.
 * Nothing here is in the landing page's JavaScript: onnxruntime-web is imported on first use.
 */
import wasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.wasm?url';
import { DECODED_LENGTH, DEVICE_MODEL_ID, DEVICE_PATHS } from '@diagrodl/contracts';
import { CLASS_IDS } from '@diagrodl/contracts/classes';
import { inputProblem } from '@diagrodl/contracts/inference/preprocess';
import { missingRuleOutput } from '@diagrodl/contracts/inference/decision';
import { type ModelCard, parseModelCard } from '@diagrodl/contracts/model-card';

type Ort = typeof import('onnxruntime-web/wasm');
type Session = Awaited<ReturnType<Ort['InferenceSession']['create']>>;

/** Cache Storage bucket for the model, its card and the WebAssembly runtime. */
export const DEVICE_CACHE = 'diagrodl-ondevice-v1';
export const MODEL_URL = DEVICE_PATHS.model(DEVICE_MODEL_ID);
export const CARD_URL = DEVICE_PATHS.card(DEVICE_MODEL_ID);
export const WASM_URL = wasmUrl;

export interface DeviceModel {
  ort: Ort;
  session: Session;
  card: ModelCard;
}

export interface DownloadProgress {
  loaded: number;
  /** 0 while unknown. */
  total: number;
}

let loading: Promise<DeviceModel> | null = null;
const listeners = new Set<(p: DownloadProgress) => void>();
let progress: DownloadProgress = { loaded: 0, total: 0 };

function report(p: DownloadProgress): void {
  progress = p;
  for (const l of listeners) l(p);
}

/** Follows the download of the model and runtime (returns the unsubscribe function). */
export function onDownloadProgress(fn: (p: DownloadProgress) => void): () => void {
  listeners.add(fn);
  fn(progress);
  return () => listeners.delete(fn);
}

async function sha256Hex(bytes: ArrayBuffer): Promise<string> {
  // a view, not the buffer itself: also accepted where the buffer comes from another realm (tests)
  const digest = await crypto.subtle.digest('SHA-256', new Uint8Array(bytes));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Reads a response body, reporting each chunk. */
async function readBody(res: Response, onBytes: (n: number) => void): Promise<ArrayBuffer> {
  if (!res.body) {
    const buf = await res.arrayBuffer();
    onBytes(buf.byteLength);
    return buf;
  }
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    size += value.length;
    onBytes(value.length);
  }
  const out = new Uint8Array(size);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out.buffer;
}

/** A card's JSON, checked against what this app knows (its classes, its input). */
function checkedCard(json: unknown): ModelCard {
  const card = parseModelCard(json);
  if (card.classes.join() !== CLASS_IDS.join()) throw new Error('the card lists other classes');
  const problem = inputProblem(card.input);
  if (problem) throw new Error(problem);
  return card;
}

/** The card kept in the cache (null when none is, or it is no longer usable). */
async function keptCard(cache: Cache): Promise<ModelCard | null> {
  const res = await cache.match(CARD_URL);
  if (!res) return null;
  try {
    return checkedCard(await res.json());
  } catch (err) {
    console.warn('the kept on-device model card is not usable', err);
    return null;
  }
}

/**
 * The card on the server (null when offline or it does not answer), with its text: not cached
 * here, only once its model is (see files), so an interrupted update keeps the pair that worked.
 */
async function freshCard(): Promise<{ card: ModelCard; text: string } | null> {
  if (!navigator.onLine) return null;
  let res: Response;
  try {
    res = await fetch(CARD_URL, { cache: 'no-cache', credentials: 'same-origin' });
  } catch {
    return null;
  }
  if (!res.ok) return null;
  const text = await res.text();
  return { card: checkedCard(JSON.parse(text)), text };
}

/**
 * A file from the cache if there and `valid`, else downloaded (and cached) when `download`
 * is allowed.
 */
async function cachedBytes(
  cache: Cache,
  url: string,
  valid: (bytes: ArrayBuffer) => Promise<boolean>,
  onBytes: (n: number, total: number) => void,
  download: boolean,
): Promise<ArrayBuffer> {
  const hit = await cache.match(url);
  if (hit) {
    const bytes = await hit.arrayBuffer();
    if (await valid(bytes)) return bytes;
  }
  if (!download || !navigator.onLine) throw new Error('offline-not-ready');
  const res = await fetch(url, { credentials: 'same-origin' });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  // A compressed download: Content-Length counts the bytes on the wire, the body gives the decoded
  // ones; the server says their size apart (0: not known).
  const encoded = res.headers.get('Content-Encoding') !== null;
  const total = Number(
    res.headers.get(DECODED_LENGTH) ?? (encoded ? 0 : res.headers.get('Content-Length')) ?? 0,
  );
  const bytes = await readBody(res, (n) => onBytes(n, total));
  if (!(await valid(bytes))) throw new Error(`${url}: the file does not match its card`);
  await cache.put(
    url,
    new Response(bytes, { headers: { 'Content-Type': res.headers.get('Content-Type') ?? '' } }),
  );
  return bytes;
}

interface Files {
  card: ModelCard;
  model: ArrayBuffer;
  wasm: ArrayBuffer;
}

/** The model file (checked against `card`) and the runtime, from the cache or downloaded. */
async function filesFor(cache: Cache, card: ModelCard, download: boolean): Promise<Files> {
  let modelLoaded = 0;
  let wasmLoaded = 0;
  let wasmTotal = 0;
  const tick = () =>
    report({ loaded: modelLoaded + wasmLoaded, total: card.file.size_bytes + wasmTotal });
  const [model, wasm] = await Promise.all([
    cachedBytes(
      cache,
      MODEL_URL,
      async (b) =>
        b.byteLength === card.file.size_bytes && (await sha256Hex(b)) === card.file.sha256,
      (n) => {
        modelLoaded += n;
        tick();
      },
      download,
    ),
    cachedBytes(
      cache,
      WASM_URL,
      async (b) => b.byteLength > 0,
      (n, total) => {
        wasmLoaded += n;
        wasmTotal = total;
        tick();
      },
      download,
    ),
  ]);
  return { card, model, wasm };
}

/**
 * The card, the model file (checked against the card) and the runtime, from cache or network.
 * A new card on the server is cached only after its model was downloaded, checked and cached;
 * until then (an update interrupted, the server's card unusable) the pair kept before is used.
 */
async function files(): Promise<Files> {
  const cache = await caches.open(DEVICE_CACHE);
  const kept = await keptCard(cache);
  let got: Files | null = null;
  try {
    const fresh = await freshCard();
    if (fresh) {
      got = await filesFor(cache, fresh.card, true);
      await cache.put(
        CARD_URL,
        new Response(fresh.text, { headers: { 'Content-Type': 'application/json' } }),
      );
    }
  } catch (err) {
    if (!kept) throw err;
    console.warn('on-device model update failed: the model kept on this device is used', err);
    try {
      got = await filesFor(cache, kept, false);
    } catch {
      throw err;
    }
  }
  if (!got) {
    if (!kept) throw new Error('offline-not-ready');
    got = await filesFor(cache, kept, navigator.onLine);
  }
  // older runtimes (another hashed file name) are not kept
  for (const req of await cache.keys()) {
    const path = new URL(req.url).pathname;
    if (![MODEL_URL, CARD_URL, WASM_URL].includes(path)) await cache.delete(req);
  }
  const size = got.model.byteLength + got.wasm.byteLength;
  report({ loaded: size, total: size });
  return got;
}

let preparing: Promise<void> | null = null;

/** Makes sure the model and the runtime are on the device (downloads them once), without running them. */
export function prepareDeviceModel(): Promise<void> {
  preparing ??= files()
    .then(() => undefined)
    .finally(() => {
      preparing = null;
    });
  return preparing;
}

/**
 * A session of a model file in onnxruntime-web's WebAssembly runtime (`wasm`: its binary), one
 * thread on the page's own thread: how the device model runs, and what its tests run.
 */
export async function createDeviceSession(
  ort: Ort,
  model: ArrayBuffer | Uint8Array,
  wasm: ArrayBuffer | Uint8Array,
): Promise<Session> {
  ort.env.wasm.wasmBinary = wasm;
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.proxy = false;
  return ort.InferenceSession.create(new Uint8Array(model), {
    executionProviders: ['wasm'],
    graphOptimizationLevel: 'all',
  });
}

async function load(): Promise<DeviceModel> {
  const { card, model, wasm } = await files();
  const ort = await import('onnxruntime-web/wasm');
  const session = await createDeviceSession(ort, model, wasm);
  for (const name of ['input']) {
    if (!session.inputNames.includes(name)) throw new Error(`the model has no '${name}' input`);
  }
  for (const name of ['probabilities', 'cam']) {
    if (!session.outputNames.includes(name)) throw new Error(`the model has no '${name}' output`);
  }
  const missing = missingRuleOutput(card.rejection, session.outputNames);
  if (missing)
    throw new Error(
      `the card has ${missing.phrase} but the model has no '${missing.output}' output`,
    );
  return { ort, session, card };
}

/** The model, ready to run (loaded once per page; downloaded once per device). */
export function loadDeviceModel(): Promise<DeviceModel> {
  loading ??= load().catch((err: unknown) => {
    loading = null;
    throw err;
  });
  return loading;
}

/** Whether the model, its card and the runtime are all in the cache (diagnosis works offline). */
export async function deviceModelCached(): Promise<boolean> {
  if (!('caches' in window)) return false;
  const cache = await caches.open(DEVICE_CACHE);
  const hits = await Promise.all([MODEL_URL, CARD_URL, WASM_URL].map((u) => cache.match(u)));
  return hits.every(Boolean);
}

/**
 * The size in bytes of the model file a download would fetch, from its card (the one cached, else
 * the server's; the card is a small JSON file, never the model): what the page says before the
 * person chooses to download it. Null when it cannot be known now.
 */
export async function deviceModelBytes(): Promise<number | null> {
  const kept = await cachedDeviceCard();
  if (kept) return kept.file.size_bytes;
  try {
    return (await freshCard())?.card.file.size_bytes ?? null;
  } catch {
    return null;
  }
}

/** The on-device model's card as last cached (null when none is, or it does not parse): no network. */
export async function cachedDeviceCard(): Promise<ModelCard | null> {
  if (!('caches' in window)) return null;
  try {
    const res = await (await caches.open(DEVICE_CACHE)).match(CARD_URL);
    return res ? parseModelCard(await res.json()) : null;
  } catch {
    return null;
  }
}

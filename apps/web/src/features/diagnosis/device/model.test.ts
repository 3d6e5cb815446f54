// The on-device model's files in the Cache Storage (model.ts): a new card from the server is
// kept only once its model was downloaded, checked against it and cached, so an update that is
// interrupted leaves the pair that worked offline before.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CARD_URL,
  MODEL_URL,
  WASM_URL,
  onDownloadProgress,
  prepareDeviceModel,
  type DownloadProgress,
} from './model.ts';

const SHIPPED = JSON.parse(
  fs.readFileSync(
    path.resolve(import.meta.dirname, '../../../../../../models/mobilenet.card.json'),
    'utf8',
  ),
) as { file: Record<string, unknown> };

const bytes = (s: string) => new TextEncoder().encode(s);

/** The shipped card, made for a model file whose content is `model`. */
function cardFor(model: string): string {
  const b = bytes(model);
  return JSON.stringify({
    ...SHIPPED,
    file: {
      ...SHIPPED.file,
      size_bytes: b.byteLength,
      sha256: createHash('sha256').update(b).digest('hex'),
    },
  });
}

/** A Cache Storage with one cache, by path. */
const stored = new Map<string, Response>();
const pathOf = (u: RequestInfo | URL) =>
  new URL(String(u instanceof Request ? u.url : u), 'http://localhost').pathname;
const cache = {
  match: async (u: RequestInfo | URL) => stored.get(pathOf(u))?.clone(),
  put: async (u: RequestInfo | URL, res: Response) => void stored.set(pathOf(u), res.clone()),
  keys: async () => [...stored.keys()].map((p) => new Request(`http://localhost${p}`)),
  delete: async (u: RequestInfo | URL) => stored.delete(pathOf(u)),
};

async function text(url: string): Promise<string | undefined> {
  return (await cache.match(url))?.text();
}

/** What the server answers: a card, and a model file (or a dropped connection). */
function server(card: string, model: string | null) {
  const fetchMock = vi.fn(async (u: RequestInfo | URL) => {
    const p = pathOf(u);
    if (p === pathOf(CARD_URL)) return new Response(card, { status: 200 });
    if (p === pathOf(MODEL_URL)) {
      if (model === null) throw new TypeError('Failed to fetch');
      return new Response(bytes(model), { status: 200 });
    }
    if (p === pathOf(WASM_URL)) return new Response(bytes('wasm'), { status: 200 });
    return new Response('', { status: 404 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

beforeEach(async () => {
  stored.clear();
  vi.stubGlobal('caches', { open: async () => cache });
  // the pair that works offline now
  await cache.put(CARD_URL, new Response(cardFor('old model')));
  await cache.put(MODEL_URL, new Response(bytes('old model')));
  await cache.put(WASM_URL, new Response(bytes('wasm')));
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('an update of the on-device model', () => {
  it('interrupted: the card and model that worked before stay, and are used', async () => {
    server(cardFor('new model'), null);
    await prepareDeviceModel();
    expect(await text(CARD_URL)).toBe(cardFor('old model'));
    expect(await text(MODEL_URL)).toBe('old model');
  });

  it('a model that does not match the new card: the old pair stays', async () => {
    server(cardFor('new model'), 'broken download');
    await prepareDeviceModel();
    expect(await text(CARD_URL)).toBe(cardFor('old model'));
    expect(await text(MODEL_URL)).toBe('old model');
  });

  it('completed: the new card is kept with its model', async () => {
    server(cardFor('new model'), 'new model');
    await prepareDeviceModel();
    expect(await text(CARD_URL)).toBe(cardFor('new model'));
    expect(await text(MODEL_URL)).toBe('new model');
  });

  it('the same card: the cached model is not downloaded again', async () => {
    const fetchMock = server(cardFor('old model'), 'old model');
    await prepareDeviceModel();
    expect(fetchMock.mock.calls.map(([u]) => pathOf(u))).toEqual([pathOf(CARD_URL)]);
  });
});

describe('the download’s progress', () => {
  it('counts a compressed runtime by the size it decodes to, not the bytes on the wire', async () => {
    stored.clear();
    const runtime = 'the WebAssembly runtime, decoded';
    const fetchMock = vi.fn(async (u: RequestInfo | URL) => {
      const p = pathOf(u);
      if (p === pathOf(CARD_URL)) return new Response(cardFor('new model'));
      if (p === pathOf(MODEL_URL)) return new Response(bytes('new model'));
      // as the server sends its brotli copy: Content-Length of the compressed bytes
      return new Response(bytes(runtime), {
        headers: {
          'Content-Encoding': 'br',
          'Content-Length': '9',
          'X-Decoded-Content-Length': String(runtime.length),
        },
      });
    });
    vi.stubGlobal('fetch', fetchMock);
    const seen: DownloadProgress[] = [];
    const stop = onDownloadProgress((p) => seen.push({ ...p }));
    await prepareDeviceModel();
    stop();
    const last = seen[seen.length - 1]!;
    expect(last.total).toBe(bytes('new model').byteLength + runtime.length);
    expect(last.loaded).toBe(last.total);
    expect(seen.every((p) => p.loaded <= p.total)).toBe(true);
  });
});

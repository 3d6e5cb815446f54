// Diagnosis on the device (README.md beside this file, "Diagnoses made on a device"): the model file and card the browser runs, and the upload of
// diagnoses made offline (idempotent by the device's id, the photo checked as an upload is).
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DEVICE_MESSAGES as D,
  DEVICE_MODEL_ID,
  DEVICE_PATHS,
  DIAGNOSIS_MESSAGES as M,
  DIAGNOSIS_PATHS as P,
  type DeviceResult,
  HISTORY_LIMIT,
  NOT_LEAF,
  UPLOAD_LIMITS,
} from '@diagrodl/contracts';
import { describeEachDatabase, json } from '../../testing/harness.ts';
import { leafPhoto, loggedIn, newPlace, removePlace, startAt } from '../../testing/diagnosis.ts';
import { makeModelsDir } from '../../testing/tiny-model.ts';

const result = (over: Partial<DeviceResult> = {}): DeviceResult => ({
  label: 'late_blight',
  probability: 0.91,
  accepted: true,
  reason: null,
  leaf_probability: 0.999,
  top3: [
    { label: 'late_blight', probability: 0.91 },
    { label: 'early_blight', probability: 0.05 },
    { label: 'target_spot', probability: 0.02 },
  ],
  model: DEVICE_MODEL_ID,
  diagnosed_at: '2026-11-20T10:00:00.000Z',
  ...over,
});

function deviceForm(
  photo: Buffer,
  fields: { client_id?: string; name_img?: string; result?: unknown; type?: string },
): FormData {
  const fd = new FormData();
  if (fields.client_id !== undefined) fd.append('client_id', fields.client_id);
  fd.append('name_img', fields.name_img ?? 'hoja campo.jpg');
  fd.append(
    'result',
    typeof fields.result === 'string' ? fields.result : JSON.stringify(fields.result ?? result()),
  );
  fd.append(
    'image',
    new Blob([new Uint8Array(photo)], { type: fields.type ?? 'image/jpeg' }),
    fields.name_img ?? 'hoja campo.jpg',
  );
  return fd;
}

describeEachDatabase('diagnosis on the device', (ctx) => {
  it('serves the loaded model file and its card byte for byte, with an ETag', async () => {
    const { baseUrl, config } = ctx();
    const identity = { 'accept-encoding': 'identity' };
    const res = await fetch(`${baseUrl}${DEVICE_PATHS.model(DEVICE_MODEL_ID)}`, {
      headers: identity,
    });
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    const onDisk = fs.readFileSync(path.join(config.modelsDir, `${DEVICE_MODEL_ID}.onnx`));
    expect(bytes.equals(onDisk)).toBe(true);
    const etag = res.headers.get('etag');
    expect(etag).toBe(`"${createHash('sha256').update(onDisk).digest('hex')}"`);
    const again = await fetch(`${baseUrl}${DEVICE_PATHS.model(DEVICE_MODEL_ID)}`, {
      headers: { ...identity, 'If-None-Match': etag! },
    });
    expect(again.status).toBe(304);

    const card = await fetch(`${baseUrl}${DEVICE_PATHS.card(DEVICE_MODEL_ID)}`);
    expect(card.status).toBe(200);
    expect(await card.text()).toBe(
      fs.readFileSync(path.join(config.modelsDir, `${DEVICE_MODEL_ID}.card.json`), 'utf8'),
    );
    // a model this server does not have, and the ensemble (no file of its own): 404
    expect((await fetch(`${baseUrl}${DEVICE_PATHS.model('resnet18')}`)).status).toBe(404);
    expect((await fetch(`${baseUrl}${DEVICE_PATHS.model('ensemble')}`)).status).toBe(404);
    expect((await fetch(`${baseUrl}/diagrodl/device/models/..%2Fx.onnx`)).status).toBe(404);
  });

  it('sends the model brotli-compressed to a browser that accepts it, the same bytes once decoded', async () => {
    const { baseUrl, config } = ctx();
    const onDisk = fs.readFileSync(path.join(config.modelsDir, `${DEVICE_MODEL_ID}.onnx`));
    const url = `${baseUrl}${DEVICE_PATHS.model(DEVICE_MODEL_ID)}`;
    const res = await fetch(url, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(Number(res.headers.get('content-length'))).toBeLessThan(onDisk.length);
    expect(res.headers.get('x-decoded-content-length')).toBe(String(onDisk.length));
    // fetch decodes it: the model's own bytes
    expect(Buffer.from(await res.arrayBuffer()).equals(onDisk)).toBe(true);
    const etag = res.headers.get('etag')!;
    expect(etag).toBe(`"${createHash('sha256').update(onDisk).digest('hex')}-br"`);
    const again = await fetch(url, {
      headers: { 'accept-encoding': 'gzip, deflate, br', 'If-None-Match': etag },
    });
    expect(again.status).toBe(304);
    // br refused (q=0): the file as it is
    const plain = await fetch(url, { headers: { 'accept-encoding': 'gzip, br;q=0' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(Buffer.from(await plain.arrayBuffer()).equals(onDisk)).toBe(true);
  });

  it('keeps a diagnosis made offline once, however often the device sends it', async () => {
    const { app, baseUrl } = ctx();
    const { browser } = await loggedIn(app, baseUrl, 'Campo0001');
    const photo = await leafPhoto({ seed: 3 });
    const id = randomUUID();

    const first = await browser.post(DEVICE_PATHS.diagnoses, {
      body: deviceForm(photo, { client_id: id }),
    });
    expect(first.status).toBe(200);
    const a = await json(first);
    expect(a).toMatchObject({ status: 'OK', duplicate: false });

    // a retry (the reply was lost) and two at once: still one entry
    const retries = await Promise.all(
      [0, 1, 2].map(() =>
        browser.post(DEVICE_PATHS.diagnoses, { body: deviceForm(photo, { client_id: id }) }),
      ),
    );
    for (const r of retries) {
      expect(r.status).toBe(200);
      expect(await json(r)).toMatchObject({ id: a.id, duplicate: true });
    }
    const notLeaf = randomUUID();
    const second = await browser.post(DEVICE_PATHS.diagnoses, {
      body: deviceForm(photo, {
        client_id: notLeaf,
        name_img: 'gato.jpg',
        result: result({
          label: 'healthy',
          probability: 0.4,
          accepted: false,
          reason: 'not_leaf',
          leaf_probability: 0.01,
        }),
      }),
    });
    expect(second.status).toBe(200);

    const history = await json(await browser.get(P.history));
    expect(history).toHaveLength(2);
    const mine = history.find((h: { client_id: string }) => h.client_id === id);
    expect(mine).toMatchObject({
      name_img: 'hoja_campo.jpg',
      label: 'late_blight',
      accepted: true,
      reason: null,
      model: DEVICE_MODEL_ID,
      created_at: '2026-11-20T10:00:00.000Z',
    });
    expect((await browser.get(mine.thumbnail)).status).toBe(200);
    expect(history.find((h: { client_id: string }) => h.client_id === notLeaf)).toMatchObject({
      reason: 'not_leaf',
      predict: NOT_LEAF.es,
    });

    // another user sending the same id stores their own copy, and never sees the first one
    const other = await loggedIn(app, baseUrl, 'Campo0002');
    const theirs = await other.browser.post(DEVICE_PATHS.diagnoses, {
      body: deviceForm(photo, { client_id: id }),
    });
    expect(await json(theirs)).toMatchObject({ duplicate: false });
    expect(await json(await other.browser.get(P.history))).toHaveLength(1);
  });

  it('lists the history by the date each diagnosis was made, a late-sent one in its place', async () => {
    const { app, baseUrl } = ctx();
    const { browser, userId } = await loggedIn(app, baseUrl, 'Campo0009');
    const photo = await leafPhoto({ seed: 5 });
    // sent in this order; made on the 20th, the 22nd and (sent last, kept offline) the 18th
    for (const [name, day] of [
      ['b.jpg', 20],
      ['c.jpg', 22],
      ['a.jpg', 18],
    ] as const) {
      const res = await browser.post(DEVICE_PATHS.diagnoses, {
        body: deviceForm(photo, {
          client_id: randomUUID(),
          name_img: name,
          result: result({ diagnosed_at: `2026-11-${day}T10:00:00.000Z` }),
        }),
      });
      expect(res.status).toBe(200);
    }
    const history = await json(await browser.get(P.history));
    expect(history.map((h: { name_img: string }) => h.name_img)).toEqual([
      'c.jpg',
      'b.jpg',
      'a.jpg',
    ]);

    // past HISTORY_LIMIT entries, the newest are listed, and forgetting them all forgets each
    const older = Array.from({ length: HISTORY_LIMIT }, (_, i) => ({
      user_id: userId,
      image_id: 0,
      name_img: `old${i}.jpg`,
      label: 'healthy',
      probability: 0.9,
      accepted: 1,
      top3: '[]',
      model: DEVICE_MODEL_ID,
      thumb_file: `t-old${i}.jpg`,
      created_at: new Date(Date.UTC(2026, 9, 1) + i * 60_000).toISOString(),
      reason: null,
      leaf_probability: null,
      lab_like: null,
      client_id: null,
    }));
    for (let i = 0; i < older.length; i += 200) {
      await app.db.kysely
        .insertInto('diagnosis_history')
        .values(older.slice(i, i + 200))
        .execute();
    }
    const listed = await json(await browser.get(P.history));
    expect(listed).toHaveLength(HISTORY_LIMIT);
    expect(listed.slice(0, 4).map((h: { name_img: string }) => h.name_img)).toEqual([
      'c.jpg',
      'b.jpg',
      'a.jpg',
      `old${HISTORY_LIMIT - 1}.jpg`,
    ]);
    const cleared = await json(await browser.request('DELETE', P.history));
    expect(cleared).toMatchObject({ status: 'OK', deleted: HISTORY_LIMIT + 3 });
    expect(await json(await browser.get(P.history))).toEqual([]);
  });

  it('checks the photo as an upload is checked, and the id and the result', async () => {
    const { app, baseUrl } = ctx();
    const { browser } = await loggedIn(app, baseUrl, 'Campo0003');
    const photo = await leafPhoto({ seed: 4 });
    const send = (body: FormData) => browser.post(DEVICE_PATHS.diagnoses, { body });

    const text = Buffer.from('not a photo at all');
    let r = await send(deviceForm(text, { client_id: randomUUID(), type: 'image/jpeg' }));
    expect(r.status).toBe(415);
    expect((await json(r)).detail).toBe(M.badType);
    const huge = Buffer.concat([photo, Buffer.alloc(UPLOAD_LIMITS.maxBytes)]);
    r = await send(deviceForm(huge, { client_id: randomUUID() }));
    expect(r.status).toBe(413);
    r = await send(deviceForm(photo, { client_id: 'not-a-uuid' }));
    expect(r.status).toBe(400);
    r = await send(deviceForm(photo, {}));
    expect(r.status).toBe(400);
    r = await send(deviceForm(photo, { client_id: randomUUID(), result: '{"label":"cat"}' }));
    expect(r.status).toBe(400);
    r = await send(
      deviceForm(photo, {
        client_id: randomUUID(),
        result: result({ accepted: true, reason: 'not_leaf' }),
      }),
    );
    expect(r.status).toBe(400);
    r = await send(deviceForm(photo, { client_id: randomUUID(), name_img: '../../etc/passwd' }));
    expect(r.status).toBe(400);
    // a date no diagnosis can have: before the product, or ahead of the server's clock by days
    for (const diagnosed_at of ['9999-12-31T23:59:59+14:00', '0000-01-01T00:00:00+14:00']) {
      r = await send(
        deviceForm(photo, { client_id: randomUUID(), result: result({ diagnosed_at }) }),
      );
      expect(r.status, diagnosed_at).toBe(400);
      expect((await json(r)).detail, diagnosed_at).toBe(D.badDate);
    }
    // no photo, the photo under another field's name, or two photos
    const noPhoto = deviceForm(photo, { client_id: randomUUID() });
    noPhoto.delete('image');
    r = await send(noPhoto);
    expect(r.status).toBe(400);
    expect((await json(r)).detail).toBe(M.noFile);
    const otherName = deviceForm(photo, { client_id: randomUUID() });
    otherName.set('foto', otherName.get('image')!);
    otherName.delete('image');
    r = await send(otherName);
    expect((await json(r)).detail).toBe(M.noFile);
    const two = deviceForm(photo, { client_id: randomUUID() });
    two.append('img2', two.get('image')!);
    r = await send(two);
    expect(r.status).toBe(400);
    expect((await json(r)).detail).toBe(M.oneFileOnly);
    expect(await json(await browser.get(P.history))).toHaveLength(0);

    // a visitor, and a call without the CSRF header
    const anon = await fetch(`${baseUrl}${DEVICE_PATHS.diagnoses}`, {
      method: 'POST',
      body: deviceForm(photo, { client_id: randomUUID() }),
    });
    expect([401, 403]).toContain(anon.status);
    const noCsrf = await browser.request('POST', DEVICE_PATHS.diagnoses, {
      body: deviceForm(photo, { client_id: randomUUID() }),
      csrf: false,
    });
    expect(noCsrf.status).toBe(403);
  });
});

describe('the device model files while a new model waits for a restart', () => {
  const modelsDir = makeModelsDir(['mobilenet']);
  const place = newPlace('sqlite', { MODELS_DIR: modelsDir });
  afterAll(async () => {
    await removePlace(place);
    fs.rmSync(modelsDir, { recursive: true, force: true });
  });

  it('serves only the loaded model and its card: 503 once the files on disk are others', async () => {
    const server = await startAt(place);
    try {
      const get = (url: string, headers: Record<string, string> = {}) =>
        fetch(`${server.baseUrl}${url}`, { headers });
      const onnx = path.join(modelsDir, 'mobilenet.onnx');
      const cardFile = path.join(modelsDir, 'mobilenet.card.json');
      const loaded = fs.readFileSync(onnx);
      const first = await get(DEVICE_PATHS.model('mobilenet'));
      expect(first.status).toBe(200);
      expect(Buffer.from(await first.arrayBuffer()).equals(loaded)).toBe(true);
      const etag = first.headers.get('etag')!;
      expect((await get(DEVICE_PATHS.card('mobilenet'))).status).toBe(200);

      // a new model and card copied in (the server still runs the old one until restarted)
      const other = Buffer.concat([loaded, Buffer.from('another model')]);
      fs.writeFileSync(onnx, other);
      const card = JSON.parse(fs.readFileSync(cardFile, 'utf8'));
      card.file.sha256 = createHash('sha256').update(other).digest('hex');
      card.file.size_bytes = other.length;
      fs.writeFileSync(cardFile, JSON.stringify(card));
      for (const url of [DEVICE_PATHS.model('mobilenet'), DEVICE_PATHS.card('mobilenet')]) {
        const res = await get(url, { 'Accept-Language': 'es' });
        expect(res.status, url).toBe(503);
        expect((await json(res)).detail, url).toBe(D.modelChanged);
      }
      // a device that holds the loaded model keeps it
      expect((await get(DEVICE_PATHS.model('mobilenet'), { 'If-None-Match': etag })).status).toBe(
        304,
      );
    } finally {
      await server.app.close();
    }
  });
});

// The diagnosis calls against the real server on SQLite and PostgreSQL, with a tiny untrained
// model built by the training pipeline (the shipped models' accuracy is never relied on).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { afterAll, expect, it } from 'vitest';
import {
  DIAGNOSIS_MESSAGES as M,
  DIAGNOSIS_PATHS as P,
  NOT_LEAF,
  NOT_LEAF_HINT,
  NOT_RECOGNISED,
  SERVER_MESSAGES,
} from '@diagrodl/contracts';
import { Browser, describeEachDatabase, json } from '../../testing/harness.ts';
import {
  configForm,
  leafPhoto,
  listFiles,
  loggedIn,
  predictForm,
  reportText,
  uploadForm,
  waitForRun,
} from '../../testing/diagnosis.ts';
import { makeModelsDir, writeEnsembleCard } from '../../testing/tiny-model.ts';

// mobilenet accepts everything (threshold 0); resnet50 accepts nothing (threshold 1).
const MODELS_DIR = makeModelsDir(['mobilenet', 'resnet50'], {
  threshold: { mobilenet: 0, resnet50: 1 },
  accuracy: { mobilenet: 0.975, resnet50: 0.5 },
});
// The ensemble's card for these two files: its threshold is the members' mean (0.5), so only its
// test accuracy (and a leaf threshold, unused: the tiny members have no leaf output) is new.
writeEnsembleCard(MODELS_DIR, ['mobilenet', 'resnet50'], {
  threshold: 0.5,
  leafThreshold: 0.5,
  accuracy: 0.925,
});

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

/** A few hundred bytes declaring a 20000x20000 RGB PNG (a decompression bomb's header). */
function bombPng(): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(20000, 0);
  ihdr.writeUInt32BE(20000, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', zlib.deflateSync(Buffer.alloc(60_001))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

afterAll(() => fs.rmSync(MODELS_DIR, { recursive: true, force: true }));

describeEachDatabase(
  'diagnosis API',
  (ctx) => {
    const media = (kind: string, userId: number) =>
      path.join(ctx().config.mediaDir, kind, String(userId));

    it('lists the loaded models publicly and in /api/health with their card accuracy', async () => {
      const models = await json(await fetch(`${ctx().baseUrl}${P.models}`));
      expect(models.map((m: { id: string }) => m.id)).toEqual([
        'resnet50',
        'mobilenet',
        'ensemble',
      ]);
      const mobilenet = models.find((m: { id: string }) => m.id === 'mobilenet');
      expect(mobilenet).toMatchObject({
        modeloVersion: 'tomato_leaf_cnn_mobilenet',
        label: 'MobileNet v1',
        testAccuracy: 0.975,
        fieldAccuracy: null, // the tiny model's card measured no field photos
        threshold: 0,
      });
      // its card holds the lab test split's figures only, so that is all the page can show
      expect(mobilenet.reliability.map((r: { set: string }) => r.set)).toEqual(['lab_test']);
      expect(mobilenet.reliability[0]).toMatchObject({ n: expect.any(Number), top1: 0.975 });
      // the ensemble's accuracy from its card (models/ensemble.card.json)
      expect(models.find((m: { id: string }) => m.id === 'ensemble')).toMatchObject({
        testAccuracy: 0.925,
        fieldAccuracy: null,
        threshold: 0.5,
        label: 'Ensemble (ResNet50 + MobileNet)',
        members: ['mobilenet', 'resnet50'],
        reliability: [
          {
            set: 'lab_test',
            n: 10,
            top1: 0.925,
            top1Ci95: [0, 1],
            acceptedShare: 1,
            accuracyAccepted: 0.925,
          },
        ],
      });
      const health = await json(await fetch(`${ctx().baseUrl}/api/health`));
      expect(health.models).toContainEqual({ id: 'mobilenet', accuracy: 0.975, status: 'loaded' });
      expect(health.models).toContainEqual({ id: 'ensemble', accuracy: 0.925, status: 'loaded' });
    });

    it('asks visitors to log in (401, Spanish detail) on every diagnosis call', async () => {
      const b = new Browser(ctx().baseUrl);
      await b.get('/api/session/');
      for (const [method, url] of [
        ['GET', P.posts],
        ['POST', P.posts],
        ['POST', P.config],
        ['POST', P.predict],
        ['GET', P.progress],
        ['GET', P.pending],
        ['GET', P.makeReport],
        ['POST', P.deleteRows],
        ['GET', P.history],
        ['GET', '/media/post_images/abc.jpg'],
      ] as const) {
        const res = await b.request(method, url, method === 'POST' ? { body: predictForm() } : {});
        expect(res.status, `${method} ${url}`).toBe(401);
        expect((await json(res)).detail).toBe(SERVER_MESSAGES.loginRequired);
      }
      const noCsrf = await b.post(P.posts, { body: predictForm(), csrf: false });
      expect(noCsrf.status).toBe(403);
    });

    it('accepts only tomate / hoja / DL and the loaded models, and stores the choice', async () => {
      const { browser } = await loggedIn(ctx().app, ctx().baseUrl, 'ConfigUser1');
      const cases: [Record<string, string>, string, number][] = [
        [{ cultivo: 'fresa' }, M.cropNotAvailable, 400],
        [{ nivel: 'fruta' }, M.levelNotAvailable, 400],
        [{ tipo_modelo: 'ML' }, M.typeNotAvailable, 400],
        [{ modelo_version: 'nope' }, M.modelUnknown, 400],
        [{ modelo_version: 'Tomato_leaf_cnn_vgg16' }, M.modelNotLoaded('VGG16 v1'), 400],
      ];
      for (const [over, detail, status] of cases) {
        const res = await browser.post(P.config, {
          body: configForm(over.modelo_version ?? 'tomato_leaf_cnn_mobilenet', over),
        });
        expect(res.status, JSON.stringify(over)).toBe(status);
        expect(await json(res)).toEqual({ status: 'ERROR', detail });
      }
      expect(await json(await browser.get(P.config))).toEqual({ config: null });
      const ok = await browser.post(P.config, { body: configForm('ensemble') });
      expect(ok.status).toBe(200);
      expect(await json(ok)).toEqual({
        status: 'OK',
        detail: M.configOk,
        config: {
          cultivo: 'tomate',
          nivel: 'hoja',
          tipo_modelo: 'DL',
          modelo_version: 'ensemble',
          modelId: 'ensemble',
        },
      });
      expect((await json(await browser.get(P.config))).config.modelId).toBe('ensemble');
    });

    it('runs the whole flow: upload, remove one, identify with progress, rows with heatmaps, report, start anew, history', async () => {
      const { browser, userId } = await loggedIn(ctx().app, ctx().baseUrl, 'FlowUser01');
      // identifying before configuring is refused with a clear message
      const early = await browser.post(P.predict, { body: predictForm() });
      expect(early.status).toBe(409);
      expect((await json(early)).detail).toBe(M.configRequired);
      expect(
        (await browser.post(P.config, { body: configForm('tomato_leaf_cnn_mobilenet') })).status,
      ).toBe(200);

      const up = async (bytes: Buffer, name: string, type: string) => {
        const res = await browser.post(P.posts, { body: uploadForm(bytes, name, { type }) });
        expect(res.status, name).toBe(200);
        return json(res);
      };
      const a = await up(
        await leafPhoto({ width: 400, height: 300, seed: 1 }),
        'hoja uno.jpg',
        'image/jpeg',
      );
      expect(a).toMatchObject({ status: 'OK', detail: M.uploadOk, name_img: 'hoja_uno.jpg' });
      const b = await up(await leafPhoto({ seed: 2, format: 'png' }), 'hoja dos.png', 'image/png');
      const c = await up(await leafPhoto({ seed: 3, format: 'webp' }), 'quitar.webp', 'image/webp');
      expect(listFiles(media('post_images', userId))).toHaveLength(3);

      const pending = await json(await browser.get(P.pending));
      expect(pending.map((p: { id: number }) => p.id)).toEqual([a.id, b.id, c.id]);
      expect(pending[0]).toMatchObject({
        name_img: 'hoja_uno.jpg',
        url: expect.stringMatching(/^\/media\/post_images\/[\w-]+\.jpg$/),
      });
      const photo = await browser.get(pending[0].url);
      expect(photo.status).toBe(200);
      expect(photo.headers.get('content-type')).toBe('image/jpeg');

      const del = await browser.request('DELETE', P.pendingItem(c.id));
      expect(await json(del)).toEqual({ status: 'OK', detail: M.pendingRemoved, deleted: 1 });
      expect(listFiles(media('post_images', userId))).toHaveLength(2);
      expect((await browser.request('DELETE', P.pendingItem(c.id))).status).toBe(404);

      expect(await json(await browser.get(P.progress))).toEqual({
        state: 'idle',
        done: 0,
        total: 0,
      });
      const pred = await browser.post(P.predict, { body: predictForm() });
      expect(pred.status).toBe(200);
      expect(await json(pred)).toEqual({ status: 'OK', detail: M.predictStarted, total: 2 });
      expect(await waitForRun(browser)).toEqual({ state: 'done', done: 2, total: 2 });
      expect(await json(await browser.get(P.pending))).toEqual([]);

      const rows = await json(await browser.get(P.posts));
      expect(rows).toHaveLength(2);
      expect(rows.map((r: { name_img: string }) => r.name_img)).toEqual([
        'hoja_uno.jpg',
        'hoja_dos.png',
      ]);
      for (const r of rows) {
        expect(r.accepted).toBe(true);
        expect(r.reason).toBeNull();
        expect(r.leaf_probability).toBeNull(); // the tiny model has no leaf output
        expect(r.model).toBe('mobilenet');
        expect(r.modelLabel).toBe('MobileNet v1');
        expect(r.top3).toHaveLength(3);
        expect(r.top3[0].label).toBe(r.label);
        expect(r.top3[0].probability).toBeCloseTo(r.probability, 6);
        expect(r.probability).toBeGreaterThan(0);
        expect(r.probability).toBeLessThanOrEqual(1);
        expect(typeof r.predict).toBe('string');
        expect(r.page).toMatch(/^\//);
        const hm = await browser.get(r.heatmap);
        expect(hm.status).toBe(200);
        expect(hm.headers.get('content-type')).toBe('image/jpeg');
        const meta = await sharp(Buffer.from(await hm.arrayBuffer())).metadata();
        // the heatmap has the photo's size (the first photo is 400x300)
        if (r.name_img === 'hoja_uno.jpg') expect([meta.width, meta.height]).toEqual([400, 300]);
      }

      const history = await json(await browser.get(P.history));
      expect(history).toHaveLength(2);
      expect(history[0]).toMatchObject({ accepted: true, reason: null, leaf_probability: null });
      expect((await browser.get(history[0].thumbnail)).status).toBe(200);

      const rep = await browser.get(P.makeReport);
      expect(rep.status).toBe(200);
      const { url } = await json(rep);
      expect(url).toMatch(/^\/media\/reports\/[A-Za-z0-9_-]{32}\.pdf$/);
      const pdf = await browser.get(url);
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      expect(pdf.headers.get('content-disposition')).toMatch(
        /^attachment; filename="diagrodl-diagnostico-\d{4}-\d{2}-\d{2}\.pdf"$/,
      );
      expect(
        Buffer.from(await pdf.arrayBuffer())
          .subarray(0, 5)
          .toString(),
      ).toBe('%PDF-');

      // the browser's time zone for the date; one the server does not know is not an error (UTC)
      for (const tz of ['America/Mexico_City', 'Nowhere/Bogus', '../x']) {
        expect((await browser.get(`${P.makeReport}?tz=${encodeURIComponent(tz)}`)).status).toBe(
          200,
        );
      }

      // each report replaces the older ones but the last few: reports never pile up on disk
      const urls = [url];
      for (let i = 0; i < 2; i++) urls.push((await json(await browser.get(P.makeReport))).url);
      expect(listFiles(media('reports', userId))).toHaveLength(3);
      expect((await browser.get(urls[2]!)).status).toBe(200);
      expect((await browser.get(urls[0]!)).status).toBe(404);

      const anew = await browser.post(P.deleteRows, {
        body: (() => {
          const fd = new FormData();
          fd.append('image', 'image');
          fd.append('report', 'yes');
          return fd;
        })(),
      });
      expect(await json(anew)).toEqual({ status: 'OK', detail: M.rowsDeleted, deleted: 2 });
      expect(await json(await browser.get(P.posts))).toEqual([]);
      expect(listFiles(media('post_images', userId))).toEqual([]);
      expect(listFiles(media('heatmaps', userId))).toEqual([]);
      expect(listFiles(media('reports', userId))).toEqual([]);
      expect((await browser.get(url)).status).toBe(404);
      expect((await browser.get(rows[0].heatmap)).status).toBe(404);
      expect(await json(await browser.get(P.progress))).toEqual({
        state: 'idle',
        done: 0,
        total: 0,
      });
      const noRows = await browser.get(P.makeReport);
      expect(noRows.status).toBe(400);
      expect((await json(noRows)).detail).toBe(M.noRows);

      // the history survives 'start anew' and can be pruned
      const kept = await json(await browser.get(P.history));
      expect(kept).toHaveLength(2);
      expect((await browser.get(kept[0].thumbnail)).status).toBe(200);
      const forget = await browser.request('DELETE', P.historyItem(kept[0].id));
      expect(await json(forget)).toEqual({ status: 'OK', detail: M.historyDeleted, deleted: 1 });
      expect((await browser.get(kept[0].thumbnail)).status).toBe(404);
      expect(await json(await browser.get(P.history))).toHaveLength(1);
      expect((await browser.request('DELETE', P.historyItem(kept[0].id))).status).toBe(404);

      const nothing = await browser.post(P.predict, { body: predictForm() });
      expect(nothing.status).toBe(400);
      expect((await json(nothing)).detail).toBe(M.nothingPending);
    });

    it('refuses every hostile upload with its message and stores nothing', async () => {
      const { browser, userId } = await loggedIn(ctx().app, ctx().baseUrl, 'Hostile001');
      const good = await leafPhoto({ width: 300, height: 200 });
      const cases: [string, FormData, number, string][] = [
        [
          'text named .jpg',
          uploadForm(Buffer.from('hola, no soy una imagen\n'), 'foto.jpg'),
          415,
          M.badType,
        ],
        [
          'truncated JPEG',
          uploadForm(good.subarray(0, Math.floor(good.length / 2)), 'cortada.jpg'),
          400,
          M.undecodable,
        ],
        ['0-byte file', uploadForm(Buffer.alloc(0), 'vacia.jpg'), 400, M.emptyFile],
        [
          '20000x20000 PNG',
          uploadForm(bombPng(), 'bomba.png', { type: 'image/png' }),
          413,
          M.tooManyPixels,
        ],
        ['name with ../', uploadForm(good, '../../etc/passwd.jpg'), 400, M.badName],
        [
          'name_img with ../',
          uploadForm(good, 'ok.jpg', { nameImg: '..\\..\\x.jpg' }),
          400,
          M.badName,
        ],
        [
          'over 15 MB',
          uploadForm(Buffer.concat([good, Buffer.alloc(15 * 1024 * 1024)]), 'grande.jpg'),
          413,
          M.tooLarge,
        ],
        [
          'a GIF',
          uploadForm(
            await sharp({ create: { width: 8, height: 8, channels: 3, background: '#080' } })
              .gif()
              .toBuffer(),
            'x.gif',
            { type: 'image/gif' },
          ),
          415,
          M.badType,
        ],
        [
          'no file',
          (() => {
            const fd = new FormData();
            fd.append('name_img', 'x.jpg');
            return fd;
          })(),
          400,
          M.noFile,
        ],
      ];
      for (const [what, body, status, detail] of cases) {
        const res = await browser.post(P.posts, { body });
        expect(res.status, what).toBe(status);
        expect(await json(res), what).toEqual({ status: 'ERROR', detail });
      }
      expect(await json(await browser.get(P.pending))).toEqual([]);
      expect(listFiles(media('post_images', userId))).toEqual([]);

      // at most 50 pending images: the 51st is refused and not stored
      const small = await leafPhoto({ width: 32, height: 32 });
      for (let i = 0; i < 50; i++) {
        const res = await browser.post(P.posts, { body: uploadForm(small, `h${i}.jpg`) });
        expect(res.status, `upload ${i}`).toBe(200);
      }
      const over = await browser.post(P.posts, { body: uploadForm(small, 'h50.jpg') });
      expect(over.status).toBe(409);
      expect((await json(over)).detail).toBe(M.tooManyPending);
      expect(await json(await browser.get(P.pending))).toHaveLength(50);
      expect(listFiles(media('post_images', userId))).toHaveLength(50);
      expect(fs.readdirSync(media('post_images', userId)).some((f) => f.endsWith('.tmp'))).toBe(
        false,
      );
    });

    it('answers a body or address it cannot read with its own message, never 500, and stores nothing', async () => {
      const { browser, userId } = await loggedIn(ctx().app, ctx().baseUrl, 'Broken001');
      const good = await leafPhoto({ width: 64, height: 64 });
      // a multipart body as a browser sends it, then cut off halfway (a connection lost mid-upload)
      const whole = new Response(uploadForm(good, 'hoja.jpg'));
      const type = whole.headers.get('content-type')!;
      const bytes = Buffer.from(await whole.arrayBuffer());
      const twoFiles = uploadForm(good, 'a.jpg');
      twoFiles.append('image2', new Blob([new Uint8Array(good)], { type: 'image/jpeg' }), 'b.jpg');
      const manyFields = configForm('mobilenet');
      for (let i = 0; i < 15; i++) manyFields.append(`f${i}`, 'x');
      const raw = (contentType: string, body: Buffer | string) => ({
        body,
        headers: { 'content-type': contentType },
      });
      const cases: [string, string, Parameters<Browser['post']>[1], number, string][] = [
        [
          'cut-off upload',
          P.posts,
          raw(type, bytes.subarray(0, bytes.length >> 1)),
          400,
          M.brokenUpload,
        ],
        [
          'no parts',
          P.posts,
          raw('multipart/form-data; boundary=XX', 'basura'),
          400,
          M.brokenUpload,
        ],
        ['no boundary', P.posts, raw('multipart/form-data', 'basura'), 400, M.brokenUpload],
        ['two photos at once', P.posts, { body: twoFiles }, 400, M.oneFileOnly],
        ['15 extra fields', P.config, { body: manyFields }, 400, SERVER_MESSAGES.badRequest],
        [
          'broken identify form',
          P.predict,
          raw('multipart/form-data; boundary=XX', 'basura'),
          400,
          SERVER_MESSAGES.badRequest,
        ],
        [
          "broken 'start anew' form",
          P.deleteRows,
          raw('multipart/form-data', 'basura'),
          400,
          SERVER_MESSAGES.badRequest,
        ],
      ];
      for (const [what, url, opts, status, detail] of cases) {
        const res = await browser.post(url, opts);
        expect(res.status, what).toBe(status);
        expect(await json(res), what).toEqual({ status: 'ERROR', detail });
      }
      // ids beyond what the databases' integer keys hold, or not plain digits, name nothing
      for (const id of ['2147483648', '99999999999', '1e0', '0x1', '+1', ' 1']) {
        const pending = await browser.request(
          'DELETE',
          `/diagrodl/pending/${encodeURIComponent(id)}/`,
        );
        expect(pending.status, id).toBe(404);
        expect(await json(pending), id).toEqual({ status: 'ERROR', detail: M.pendingNotFound });
        const history = await browser.request(
          'DELETE',
          `/diagrodl/history/${encodeURIComponent(id)}/`,
        );
        expect(history.status, id).toBe(404);
        expect(await json(history), id).toEqual({ status: 'ERROR', detail: M.historyNotFound });
      }
      // an address with a broken %-escape: the product's reply, not the framework's
      for (const url of ['/diagrodl/pending/%E0%A4%A/', '/%E0%A4%A']) {
        const res = await browser.get(url);
        expect(res.status, url).toBe(400);
        expect(await json(res), url).toEqual({
          status: 'ERROR',
          detail: SERVER_MESSAGES.badRequest,
        });
      }
      expect(await json(await browser.get(P.pending))).toEqual([]);
      expect(fs.existsSync(media('post_images', userId))).toBe(false);
    });

    it('identifies what the upload accepts, and never sees the colour under a transparent background', async () => {
      const { browser, userId } = await loggedIn(ctx().app, ctx().baseUrl, 'Alpha00001');
      expect(
        (await browser.post(P.config, { body: configForm('tomato_leaf_cnn_mobilenet') })).status,
      ).toBe(200);
      // a PNG whose IDAT checksum is wrong: libpng can read its pixels, and the upload accepts it
      const png = await leafPhoto({ width: 120, height: 90, seed: 7, format: 'png' });
      const idat = png.indexOf('IDAT');
      const length = png.readUInt32BE(idat - 4);
      const badCrc = Buffer.from(png);
      badCrc[idat + 4 + length] = badCrc[idat + 4 + length]! ^ 0xff;
      // one leaf on a fully transparent background that hides black, then white
      const leafOn = async (hidden: number) => {
        const w = 100;
        const rgba = Buffer.alloc(w * w * 4);
        for (let y = 0; y < w; y++) {
          for (let x = 0; x < w; x++) {
            const o = (y * w + x) * 4;
            const leaf = (x - 50) ** 2 + (y - 50) ** 2 < 35 ** 2;
            rgba.set(leaf ? [50, 140, 40, 255] : [hidden, hidden, hidden, 0], o);
          }
        }
        return sharp(rgba, { raw: { width: w, height: w, channels: 4 } })
          .png()
          .toBuffer();
      };
      const files: [Buffer, string][] = [
        [badCrc, 'suma_erronea.png'],
        [await leafOn(0), 'fondo_negro.png'],
        [await leafOn(255), 'fondo_blanco.png'],
      ];
      for (const [bytes, name] of files) {
        const res = await browser.post(P.posts, {
          body: uploadForm(bytes, name, { type: 'image/png' }),
        });
        expect(res.status, name).toBe(200);
      }
      expect((await browser.post(P.predict, { body: predictForm() })).status).toBe(200);
      const run = await waitForRun(browser);
      expect(run).toEqual({ state: 'done', done: 3, total: 3 });
      const rows = await json(await browser.get(P.posts));
      const byName = new Map(rows.map((r: { name_img: string }) => [r.name_img, r]));
      expect([...byName.keys()].sort()).toEqual(files.map(([, n]) => n).sort());
      const black = byName.get('fondo_negro.png') as { top3: unknown };
      const white = byName.get('fondo_blanco.png') as { top3: unknown };
      expect(black.top3).toEqual(white.top3);
      expect(listFiles(media('heatmaps', userId))).toHaveLength(3);
    });

    it("never mixes two users' images, rows, heatmaps, reports or history", async () => {
      const ana = await loggedIn(ctx().app, ctx().baseUrl, 'AnaMix0001');
      const ben = await loggedIn(ctx().app, ctx().baseUrl, 'BenMix0001');
      for (const u of [ana, ben]) {
        await u.browser.post(P.config, { body: configForm('tomato_leaf_cnn_mobilenet') });
      }
      const photo = await leafPhoto({ seed: 7 });
      const aUp = await json(
        await ana.browser.post(P.posts, { body: uploadForm(photo, 'ana.jpg') }),
      );
      await json(await ben.browser.post(P.posts, { body: uploadForm(photo, 'ben.jpg') }));
      const aPending = await json(await ana.browser.get(P.pending));
      expect(aPending.map((p: { name_img: string }) => p.name_img)).toEqual(['ana.jpg']);
      expect(
        (await json(await ben.browser.get(P.pending))).map((p: { name_img: string }) => p.name_img),
      ).toEqual(['ben.jpg']);
      // Ben cannot see or delete Ana's image
      expect((await ben.browser.get(aPending[0].url)).status).toBe(404);
      expect((await ben.browser.request('DELETE', P.pendingItem(aUp.id))).status).toBe(404);

      // Ben identifying runs only Ben's image
      await ben.browser.post(P.predict, { body: predictForm() });
      await waitForRun(ben.browser);
      expect(await json(await ana.browser.get(P.posts))).toEqual([]);
      expect(await json(await ana.browser.get(P.progress))).toEqual({
        state: 'idle',
        done: 0,
        total: 0,
      });
      expect(await json(await ana.browser.get(P.pending))).toHaveLength(1);

      await ana.browser.post(P.predict, { body: predictForm() });
      await waitForRun(ana.browser);
      const aRows = await json(await ana.browser.get(P.posts));
      const bRows = await json(await ben.browser.get(P.posts));
      expect(aRows.map((r: { name_img: string }) => r.name_img)).toEqual(['ana.jpg']);
      expect(bRows.map((r: { name_img: string }) => r.name_img)).toEqual(['ben.jpg']);
      expect((await ben.browser.get(aRows[0].heatmap)).status).toBe(404);
      expect((await ben.browser.get(aRows[0].image)).status).toBe(404);
      const aHistory = await json(await ana.browser.get(P.history));
      expect((await ben.browser.get(aHistory[0].thumbnail)).status).toBe(404);
      expect((await ben.browser.request('DELETE', P.historyItem(aHistory[0].id))).status).toBe(404);

      const { url } = await json(await ana.browser.get(P.makeReport));
      expect((await ben.browser.get(url)).status).toBe(404);
      expect((await ana.browser.get(url)).status).toBe(200);

      // Ben starting anew leaves Ana's rows, files and report alone
      await ben.browser.post(P.deleteRows, { body: predictForm() });
      expect(await json(await ana.browser.get(P.posts))).toHaveLength(1);
      expect((await ana.browser.get(aRows[0].heatmap)).status).toBe(200);
      expect((await ana.browser.get(url)).status).toBe(200);
      expect(await json(await ana.browser.get(P.history))).toHaveLength(1);
    });

    it('removes one identified photo from the working set, its files too, and keeps its history', async () => {
      const { browser, userId } = await loggedIn(ctx().app, ctx().baseUrl, 'OneRow0001');
      const other = await loggedIn(ctx().app, ctx().baseUrl, 'OneRow0002');
      await browser.post(P.config, { body: configForm('tomato_leaf_cnn_mobilenet') });
      for (const [i, name] of ['uno.jpg', 'dos.jpg'].entries()) {
        await browser.post(P.posts, { body: uploadForm(await leafPhoto({ seed: 40 + i }), name) });
      }
      await browser.post(P.predict, { body: predictForm() });
      await waitForRun(browser);
      const rows: { id: number; name_img: string }[] = await json(await browser.get(P.posts));
      expect(rows.map((r) => r.name_img)).toEqual(['uno.jpg', 'dos.jpg']);
      const pending = await json(
        await browser.post(P.posts, {
          body: uploadForm(await leafPhoto({ seed: 42 }), 'tres.jpg'),
        }),
      );

      // not yours, still pending, not a number: 404 with its message, nothing removed
      for (const [who, url] of [
        [other.browser, P.postItem(rows[0]!.id)],
        [browser, P.postItem(pending.id)],
        [browser, '/diagrodl/posts/abc/'],
      ] as const) {
        const res = await who.request('DELETE', url);
        expect(res.status, url).toBe(404);
        expect((await json(res)).detail).toBe(M.rowNotFound);
      }
      expect(listFiles(media('post_images', userId))).toHaveLength(3);
      expect(listFiles(media('heatmaps', userId))).toHaveLength(2);

      const res = await browser.request('DELETE', P.postItem(rows[0]!.id));
      expect(await json(res)).toEqual({ status: 'OK', detail: M.rowsDeleted, deleted: 1 });
      expect(
        (await json(await browser.get(P.posts))).map((r: { name_img: string }) => r.name_img),
      ).toEqual(['dos.jpg']);
      expect(listFiles(media('post_images', userId))).toHaveLength(2);
      expect(listFiles(media('heatmaps', userId))).toHaveLength(1);
      expect(await json(await browser.get(P.history))).toHaveLength(2);
      expect(await json(await browser.get(P.pending))).toHaveLength(1);
      // a second time: gone
      expect((await browser.request('DELETE', P.postItem(rows[0]!.id))).status).toBe(404);
    });

    it("identifies only the pending photos posts_predict names, never another user's", async () => {
      const { browser } = await loggedIn(ctx().app, ctx().baseUrl, 'Named0001');
      const other = await loggedIn(ctx().app, ctx().baseUrl, 'Named0002');
      await browser.post(P.config, { body: configForm('tomato_leaf_cnn_mobilenet') });
      await other.browser.post(P.config, { body: configForm('tomato_leaf_cnn_mobilenet') });
      const ids: number[] = [];
      for (const [i, name] of ['uno.jpg', 'dos.jpg', 'tres.jpg'].entries()) {
        const up = await browser.post(P.posts, {
          body: uploadForm(await leafPhoto({ seed: 60 + i }), name),
        });
        ids.push((await json(up)).id);
      }
      const theirs = await json(
        await other.browser.post(P.posts, {
          body: uploadForm(await leafPhoto({ seed: 63 }), 'ajena.jpg'),
        }),
      );
      const pendingNames = async (b: Browser) =>
        (await json(await b.get(P.pending))).map((p: { name_img: string }) => p.name_img);

      // a bad `ids`: 400 with its message, nothing claimed
      const bad = ['', 'abc', '0', '-1', '1.5', '2,', ',2', '2,,3', '2;3', '99999999999'];
      bad.push(Array.from({ length: 51 }, (_, i) => i + 1).join(','));
      for (const value of bad) {
        const res = await browser.post(P.predict, { body: predictForm({ ids: value }) });
        expect(res.status, value).toBe(400);
        expect((await json(res)).detail, value).toBe(M.badIds);
      }
      for (const value of [[ids[0]], 5, null]) {
        const res = await browser.post(P.predict, { json: { ids: value } });
        expect(res.status, JSON.stringify(value)).toBe(400);
        expect((await json(res)).detail).toBe(M.badIds);
      }
      expect(await json(await browser.get(P.progress))).toMatchObject({ state: 'idle' });

      // another user's photo (or none of this user's pending ones) is not claimed: nothing pending
      for (const value of [String(theirs.id), '2147483647']) {
        const res = await browser.post(P.predict, { body: predictForm({ ids: value }) });
        expect(res.status, value).toBe(400);
        expect((await json(res)).detail).toBe(M.nothingPending);
      }

      // naming one (with another user's, and repeated): only that one is identified
      const res = await browser.post(`${P.predict}?wait=1`, {
        body: predictForm({ ids: `${ids[1]}, ${theirs.id},${ids[1]}` }),
      });
      expect(await json(res)).toEqual({ status: 'OK', detail: M.predictStarted, total: 1 });
      const rows = await json(await browser.get(P.posts));
      expect(rows.map((r: { id: number; name_img: string }) => [r.id, r.name_img])).toEqual([
        [ids[1], 'dos.jpg'],
      ]);
      expect(await pendingNames(browser)).toEqual(['uno.jpg', 'tres.jpg']);
      expect(await pendingNames(other.browser)).toEqual(['ajena.jpg']);
      expect(await json(await other.browser.get(P.posts))).toEqual([]);
      expect(await json(await other.browser.get(P.progress))).toMatchObject({ state: 'idle' });

      // an identified photo is no longer pending: naming it claims nothing
      const again = await browser.post(P.predict, { body: predictForm({ ids: String(ids[1]) }) });
      expect(again.status).toBe(400);
      expect((await json(again)).detail).toBe(M.nothingPending);

      // without `ids`, as the specification sends it: every photo still pending, only this user's
      const all = await browser.post(`${P.predict}?wait=1`, { body: predictForm() });
      expect(await json(all)).toMatchObject({ status: 'OK', total: 2 });
      expect(
        (await json(await browser.get(P.posts))).map((r: { name_img: string }) => r.name_img),
      ).toEqual(['uno.jpg', 'dos.jpg', 'tres.jpg']);
      expect(await pendingNames(browser)).toEqual([]);
      expect(await pendingNames(other.browser)).toEqual(['ajena.jpg']);
    });

    it('runs each image once when identify is pressed several times at once', async () => {
      const { browser } = await loggedIn(ctx().app, ctx().baseUrl, 'Concurrent1');
      await browser.post(P.config, { body: configForm('tomato_leaf_cnn_mobilenet') });
      for (let i = 0; i < 8; i++) {
        const res = await browser.post(P.posts, {
          body: uploadForm(await leafPhoto({ seed: 20 + i }), `c${i}.jpg`),
        });
        expect(res.status).toBe(200);
      }
      const replies = await Promise.all(
        [0, 1, 2, 3].map(() => browser.post(P.predict, { body: predictForm() })),
      );
      const bodies = await Promise.all(replies.map((r) => json(r)));
      const started = bodies.filter((b) => b.detail === M.predictStarted);
      expect(started.length).toBeGreaterThanOrEqual(1);
      expect(started.reduce((a, b) => a + b.total, 0)).toBe(8);
      for (const b of bodies)
        expect([M.predictStarted, M.predictRunning, M.nothingPending]).toContain(b.detail);
      await waitForRun(browser);
      // a second run may still be finishing if the claims were split
      for (let i = 0; i < 3; i++) await waitForRun(browser);
      const rows = await json(await browser.get(P.posts));
      expect(rows).toHaveLength(8);
      expect(new Set(rows.map((r: { id: number }) => r.id)).size).toBe(8);
      // each image was identified exactly once: one history entry per image
      expect(await json(await browser.get(P.history))).toHaveLength(8);
    });

    it("shows 'No reconocido con confianza' below the threshold, in the user's language", async () => {
      const es = await loggedIn(ctx().app, ctx().baseUrl, 'Umbral0001');
      const en = await loggedIn(ctx().app, ctx().baseUrl, 'Umbral0002', { language: 'en' });
      for (const u of [es, en]) {
        await u.browser.post(P.config, { body: configForm('Tomato_leaf_cnn_resnet50') });
        await u.browser.post(P.posts, { body: uploadForm(await leafPhoto(), 'x.jpg') });
        // ?wait=1 answers when the run has ended: no polling needed
        const res = await u.browser.post(`${P.predict}?wait=1`, { body: predictForm() });
        expect(await json(res)).toMatchObject({ status: 'OK', total: 1 });
        expect((await json(await u.browser.get(P.progress))).state).toBe('done');
      }
      const [rEs] = await json(await es.browser.get(P.posts));
      const [rEn] = await json(await en.browser.get(P.posts));
      expect(rEs).toMatchObject({
        accepted: false,
        reason: 'low_confidence',
        leaf_probability: null,
        predict: NOT_RECOGNISED.es,
        model: 'resnet50',
      });
      expect(rEn).toMatchObject({
        accepted: false,
        reason: 'low_confidence',
        predict: NOT_RECOGNISED.en,
      });
      const [hEs] = await json(await es.browser.get(P.history));
      expect(hEs).toMatchObject({ reason: 'low_confidence', predict: NOT_RECOGNISED.es });
      // the top 3 still names the classes, in the user's language
      expect(rEs.top3[0].predict).not.toBe(rEn.top3[0].predict);
      // the page's language (the web app's toggle, sent as Accept-Language) wins over the account's
      for (const [u, asked, other] of [
        [es, 'en-US', 'en'],
        [en, 'es-MX', 'es'],
      ] as const) {
        const headers = { 'accept-language': asked };
        const [row] = await json(await u.browser.get(P.posts, { headers }));
        expect(row.predict, asked).toBe(NOT_RECOGNISED[other]);
        const [item] = await json(await u.browser.get(P.history, { headers }));
        expect(item.predict, asked).toBe(NOT_RECOGNISED[other]);
      }
    });
  },
  { MODELS_DIR },
);

// A model with a leaf output that says 'not a tomato leaf' for every photo (the tiny model with a
// leaf output of 0 and a card leaf_threshold of 0.5): the third outcome through the whole API.
const NOT_LEAF_MODELS_DIR = makeModelsDir(['mobilenet'], {
  leafBias: { mobilenet: -1000 },
  leafThreshold: { mobilenet: 0.5 },
});
afterAll(() => fs.rmSync(NOT_LEAF_MODELS_DIR, { recursive: true, force: true }));

describeEachDatabase(
  "diagnosis API: 'No parece una hoja de tomate'",
  (ctx) => {
    it('stores and shows reason not_leaf with its leaf probability, in the history and the report', async () => {
      const models = await json(await fetch(`${ctx().baseUrl}${P.models}`));
      expect(models).toEqual([expect.objectContaining({ id: 'mobilenet', leafThreshold: 0.5 })]);
      const es = await loggedIn(ctx().app, ctx().baseUrl, 'NoHoja0001');
      const en = await loggedIn(ctx().app, ctx().baseUrl, 'NoHoja0002', { language: 'en' });
      for (const u of [es, en]) {
        await u.browser.post(P.config, { body: configForm('tomato_leaf_cnn_mobilenet') });
        await u.browser.post(P.posts, { body: uploadForm(await leafPhoto(), 'gato.jpg') });
        await u.browser.post(`${P.predict}?wait=1`, { body: predictForm() });
      }
      const [rEs] = await json(await es.browser.get(P.posts));
      const [rEn] = await json(await en.browser.get(P.posts));
      expect(rEs).toMatchObject({
        accepted: false,
        reason: 'not_leaf',
        leaf_probability: 0,
        predict: NOT_LEAF.es,
      });
      expect(rEn).toMatchObject({ accepted: false, reason: 'not_leaf', predict: NOT_LEAF.en });
      expect(rEs.top3).toHaveLength(3); // the classes are still reported
      const [hEs] = await json(await es.browser.get(P.history));
      expect(hEs).toMatchObject({ reason: 'not_leaf', leaf_probability: 0, predict: NOT_LEAF.es });

      // the report: the not-leaf label and its hint (this tool diagnoses tomato leaves only, so
      // a leaf of another crop cannot be diagnosed; photograph a tomato leaf) instead of advice
      const text = await reportText(es.browser);
      expect(text).toContain(NOT_LEAF.es);
      expect(text).toContain(NOT_LEAF_HINT.es);
      const textEn = await reportText(en.browser);
      expect(textEn).toContain(NOT_LEAF.en);
      expect(textEn).toContain(NOT_LEAF_HINT.en);
    });
  },
  { MODELS_DIR: NOT_LEAF_MODELS_DIR },
);

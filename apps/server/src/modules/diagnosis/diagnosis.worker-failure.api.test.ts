// When inference fails for a reason that is not the photo's, no photo is lost: a model worker
// thread that stops mid-run is started again and the run goes on (every photo identified once),
// and a model that fails on every photo ends the run with the 'interrupted' message, its photos
// back in the pending list with their files. Only a photo that fails alone is dropped.
import fs from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { DIAGNOSIS_MESSAGES as M, DIAGNOSIS_PATHS as P } from '@diagrodl/contracts';
import {
  type Place,
  configForm,
  leafPhoto,
  listFiles,
  loggedIn,
  newPlace,
  predictForm,
  removePlace,
  startAt,
  uploadForm,
  waitForRun,
} from '../../testing/diagnosis.ts';
import { type Browser, json } from '../../testing/harness.ts';
import { makeModelsDir } from '../../testing/tiny-model.ts';
import type { ModelWorker } from '../../worker/model-worker.ts';
import { DiagnosisRepository } from './diagnosis.repository.ts';
import { IdentificationRunner, type PhotoIdentifier } from './identification-runner.ts';
import { MediaStore } from './media.ts';

const MODELS_DIR = makeModelsDir(['mobilenet']);
const places: Place[] = [];

afterAll(async () => {
  for (const p of places) await removePlace(p);
  fs.rmSync(MODELS_DIR, { recursive: true, force: true });
});

/** The worker thread stops as if it had crashed (not through close()). */
const stopThread = (models: ModelWorker) =>
  (models as unknown as { worker: Worker }).worker.terminate();

async function upload(browser: Browser, n: number): Promise<string[]> {
  await browser.post(P.config, { body: configForm('tomato_leaf_cnn_mobilenet') });
  const names: string[] = [];
  for (let i = 0; i < n; i++) {
    const name = `w${i}.jpg`;
    names.push(name);
    const res = await browser.post(P.posts, {
      body: uploadForm(await leafPhoto({ seed: i }), name),
    });
    expect(res.status).toBe(200);
  }
  return names;
}

describe('identification when inference fails', { timeout: 120_000 }, () => {
  it('a worker thread that stops mid-run is started again; every photo is identified', async () => {
    const place = newPlace('sqlite', { MODELS_DIR });
    places.push(place);
    let stopped = false;
    const started: { models?: ModelWorker } = {}; // the server's, once it is built
    const server = await startAt(place, {
      diagnosis: {
        chunkSize: 2,
        beforeChunk: async ({ done }) => {
          if (done === 2 && !stopped && started.models) {
            stopped = true;
            await stopThread(started.models);
          }
        },
      },
    });
    started.models = server.app.models;
    try {
      const { browser } = await loggedIn(server.app, server.baseUrl, 'Crash00001');
      const names = await upload(browser, 5);
      expect(await json(await browser.post(P.predict, { body: predictForm() }))).toMatchObject({
        total: 5,
      });
      const run = await waitForRun(browser);
      expect(stopped).toBe(true);
      expect(run).toMatchObject({ state: 'done', total: 5, done: 5 });
      expect(run.detail ?? null).toBeNull();
      const rows = await json(await browser.get(P.posts));
      expect(rows.map((r: { name_img: string }) => r.name_img)).toEqual(names);
      expect(server.app.models.health()).toEqual([
        expect.objectContaining({ id: 'mobilenet', status: 'loaded' }),
      ]);
    } finally {
      await server.app.close();
    }
  });

  it('a model that fails on every photo keeps them pending, with their files', async () => {
    const place = newPlace('sqlite', { MODELS_DIR });
    places.push(place);
    const server = await startAt(place);
    try {
      const { browser, userId } = await loggedIn(server.app, server.baseUrl, 'Crash00002');
      const names = await upload(browser, 3);
      const filesBefore = listFiles(place.dataDir);
      const repo = new DiagnosisRepository(server.app.db.kysely);
      const failing: PhotoIdentifier = {
        has: () => true,
        identify: () => Promise.reject(new Error('onnxruntime: out of memory')),
      };
      const errors: unknown[] = [];
      /** A run of this user's pending photos by a runner of its own, with `models`, to its end. */
      const runWith = async (models: PhotoIdentifier, chunkSize: number) => {
        const log = { error: (e: unknown) => errors.push(e), warn: () => undefined };
        const media = new MediaStore(server.app.config.mediaDir);
        const runner = new IdentificationRunner(repo, media, models, log, { chunkSize });
        await runner.predict(userId, { wait: true });
        await runner.close();
      };
      await runWith(failing, 2);
      expect(errors).toHaveLength(1);
      const run = await json(await browser.get(P.progress));
      expect(run).toMatchObject({ state: 'error', detail: M.interrupted });
      const pending = await json(await browser.get(P.pending));
      expect(pending.map((p: { name_img: string }) => p.name_img)).toEqual(names);
      expect(listFiles(place.dataDir)).toEqual(filesBefore);
      expect(await json(await browser.get(P.posts))).toEqual([]);

      // a photo that fails alone while the others pass is the one dropped (the second, here)
      let alone = 0;
      const picky: PhotoIdentifier = {
        has: (id) => server.app.models.has(id),
        identify: (id, images) => {
          if (images.length > 1) return Promise.reject(new Error('the batch failed'));
          alone++;
          if (alone === 2) return Promise.reject(new Error('this photo breaks the model'));
          return server.app.models.identify(id, images);
        },
      };
      await runWith(picky, 3);
      const after = await json(await browser.get(P.progress));
      expect(after).toMatchObject({ state: 'done', detail: M.failedImages(1) });
      const rows = await json(await browser.get(P.posts));
      expect(rows.map((r: { name_img: string }) => r.name_img)).toEqual([names[0], names[2]]);
    } finally {
      await server.app.close();
    }
  });
});

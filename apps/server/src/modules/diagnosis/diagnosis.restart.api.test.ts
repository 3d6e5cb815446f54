// A server stopped in the middle of an identification loses nothing: after a restart on the
// same database and media folder every image is either done or pending, and the next
// identify request finishes the rest, each image exactly once.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIAGNOSIS_MESSAGES as M, DIAGNOSIS_PATHS as P } from '@diagrodl/contracts';
import {
  type Place,
  configForm,
  leafPhoto,
  loggedIn,
  newPlace,
  predictForm,
  removePlace,
  sameSession,
  startAt,
  uploadForm,
  waitForRun,
} from '../../testing/diagnosis.ts';
import { PG_URL, json, postgresAvailable } from '../../testing/harness.ts';
import { makeModelsDir } from '../../testing/tiny-model.ts';

const MODELS_DIR = makeModelsDir(['mobilenet']);

afterAll(() => fs.rmSync(MODELS_DIR, { recursive: true, force: true }));

function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((r) => {
    open = r;
  });
  return { opened, open };
}

for (const kind of ['sqlite', 'postgres'] as const) {
  describe(`identification across a restart [${kind}]`, () => {
    const places: Place[] = [];
    let skip = false;
    beforeAll(async () => {
      if (kind === 'postgres' && !(await postgresAvailable())) {
        const msg = `PostgreSQL did not answer at ${PG_URL}: the PostgreSQL restart suite DID NOT RUN.`;
        if (process.env.ALLOW_NO_POSTGRES === '1') {
          console.warn(`\n*** ${msg} ***\n`);
          skip = true;
          return;
        }
        throw new Error(msg);
      }
    });
    afterAll(async () => {
      for (const p of places) await removePlace(p);
    });

    it('a clean stop mid-run gives the rest back; the next run finishes each image once', async () => {
      if (skip) return;
      const place = newPlace(kind, { MODELS_DIR });
      places.push(place);
      const reached = gate();
      const hold = gate();
      const first = await startAt(place, {
        diagnosis: {
          chunkSize: 1,
          beforeChunk: async ({ done }) => {
            if (done === 2) {
              reached.open();
              await hold.opened;
            }
          },
        },
      });
      const { browser } = await loggedIn(first.app, first.baseUrl, 'Restart001');
      await browser.post(P.config, { body: configForm('tomato_leaf_cnn_mobilenet') });
      for (let i = 0; i < 5; i++) {
        await browser.post(P.posts, {
          body: uploadForm(await leafPhoto({ seed: i }), `r${i}.jpg`),
        });
      }
      expect(await json(await browser.post(P.predict, { body: predictForm() }))).toMatchObject({
        total: 5,
      });
      await reached.opened;
      expect(await json(await browser.get(P.progress))).toEqual({
        state: 'running',
        done: 2,
        total: 5,
      });
      const closing = first.app.close();
      hold.open();
      await closing;

      const second = await startAt(place);
      try {
        const b2 = sameSession(browser, second.baseUrl);
        // the stop lands between two chunks: 2 (or 3, if the current chunk was already under way) done
        const progress = await json(await b2.get(P.progress));
        expect(progress).toMatchObject({ state: 'error', total: 5, detail: M.interrupted });
        const d = progress.done as number;
        expect([2, 3]).toContain(d);
        expect(await json(await b2.get(P.posts))).toHaveLength(d);
        expect(await json(await b2.get(P.pending))).toHaveLength(5 - d);
        expect(await json(await b2.post(P.predict, { body: predictForm() }))).toMatchObject({
          total: 5 - d,
        });
        expect(await waitForRun(b2)).toEqual({ state: 'done', done: 5 - d, total: 5 - d });
        const rows = await json(await b2.get(P.posts));
        expect(rows.map((r: { name_img: string }) => r.name_img)).toEqual([
          'r0.jpg',
          'r1.jpg',
          'r2.jpg',
          'r3.jpg',
          'r4.jpg',
        ]);
        expect(await json(await b2.get(P.history))).toHaveLength(5);
      } finally {
        await second.app.close();
      }
    });

    it('after a crash (claims left behind) the stale claims are taken over once they expire', async () => {
      if (skip) return;
      const place = newPlace(kind, { MODELS_DIR });
      places.push(place);
      const reached = gate();
      const never = gate();
      // The first server hangs mid-run and does not stop in time: like a killed process,
      // its claims stay in the database and its heartbeat stops.
      const first = await startAt(place, {
        diagnosis: {
          chunkSize: 1,
          claimTtlMs: 800,
          drainTimeoutMs: 100,
          beforeChunk: async ({ done }) => {
            if (done === 1) {
              reached.open();
              await never.opened;
            }
          },
        },
      });
      const { browser } = await loggedIn(first.app, first.baseUrl, 'Crash00001');
      await browser.post(P.config, { body: configForm('tomato_leaf_cnn_mobilenet') });
      for (let i = 0; i < 4; i++) {
        await browser.post(P.posts, {
          body: uploadForm(await leafPhoto({ seed: i }), `k${i}.jpg`),
        });
      }
      await browser.post(P.predict, { body: predictForm() });
      await reached.opened;
      await first.app.close();

      const second = await startAt(place, { diagnosis: { claimTtlMs: 800 } });
      try {
        const b2 = sameSession(browser, second.baseUrl);
        // the images are still there, claimed by the dead run
        expect(await json(await b2.get(P.pending))).toHaveLength(3);
        await new Promise((r) => setTimeout(r, 1000));
        expect((await json(await b2.get(P.progress))).state).toBe('error');
        expect(await json(await b2.post(P.predict, { body: predictForm() }))).toMatchObject({
          detail: M.predictStarted,
          total: 3,
        });
        await waitForRun(b2);
        // the hung run wakes up late: its claims are no longer its own, nothing is written twice
        never.open();
        await new Promise((r) => setTimeout(r, 300));
        expect(await json(await b2.get(P.posts))).toHaveLength(4);
        expect(await json(await b2.get(P.history))).toHaveLength(4);
        expect(await json(await b2.get(P.pending))).toEqual([]);
      } finally {
        never.open();
        await second.app.close();
      }
    });
  });
}

// Identification survives stops and crashes by itself (README.md beside this file, "Identification runs"): a clean stop hands the run
// over, a real server process killed with kill -9 mid-run is taken over (embedded mode: at the
// restart, without waiting for the lease; PostgreSQL: by the other process once the dead one's
// heartbeats stop), the page sees the progress go on and never an error, every photo is
// identified exactly once, and a dead holder's late writes are fenced off.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIAGNOSIS_PATHS as P } from '@diagrodl/contracts';
import { repoRoot } from '../../config.ts';
import { nowIso } from '../../lib/tokens.ts';
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
} from '../../testing/diagnosis.ts';
import { type Browser, PG_URL, json, postgresOrSkip } from '../../testing/harness.ts';
import { makeModelsDir } from '../../testing/tiny-model.ts';
import { DiagnosisRepository } from './diagnosis.repository.ts';
import type { RunOutcome } from './identification-runner.ts';

const MODELS_DIR = makeModelsDir(['mobilenet']);

afterAll(() => fs.rmSync(MODELS_DIR, { recursive: true, force: true }));

function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((r) => {
    open = r;
  });
  return { opened, open };
}

/** A real server process (testing/crash-server.ts) on a place; resolves once it listens. */
async function serverProcess(
  place: Place,
  env: Record<string, string>,
): Promise<{ child: ChildProcessWithoutNullStreams; baseUrl: string; paused: Promise<number> }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(repoRoot, 'apps/server/src/testing/crash-server.ts')],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: place.dataDir,
        LOG_LEVEL: 'warn',
        ...(place.schema ? { DATABASE_URL: `${PG_URL}?schema=${place.schema}` } : {}),
        ...place.env,
        ...env,
      },
    },
  );
  let out = '';
  const seen = (re: RegExp) =>
    new Promise<number>((resolve, reject) => {
      const check = () => {
        const m = re.exec(out);
        if (m) resolve(Number(m[1]));
      };
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        check();
      });
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      child.on('exit', (code, signal) => {
        if (!re.exec(out))
          reject(new Error(`server exited (${code ?? signal}) before ${re}:\n${out}`));
      });
    });
  const paused = seen(/PAUSED (\d+)/);
  paused.catch(() => undefined);
  const port = await seen(/LISTENING (\d+)/);
  return { child, baseUrl: `http://127.0.0.1:${port}`, paused };
}

function kill9(child: ChildProcessWithoutNullStreams): Promise<void> {
  return new Promise((resolve) => {
    child.on('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/**
 * The runner's own word that a run ended in a process (RunnerOptions.onRunEnd): `ended` resolves
 * with the first outcome other than a hand-over, so a test waits for the event, not for a clock.
 */
function runEnd() {
  let resolve: (outcome: RunOutcome) => void = () => undefined;
  const ended = new Promise<RunOutcome>((r) => {
    resolve = r;
  });
  const onRunEnd = ({ outcome }: { outcome: RunOutcome }) => {
    if (outcome !== 'handed-over') resolve(outcome);
  };
  return { ended, onRunEnd };
}

async function uploadAndPredict(browser: Browser, n: number, prefix: string): Promise<string[]> {
  await browser.post(P.config, { body: configForm('tomato_leaf_cnn_mobilenet') });
  const names: string[] = [];
  for (let i = 0; i < n; i++) {
    const name = `${prefix}${String(i).padStart(2, '0')}.jpg`;
    names.push(name);
    const res = await browser.post(P.posts, {
      body: uploadForm(await leafPhoto({ seed: i }), name),
    });
    expect(res.status).toBe(200);
  }
  expect(await json(await browser.post(P.predict, { body: predictForm() }))).toMatchObject({
    total: n,
  });
  return names;
}

/** Each photo identified exactly once: one result row and one history entry per name. */
async function expectEachOnce(browser: Browser, names: string[]) {
  const rows = await json(await browser.get(P.posts));
  expect(rows.map((r: { name_img: string }) => r.name_img)).toEqual(names);
  const history = await json(await browser.get(P.history));
  expect(history.map((h: { name_img: string }) => h.name_img).sort()).toEqual(names);
  expect(await json(await browser.get(P.pending))).toEqual([]);
}

for (const kind of ['sqlite', 'postgres'] as const) {
  describe(`identification across a stop or a crash [${kind}]`, { timeout: 180_000 }, () => {
    const places: Place[] = [];
    let skip = false;
    beforeAll(async () => {
      if (kind === 'postgres' && !(await postgresOrSkip('the PostgreSQL restart suite'))) {
        skip = true;
      }
    });
    afterAll(async () => {
      for (const p of places) await removePlace(p);
    });

    it('a clean stop mid-run hands the run over; the restarted server goes on by itself', async () => {
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
      const names = await uploadAndPredict(browser, 5, 'r');
      await reached.opened;
      expect(await json(await browser.get(P.progress))).toEqual({
        state: 'running',
        done: 2,
        total: 5,
      });
      const closing = first.app.close();
      hold.open();
      await closing;

      // a long lease: the handed-over run must not wait for it
      const end = runEnd();
      const second = await startAt(place, {
        diagnosis: { leaseMs: 600_000, onRunEnd: end.onRunEnd },
      });
      try {
        const b2 = sameSession(browser, second.baseUrl);
        // 'error' is final: a run that ends 'done' never showed the page an error
        expect(await end.ended).toBe('done');
        expect(await json(await b2.get(P.progress))).toEqual({ state: 'done', done: 5, total: 5 });
        await expectEachOnce(b2, names);
      } finally {
        await second.app.close();
      }
    });

    it('a server process killed with kill -9 mid-run: the work is taken over within seconds, each photo once', async () => {
      if (skip) return;
      const place = newPlace(kind, { MODELS_DIR });
      places.push(place);
      const lease = 1500;
      // The user exists before the processes start (and the database is migrated).
      const setup = await startAt(place);
      const { browser: b0 } = await loggedIn(setup.app, setup.baseUrl, 'Crash00001');
      await setup.app.close();

      const dying = await serverProcess(place, {
        PAUSE_AT: '4',
        CHUNK: '4',
        LEASE_MS: String(lease),
      });
      // PostgreSQL: a second process shares the database (scale-out); it takes over by lease.
      const end = runEnd();
      const other =
        kind === 'postgres'
          ? await startAt(place, { diagnosis: { leaseMs: lease, onRunEnd: end.onRunEnd } })
          : null;
      try {
        const browser = sameSession(b0, dying.baseUrl);
        const names = await uploadAndPredict(browser, 12, 'k');
        expect(await dying.paused).toBe(4);
        expect(await json(await browser.get(P.progress))).toEqual({
          state: 'running',
          done: 4,
          total: 12,
        });
        await kill9(dying.child);
        const killedAt = Date.now();

        // embedded: the restarted server, with a lease far longer than the test may wait
        const survivor =
          other ??
          (await startAt(place, { diagnosis: { leaseMs: 600_000, onRunEnd: end.onRunEnd } }));
        const restartedAt = Date.now();
        try {
          const b2 = sameSession(b0, survivor.baseUrl);
          // 'error' is final: a run that ends 'done' never showed the page an error
          expect(await end.ended).toBe('done');
          const doneAt = Date.now();
          expect(await json(await b2.get(P.progress))).toEqual({
            state: 'done',
            done: 12,
            total: 12,
          });
          console.info(
            `[${kind}] kill -9 -> all 12 photos done: ${doneAt - killedAt} ms` +
              (other ? ` (lease ${lease} ms)` : ` (${doneAt - restartedAt} ms after the restart)`),
          );
          await expectEachOnce(b2, names);
        } finally {
          await survivor.app.close();
        }
      } finally {
        if (dying.child.exitCode === null && dying.child.signalCode === null) {
          await kill9(dying.child);
        }
      }
    });

    it("fences off a dead holder's late writes once its run is taken over", async () => {
      if (skip) return;
      const place = newPlace(kind, { MODELS_DIR });
      places.push(place);
      // a lease of 10 minutes: the server's own sweeper leaves the run below alone
      const server = await startAt(place, { diagnosis: { leaseMs: 600_000 } });
      try {
        const { browser, userId } = await loggedIn(server.app, server.baseUrl, 'Fence00001');
        await browser.post(P.config, { body: configForm('tomato_leaf_cnn_mobilenet') });
        await browser.post(P.posts, { body: uploadForm(await leafPhoto({ seed: 1 }), 'f.jpg') });
        const repo = new DiagnosisRepository(server.app.db.kysely);
        // a holder that claimed the image and then stopped sending heartbeats
        const old = nowIso(new Date(Date.now() - 60_000));
        const runId = await repo.insertRun({
          user_id: userId,
          model_id: 'mobilenet',
          state: 'running',
          total: 1,
          done: 0,
          detail: null,
          created_at: old,
          updated_at: old,
          owner: 'dead-holder',
        });
        const [image] = await repo.claim(userId, runId, 'dead-holder', old, old);
        expect(image).toBeDefined();
        const [run] = await repo.staleRuns(nowIso());
        expect(run).toMatchObject({ id: runId, owner: 'dead-holder' });
        const taken = await repo.takeOver(run!, 'new-holder', nowIso());
        expect(taken?.map((i) => i.id)).toEqual([image!.id]);
        // a second taker that read the same row loses
        expect(await repo.takeOver(run!, 'third-holder', nowIso())).toBeNull();

        const result = {
          label: 'healthy',
          probability: 0.9,
          accepted: true,
          reason: null,
          leaf_probability: null,
          lab_like: null,
          top3: '[]',
          model: 'mobilenet',
          heatmap_file: 'h.jpg',
          predicted_at: nowIso(),
        };
        const history = {
          name_img: 'f.jpg',
          label: 'healthy',
          probability: 0.9,
          accepted: 1,
          reason: null,
          leaf_probability: null,
          top3: '[]',
          model: 'mobilenet',
          thumb_file: 't.jpg',
          created_at: nowIso(),
        };
        // the old holder wakes up: none of its writes lands
        expect(await repo.heartbeatRun(runId, 'dead-holder', nowIso())).toBe(false);
        expect(await repo.addRunDone(runId, 'dead-holder', 1, nowIso())).toBe(false);
        expect(await repo.finish(userId, image!.id, 'dead-holder', result, history)).toBe(false);
        expect(
          await repo.finishRun(runId, 'dead-holder', { detail: null, updated_at: nowIso() }),
        ).toBe(false);
        // the new holder's do
        expect(await repo.finish(userId, image!.id, 'new-holder', result, history)).toBe(true);
        expect(await repo.addRunDone(runId, 'new-holder', 1, nowIso())).toBe(true);
        expect(await json(await browser.get(P.history))).toHaveLength(1);
        expect(await repo.latestRun(userId)).toMatchObject({ done: 1, takeovers: 1 });
      } finally {
        await server.app.close();
      }
    });
  });
}

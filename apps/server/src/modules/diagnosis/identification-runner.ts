/**
 * The identification runner: claims a user's pending photos (all of them, or those named)
 * atomically, identifies them in the background (progress in the database) and writes each
 * result, its heatmap and thumbnail.
 *
 * Identification is a small job queue in the database (see README.md, "Identification runs"): a
 * run is held by one process under a short lease (its `owner` token, heartbeat `updated_at` every
 * leaseMs / 5). Every process sweeps for runs whose lease has run out and takes them over: the run
 * gets a new owner and its claimed images the new token, so late writes of the dead holder are
 * fenced off (every write checks the token) and each photo is identified exactly once. In the
 * embedded mode the SQLite file is this process's alone, so at start-up every running run is
 * taken over at once.
 */
import {
  DIAGNOSIS_MESSAGES as M,
  SERVER_MESSAGES,
  type PredictReply,
  type ProgressReply,
} from '@diagrodl/contracts';
import type { Inference } from '../../inference/classifier.ts';
import type { Identified } from '../../worker/model-worker.ts';
import { HttpError } from '../../lib/errors.ts';
import { nowIso, randomToken } from '../../lib/tokens.ts';
import type { DiagnosisRepository, ImageRow, RunRow } from './diagnosis.repository.ts';
import type { MediaStore } from './media.ts';

/** A run taken over this many times (each time its holder died) is given up, not retried. */
export const MAX_TAKEOVERS = 3;

/** The models, and identify(): each photo decoded once, classified, its heatmap and thumbnail. */
export interface PhotoIdentifier extends Pick<Inference, 'has'> {
  identify(modelId: string, images: readonly Buffer[]): Promise<(Identified | null)[]>;
}

/** A run this process works on: whose, which, under which owner token, its photos and model. */
interface Job {
  userId: number;
  runId: number;
  token: string;
  images: ImageRow[];
  modelId: string;
}

export type RunOutcome = 'done' | 'handed-over' | 'lost' | 'error' | 'stopped';

export interface RunnerOptions {
  /**
   * A run (and its claims) whose heartbeat is older than this belongs to a dead process and is
   * taken over by a live one. Heartbeats and sweeps happen every leaseMs / 5.
   */
  leaseMs?: number;
  /**
   * The database is this process's alone (the embedded SQLite mode): at start-up every run still
   * marked running was interrupted, and is taken over without waiting for its lease to end.
   */
  exclusive?: boolean;
  /** Images per inference call inside a run (progress advances by this step). */
  chunkSize?: number;
  /** How long closing the server waits for running identifications to stop cleanly. */
  drainTimeoutMs?: number;
  /** Tests: called before each chunk of a run (lets a test stop the server mid-run). */
  beforeChunk?: (info: { userId: number; runId: number; done: number }) => Promise<void>;
  /**
   * Tests: called when this process stops working on a run: 'done' (every photo identified),
   * 'handed-over' (stopping: the lease ended at once for the next holder), 'lost' (taken over by
   * another process), 'error' (ended with the 'interrupted' message) or 'stopped' (its user's
   * account is being deleted: the run ends here and goes with the account).
   */
  onRunEnd?: (info: { userId: number; runId: number; outcome: RunOutcome }) => void;
}

interface Logger {
  error(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
}

export class IdentificationRunner {
  private readonly ttlMs: number;
  private readonly beatMs: number;
  private readonly chunkSize: number;
  private readonly drainMs: number;
  private stopping = false;
  private sweeping: Promise<void> | null = null;
  /** The jobs this process works on, with their user. */
  private readonly jobs = new Map<Promise<void>, number>();
  /** Users whose work is held (their account is being deleted), with how many holds. */
  private readonly held = new Map<number, number>();
  /** Owner tokens of the runs this process is working on (never swept by itself). */
  private readonly owned = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly repo: DiagnosisRepository,
    private readonly media: MediaStore,
    private readonly models: PhotoIdentifier,
    private readonly log: Logger,
    private readonly opts: RunnerOptions = {},
  ) {
    this.ttlMs = opts.leaseMs ?? 5_000;
    this.beatMs = Math.max(20, Math.floor(this.ttlMs / 5));
    this.chunkSize = Math.max(1, opts.chunkSize ?? 4);
    this.drainMs = opts.drainTimeoutMs ?? 15_000;
  }

  private staleBefore(): string {
    return nowIso(new Date(Date.now() - this.ttlMs));
  }

  /**
   * Claims this user's pending images (with `ids`, only those of them) and identifies them in the
   * background (progress() tells how far it got). With `wait`, answers only when the run has ended.
   */
  async predict(
    userId: number,
    opts: { wait?: boolean; ids?: readonly number[] } = {},
  ): Promise<PredictReply> {
    if (this.stopping || this.held.has(userId)) {
      throw new HttpError(503, SERVER_MESSAGES.unavailable);
    }
    const settings = await this.repo.getSettings(userId);
    if (!settings) throw new HttpError(409, M.configRequired);
    if (!this.models.has(settings.model_id)) throw new HttpError(503, M.modelUnavailable);

    const running = await this.runningRun(userId);
    if (running) return { status: 'OK', detail: M.predictRunning, total: running.total };

    const now = nowIso();
    const token = randomToken(16);
    const runId = await this.repo.insertRun({
      user_id: userId,
      model_id: settings.model_id,
      state: 'running',
      total: 0,
      done: 0,
      detail: null,
      created_at: now,
      updated_at: now,
      owner: token,
    });
    const claimed = await this.repo.claim(userId, runId, token, now, this.staleBefore(), opts.ids);
    if (!claimed.length) {
      await this.repo.deleteRun(userId, runId);
      const other = await this.runningRun(userId);
      if (other) return { status: 'OK', detail: M.predictRunning, total: other.total };
      throw new HttpError(400, M.nothingPending);
    }
    await this.repo.updateRun(runId, token, { total: claimed.length, updated_at: nowIso() });
    const job = this.launch({
      userId,
      runId,
      token,
      images: claimed,
      modelId: settings.model_id,
    });
    if (opts.wait) await job;
    return { status: 'OK', detail: M.predictStarted, total: claimed.length };
  }

  /** This user's run still in progress, if any; one whose holder died is taken over now. */
  private async runningRun(userId: number): Promise<RunRow | undefined> {
    const run = await this.repo.runningRun(userId);
    if (run && run.updated_at < this.staleBefore()) await this.sweep();
    return run;
  }

  private launch(run: Job): Promise<void> {
    const { token } = run;
    this.owned.add(token);
    const job = this.runJob(run)
      .catch((err) => this.log.error({ err }, 'identification run failed'))
      .finally(() => {
        this.jobs.delete(job);
        this.owned.delete(token);
      });
    this.jobs.set(job, run.userId);
    return job;
  }

  /**
   * Takes over runs whose holder stopped sending heartbeats (all runs left running, with
   * `all`: the embedded mode at start-up). A run the product can no longer finish (its model is
   * not loaded here, or it was taken over MAX_TAKEOVERS times) ends with the 'interrupted'
   * message and its images go back to pending.
   */
  private sweep(all = false): Promise<void> {
    if (this.stopping) return Promise.resolve();
    this.sweeping ??= this.sweepOnce(all).finally(() => {
      this.sweeping = null;
    });
    return this.sweeping;
  }

  private async sweepOnce(all: boolean): Promise<void> {
    try {
      const before = all ? nowIso(new Date(Date.now() + 86_400_000)) : this.staleBefore();
      for (const run of await this.repo.staleRuns(before)) {
        if (this.stopping) return;
        if (run.owner !== null && this.owned.has(run.owner)) continue;
        const token = randomToken(16);
        const images = await this.repo.takeOver(run, token, nowIso());
        if (!images) continue; // another process was quicker
        if (!this.models.has(run.model_id) || run.takeovers + 1 > MAX_TAKEOVERS) {
          this.log.warn(
            { runId: run.id, takeovers: run.takeovers + 1, model: run.model_id },
            'identification run given up',
          );
          await this.repo.release(token);
          await this.repo.updateRun(run.id, token, {
            state: 'error',
            detail: M.interrupted,
            updated_at: nowIso(),
          });
          this.opts.onRunEnd?.({ userId: run.user_id, runId: run.id, outcome: 'error' });
          continue;
        }
        this.log.warn(
          { runId: run.id, images: images.length },
          'identification run taken over from a stopped process',
        );
        void this.launch({
          userId: run.user_id,
          runId: run.id,
          token,
          images,
          modelId: run.model_id,
        });
      }
    } catch (err) {
      this.log.warn({ err }, 'taking over interrupted identification runs failed');
    }
  }

  private async runJob({ userId, runId, token, images, modelId }: Job): Promise<void> {
    let lost = false;
    const beat = setInterval(() => {
      const now = nowIso();
      void Promise.all([
        this.repo.heartbeatRun(runId, token, now),
        this.repo.heartbeat(token, now),
      ]).then(
        ([held]) => {
          if (!held) lost = true; // taken over after a stall: stop, the new holder goes on
        },
        () => undefined,
      );
    }, this.beatMs);
    beat.unref();
    this.timers.add(beat);
    let failed = 0;
    let done = 0;
    let outcome: RunOutcome = 'error';
    try {
      for (let start = 0; start < images.length; start += this.chunkSize) {
        if (this.stopping || lost || this.held.has(userId)) break;
        await this.opts.beforeChunk?.({ userId, runId, done });
        if (this.stopping || lost || this.held.has(userId)) break;
        const chunk = images.slice(start, start + this.chunkSize);
        failed += await this.identifyChunk(userId, token, chunk, modelId);
        done += chunk.length;
        if (!(await this.repo.addRunDone(runId, token, chunk.length, nowIso()))) lost = true;
      }
      if (lost) {
        outcome = 'lost';
      } else if (done < images.length && this.held.has(userId)) {
        // the account is being deleted: no hand-over, the run's rows go with the account
        outcome = 'stopped';
      } else if (done < images.length) {
        // stopping: the lease ends now, so the next holder does not wait for it
        await this.repo.handOver(runId, token);
        outcome = 'handed-over';
      } else {
        const detail = failed ? M.failedImages(failed) : null;
        await this.repo.finishRun(runId, token, { detail, updated_at: nowIso() });
        outcome = 'done';
      }
    } catch (err) {
      this.log.error({ err }, 'identification run stopped by an error');
      await this.repo.release(token).catch(() => undefined);
      await this.repo
        .updateRun(runId, token, { state: 'error', detail: M.interrupted, updated_at: nowIso() })
        .catch(() => undefined);
    } finally {
      clearInterval(beat);
      this.timers.delete(beat);
      this.opts.onRunEnd?.({ userId, runId, outcome });
    }
  }

  /**
   * Identifies a few images; returns how many were dropped: their file is gone, they cannot be
   * decoded, or they alone fail. Throws (runJob keeps every photo pending) when the failure is not
   * a photo's: the file store cannot be read, or the model fails on every photo it is given.
   */
  private async identifyChunk(
    userId: number,
    token: string,
    chunk: ImageRow[],
    modelId: string,
  ): Promise<number> {
    let failed = 0;
    const ok: { row: ImageRow; bytes: Buffer }[] = [];
    for (const row of chunk) {
      try {
        ok.push({ row, bytes: await this.media.read('post_images', userId, row.file) });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        failed++;
        await this.repo.dropClaimed(userId, row.id, token);
      }
    }
    // A photo that cannot be decoded comes back null, the others are not redone. If the whole call
    // fails (the worker stopped, the model failed), each photo is tried again on its own: one that
    // fails alone while another passes is dropped; when none passes, the fault is not the photos'.
    let results: (Identified | null)[];
    try {
      results = await this.models.identify(
        modelId,
        ok.map((o) => o.bytes),
      );
    } catch (callErr) {
      const alone: (Identified | null | undefined)[] = []; // undefined: it failed alone too
      let lastErr: unknown = callErr;
      for (const o of ok) {
        alone.push(
          await this.models.identify(modelId, [o.bytes]).then(
            (r) => r[0] ?? null,
            (err: unknown) => {
              lastErr = err;
              return undefined;
            },
          ),
        );
      }
      if (alone.every((r) => r === undefined)) throw lastErr;
      results = alone.map((r) => r ?? null);
    }
    for (let i = 0; i < ok.length; i++) {
      const { row } = ok[i] as { row: ImageRow; bytes: Buffer };
      const r = results[i];
      if (!r) {
        failed++;
        if (await this.repo.dropClaimed(userId, row.id, token)) {
          await this.media.remove('post_images', userId, row.file);
        }
        continue;
      }
      const heatmapFile = `h${row.id}.jpg`;
      const thumbFile = `t${row.id}.jpg`;
      await this.media.write('heatmaps', userId, heatmapFile, r.heatmap);
      await this.media.write('thumbs', userId, thumbFile, r.thumbnail);
      const now = nowIso();
      const top3 = JSON.stringify(r.top3);
      const stored = await this.repo.finish(
        userId,
        row.id,
        token,
        {
          label: r.label,
          probability: r.probability,
          accepted: r.accepted,
          reason: r.reason,
          leaf_probability: r.leafProbability,
          lab_like: r.labLike,
          top3,
          model: modelId,
          heatmap_file: heatmapFile,
          predicted_at: now,
        },
        {
          name_img: row.name_img,
          label: r.label,
          probability: r.probability,
          accepted: r.accepted ? 1 : 0,
          reason: r.reason,
          leaf_probability: r.leafProbability,
          lab_like: r.labLike,
          top3,
          model: modelId,
          thumb_file: thumbFile,
          created_at: now,
        },
      );
      if (!stored) {
        // the image was deleted meanwhile, or our claim was taken over: leave no files behind
        const still = await this.repo.findImage(userId, row.id);
        if (!still) {
          await this.media.remove('heatmaps', userId, heatmapFile);
          await this.media.remove('thumbs', userId, thumbFile);
        }
      }
    }
    return failed;
  }

  /**
   * Stops this process's work on a user's runs (the account is being deleted): a running job
   * ends after the chunk it is writing, without handing its run over, and no run of the user
   * starts or is taken over here until the returned release is called. Resolves once none of
   * the user's jobs is left.
   */
  async hold(userId: number): Promise<() => void> {
    this.held.set(userId, (this.held.get(userId) ?? 0) + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const n = (this.held.get(userId) ?? 1) - 1;
      if (n > 0) this.held.set(userId, n);
      else this.held.delete(userId);
    };
    await Promise.allSettled([...this.jobs].filter(([, u]) => u === userId).map(([job]) => job));
    return release;
  }

  /**
   * How far this user's latest run got. A run whose holder stopped is still 'running': a live
   * process takes it over within about a lease (the page keeps polling; no error for work the
   * product can still do).
   */
  async progress(userId: number): Promise<ProgressReply> {
    const run = await this.repo.latestRun(userId);
    if (!run) return { state: 'idle', done: 0, total: 0 };
    if (run.state === 'running' && run.updated_at < this.staleBefore()) void this.sweep();
    const state = run.state === 'done' || run.state === 'error' ? run.state : 'running';
    return {
      state,
      done: run.done,
      total: run.total,
      ...(run.detail ? { detail: run.detail } : {}),
    };
  }

  /**
   * Starts taking over interrupted runs: at once (in the embedded mode, every run left running;
   * otherwise those whose lease has run out), then every leaseMs / 5.
   */
  start(): void {
    void this.sweep(this.opts.exclusive === true);
    const sweeper = setInterval(() => void this.sweep(), this.beatMs);
    sweeper.unref();
    this.timers.add(sweeper);
  }

  /**
   * Stops identification cleanly: running jobs finish their current chunk and hand their run
   * over (its lease ends at once, so another process, or this one after a restart, goes on with
   * it). A job that does not stop in time is left; its lease runs out (leaseMs).
   */
  async close(): Promise<void> {
    this.stopping = true;
    await this.sweeping;
    const all = Promise.allSettled([...this.jobs.keys()]);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      all,
      new Promise((resolve) => {
        timer = setTimeout(resolve, this.drainMs);
      }),
    ]);
    if (timer) clearTimeout(timer);
    for (const t of this.timers) clearInterval(t);
    this.timers.clear();
  }
}

/**
 * The diagnosis tool's rules: configuration, uploads, identification runs (claimed
 * atomically, run in the background, progress in the database), result rows, the PDF
 * report, 'start anew' and the history. Only the repository speaks SQL; only MediaStore
 * touches files.
 *
 * Identification is a small job queue in the database (issue 17): a run is held by one process
 * under a short lease (its `owner` token, heartbeat `updated_at` every leaseMs / 5). Every
 * process sweeps for runs whose lease has run out and takes them over: the run gets a new owner
 * and its claimed images the new token, so late writes of the dead holder are fenced off (every
 * write checks the token) and each photo is identified exactly once. In the embedded mode the
 * SQLite file is this process's alone, so at start-up every running run is taken over at once.
 */
import {
  CROPS,
  DIAGNOSIS_MESSAGES as M,
  LEVELS,
  MODEL_TYPES,
  MODEL_VERSIONS,
  NOT_LEAF,
  NOT_RECOGNISED,
  SERVER_MESSAGES,
  UPLOAD_LIMITS,
  type ConfigBody,
  type ConfigReply,
  type ConfigStateReply,
  type DeleteReply,
  type DiagnosisReason,
  type DiagnosisRow,
  type HistoryItem,
  type ModelId,
  type PendingImage,
  type PredictReply,
  type ProgressReply,
  type ReportReply,
  type TopClass,
  type UploadReply,
  isDiagnosisReason,
} from '@diagrodl/contracts';
import { type ClassId, classInfo, className, isClassId } from '@diagrodl/contracts/classes';
import type { Classification, Classifier, Inference } from '../../inference/classifier.ts';
import { ModelRegistry } from '../../inference/models.ts';
import { HttpError } from '../../lib/errors.ts';
import { nowIso, randomToken } from '../../lib/tokens.ts';
import { type ReportImage, renderDiagnosisReport } from '../../reports/report.ts';
import type { DiagnosisRepository, ImageRow, RunRow } from './diagnosis.repository.ts';
import type { MediaStore } from './media.ts';
import { inspectImage, safeImageName } from './uploads.ts';

/** A run taken over this many times (each time its holder died) is given up, not retried. */
export const MAX_TAKEOVERS = 3;

export interface DiagnosisOptions {
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
}

interface Logger {
  error(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
}

export interface UploadInput {
  bytes: Buffer;
  filename: string | undefined;
  nameImg: string | undefined;
}

function lang(language: string | undefined): 'es' | 'en' {
  return language?.startsWith('en') ? 'en' : 'es';
}

/**
 * A stored row's outcome: accepted, or why not. A not-accepted row without a known reason
 * (written before migration 0004 derived them) is 'low_confidence'.
 */
function outcomeOf(r: {
  accepted: number | null;
  reason: string | null;
  leaf_probability: number | null;
}): { accepted: boolean; reason: DiagnosisReason | null; leaf_probability: number | null } {
  const accepted = r.accepted === 1;
  const reason = accepted ? null : isDiagnosisReason(r.reason) ? r.reason : 'low_confidence';
  const leaf = r.leaf_probability;
  return { accepted, reason, leaf_probability: leaf === null ? null : Number(leaf) };
}

export class DiagnosisService {
  private readonly ttlMs: number;
  private readonly beatMs: number;
  private readonly chunkSize: number;
  private readonly drainMs: number;
  private stopping = false;
  private sweeping: Promise<void> | null = null;
  private readonly jobs = new Set<Promise<void>>();
  /** Owner tokens of the runs this process is working on (never swept by itself). */
  private readonly owned = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly repo: DiagnosisRepository,
    private readonly media: MediaStore,
    private readonly models: Inference,
    private readonly log: Logger,
    private readonly opts: DiagnosisOptions & { productName?: string } = {},
  ) {
    this.ttlMs = opts.leaseMs ?? 5_000;
    this.beatMs = Math.max(20, Math.floor(this.ttlMs / 5));
    this.chunkSize = Math.max(1, opts.chunkSize ?? 4);
    this.drainMs = opts.drainTimeoutMs ?? 15_000;
  }

  /* ---------------- configuration ---------------- */

  /** `body`: the four fields as text ('' when missing), from the endpoint's request schema. */
  async configure(userId: number, body: ConfigBody) {
    const cfg: ConfigBody = {
      cultivo: body.cultivo.trim(),
      nivel: body.nivel.trim(),
      tipo_modelo: body.tipo_modelo.trim(),
      modelo_version: body.modelo_version.trim(),
    };
    if (cfg.cultivo !== CROPS[0]) throw new HttpError(400, M.cropNotAvailable);
    if (cfg.nivel !== LEVELS[0]) throw new HttpError(400, M.levelNotAvailable);
    if (cfg.tipo_modelo !== MODEL_TYPES[0]) throw new HttpError(400, M.typeNotAvailable);
    const version = MODEL_VERSIONS.find((v) => v.value === cfg.modelo_version);
    if (!version) throw new HttpError(400, M.modelUnknown);
    if (!this.models.has(version.modelId)) {
      throw new HttpError(400, M.modelNotLoaded(version.label));
    }
    await this.repo.saveSettings({
      user_id: userId,
      ...cfg,
      model_id: version.modelId,
      updated_at: nowIso(),
    });
    return {
      status: 'OK',
      detail: M.configOk,
      config: { ...cfg, modelId: version.modelId },
    } satisfies ConfigReply;
  }

  async getConfig(userId: number): Promise<ConfigStateReply> {
    const s = await this.repo.getSettings(userId);
    if (!s) return { config: null };
    return {
      config: {
        cultivo: s.cultivo,
        nivel: s.nivel,
        tipo_modelo: s.tipo_modelo,
        modelo_version: s.modelo_version,
        modelId: s.model_id as ModelId,
      },
    };
  }

  /* ---------------- uploads ---------------- */

  async upload(userId: number, input: UploadInput): Promise<UploadReply> {
    const rawName = input.nameImg?.trim() ? input.nameImg : input.filename;
    if (input.filename) safeImageName(input.filename);
    const nameImg = safeImageName(rawName ?? '');
    const img = await inspectImage(input.bytes);
    if ((await this.repo.countUnfinished(userId)) >= UPLOAD_LIMITS.maxPending) {
      throw new HttpError(409, M.tooManyPending);
    }
    const file = `${randomToken(12)}.${img.ext}`;
    await this.media.write('post_images', userId, file, input.bytes);
    let id: number;
    try {
      id = await this.repo.insertImage({
        user_id: userId,
        name_img: nameImg,
        file,
        mime: img.mime,
        size_bytes: input.bytes.length,
        width: img.width,
        height: img.height,
        status: 'pending',
        created_at: nowIso(),
      });
    } catch (err) {
      await this.media.remove('post_images', userId, file);
      throw err;
    }
    // Two uploads racing past the check above: the later one is taken back.
    if ((await this.repo.countUnfinished(userId, id)) > UPLOAD_LIMITS.maxPending) {
      await this.repo.deleteImages(userId, [id]);
      await this.media.remove('post_images', userId, file);
      throw new HttpError(409, M.tooManyPending);
    }
    return { status: 'OK', detail: M.uploadOk, id, name_img: nameImg };
  }

  async pending(userId: number): Promise<PendingImage[]> {
    const rows = await this.repo.listUnfinished(userId);
    return rows.map((r) => ({
      id: r.id,
      name_img: r.name_img,
      size: r.size_bytes,
      created_at: r.created_at,
      url: this.media.url('post_images', r.file),
    }));
  }

  async deletePending(userId: number, id: number): Promise<DeleteReply> {
    const row = await this.repo.findImage(userId, id);
    if (!row || row.status === 'done') throw new HttpError(404, M.pendingNotFound);
    if (row.status === 'claimed') throw new HttpError(409, M.pendingBusy);
    if (!(await this.repo.deletePending(userId, id))) throw new HttpError(409, M.pendingBusy);
    await this.media.remove('post_images', userId, row.file);
    return { status: 'OK', detail: M.pendingRemoved, deleted: 1 };
  }

  /* ---------------- identification ---------------- */

  private staleBefore(): string {
    return nowIso(new Date(Date.now() - this.ttlMs));
  }

  /**
   * Claims this user's pending images and identifies them in the background (progress() tells
   * how far it got). With `wait`, answers only when the run has ended.
   */
  async predict(userId: number, opts: { wait?: boolean } = {}): Promise<PredictReply> {
    if (this.stopping) throw new HttpError(503, SERVER_MESSAGES.unavailable);
    const settings = await this.repo.getSettings(userId);
    if (!settings) throw new HttpError(409, M.configRequired);
    const classifier = this.models.get(settings.model_id);
    if (!classifier) throw new HttpError(503, M.modelUnavailable);

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
    const claimed = await this.repo.claim(userId, runId, token, now, this.staleBefore());
    if (!claimed.length) {
      await this.repo.deleteRun(userId, runId);
      const other = await this.runningRun(userId);
      if (other) return { status: 'OK', detail: M.predictRunning, total: other.total };
      throw new HttpError(400, M.nothingPending);
    }
    await this.repo.updateRun(runId, token, { total: claimed.length, updated_at: nowIso() });
    const job = this.launch(userId, runId, token, claimed, classifier, settings.model_id);
    if (opts.wait) await job;
    return { status: 'OK', detail: M.predictStarted, total: claimed.length };
  }

  /** This user's run still in progress, if any; one whose holder died is taken over now. */
  private async runningRun(userId: number): Promise<RunRow | undefined> {
    const run = await this.repo.runningRun(userId);
    if (run && run.updated_at < this.staleBefore()) await this.sweep();
    return run;
  }

  private launch(
    userId: number,
    runId: number,
    token: string,
    images: ImageRow[],
    classifier: Classifier,
    modelId: string,
  ): Promise<void> {
    this.owned.add(token);
    const job = this.runJob(userId, runId, token, images, classifier, modelId)
      .catch((err) => this.log.error({ err }, 'identification run failed'))
      .finally(() => {
        this.jobs.delete(job);
        this.owned.delete(token);
      });
    this.jobs.add(job);
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
        const classifier = this.models.get(run.model_id);
        if (!classifier || run.takeovers + 1 > MAX_TAKEOVERS) {
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
          continue;
        }
        this.log.warn(
          { runId: run.id, images: images.length },
          'identification run taken over from a stopped process',
        );
        void this.launch(run.user_id, run.id, token, images, classifier, run.model_id);
      }
    } catch (err) {
      this.log.warn({ err }, 'taking over interrupted identification runs failed');
    }
  }

  private async runJob(
    userId: number,
    runId: number,
    token: string,
    images: ImageRow[],
    classifier: Classifier,
    modelId: string,
  ): Promise<void> {
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
    try {
      for (let start = 0; start < images.length; start += this.chunkSize) {
        if (this.stopping || lost) break;
        await this.opts.beforeChunk?.({ userId, runId, done });
        if (this.stopping || lost) break;
        const chunk = images.slice(start, start + this.chunkSize);
        failed += await this.identifyChunk(userId, token, chunk, classifier, modelId);
        done += chunk.length;
        if (!(await this.repo.addRunDone(runId, token, chunk.length, nowIso()))) lost = true;
      }
      if (lost) return;
      if (done < images.length) {
        // stopping: the lease ends now, so the next holder does not wait for it
        await this.repo.handOver(runId, token);
      } else {
        const detail = failed ? M.failedImages(failed) : null;
        await this.repo.finishRun(runId, token, { detail, updated_at: nowIso() });
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
    }
  }

  /** Identifies a few images; returns how many could not be read (they are dropped). */
  private async identifyChunk(
    userId: number,
    token: string,
    chunk: ImageRow[],
    classifier: Classifier,
    modelId: string,
  ): Promise<number> {
    let failed = 0;
    const ok: { row: ImageRow; bytes: Buffer }[] = [];
    for (const row of chunk) {
      try {
        ok.push({ row, bytes: await this.media.read('post_images', userId, row.file) });
      } catch {
        failed++;
        await this.repo.dropClaimed(userId, row.id, token);
      }
    }
    let results: (Classification | null)[];
    try {
      results = await classifier.classify(ok.map((o) => o.bytes));
    } catch {
      // one bad image must not sink the others: retry one by one
      results = [];
      for (const o of ok) {
        results.push(
          await classifier.classify([o.bytes]).then(
            (r) => r[0] ?? null,
            () => null,
          ),
        );
      }
    }
    for (let i = 0; i < ok.length; i++) {
      const { row, bytes } = ok[i] as { row: ImageRow; bytes: Buffer };
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
      await this.media.write(
        'heatmaps',
        userId,
        heatmapFile,
        await this.models.heatmap(bytes, r.cam),
      );
      await this.media.write('thumbs', userId, thumbFile, await this.models.thumbnail(bytes));
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

  /* ---------------- results ---------------- */

  private top3Of(json: string | null, language: string): TopClass[] {
    let parsed: unknown;
    try {
      parsed = JSON.parse(json ?? '[]');
    } catch {
      parsed = [];
    }
    return (Array.isArray(parsed) ? parsed : [])
      .filter((t): t is { label: ClassId; probability: number } => isClassId(t?.label))
      .map((t) => ({
        label: t.label,
        predict: className(t.label, language),
        probability: Number(t.probability),
      }));
  }

  /** The visible label: the class name, or the not-leaf / not-recognised message. */
  private predictName(label: ClassId, reason: DiagnosisReason | null, language: string): string {
    if (reason === 'not_leaf') return NOT_LEAF[lang(language)];
    if (reason === 'low_confidence') return NOT_RECOGNISED[lang(language)];
    return className(label, language);
  }

  async rows(userId: number): Promise<DiagnosisRow[]> {
    const language = (await this.repo.userLanguage(userId))?.language ?? 'es';
    const rows = await this.repo.listDone(userId);
    return rows
      .filter((r) => isClassId(r.label))
      .map((r) => {
        const label = r.label as ClassId;
        const { accepted, reason, leaf_probability } = outcomeOf(r);
        return {
          id: r.id,
          name_img: r.name_img,
          predict: this.predictName(label, reason, language),
          probability: Number(r.probability),
          label,
          top3: this.top3Of(r.top3, language),
          accepted,
          reason,
          leaf_probability,
          model: r.model ?? '',
          modelLabel: ModelRegistry.label(r.model ?? ''),
          created_at: r.predicted_at ?? r.created_at,
          image: this.media.url('post_images', r.file),
          heatmap: r.heatmap_file ? this.media.url('heatmaps', r.heatmap_file) : '',
          page: classInfo(label).route,
        };
      });
  }

  async makeReport(userId: number, baseUrl: string): Promise<ReportReply> {
    const rows = await this.repo.listDone(userId);
    const usable = rows.filter((r) => isClassId(r.label));
    if (!usable.length) throw new HttpError(400, M.noRows);
    const user = await this.repo.userLanguage(userId);
    const language = lang(user?.language);
    const models = [...new Set(usable.map((r) => r.model ?? ''))];
    const images: ReportImage[] = [];
    for (const r of usable) {
      const label = r.label as ClassId;
      const { accepted, reason } = outcomeOf(r);
      const photo = await this.media.read('post_images', userId, r.file).catch(() => null);
      const heatmap = r.heatmap_file
        ? await this.media.read('heatmaps', userId, r.heatmap_file).catch(() => null)
        : null;
      images.push({
        nameImg: r.name_img,
        label,
        predict: this.predictName(label, reason, language),
        probability: Number(r.probability),
        accepted,
        reason,
        top3: this.top3Of(r.top3, language),
        photo: photo ? await this.models.thumbnail(photo, 360, 82).catch(() => null) : null,
        heatmap: heatmap ? await this.models.thumbnail(heatmap, 360, 82).catch(() => null) : null,
        pageUrl: `${baseUrl}${classInfo(label).route}`,
      });
    }
    const pdf = await renderDiagnosisReport({
      productName: this.opts.productName ?? 'DiAgroDL',
      userName: user?.userName ?? String(userId),
      date: new Date(),
      language,
      models: models.map((id) => ({
        label: ModelRegistry.label(id),
        accuracy: this.models.accuracy(id),
      })),
      images,
    });
    const token = randomToken(24);
    await this.media.write('reports', userId, `${token}.pdf`, pdf);
    return { url: this.media.url('reports', `${token}.pdf`) };
  }

  /** 'Start anew': this user's images, result rows, heatmaps and reports go; the history stays. */
  async deleteRows(userId: number): Promise<DeleteReply> {
    const rows = await this.repo.listAllImages(userId);
    const n = await this.repo.deleteImages(
      userId,
      rows.map((r) => r.id),
    );
    for (const r of rows) {
      await this.media.remove('post_images', userId, r.file);
      await this.media.remove('heatmaps', userId, r.heatmap_file ?? `h${r.id}.jpg`);
    }
    await this.media.clear('reports', userId);
    await this.repo.deleteRuns(userId);
    return { status: 'OK', detail: M.rowsDeleted, deleted: n };
  }

  /* ---------------- history ---------------- */

  async history(userId: number): Promise<HistoryItem[]> {
    const language = (await this.repo.userLanguage(userId))?.language ?? 'es';
    const rows = await this.repo.listHistory(userId, 1000);
    return rows
      .filter((r) => isClassId(r.label))
      .map((r) => {
        const label = r.label as ClassId;
        const { accepted, reason, leaf_probability } = outcomeOf(r);
        return {
          id: r.id,
          name_img: r.name_img,
          predict: this.predictName(label, reason, language),
          probability: Number(r.probability),
          label,
          top3: this.top3Of(r.top3, language),
          accepted,
          reason,
          leaf_probability,
          model: r.model,
          modelLabel: ModelRegistry.label(r.model),
          created_at: r.created_at,
          image: this.media.url('thumbs', r.thumb_file),
          heatmap: '',
          page: classInfo(label).route,
          thumbnail: this.media.url('thumbs', r.thumb_file),
          client_id: r.client_id ?? null,
        };
      });
  }

  async deleteHistory(userId: number, id?: number): Promise<DeleteReply> {
    const gone = await this.repo.deleteHistory(userId, id);
    if (id !== undefined && !gone.length) throw new HttpError(404, M.historyNotFound);
    for (const h of gone) await this.media.remove('thumbs', userId, h.thumb_file);
    return { status: 'OK', detail: M.historyDeleted, deleted: gone.length };
  }

  /* ---------------- lifecycle ---------------- */

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
    const all = Promise.allSettled([...this.jobs]);
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

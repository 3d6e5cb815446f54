/**
 * The diagnosis tool's rules: configuration, uploads, identification runs (claimed
 * atomically, run in the background, progress in the database), result rows, the PDF
 * report, 'start anew' and the history. Only the repository speaks SQL; only MediaStore
 * touches files.
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
import type { Classification, Classifier } from '../../inference/classifier.ts';
import { renderHeatmap, thumbnailJpeg } from '../../inference/heatmap.ts';
import { ModelRegistry } from '../../inference/models.ts';
import { HttpError } from '../../lib/errors.ts';
import { nowIso, randomToken } from '../../lib/tokens.ts';
import { type ReportImage, renderDiagnosisReport } from '../../reports/report.ts';
import type { DiagnosisRepository, ImageRow } from './diagnosis.repository.ts';
import type { MediaStore } from './media.ts';
import { inspectImage, safeImageName } from './uploads.ts';

export interface DiagnosisOptions {
  /** A claim (or a run) whose heartbeat is older than this belongs to a dead process. */
  claimTtlMs?: number;
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
  private readonly chunkSize: number;
  private readonly drainMs: number;
  private stopping = false;
  private readonly jobs = new Set<Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly repo: DiagnosisRepository,
    private readonly media: MediaStore,
    private readonly models: ModelRegistry,
    private readonly log: Logger,
    private readonly opts: DiagnosisOptions & { productName?: string } = {},
  ) {
    this.ttlMs = opts.claimTtlMs ?? 120_000;
    this.chunkSize = Math.max(1, opts.chunkSize ?? 4);
    this.drainMs = opts.drainTimeoutMs ?? 15_000;
  }

  /* ---------------- configuration ---------------- */

  async configure(userId: number, body: Partial<Record<keyof ConfigBody, unknown>>) {
    const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
    const cfg: ConfigBody = {
      cultivo: str(body.cultivo),
      nivel: str(body.nivel),
      tipo_modelo: str(body.tipo_modelo),
      modelo_version: str(body.modelo_version),
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

    const running = await this.repo.activeRun(userId, this.staleBefore());
    if (running) return { status: 'OK', detail: M.predictRunning, total: running.total };

    const now = nowIso();
    const runId = await this.repo.insertRun({
      user_id: userId,
      model_id: settings.model_id,
      state: 'running',
      total: 0,
      done: 0,
      detail: null,
      created_at: now,
      updated_at: now,
    });
    const token = `${runId}.${randomToken(12)}`;
    const claimed = await this.repo.claim(userId, runId, token, now, this.staleBefore());
    if (!claimed.length) {
      await this.repo.deleteRun(userId, runId);
      const other = await this.repo.activeRun(userId, this.staleBefore());
      if (other) return { status: 'OK', detail: M.predictRunning, total: other.total };
      throw new HttpError(400, M.nothingPending);
    }
    await this.repo.updateRun(runId, { total: claimed.length, updated_at: nowIso() });
    const job = this.runJob(userId, runId, token, claimed, classifier, settings.model_id)
      .catch((err) => this.log.error({ err }, 'identification run failed'))
      .finally(() => this.jobs.delete(job));
    this.jobs.add(job);
    if (opts.wait) await job;
    return { status: 'OK', detail: M.predictStarted, total: claimed.length };
  }

  private async runJob(
    userId: number,
    runId: number,
    token: string,
    images: ImageRow[],
    classifier: Classifier,
    modelId: string,
  ): Promise<void> {
    const beat = setInterval(
      () => {
        const now = nowIso();
        void Promise.all([
          this.repo.heartbeat(token, now),
          this.repo.updateRun(runId, { updated_at: now }),
        ]).catch(() => undefined);
      },
      Math.max(50, Math.floor(this.ttlMs / 4)),
    );
    beat.unref();
    this.timers.add(beat);
    let failed = 0;
    let done = 0;
    try {
      for (let start = 0; start < images.length; start += this.chunkSize) {
        if (this.stopping) break;
        await this.opts.beforeChunk?.({ userId, runId, done });
        if (this.stopping) break;
        const chunk = images.slice(start, start + this.chunkSize);
        failed += await this.identifyChunk(userId, token, chunk, classifier, modelId);
        done += chunk.length;
        await this.repo.addRunDone(runId, chunk.length, nowIso());
      }
      if (this.stopping && done < images.length) {
        await this.repo.release(token);
        await this.repo.updateRun(runId, {
          state: 'error',
          detail: M.interrupted,
          updated_at: nowIso(),
        });
      } else {
        await this.repo.updateRun(runId, {
          state: 'done',
          detail: failed ? M.failedImages(failed) : null,
          updated_at: nowIso(),
        });
      }
    } catch (err) {
      this.log.error({ err }, 'identification run stopped by an error');
      await this.repo.release(token).catch(() => undefined);
      await this.repo
        .updateRun(runId, { state: 'error', detail: M.interrupted, updated_at: nowIso() })
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
      await this.media.write('heatmaps', userId, heatmapFile, await renderHeatmap(bytes, r.cam));
      await this.media.write('thumbs', userId, thumbFile, await thumbnailJpeg(bytes));
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

  async progress(userId: number): Promise<ProgressReply> {
    const run = await this.repo.latestRun(userId);
    if (!run) return { state: 'idle', done: 0, total: 0 };
    if (run.state === 'running' && run.updated_at < this.staleBefore()) {
      return { state: 'error', done: run.done, total: run.total, detail: M.interrupted };
    }
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
        photo: photo ? await thumbnailJpeg(photo, 360, 82).catch(() => null) : null,
        heatmap: heatmap ? await thumbnailJpeg(heatmap, 360, 82).catch(() => null) : null,
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
   * Stops identification cleanly: running jobs finish their current chunk and give the rest
   * back (pending). A job that does not stop in time is left; its claims expire (claimTtlMs).
   */
  async close(): Promise<void> {
    this.stopping = true;
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

/**
 * ModelWorker: the thread that does the CPU-heavy work of the diagnosis (model-worker.thread.ts):
 * the model registry (src/inference/) and the image work (src/images/), so that decoding,
 * resizing, inference and heatmap rendering of large photos never block the server's event loop
 * (bench/diagnosis/run.ts measures it: another user's requests stay fast while one user
 * identifies 50 twelve-megapixel photos). It answers the same Inference interface as an
 * in-process ModelRegistry, and identify(): each photo decoded once, then classified and turned
 * into its heatmap and thumbnail. The cards are checked and the sessions loaded inside the worker.
 *
 * The worker gets a large stack (WORKER_STACK_MB): onnxruntime-node initialises its
 * environment by parsing /proc/self/cmdline recursively, and a long command line (the diagnose
 * CLI with hundreds of paths) overflowed the 8 MB main-thread stack (SIGSEGV). The CLI also
 * keeps its own command line short (see cli/diagnose.ts); the large stack is the second guard.
 */
import { Worker } from 'node:worker_threads';
import type { LoadedModelDetails } from '@diagrodl/contracts';
import type { ModelCard } from '@diagrodl/contracts/model-card';
import type { PhotoImages } from '../images/photo-images.ts';
import type { DecodedRgb } from '../inference/preprocess.ts';
import type {
  Classification,
  Classifier,
  Inference,
  ModelHealth,
} from '../inference/classifier.ts';

/** A photo identified: the model's classification and the images kept of it. */
export type Identified = Classification & PhotoImages;

/** Stack of the worker thread, in MB (onnxruntime's start-up recursion, see above). */
export const WORKER_STACK_MB = 64;

export interface WorkerSummary {
  list: LoadedModelDetails[];
  health: ModelHealth[];
  models: {
    id: string;
    threshold: number;
    leafThreshold: number | undefined;
    fieldThreshold: number | undefined;
    accuracy: number | null;
    card: ModelCard | undefined;
  }[];
}

export type WorkerRequest = { id: number } & (
  | { op: 'classify'; model: string; images: (Uint8Array | DecodedRgb)[] }
  | { op: 'identify'; model: string; images: Uint8Array[] }
  | { op: 'thumbnail'; photo: Uint8Array; side?: number; quality?: number }
  | { op: 'close' }
);

export type WorkerReply =
  | { kind: 'ready'; summary: WorkerSummary }
  | { kind: 'log'; level: 'info' | 'warn'; msg: string }
  | { kind: 'reply'; id: number; value?: unknown; error?: string };

type RequestBody = WorkerRequest extends infer R
  ? R extends unknown
    ? Omit<R, 'id'>
    : never
  : never;

interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
}

/** Where the worker's code is: beside this file in the sources, or beside the server bundle. */
function workerEntry(): URL {
  if (import.meta.url.endsWith('.ts')) {
    // Sources (tsx, vitest): a small loader registers tsx inside the worker first.
    return new URL('./model-worker.boot.mjs', import.meta.url);
  }
  return new URL('./model-worker.js', import.meta.url);
}

const asBuffer = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);

/** Starts a worker thread and waits until it has checked the cards and loaded the models. */
function spawn(
  modelsDir: string,
  log: Logger,
): Promise<{ worker: Worker; summary: WorkerSummary }> {
  const worker = new Worker(workerEntry(), {
    workerData: { modelsDir },
    resourceLimits: { stackSizeMb: WORKER_STACK_MB },
  });
  return new Promise((resolve, reject) => {
    const onExit = (code: number) =>
      reject(new Error(`the inference worker stopped while loading (exit code ${code})`));
    const onMessage = (m: WorkerReply) => {
      if (m.kind === 'log') log[m.level](m.msg);
      else if (m.kind === 'ready') {
        worker.off('error', reject);
        worker.off('exit', onExit);
        worker.off('message', onMessage); // from here ModelWorker.attach listens
        resolve({ worker, summary: m.summary });
      }
    };
    worker.on('error', reject);
    worker.on('exit', onExit);
    worker.on('message', onMessage);
  });
}

export class ModelWorker implements Inference {
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (v: unknown) => void; reject: (e: Error) => void }
  >();
  private readonly byId: Map<string, WorkerSummary['models'][number]>;
  private worker!: Worker;
  /** A worker that stopped by itself is started again; calls made meanwhile wait for it. */
  private restarting: Promise<void> | null = null;
  private closing = false;
  /** Closed, or stopped and could not be started again: every call is refused. */
  private closed = false;
  private closedReason: string | null = null;

  private constructor(
    worker: Worker,
    private readonly summary: WorkerSummary,
    private readonly modelsDir: string,
    private readonly log: Logger,
  ) {
    this.byId = new Map(summary.models.map((m) => [m.id, m]));
    this.attach(worker);
  }

  private attach(worker: Worker): void {
    this.worker = worker;
    worker.on('message', (m: WorkerReply) => {
      if (m.kind === 'log') {
        this.log[m.level](m.msg);
        return;
      }
      if (m.kind !== 'reply') return;
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.error !== undefined) p.reject(new Error(m.error));
      else p.resolve(m.value);
    });
    const failAll = (err: Error) => {
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    worker.on('error', failAll);
    worker.on('exit', (code) => {
      failAll(new Error(`the inference worker stopped (exit code ${code})`));
      if (this.closing) {
        this.closed = true;
        return;
      }
      // It stopped by itself (it ran out of memory, a native library failed): the models are
      // loaded again in a new thread, and the calls in flight failed (their callers keep the photos).
      this.log.warn(`the inference worker stopped (exit code ${code}); starting it again`);
      const loaded = (w: WorkerSummary) => w.models.map((m) => m.id).join(',');
      this.restarting = spawn(this.modelsDir, this.log)
        .then(({ worker: next, summary }) => {
          if (loaded(summary) !== loaded(this.summary)) {
            void next.terminate();
            throw new Error(`it loaded other models (${loaded(summary) || 'none'})`);
          }
          this.restarting = null;
          if (this.closing) {
            this.closed = true;
            void next.terminate();
          } else this.attach(next);
        })
        .catch((err: unknown) => {
          this.restarting = null;
          this.closed = true;
          this.closedReason = `the inference worker stopped and could not start again: ${
            err instanceof Error ? err.message : String(err)
          }`;
          this.log.warn(this.closedReason);
        });
    });
  }

  /** Starts the worker and waits until it has checked the cards and loaded the models. */
  static async start(
    modelsDir: string,
    log: Logger = { info: () => undefined, warn: () => undefined },
  ): Promise<ModelWorker> {
    const { worker, summary } = await spawn(modelsDir, log);
    return new ModelWorker(worker, summary, modelsDir, log);
  }

  private async call<T>(body: RequestBody): Promise<T> {
    if (this.restarting) await this.restarting;
    if (this.closed) throw new Error(this.closedReason ?? 'the inference worker is closed');
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ ...body, id });
    });
  }

  get(id: string): Classifier | undefined {
    const m = this.byId.get(id);
    if (!m) return undefined;
    return {
      id: m.id,
      threshold: m.threshold,
      leafThreshold: m.leafThreshold,
      fieldThreshold: m.fieldThreshold,
      classify: (images) =>
        images.length
          ? this.call<Classification[]>({ op: 'classify', model: m.id, images: [...images] })
          : Promise.resolve([]),
    };
  }

  has(id: string): boolean {
    return !this.closed && this.byId.has(id);
  }

  list(): LoadedModelDetails[] {
    return this.summary.list;
  }

  health(): ModelHealth[] {
    const reason = this.closedReason;
    if (reason === null) return this.summary.health;
    return this.summary.health.map((h) =>
      h.status === 'loaded' ? { ...h, status: 'refused' as const, reason } : h,
    );
  }

  accuracy(id: string): number | null {
    return this.byId.get(id)?.accuracy ?? null;
  }

  card(id: string): ModelCard | undefined {
    return this.byId.get(id)?.card;
  }

  /**
   * Classifies photos with model `id` and renders each one's heatmap and thumbnail, every photo
   * decoded once. One result per photo, in order: null for a photo that cannot be decoded. Throws
   * when the call fails otherwise (the model is not loaded or failed, the worker stopped).
   */
  async identify(id: string, images: readonly Buffer[]): Promise<(Identified | null)[]> {
    if (!images.length) return [];
    const out = await this.call<(Identified | null)[]>({
      op: 'identify',
      model: id,
      images: [...images],
    });
    return out.map((r) =>
      r ? { ...r, heatmap: asBuffer(r.heatmap), thumbnail: asBuffer(r.thumbnail) } : null,
    );
  }

  async thumbnail(photo: Buffer, side?: number, quality?: number): Promise<Buffer> {
    return asBuffer(await this.call<Uint8Array>({ op: 'thumbnail', photo, side, quality }));
  }

  /** Frees the sessions and stops the thread. */
  async close(): Promise<void> {
    if (this.closing || this.closed) return;
    this.closing = true; // from now on, a thread that stops is not started again
    await this.call({ op: 'close' }).catch(() => undefined);
    if (this.closed) return; // a restart was under way and did not go on
    this.closed = true;
    await this.worker.terminate();
  }
}

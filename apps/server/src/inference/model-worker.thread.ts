/**
 * The inference worker thread (started by ModelWorker, model-worker.ts): it owns the
 * onnxruntime sessions of a ModelRegistry and does the CPU-heavy part of identification off
 * the server's event loop: decoding, cropping and resizing photos, inference, the decision,
 * heatmap overlays and thumbnails. One request at a time per model (ModelRegistry's mutex);
 * the answers keep the request's id.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { CamMap } from './classifier.ts';
import { ModelRegistry } from './models.ts';
import type { WorkerReply, WorkerRequest, WorkerSummary } from './model-worker.ts';

const port = parentPort;
if (!port) throw new Error('model-worker.thread.ts runs only as a worker thread');

const buffer = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);

const { modelsDir } = workerData as { modelsDir: string };
const registry = await ModelRegistry.load(modelsDir, {
  info: (msg) => port.postMessage({ kind: 'log', level: 'info', msg } satisfies WorkerReply),
  warn: (msg) => port.postMessage({ kind: 'log', level: 'warn', msg } satisfies WorkerReply),
});

const summary: WorkerSummary = {
  list: registry.list(),
  health: registry.health(),
  models: registry.list().map((m) => {
    const c = registry.get(m.id);
    return {
      id: m.id,
      threshold: c?.threshold ?? m.threshold,
      leafThreshold: c?.leafThreshold,
      accuracy: registry.accuracy(m.id),
      card: registry.card(m.id),
    };
  }),
};

async function handle(req: WorkerRequest): Promise<unknown> {
  switch (req.op) {
    case 'classify': {
      const model = registry.get(req.model);
      if (!model) throw new Error(`model ${req.model} is not loaded`);
      return model.classify(req.images.map(buffer));
    }
    case 'heatmap':
      return registry.heatmap(buffer(req.photo), req.cam as CamMap);
    case 'thumbnail':
      return registry.thumbnail(buffer(req.photo), req.side, req.quality);
    case 'close':
      await registry.close();
      return null;
  }
}

port.on('message', (req: WorkerRequest) => {
  handle(req).then(
    (value) => port.postMessage({ kind: 'reply', id: req.id, value } satisfies WorkerReply),
    (err: unknown) =>
      port.postMessage({
        kind: 'reply',
        id: req.id,
        error: err instanceof Error ? err.message : String(err),
      } satisfies WorkerReply),
  );
});
port.postMessage({ kind: 'ready', summary } satisfies WorkerReply);

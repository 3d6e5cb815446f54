/**
 * The model worker thread (started by ModelWorker, model-worker.ts): it owns the onnxruntime
 * sessions of a ModelRegistry and does the CPU-heavy part of identification off the server's
 * event loop: each photo decoded once (inference/preprocess.ts decodeRgb), that one decoded
 * image classified (inference/) and turned into its heatmap and thumbnail (images/). One
 * inference at a time per process (ModelRegistry's mutex); the answers keep the request's id.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { thumbnailJpeg } from '../images/photo-images.ts';
import { ModelRegistry } from '../inference/registry.ts';
import { identifyPhotos } from './identify.ts';
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
      fieldThreshold: c?.fieldThreshold,
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
      return model.classify(
        req.images.map((i) =>
          i instanceof Uint8Array ? buffer(i) : { ...i, data: buffer(i.data) },
        ),
      );
    }
    case 'identify': {
      const model = registry.get(req.model);
      if (!model) throw new Error(`model ${req.model} is not loaded`);
      // one photo after another (a batch is no faster on two cores: bench/diagnosis, batch of 20
      // against one image p50), the next decoded while this one is classified (identify.ts)
      return identifyPhotos(model, req.images.map(buffer));
    }
    case 'thumbnail':
      return thumbnailJpeg(buffer(req.photo), req.side, req.quality);
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

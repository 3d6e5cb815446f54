// Entry of the inference worker thread when the server runs from its TypeScript sources (tsx,
// vitest): registers tsx in this thread, then loads the worker. The built server bundles
// model-worker.thread.ts as dist/model-worker.js instead.
import { register } from 'tsx/esm/api';

register();
await import('./model-worker.thread.ts');

// The model worker thread, when it stops by itself: started again with the same models (calls
// made meanwhile wait for it), or, when it cannot be, every call refused and the models reported
// as refused, so that the server answers "model unavailable" instead of failing each photo.
import fs from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { leafPhoto } from '../testing/diagnosis.ts';
import { makeModelsDir } from '../testing/tiny-model.ts';
import { ModelWorker } from './model-worker.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** Stops the thread as a crash would (not through close()). */
const stopThread = (w: ModelWorker) => (w as unknown as { worker: Worker }).worker.terminate();

describe('ModelWorker', { timeout: 60_000 }, () => {
  it('starts its thread again after it stopped, with the same answers', async () => {
    const dir = makeModelsDir(['mobilenet']);
    dirs.push(dir);
    const warnings: string[] = [];
    const w = await ModelWorker.start(dir, {
      info: () => undefined,
      warn: (m) => warnings.push(m),
    });
    try {
      const photo = await leafPhoto({ seed: 3 });
      const [before] = await w.identify('mobilenet', [photo]);
      await stopThread(w);
      const [after] = await w.identify('mobilenet', [photo]);
      expect(after?.probabilities).toEqual(before?.probabilities);
      expect(warnings.some((m) => m.includes('starting it again'))).toBe(true);
      expect(w.has('mobilenet')).toBe(true);
      expect(w.health()).toEqual([expect.objectContaining({ id: 'mobilenet', status: 'loaded' })]);
    } finally {
      await w.close();
    }
    await expect(w.identify('mobilenet', [Buffer.from('x')])).rejects.toThrow('closed');
  });

  it('refuses every call once its thread cannot start again', async () => {
    const dir = makeModelsDir(['mobilenet']);
    dirs.push(dir);
    const w = await ModelWorker.start(dir);
    try {
      fs.rmSync(dir, { recursive: true, force: true }); // the models are gone
      await stopThread(w);
      await expect(w.identify('mobilenet', [await leafPhoto({ seed: 1 })])).rejects.toThrow(
        'could not start again',
      );
      expect(w.has('mobilenet')).toBe(false);
      expect(w.health()).toEqual([
        expect.objectContaining({
          id: 'mobilenet',
          status: 'refused',
          reason: expect.stringContaining('could not start again'),
        }),
      ]);
    } finally {
      await w.close();
    }
  });
});

// Sending and identifying photos (identify.ts), the calls answered by spies on the api module:
// the run followed through a restart of the server, the default model for a person who never
// chose one, and a photo identified again replacing its old result in place.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DiagnosisRow, LoadedModelDetails, ProgressReply } from '@diagrodl/contracts';
import { ApiError } from '@/lib/api-client.ts';
import { diagnosisApi } from './api.ts';
import {
  POLL_MS,
  Stopped,
  ensureConfigured,
  followRun,
  identifyAgain,
  identifyWaiting,
  inPlaceOf,
  sendPhotos,
  sentFirst,
} from './identify.ts';

afterEach(() => vi.restoreAllMocks());

const running = (done: number, total = 3): ProgressReply => ({ state: 'running', done, total });
const finished = (total = 3): ProgressReply => ({ state: 'done', done: total, total });

/** The progress replies in order; an Error in the list is thrown instead. */
function progressAnswers(...answers: (ProgressReply | Error)[]) {
  const spy = vi.spyOn(diagnosisApi, 'progress');
  for (const a of answers) {
    if (a instanceof Error) spy.mockRejectedValueOnce(a);
    else spy.mockResolvedValueOnce(a);
  }
  return spy;
}

const model = (id: LoadedModelDetails['id']) => ({ id }) as LoadedModelDetails;

function row(id: number, name: string, accepted = true): DiagnosisRow {
  return { id, name_img: name, accepted } as DiagnosisRow;
}

describe('following a run of the server', () => {
  it('reports each reply, waits longer after a transient failure, and returns the end', async () => {
    progressAnswers(running(1), new ApiError(503, 'restarting'), running(2), finished());
    const seen: ProgressReply[] = [];
    const waits: number[] = [];
    const end = await followRun(
      (p) => seen.push(p),
      undefined,
      async (ms) => void waits.push(ms),
    );
    expect(end).toEqual(finished());
    expect(seen).toEqual([running(1), running(2), finished()]);
    expect(waits).toEqual([POLL_MS, POLL_MS * 2, POLL_MS]);
  });

  it('throws a failure that is not transient, and stops when its page went away', async () => {
    progressAnswers(new ApiError(500, 'broken'));
    await expect(
      followRun(
        () => undefined,
        undefined,
        async () => undefined,
      ),
    ).rejects.toThrow('broken');
    const controller = new AbortController();
    progressAnswers(running(1), running(2));
    const seen: ProgressReply[] = [];
    await expect(
      followRun(
        (p) => seen.push(p),
        controller.signal,
        async () => controller.abort(),
      ),
    ).rejects.toBeInstanceOf(Stopped);
    expect(seen).toEqual([running(1)]);
  });
});

describe('a person who never chose a model', () => {
  it('gets the MobileNet configured; a stored choice stays as it is', async () => {
    vi.spyOn(diagnosisApi, 'config').mockResolvedValueOnce({ config: null });
    vi.spyOn(diagnosisApi, 'models').mockResolvedValue([model('resnet50'), model('mobilenet')]);
    const configure = vi.spyOn(diagnosisApi, 'configure').mockResolvedValue({} as never);
    await ensureConfigured();
    expect(configure).toHaveBeenCalledWith({
      cultivo: 'tomate',
      nivel: 'hoja',
      tipo_modelo: 'DL',
      modelo_version: 'tomato_leaf_cnn_mobilenet',
    });

    configure.mockClear();
    vi.spyOn(diagnosisApi, 'config').mockResolvedValueOnce({
      config: {
        cultivo: 'tomate',
        nivel: 'hoja',
        tipo_modelo: 'DL',
        modelo_version: 'Tomato_leaf_cnn_resnet50',
        modelId: 'resnet50',
      },
    });
    await ensureConfigured();
    expect(configure).not.toHaveBeenCalled();
  });

  it('has the waiting photos identified after the configuration, in that order', async () => {
    const calls: string[] = [];
    vi.spyOn(diagnosisApi, 'config').mockImplementation(async () => {
      calls.push('config');
      return { config: null };
    });
    vi.spyOn(diagnosisApi, 'models').mockResolvedValue([model('mobilenet')]);
    vi.spyOn(diagnosisApi, 'configure').mockImplementation(async () => {
      calls.push('configure');
      return {} as never;
    });
    vi.spyOn(diagnosisApi, 'predict').mockImplementation(async () => {
      calls.push('predict');
      return { status: 'OK', detail: '', total: 2 };
    });
    progressAnswers(finished(2));
    const seen: ProgressReply[] = [];
    const { progress } = await identifyWaiting('', (p) => seen.push(p), { configure: true });
    expect(calls).toEqual(['config', 'configure', 'predict']);
    expect(progress).toEqual(finished(2));
    expect(seen).toEqual([running(0, 2), finished(2)]);
  });
});

describe('sending photos', () => {
  it('sends each in order, counts every one, and returns those that failed with why', async () => {
    const files = ['a.jpg', 'b.jpg', 'c.jpg'].map(
      (n) => new File(['x'], n, { type: 'image/jpeg' }),
    );
    const refused = new ApiError(415, 'Formato no admitido');
    const counts: [number, number][] = [];
    let id = 10;
    vi.spyOn(diagnosisApi, 'upload').mockImplementation(async (file) => {
      if (file.name === 'b.jpg') throw refused;
      return { status: 'OK', detail: '', id: id++, name_img: file.name };
    });
    const { failed, sent } = await sendPhotos(files, { onDevice: false, owner: '' }, (d, n) =>
      counts.push([d, n]),
    );
    expect(failed).toEqual([{ file: files[1], error: refused }]);
    expect(sent).toEqual({ server: [10, 11], device: [] });
    expect(counts).toEqual([
      [0, 3],
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
  });
});

describe('the photos of one press', () => {
  it('come first, the rows left from an earlier identification after them', () => {
    const rows = [row(1, 'old'), row(5, 'a'), row(6, 'b'), row(2, 'older')];
    const { fresh, earlier } = sentFirst(rows, { server: [6, 5], device: [] });
    expect(fresh.map((r) => r.id)).toEqual([5, 6]);
    expect(earlier.map((r) => r.id)).toEqual([1, 2]);
  });

  it('leave the list as it is when none of them is shown or nothing says which were sent', () => {
    const rows = [row(1, 'old'), row(2, 'older')];
    expect(sentFirst(rows, { server: [9], device: [] })).toEqual({ fresh: rows, earlier: [] });
    expect(sentFirst(rows, undefined)).toEqual({ fresh: rows, earlier: [] });
  });
});

describe('a photo identified again', () => {
  it('keeps its place in the list; rows gone stay gone, new ones come last', () => {
    const shown = [row(1, 'a'), row(2, 'b'), row(3, 'c')];
    const next = [row(1, 'a'), row(3, 'c'), row(7, 'b2'), row(8, 'd')];
    expect(inPlaceOf(shown, next, 2, 7).map((r) => r.id)).toEqual([1, 7, 3, 8]);
    expect(inPlaceOf(shown, [row(3, 'c'), row(1, 'a')], 2, null).map((r) => r.id)).toEqual([1, 3]);
  });

  it('replaces the old result only once the new photo has its answer', async () => {
    const shown = [row(1, 'a.jpg'), row(2, 'b.jpg', false), row(3, 'c.jpg')];
    const file = new File(['x'], 'b.jpg', { type: 'image/jpeg' });
    vi.spyOn(diagnosisApi, 'upload').mockResolvedValue({
      status: 'OK',
      detail: '',
      id: 7,
      name_img: 'b.jpg',
    });
    vi.spyOn(diagnosisApi, 'config').mockResolvedValue({ config: null });
    vi.spyOn(diagnosisApi, 'models').mockResolvedValue([model('mobilenet')]);
    vi.spyOn(diagnosisApi, 'configure').mockResolvedValue({} as never);
    vi.spyOn(diagnosisApi, 'predict').mockResolvedValue({ status: 'OK', detail: '', total: 1 });
    progressAnswers(finished(1));
    vi.spyOn(diagnosisApi, 'rows').mockResolvedValue([...shown, row(7, 'b.jpg')]);
    const remove = vi.spyOn(diagnosisApi, 'removeRow').mockResolvedValue({} as never);
    const done = await identifyAgain(
      shown[1]!,
      file,
      { onDevice: false, owner: '', shown },
      () => undefined,
    );
    expect(remove).toHaveBeenCalledWith(2);
    expect(done.rows?.map((r) => r.id)).toEqual([1, 7, 3]);

    // the new photo could not be identified (the run dropped it): the old result stays
    remove.mockClear();
    progressAnswers({ ...finished(1), detail: '1 imagen no se pudo identificar y se descartó.' });
    vi.spyOn(diagnosisApi, 'rows').mockResolvedValue(shown);
    const kept = await identifyAgain(
      shown[1]!,
      file,
      { onDevice: false, owner: '', shown },
      () => undefined,
    );
    expect(remove).not.toHaveBeenCalled();
    expect(kept.rows?.map((r) => r.id)).toEqual([1, 2, 3]);
  });
});

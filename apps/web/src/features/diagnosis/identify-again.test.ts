// A photo identified again from its result card (identify.ts, identifyAgain): only that photo is
// identified, not the other photos waiting on the device or on the server; and a server run started on its own
// counts the photos it answered, so a run that dropped them all is not taken for a success.
// The device's store is kept in memory here, and its model answers at once.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DIAGNOSIS_MESSAGES as M, type DiagnosisRow } from '@diagrodl/contracts';
import { diagnosisApi } from './api.ts';
import type { DeviceRow } from './device/rows.ts';
import type { DevicePhoto } from './device/store.ts';
import { diagnosedOnServer, identifyAgain, identifyWaiting } from './identify.ts';

const store = vi.hoisted(() => new Map<string, DevicePhoto>());
/** When set, the device model cannot read the next photo. */
const unreadable = vi.hoisted(() => ({ on: false }));

vi.mock('./device/store.ts', async (original) => ({
  ...(await original<typeof import('./device/store.ts')>()),
  listDevicePhotos: async (owner: string) =>
    [...store.values()]
      .filter((p) => p.owner === owner)
      .sort((a, b) => a.addedAt.localeCompare(b.addedAt)),
  putDevicePhoto: async (p: DevicePhoto) => void store.set(p.id, { ...p }),
  updateDevicePhoto: async (id: string, patch: Partial<DevicePhoto>) => {
    const p = store.get(id);
    if (p) store.set(id, { ...p, ...patch });
    return p !== undefined;
  },
  deleteDevicePhotos: async (ids: readonly string[]) => ids.forEach((id) => store.delete(id)),
}));
vi.mock('./device/model.ts', () => ({ loadDeviceModel: async () => ({}) }));
vi.mock('./device/classify.ts', () => ({
  diagnosePhoto: async () => {
    if (unreadable.on) throw new Error('the photo could not be decoded');
    return {
      decision: {
        label: 'healthy',
        probability: 0.9,
        accepted: true,
        reason: null,
        leafProbability: 0.99,
        labLike: 0.9,
        top3: [],
      },
      cam: {},
    };
  },
  renderHeatmap: async () => new Blob(['h']),
}));

const OWNER = 'ana';

function kept(id: string, over: Partial<DevicePhoto> = {}): DevicePhoto {
  const p: DevicePhoto = {
    id,
    owner: OWNER,
    name: `${id}.jpg`,
    type: 'image/jpeg',
    size: 1,
    photo: new Blob(['x'], { type: 'image/jpeg' }),
    addedAt: `2026-05-01T10:00:0${store.size}.000Z`,
    status: 'pending',
    inWorkingSet: true,
    sync: 'unsent',
    ...over,
  };
  store.set(id, p);
  return p;
}

const photo = () => new File(['y'], 'again.jpg', { type: 'image/jpeg' });

beforeEach(() => {
  store.clear();
  unreadable.on = false;
});
afterEach(() => vi.restoreAllMocks());

/** The photo of a result kept on the device, taken again (kept on the device or uploaded). */
const takeAgain = (old: DevicePhoto, where: { onDevice: boolean }) =>
  identifyAgain(
    { id: -1, device: old } as unknown as DeviceRow,
    photo(),
    { ...where, owner: OWNER, shown: [] },
    () => undefined,
  );

/** The server takes the photo taken again as pending photo `id`. */
const uploadsAs = (id: number) =>
  vi
    .spyOn(diagnosisApi, 'upload')
    .mockResolvedValue({ status: 'OK', detail: '', id, name_img: 'again.jpg' });

/** A result kept on the device that was refused (the one a person takes again). */
const refusedOnDevice = () =>
  kept('old', {
    status: 'done',
    result: { label: 'late_blight', probability: 0.4, accepted: false } as DevicePhoto['result'],
  });

describe('a photo identified again', () => {
  it('on the device: only the new photo, the others waiting there (and on the server) stay waiting', async () => {
    const old = refusedOnDevice();
    kept('other');
    const predict = vi.spyOn(diagnosisApi, 'predict');
    const pending = vi
      .spyOn(diagnosisApi, 'pending')
      .mockResolvedValue([{ id: 9, name_img: 'up.jpg', size: 1, created_at: '', url: '' }]);
    vi.spyOn(diagnosisApi, 'rows').mockResolvedValue([]);
    const done = await takeAgain(old, { onDevice: true });
    const [fresh] = done.replacement.device;
    expect(store.get(fresh!)?.status).toBe('done');
    expect(store.get('other')?.status).toBe('pending');
    expect(predict).not.toHaveBeenCalled();
    expect(pending).not.toHaveBeenCalled();
    expect(done.diagnosed).toBe(1);
  });

  it('on the device: a new photo that cannot be read keeps the old result, and is not kept', async () => {
    const old = refusedOnDevice();
    unreadable.on = true;
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(diagnosisApi, 'rows').mockResolvedValue([]);
    const done = await takeAgain(old, { onDevice: true });
    expect(store.get('old')).toMatchObject({ status: 'done', inWorkingSet: true });
    expect([...store.keys()]).toEqual(['old']);
    expect(done.deviceFailed).toBe(1);
    expect(done.identified).toBe(false);
  });

  it('on the server: a new photo the server dropped keeps the old device result', async () => {
    const old = refusedOnDevice();
    uploadsAs(7);
    vi.spyOn(diagnosisApi, 'config').mockResolvedValue({ config: {} as never });
    vi.spyOn(diagnosisApi, 'predict').mockResolvedValue({ status: 'OK', detail: '', total: 1 });
    vi.spyOn(diagnosisApi, 'progress').mockResolvedValue({
      state: 'done',
      done: 1,
      total: 1,
      detail: M.failedImages(1),
    });
    vi.spyOn(diagnosisApi, 'rows').mockResolvedValue([]);
    const done = await takeAgain(old, { onDevice: false });
    expect(store.get('old')).toMatchObject({ status: 'done', inWorkingSet: true });
    expect(done.identified).toBe(false);
  });

  it('on the server: the photos waiting on the device are not identified with it', async () => {
    kept('other');
    uploadsAs(7);
    vi.spyOn(diagnosisApi, 'config').mockResolvedValue({ config: {} as never });
    const predict = vi
      .spyOn(diagnosisApi, 'predict')
      .mockResolvedValue({ status: 'OK', detail: '', total: 1 });
    vi.spyOn(diagnosisApi, 'progress').mockResolvedValue({ state: 'done', done: 1, total: 1 });
    const shown = [{ id: 2, name_img: 'b.jpg' } as DiagnosisRow];
    vi.spyOn(diagnosisApi, 'rows').mockResolvedValue([...shown, { id: 7 } as DiagnosisRow]);
    vi.spyOn(diagnosisApi, 'removeRow').mockResolvedValue({} as never);
    const done = await identifyAgain(
      shown[0]!,
      photo(),
      { onDevice: false, owner: OWNER, shown },
      () => undefined,
    );
    expect(predict).toHaveBeenCalledTimes(1);
    expect(store.get('other')?.status).toBe('pending');
    expect(done.rows?.map((r) => r.id)).toEqual([7]);
    expect(done.diagnosed).toBe(1);
  });
});

describe('a photo of the server identified again', () => {
  /** The posts_predict calls sent, with their form fields. */
  const predictCalls = () => {
    const sent: Record<string, string>[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        if (!url.startsWith('/diagrodl/posts_predict/')) throw new Error(`unexpected ${url}`);
        sent.push(Object.fromEntries(init.body as FormData) as Record<string, string>);
        return new Response(JSON.stringify({ status: 'OK', detail: '', total: 1 }));
      }),
    );
    return sent;
  };
  afterEach(() => vi.unstubAllGlobals());

  it('asks the server for the new photo only: the others waiting there stay waiting', async () => {
    const sent = predictCalls();
    uploadsAs(7);
    // two photos uploaded on /upload and not identified yet wait on the server with it
    const pending = vi
      .spyOn(diagnosisApi, 'pending')
      .mockResolvedValue(
        [5, 6, 7].map((id) => ({ id, name_img: `${id}.jpg`, size: 1, created_at: '', url: '' })),
      );
    vi.spyOn(diagnosisApi, 'config').mockResolvedValue({ config: {} as never });
    vi.spyOn(diagnosisApi, 'progress').mockResolvedValue({
      state: 'done',
      done: 1,
      total: 1,
      detail: M.failedImages(1),
    });
    const shown = [{ id: 2, name_img: 'b.jpg' } as DiagnosisRow];
    vi.spyOn(diagnosisApi, 'rows').mockResolvedValue([{ id: 7 } as DiagnosisRow]);
    vi.spyOn(diagnosisApi, 'removeRow').mockResolvedValue({} as never);
    const done = await identifyAgain(
      shown[0]!,
      photo(),
      { onDevice: false, owner: OWNER, shown },
      () => undefined,
    );
    // the specification's form, with the new photo's id alone
    expect(sent).toEqual([{ image: 'pending', report: 'no', ids: '7' }]);
    expect(pending).not.toHaveBeenCalled();
    // the run's answers are counted for the photo asked for (its row is there)
    expect(done.diagnosed).toBe(1);
    expect(done.rows?.map((r) => r.id)).toEqual([7]);
  });

  it("identifying every photo waiting still sends the specification's form alone", async () => {
    const sent = predictCalls();
    vi.spyOn(diagnosisApi, 'pending').mockResolvedValue([]);
    vi.spyOn(diagnosisApi, 'progress').mockResolvedValue({ state: 'done', done: 1, total: 1 });
    await identifyWaiting('', () => undefined);
    expect(sent).toEqual([{ image: 'pending', report: 'no' }]);
  });
});

describe('the photos a run answered', () => {
  const dropped = (n: number, total: number) => ({
    state: 'done' as const,
    done: total,
    total,
    detail: M.failedImages(n),
  });

  it('are every photo of a run with no note, without reading the rows', async () => {
    const rows = vi.spyOn(diagnosisApi, 'rows');
    expect(await diagnosedOnServer({ state: 'done', done: 3, total: 3 }, null)).toBe(3);
    expect(await diagnosedOnServer({ state: 'error', done: 1, total: 3 }, null)).toBe(0);
    expect(rows).not.toHaveBeenCalled();
  });

  it('are the rows of the photos asked for, or any row when they are not known', async () => {
    vi.spyOn(diagnosisApi, 'rows').mockResolvedValue([{ id: 1 }, { id: 6 }] as DiagnosisRow[]);
    expect(await diagnosedOnServer(dropped(1, 2), [5, 6])).toBe(1);
    expect(await diagnosedOnServer(dropped(1, 1), [5])).toBe(0);
    expect(await diagnosedOnServer(dropped(1, 1), null)).toBe(2);
  });

  it('are none when a run started here dropped every photo', async () => {
    vi.spyOn(diagnosisApi, 'pending').mockResolvedValue([
      { id: 5, name_img: 'a.jpg', size: 1, created_at: '', url: '' },
    ]);
    vi.spyOn(diagnosisApi, 'predict').mockResolvedValue({ status: 'OK', detail: '', total: 1 });
    vi.spyOn(diagnosisApi, 'progress').mockResolvedValue(dropped(1, 1));
    vi.spyOn(diagnosisApi, 'rows').mockResolvedValue([{ id: 1 }] as DiagnosisRow[]);
    const end = await identifyWaiting('', () => undefined);
    expect(end.progress.state).toBe('done');
    expect(end.diagnosed).toBe(0);
  });
});

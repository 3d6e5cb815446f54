/**
 * Sending photos and identifying them, one piece of code for every place that does it: the
 * specification's 'Subir imágenes seleccionadas' and 'Iniciar identificación', the one press
 * 'Diagnosticar' on /upload, and a photo identified again from its result card on /Get_predict.
 * Photos kept on the device are identified there; uploaded ones by the server, whose run is
 * followed through its progress (the identification queue: README, Design in a page).
 */
import type { DiagnosisRow, ProgressReply } from '@diagrodl/contracts';
import { ApiError } from '@/lib/api-client.ts';
import { diagnosisApi } from './api.ts';
import type { DeviceRow } from './device/rows.ts';
import { identifyOnDevice, keepOnDevice, leaveWorkingSet } from './device/run.ts';
import { type DevicePhoto, listDevicePhotos, updateDevicePhoto } from './device/store.ts';
import { configFor, defaultModelVersion } from './model-choice.ts';

export const POLL_MS = 400;
/** Polls in a row that may fail while the server restarts (about 2.5 minutes in all). */
export const MAX_TRANSIENT = 30;

/**
 * The server is unreachable or a process behind the balancer was lost: the identification goes
 * on where the work is taken over, so the page keeps polling instead of failing.
 */
export function transient(err: unknown): boolean {
  return err instanceof ApiError && [0, 502, 503, 504].includes(err.status);
}

/** Thrown when the page that followed a run went away (its signal was aborted). */
export class Stopped extends Error {
  constructor() {
    super('stopped');
  }
}

export type Wait = (ms: number, signal?: AbortSignal) => Promise<void>;

const sleep: Wait = (ms, signal) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

/**
 * Follows the server's run until it is no longer running: each progress reply goes to
 * `onProgress`, and the last one is returned. A transient failure waits longer each time
 * (up to 5 s, MAX_TRANSIENT in a row); any other failure is thrown.
 */
export async function followRun(
  onProgress: (p: ProgressReply) => void,
  signal?: AbortSignal,
  wait: Wait = sleep,
): Promise<ProgressReply> {
  let failures = 0;
  for (;;) {
    if (signal?.aborted) throw new Stopped();
    let p: ProgressReply;
    try {
      p = await diagnosisApi.progress();
    } catch (err) {
      if (!transient(err) || failures >= MAX_TRANSIENT) throw err;
      failures++;
      await wait(Math.min(5000, POLL_MS * 2 ** failures), signal);
      continue;
    }
    failures = 0;
    if (signal?.aborted) throw new Stopped();
    onProgress(p);
    if (p.state !== 'running') return p;
    await wait(POLL_MS, signal);
  }
}

/**
 * A person who never chose a model gets the default one (defaultModelVersion), so the one
 * press needs no visit to /Custom; a stored choice is kept as it is.
 */
export async function ensureConfigured(): Promise<void> {
  const { config } = await diagnosisApi.config();
  if (config) return;
  const version = defaultModelVersion(await diagnosisApi.models());
  // none loaded: the server's own answer to the identification says so
  if (version) await diagnosisApi.configure(configFor(version));
}

/** The photos one send put in the working set: server ids, and ids of photos kept on the device. */
export interface SentPhotos {
  server: number[];
  device: string[];
}

/**
 * Keeps each photo on the device or uploads it, in order; `onProgress` after each. Returns
 * the photos that failed with why (the others went through) and the ids of those that went.
 */
export async function sendPhotos(
  files: readonly File[],
  where: { onDevice: boolean; owner: string },
  onProgress: (done: number, total: number) => void,
): Promise<{ failed: { file: File; error: unknown }[]; sent: SentPhotos }> {
  const failed: { file: File; error: unknown }[] = [];
  const sent: SentPhotos = { server: [], device: [] };
  onProgress(0, files.length);
  for (const [i, file] of files.entries()) {
    try {
      if (where.onDevice) sent.device.push((await keepOnDevice(where.owner, file)).id);
      else sent.server.push((await diagnosisApi.upload(file)).id);
    } catch (error) {
      failed.push({ file, error });
    }
    onProgress(i + 1, files.length);
  }
  return { failed, sent };
}

/**
 * What /Get_predict is told when 'Diagnosticar' opens it: show the rows at once, with these
 * notes; the photos this press sent come first, before any left from an earlier identification.
 */
export interface OnePressState {
  show: true;
  notes: string[];
  sent: SentPhotos;
}

/**
 * The rows of the photos `sent` first (in their order), then the others: `earlier` is empty
 * when every row is one of them (or nothing says which were sent).
 */
export function sentFirst<T extends DiagnosisRow>(
  rows: readonly T[],
  sent: SentPhotos | undefined,
): { fresh: T[]; earlier: T[] } {
  if (!sent) return { fresh: [...rows], earlier: [] };
  const isSent = (r: T) =>
    'device' in r
      ? sent.device.includes((r as unknown as DeviceRow).device.id)
      : sent.server.includes(r.id);
  const fresh = rows.filter(isSent);
  // nothing of this press is shown (all failed): the list stays as it is
  if (fresh.length === 0) return { fresh: [...rows], earlier: [] };
  return { fresh, earlier: rows.filter((r) => !isSent(r)) };
}

export interface Identified {
  /** The end: 'done' (with the server's note in `detail` when some photos failed) or 'error'. */
  progress: ProgressReply;
  /** Photos kept on the device that could not be read. */
  deviceFailed: number;
  /**
   * Photos of this identification that got an answer, on the device and on the server: 0 when
   * every one was dropped (then there is no diagnosis to show or report).
   */
  diagnosed: number;
}

/**
 * How many of the photos a server run identified got an answer (0 unless it ended 'done'). A
 * run with no note dropped none; otherwise the rows say which are there: those of `asked` (the
 * ids the run was started for), or any row when they are unknown (a run followed after a reload).
 */
export async function diagnosedOnServer(
  end: ProgressReply,
  asked: readonly number[] | null,
): Promise<number> {
  if (end.state !== 'done') return 0;
  if (!end.detail) return end.total;
  const rows = await diagnosisApi.rows().catch(() => null);
  // the rows cannot be read now: the run's own count, as the page had it before
  if (!rows) return end.total;
  return asked ? rows.filter((r) => asked.includes(r.id)).length : rows.length;
}

/**
 * Identifies every photo waiting: those kept on the device first (there), then the uploaded
 * ones (the server), when online and there are any. With `configure`, a person who never chose
 * a model gets the default one instead of the server's 'choose the model first'. With `only`,
 * just those photos: the device identifies only its photos named there, and the server, asked
 * only when `only` names one of its photos, only those (posts_predict's `ids`).
 */
export async function identifyWaiting(
  owner: string,
  onProgress: (p: ProgressReply) => void,
  opts: { configure?: boolean; signal?: AbortSignal; only?: SentPhotos } = {},
): Promise<Identified> {
  const { only } = opts;
  let deviceFailed = 0;
  let diagnosed = 0;
  const kept =
    owner && (!only || only.device.length > 0)
      ? (await listDevicePhotos(owner).catch(() => [])).filter(
          (p) => p.status === 'pending' && p.inWorkingSet && (!only || only.device.includes(p.id)),
        )
      : [];
  const serverToo = !only || only.server.length > 0;
  /** The server's waiting photos this run is for, when known. */
  let asked: number[] | null = only ? [...only.server] : null;
  if (kept.length > 0) {
    const { total, failed } = await identifyOnDevice(
      owner,
      (done, n) => onProgress({ state: 'running', done, total: n }),
      kept.map((p) => p.id),
    );
    deviceFailed = failed;
    diagnosed = total - failed;
    const progress: ProgressReply = { state: 'done', done: total, total };
    onProgress(progress);
    // uploaded photos waiting on the server too: the server identifies them
    if (!serverToo || !navigator.onLine) return { progress, deviceFailed, diagnosed };
    if (!only) {
      const waiting = await diagnosisApi.pending().catch(() => []);
      if (waiting.length === 0) return { progress, deviceFailed, diagnosed };
      asked = waiting.map((p) => p.id);
    }
  } else if (!serverToo) {
    // the photo asked for is no longer waiting on the device
    return { progress: { state: 'done', done: 0, total: 0 }, deviceFailed, diagnosed };
  }
  if (opts.configure) await ensureConfigured();
  asked ??= await diagnosisApi.pending().then(
    (ps) => ps.map((p) => p.id),
    () => null,
  );
  const reply = await diagnosisApi.predict(only?.server);
  onProgress({ state: 'running', done: 0, total: reply.total });
  const progress = await followRun(onProgress, opts.signal);
  return {
    progress,
    deviceFailed,
    diagnosed: diagnosed + (await diagnosedOnServer(progress, asked)),
  };
}

/**
 * A photo identified again (cropped, or taken anew) replaces its result: the new photo is
 * kept on the device or uploaded (`onDevice`), identified, and only when it got an answer
 * (`identified`) does the old result leave the working set (a device diagnosis not yet sent
 * still reaches the history); a new photo kept on the device that could not be read is not
 * kept, and the old result stays. Returns the server's rows with the new one where the old one
 * was, or null when nothing changed there. Only the new photo is identified: other photos
 * waiting on the device or on the server stay waiting (posts_predict names the new one).
 */
export async function identifyAgain(
  row: DiagnosisRow,
  file: File,
  where: { onDevice: boolean; owner: string; shown: readonly DiagnosisRow[] },
  onProgress: (p: ProgressReply) => void,
): Promise<
  Identified & { rows: DiagnosisRow[] | null; replacement: SentPhotos; identified: boolean }
> {
  const old = 'device' in row ? (row as DeviceRow).device : null;
  let newId: number | null = null;
  let keptId: string | null = null;
  const replacement: SentPhotos = { server: [], device: [] };
  if (where.onDevice) {
    const kept = await keepOnDevice(where.owner, file);
    keptId = kept.id;
    replacement.device.push(kept.id);
    // the new photo takes the old one's place in the list (ordered by when it was added)
    if (old) await updateDevicePhoto(kept.id, { addedAt: old.addedAt });
  } else {
    newId = (await diagnosisApi.upload(file)).id;
    replacement.server.push(newId);
  }
  /** The new photo kept on the device, when it got no answer, goes (the old result stays). */
  const keptNow = async () => {
    const id = keptId;
    return (await listDevicePhotos(where.owner)).find((p) => p.id === id);
  };
  const dropKept = async (mine?: DevicePhoto) => {
    if (keptId === null) return;
    mine ??= await keptNow().catch(() => undefined);
    if (mine && mine.status !== 'done') await leaveWorkingSet([mine]);
  };
  let outcome: Identified;
  try {
    outcome = await identifyWaiting(where.owner, onProgress, {
      configure: true,
      only: replacement,
    });
  } catch (err) {
    await dropKept().catch(() => undefined);
    throw err;
  }
  const ended = (identified: boolean, rows: DiagnosisRow[] | null = null) => ({
    ...outcome,
    rows,
    replacement,
    identified,
  });
  if (outcome.progress.state !== 'done') {
    await dropKept();
    return ended(false);
  }
  let rows: DiagnosisRow[] | null = null;
  if (keptId !== null) {
    const mine = await keptNow();
    if (mine?.status !== 'done') {
      await dropKept(mine);
      return ended(false);
    }
  } else {
    rows = await diagnosisApi.rows();
    // the server dropped the new photo: the old result stays where it was
    if (!rows.some((r) => r.id === newId)) {
      return ended(false, inPlaceOf(where.shown, rows, row.id, null));
    }
  }
  if (old) await leaveWorkingSet([old]);
  if (!navigator.onLine) return ended(true);
  rows ??= await diagnosisApi.rows();
  if (!old) {
    await diagnosisApi.removeRow(row.id);
    rows = rows.filter((r) => r.id !== row.id);
  }
  return ended(true, inPlaceOf(where.shown, rows, row.id, newId));
}

/**
 * `next` in the order `shown` had, the row `newId` where `oldId` was (the rest of `next`
 * after): a card identified again stays where the person was looking.
 */
export function inPlaceOf<T extends { id: number }>(
  shown: readonly T[],
  next: readonly T[],
  oldId: number,
  newId: number | null,
): T[] {
  const byId = new Map(next.map((r) => [r.id, r]));
  const kept = shown.flatMap((r) => {
    const x = (r.id === oldId && newId !== null && byId.get(newId)) || byId.get(r.id);
    return x ? [x] : [];
  });
  const seen = new Set(kept.map((r) => r.id));
  return [...kept, ...next.filter((r) => !seen.has(r.id))];
}

/**
 * Keeping photos on the device and identifying them there: the same upload rules as the server
 * (type and size before anything is kept), results and heatmaps stored in IndexedDB.
 */
import {
  DEVICE_MODEL_ID,
  DIAGNOSIS_MESSAGES,
  DIAGNOSIS_MESSAGES_EN,
  type DeviceResult,
  UPLOAD_LIMITS,
} from '@diagrodl/contracts';
import { currentLanguage } from '@/lib/i18n.ts';
import {
  type DevicePhoto,
  deleteDevicePhotos,
  isQuotaError,
  listDevicePhotos,
  putDevicePhoto,
  updateDevicePhoto,
} from './store.ts';

/** Why a file cannot be kept for diagnosis (the server's own messages, in the page's language), or null. */
export function photoProblem(file: File): string | null {
  const M = currentLanguage() === 'en' ? DIAGNOSIS_MESSAGES_EN : DIAGNOSIS_MESSAGES;
  if (file.size === 0) return M.emptyFile;
  if (file.size > UPLOAD_LIMITS.maxBytes) return M.tooLarge;
  if (!(UPLOAD_LIMITS.types as readonly string[]).includes(file.type)) return M.badType;
  return null;
}

/** Keeps a picked photo on the device, waiting for identification. */
export async function keepOnDevice(owner: string, file: File): Promise<DevicePhoto> {
  const problem = photoProblem(file);
  if (problem) throw new Error(problem);
  const record: DevicePhoto = {
    id: crypto.randomUUID(),
    owner,
    name: file.name,
    type: file.type,
    size: file.size,
    photo: file,
    addedAt: new Date().toISOString(),
    status: 'pending',
    inWorkingSet: true,
    sync: 'unsent',
  };
  await putDevicePhoto(record);
  return record;
}

/** The on-device model could not be loaded: its download, its check or its runtime failed. */
export class DeviceModelError extends Error {
  constructor(cause: unknown) {
    super('the on-device model could not be loaded', { cause });
    this.name = 'DeviceModelError';
  }
}

/**
 * Identifies this user's photos waiting on the device (with `only`, just those of them), one at
 * a time (progress after each). Returns how many could not be read (they are left out, as the
 * server drops them). Throws a DeviceModelError when the model cannot be loaded ('offline-not-ready'
 * when it was never kept), and the storage's quota error when a result cannot be kept (the
 * device is full: the photos after it could not be kept either).
 */
export async function identifyOnDevice(
  owner: string,
  onProgress: (done: number, total: number) => void,
  only?: readonly string[],
): Promise<{ total: number; failed: number }> {
  const pending = (await listDevicePhotos(owner)).filter(
    (p) => p.status === 'pending' && p.inWorkingSet && (!only || only.includes(p.id)),
  );
  onProgress(0, pending.length);
  if (!pending.length) return { total: 0, failed: 0 };
  // onnxruntime-web and the model only load here, never with the landing page
  let model: Awaited<ReturnType<typeof import('./model.ts').loadDeviceModel>>;
  let classify: typeof import('./classify.ts');
  try {
    const { loadDeviceModel } = await import('./model.ts');
    classify = await import('./classify.ts');
    model = await loadDeviceModel();
  } catch (err) {
    if ((err instanceof Error && err.message === 'offline-not-ready') || isQuotaError(err))
      throw err;
    console.error('on-device model could not be loaded', err);
    throw new DeviceModelError(err);
  }
  const { diagnosePhoto, renderHeatmap } = classify;
  let failed = 0;
  for (const [i, p] of pending.entries()) {
    try {
      const { decision, cam } = await diagnosePhoto(model, p.photo);
      const result: DeviceResult = {
        label: decision.label,
        probability: decision.probability,
        accepted: decision.accepted,
        reason: decision.reason,
        leaf_probability: decision.leafProbability,
        lab_like: decision.labLike,
        top3: decision.top3,
        model: DEVICE_MODEL_ID,
        diagnosed_at: new Date().toISOString(),
      };
      const heatmap = await renderHeatmap(p.photo, cam);
      await updateDevicePhoto(p.id, { status: 'done', result, heatmap, sync: 'unsent' });
    } catch (err) {
      // the device is full: the result cannot be kept, nor those after it
      if (isQuotaError(err)) throw err;
      console.error('on-device diagnosis failed', p.name, err);
      failed++;
    }
    onProgress(i + 1, pending.length);
    // let the page paint the progress bar between photos
    await new Promise((r) => setTimeout(r, 0));
  }
  return { total: pending.length, failed };
}

/**
 * Photos leave the working set ('Iniciar nueva identificación', or a photo identified again):
 * waiting ones and diagnoses the server has go; diagnoses not yet sent stay for the history.
 */
export async function leaveWorkingSet(photos: readonly DevicePhoto[]): Promise<void> {
  await deleteDevicePhotos(
    photos.filter((p) => p.status === 'pending' || p.sync === 'sent').map((p) => p.id),
  );
  for (const p of photos.filter((x) => x.status === 'done' && x.sync !== 'sent')) {
    await updateDevicePhoto(p.id, { inWorkingSet: false });
  }
}

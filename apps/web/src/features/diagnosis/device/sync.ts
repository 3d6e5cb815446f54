/**
 * Sending the diagnoses made on the device to the server's history, each with its device-made
 * id (a retry after a lost reply finds the first copy: nothing is doubled). A photo the server
 * refuses for good (type, size) is marked, with the server's reason, and not retried.
 */
import { ENDPOINTS } from '@diagrodl/contracts';
import { ApiError, callApi } from '@/lib/api-client.ts';
import { deleteDevicePhotos, listDevicePhotos, unsent, updateDevicePhoto } from './store.ts';

let running: Promise<SyncOutcome> | null = null;

export interface SyncOutcome {
  sent: number;
  /** True when it stopped early (offline, logged out, server unavailable). */
  interrupted: boolean;
  /** True when the server no longer knows the session (401): nothing goes until a new login. */
  loggedOut?: boolean;
}

async function syncOnce(owner: string): Promise<SyncOutcome> {
  let sent = 0;
  for (const p of unsent(await listDevicePhotos(owner))) {
    if (p.sync === 'refused' || !p.result) continue;
    const form = new FormData();
    form.append('client_id', p.id);
    form.append('name_img', p.name);
    form.append('result', JSON.stringify(p.result));
    form.append('image', p.photo, p.name);
    try {
      await callApi(ENDPOINTS.deviceDiagnoses, { body: form });
    } catch (err) {
      const status = err instanceof ApiError ? err.status : 0;
      if (status === 401) return { sent, interrupted: true, loggedOut: true };
      if (status === 0 || status === 403 || status === 429 || status >= 500) {
        return { sent, interrupted: true };
      }
      await updateDevicePhoto(p.id, {
        sync: 'refused',
        syncDetail: err instanceof ApiError ? err.detail : String(err),
      });
      continue;
    }
    sent++;
    if (p.inWorkingSet) await updateDevicePhoto(p.id, { sync: 'sent' });
    else await deleteDevicePhotos([p.id]);
  }
  return { sent, interrupted: false };
}

/** Sends what this user's device holds; one run at a time per page. */
export function syncDeviceDiagnoses(owner: string): Promise<SyncOutcome> {
  running ??= syncOnce(owner).finally(() => {
    running = null;
  });
  return running;
}

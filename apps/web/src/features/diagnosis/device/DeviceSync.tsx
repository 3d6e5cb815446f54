import { useEffect } from 'react';
import { useOnline } from '@/lib/online.ts';
import { useOwner } from './hooks.ts';
import { DEVICE_CHANGED, deleteDevicePhotos, listDevicePhotos, unsent } from './store.ts';
import { syncDeviceDiagnoses } from './sync.ts';

const RETRY_MS = 60_000;

/**
 * Sends this user's diagnoses made on the device whenever there is a connection: on start, when
 * the connection returns, when a new one is made, and every minute while something is unsent.
 */
export function DeviceSync() {
  const owner = useOwner();
  const online = useOnline();
  useEffect(() => {
    if (!owner || !online) return;
    const run = () => void syncDeviceDiagnoses(owner).catch(() => undefined);
    run();
    window.addEventListener(DEVICE_CHANGED, run);
    const timer = window.setInterval(run, RETRY_MS);
    return () => {
      window.removeEventListener(DEVICE_CHANGED, run);
      window.clearInterval(timer);
    };
  }, [owner, online]);
  return null;
}

/** Before logging out: how many diagnoses would be lost (after trying to send them). */
export async function unsentBeforeLogout(owner: string): Promise<number> {
  if (navigator.onLine) await syncDeviceDiagnoses(owner).catch(() => undefined);
  return unsent(await listDevicePhotos(owner)).length;
}

/** Logging out on a shared device: this user's photos and diagnoses leave the device. */
export async function forgetDevicePhotos(owner: string): Promise<void> {
  const all = await listDevicePhotos(owner);
  await deleteDevicePhotos(all.map((p) => p.id));
}

import { useCallback, useEffect, useState } from 'react';
import { useOnline } from '@/lib/online.ts';
import { useSessionUser } from '@/lib/session.tsx';
import { DEVICE_CHANGED, type DevicePhoto, listDevicePhotos, ownerKey } from './store.ts';

/** The logged-in user's owner key for device records ('' while unknown). */
export function useOwner(): string {
  const user = useSessionUser();
  return user ? ownerKey(user.userName) : '';
}

/** This user's photos and diagnoses kept on the device, reloaded whenever they change. */
export function useDevicePhotos(): { photos: DevicePhoto[] | null; reload: () => Promise<void> } {
  const owner = useOwner();
  const [photos, setPhotos] = useState<DevicePhoto[] | null>(null);
  const reload = useCallback(async () => {
    if (!owner) {
      setPhotos([]);
      return;
    }
    try {
      setPhotos(await listDevicePhotos(owner));
    } catch (err) {
      console.error('device storage unavailable', err);
      setPhotos([]);
    }
  }, [owner]);
  useEffect(() => {
    void reload();
    const on = () => void reload();
    window.addEventListener(DEVICE_CHANGED, on);
    return () => window.removeEventListener(DEVICE_CHANGED, on);
  }, [reload]);
  return { photos, reload };
}

export const DEVICE_MODE_KEY = 'diagrodl.deviceMode';

function storedPreference(): boolean {
  try {
    return localStorage.getItem(DEVICE_MODE_KEY) === '1';
  } catch {
    return false;
  }
}

/**
 * Where photos are identified: on the device when offline or when the person chose it,
 * otherwise on the server.
 */
export function useDeviceMode(): {
  onDevice: boolean;
  preferred: boolean;
  setPreferred: (v: boolean) => void;
  online: boolean;
} {
  const online = useOnline();
  const [preferred, setPref] = useState(storedPreference);
  const setPreferred = useCallback((v: boolean) => {
    setPref(v);
    try {
      localStorage.setItem(DEVICE_MODE_KEY, v ? '1' : '0');
    } catch {
      /* private mode: the choice lasts for this page only */
    }
  }, []);
  return { onDevice: !online || preferred, preferred, setPreferred, online };
}

/** Object URLs for blobs, revoked when they change or the component goes. */
export function useObjectUrls(blobs: Record<string, Blob | undefined>): Record<string, string> {
  const [urls, setUrls] = useState<Record<string, string>>({});
  const key = Object.entries(blobs)
    .map(([k, b]) => `${k}:${b ? b.size : 0}`)
    .join('|');
  useEffect(() => {
    const made: Record<string, string> = {};
    for (const [k, b] of Object.entries(blobs)) if (b) made[k] = URL.createObjectURL(b);
    setUrls(made);
    return () => {
      for (const u of Object.values(made)) URL.revokeObjectURL(u);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return urls;
}

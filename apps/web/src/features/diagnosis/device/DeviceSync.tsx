import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ROUTES } from '@diagrodl/contracts';
import { useOnline } from '@/lib/online.ts';
import { ACCOUNT_DELETED, useSession } from '@/lib/session.tsx';
import { useOwner } from './hooks.ts';
import { DEVICE_CHANGED, deleteDevicePhotos, listDevicePhotos, ownerKey, unsent } from './store.ts';
import { syncDeviceDiagnoses } from './sync.ts';

const RETRY_MS = 60_000;

/** Diagnoses made on this device that wait for their user to log in again (the server said 401). */
export interface WaitingForLogin {
  owner: string;
  count: number;
}

const WAITING_KEY = 'diagrodl.deviceWaitingLogin';
/** Fired on window when the diagnoses waiting for a login change. */
export const WAITING_CHANGED = 'diagrodl:device-waiting-login';

export function waitingForLogin(): WaitingForLogin | null {
  try {
    const v = JSON.parse(localStorage.getItem(WAITING_KEY) ?? 'null') as WaitingForLogin | null;
    return v && typeof v.owner === 'string' && v.count > 0 ? v : null;
  } catch {
    return null;
  }
}

/** Sets (or, with null, clears) the diagnoses waiting for a login. */
function setWaitingForLogin(v: WaitingForLogin | null): void {
  try {
    if (v && v.count > 0) localStorage.setItem(WAITING_KEY, JSON.stringify(v));
    else localStorage.removeItem(WAITING_KEY);
  } catch {
    /* storage unavailable: no notice */
  }
  window.dispatchEvent(new Event(WAITING_CHANGED));
}

/** Clears the notice when it was about `owner`. */
function clearWaitingFor(owner: string): void {
  if (waitingForLogin()?.owner === owner) setWaitingForLogin(null);
}

/**
 * Sends this user's diagnoses made on the device whenever there is a connection: on start, when
 * the connection returns, when a new one is made, and every minute while something is unsent.
 * When the server no longer knows the session (401), the session is checked again (the app then
 * shows the person logged out), nothing is retried until a new login, and DeviceWaitingNotice
 * says how many diagnoses wait for it. When the account is deleted (/Mis_datos), its photos and
 * diagnoses leave the device.
 */
export function DeviceSync() {
  const owner = useOwner();
  const online = useOnline();
  const { refresh } = useSession();
  useEffect(() => {
    if (!owner || !online) return;
    let stopped = false;
    const attempt = async () => {
      if (stopped) return;
      const out = await syncDeviceDiagnoses(owner);
      if (stopped) return;
      if (out.loggedOut) {
        stopped = true;
        const count = unsent(await listDevicePhotos(owner)).filter(
          (p) => p.sync === 'unsent',
        ).length;
        setWaitingForLogin({ owner, count });
        // still logged in after all (the 401 was not about the session): retries go on
        if (await refresh()) stopped = false;
      } else if (!out.interrupted) {
        clearWaitingFor(owner);
      }
    };
    const run = () => void attempt().catch(() => undefined);
    run();
    window.addEventListener(DEVICE_CHANGED, run);
    const timer = window.setInterval(run, RETRY_MS);
    return () => {
      stopped = true;
      window.removeEventListener(DEVICE_CHANGED, run);
      window.clearInterval(timer);
    };
  }, [owner, online, refresh]);
  // the account was deleted: its photos and diagnoses leave the device (a new account with the
  // same user name would otherwise be sent them)
  useEffect(() => {
    const forget = (e: Event) => {
      const userName = (e as CustomEvent<string>).detail;
      if (userName) void forgetDevicePhotos(ownerKey(userName)).catch(() => undefined);
    };
    window.addEventListener(ACCOUNT_DELETED, forget);
    return () => window.removeEventListener(ACCOUNT_DELETED, forget);
  }, []);
  return null;
}

/**
 * While nobody is logged in: how many diagnoses made on this device wait to be sent, because the
 * session ended before they went (they go once their user logs in again).
 */
export function DeviceWaitingNotice() {
  const { t } = useTranslation();
  const { status, isAuthenticated } = useSession();
  const [waiting, setWaiting] = useState(waitingForLogin);
  useEffect(() => {
    const on = () => setWaiting(waitingForLogin());
    window.addEventListener(WAITING_CHANGED, on);
    window.addEventListener('storage', on);
    return () => {
      window.removeEventListener(WAITING_CHANGED, on);
      window.removeEventListener('storage', on);
    };
  }, []);
  if (status !== 'ready' || isAuthenticated || !waiting) return null;
  return (
    <div className="app-status app-status-waiting" role="status" data-testid="device-waiting-login">
      <span>{t('diagnosis.device.waitingLogin', { count: waiting.count })}</span>
      <Link to={ROUTES.login} className="text-white">
        {t('diagnosis.device.waitingLoginLink')}
      </Link>
    </div>
  );
}

/** Before logging out: how many diagnoses would be lost (after trying to send them). */
export async function unsentBeforeLogout(owner: string): Promise<number> {
  if (navigator.onLine) await syncDeviceDiagnoses(owner).catch(() => undefined);
  return unsent(await listDevicePhotos(owner)).length;
}

/**
 * Logging out on a shared device, or the account deleted: this user's photos and diagnoses
 * leave the device.
 */
export async function forgetDevicePhotos(owner: string): Promise<void> {
  const all = await listDevicePhotos(owner);
  await deleteDevicePhotos(all.map((p) => p.id));
  clearWaitingFor(owner);
}

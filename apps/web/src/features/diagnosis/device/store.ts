/**
 * Photos and diagnoses kept on the device (IndexedDB), for diagnosis without a connection:
 * photos waiting to be identified, their results with the heatmap, and whether the server has
 * them yet. Each record belongs to one user (their user name) and has the id the device made
 * for it (a UUID), which the server uses to keep a retried upload once.
 */
import type { DeviceResult } from '@diagrodl/contracts';

export interface DevicePhoto {
  /** The client-made id (crypto.randomUUID()). */
  id: string;
  /** The user it belongs to (user name, lower case). */
  owner: string;
  /** The person's file name. */
  name: string;
  type: string;
  size: number;
  photo: Blob;
  addedAt: string;
  status: 'pending' | 'done';
  result?: DeviceResult;
  /** The CAM overlay as a JPEG (drawn as the server draws it). */
  heatmap?: Blob;
  /** Shown on /upload and /Get_predict until 'Iniciar nueva identificación'. */
  inWorkingSet: boolean;
  /** 'unsent' until the server has it; 'refused' when the server refused it (see syncDetail). */
  sync: 'unsent' | 'sent' | 'refused';
  syncDetail?: string;
}

const DB_NAME = 'diagrodl';
const STORE = 'device-photos';
/** Fired on window whenever the records change (pages reload their lists). */
export const DEVICE_CHANGED = 'diagrodl:device-photos';

let dbPromise: Promise<IDBDatabase> | null = null;

function openDb(): Promise<IDBDatabase> {
  dbPromise ??= new Promise((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => {
      const store = req.result.createObjectStore(STORE, { keyPath: 'id' });
      store.createIndex('owner', 'owner');
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => {
      dbPromise = null;
      reject(req.error ?? new Error('IndexedDB could not be opened'));
    };
  });
  return dbPromise;
}

function done<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

async function tx<T>(
  mode: IDBTransactionMode,
  fn: (store: IDBObjectStore) => IDBRequest<T> | Promise<T>,
): Promise<T> {
  const db = await openDb();
  const t = db.transaction(STORE, mode);
  const finished = new Promise<void>((resolve, reject) => {
    t.oncomplete = () => resolve();
    t.onerror = () => reject(t.error ?? new Error('IndexedDB transaction failed'));
    t.onabort = () => reject(t.error ?? new Error('IndexedDB transaction aborted'));
  });
  const r = fn(t.objectStore(STORE));
  const value = r instanceof IDBRequest ? await done(r) : await r;
  await finished;
  return value;
}

function changed(): void {
  window.dispatchEvent(new Event(DEVICE_CHANGED));
}

/** The owner key of a user name. */
export function ownerKey(userName: string): string {
  return userName.toLowerCase();
}

/** This user's records, oldest first. */
export async function listDevicePhotos(owner: string): Promise<DevicePhoto[]> {
  const rows = await tx('readonly', (s) => s.index('owner').getAll(IDBKeyRange.only(owner)));
  return (rows as DevicePhoto[]).sort((a, b) => a.addedAt.localeCompare(b.addedAt));
}

export async function putDevicePhoto(photo: DevicePhoto): Promise<void> {
  await tx('readwrite', (s) => s.put(photo));
  changed();
}

/** Changes one record (read and written in one transaction); false if it is gone. */
export async function updateDevicePhoto(
  id: string,
  patch: Partial<Omit<DevicePhoto, 'id' | 'owner'>>,
): Promise<boolean> {
  const found = await tx('readwrite', async (s) => {
    const current = (await done(s.get(id))) as DevicePhoto | undefined;
    if (!current) return false;
    await done(s.put({ ...current, ...patch }));
    return true;
  });
  changed();
  return found;
}

export async function deleteDevicePhotos(ids: readonly string[]): Promise<void> {
  if (!ids.length) return;
  await tx('readwrite', async (s) => {
    for (const id of ids) await done(s.delete(id));
  });
  changed();
}

/** Diagnoses of this user that the server does not have yet. */
export function unsent(photos: readonly DevicePhoto[]): DevicePhoto[] {
  return photos.filter((p) => p.status === 'done' && p.sync !== 'sent');
}

/**
 * Whether the browser refused to keep more (IndexedDB or the Cache Storage): the device's
 * storage is full, or the browser's share of it is used up.
 */
export function isQuotaError(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const name = 'name' in err ? String(err.name) : '';
  if (name === 'QuotaExceededError' || name === 'NS_ERROR_DOM_QUOTA_REACHED') return true;
  return 'cause' in err && err.cause !== err && isQuotaError(err.cause);
}

/// <reference types="vite-plugin-pwa/client" />
/**
 * The service worker (vite-plugin-pwa, Workbox): registered once; when a new version is
 * deployed it waits until the person accepts the update (offered, never forced).
 */
import { useSyncExternalStore } from 'react';

let needRefresh = false;
let update: ((reload?: boolean) => Promise<void>) | null = null;
const listeners = new Set<() => void>();

function notify(): void {
  for (const l of listeners) l();
}

/** Registers the service worker (production builds; a no-op without support). */
export async function registerServiceWorker(): Promise<void> {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
  const { registerSW } = await import('virtual:pwa-register');
  update = registerSW({
    immediate: true,
    onNeedRefresh() {
      needRefresh = true;
      notify();
    },
    onRegisterError(err: unknown) {
      console.error('service worker registration failed', err);
    },
  });
}

/** Whether a new version is waiting, and how to switch to it (reloads the page). */
export function useUpdateOffer(): { waiting: boolean; accept: () => void; dismiss: () => void } {
  const waiting = useSyncExternalStore(
    (fn) => {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    () => needRefresh,
    () => false,
  );
  return {
    waiting,
    accept: () => void update?.(true),
    dismiss: () => {
      needRefresh = false;
      notify();
    },
  };
}

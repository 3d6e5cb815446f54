/// <reference lib="webworker" />
/**
 * The service worker (README: Installable and offline), built by vite-plugin-pwa (Workbox injectManifest): the app
 * shell, every page's code, the disease images and the user manual are precached on the first
 * visit, so the disease pages, the converter, the three designers and the manual work offline.
 * Pages come from the network first (the server writes its runtime settings into them) and
 * from the precached shell when there is none. A new version waits until the person accepts
 * it (SKIP_WAITING from the page): offered, never forced. The model and the WebAssembly runtime
 * are not precached (every visitor would download them): the diagnosis pages keep them in their
 * own cache on first use (features/diagnosis/device/model.ts).
 */
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: (string | { url: string; revision: string | null })[];
};

/** The page served for every route when offline (precached; see vite.config.ts). */
const SHELL = '/?app-shell';
/** A weak connection: after this long the precached shell is served instead. */
const NETWORK_TIMEOUT_MS = 4000;

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
clientsClaim();

async function page(request: Request): Promise<Response> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), NETWORK_TIMEOUT_MS);
  try {
    return await fetch(request, { signal: controller.signal });
  } catch {
    return (await matchPrecache(SHELL)) ?? Response.error();
  } finally {
    clearTimeout(timer);
  }
}

registerRoute(
  new NavigationRoute(({ request }) => page(request), {
    denylist: [/^\/api\//, /^\/diagrodl\//, /^\/media\//, /\.[a-z0-9]+$/i],
  }),
);

/**
 * Stands in for vite-plugin-pwa's `virtual:pwa-register` module under Vitest (the plugin makes
 * that module only inside Vite's build). Tests that need it replace it with vi.mock; used
 * unmocked, it fails loudly instead of pretending a service worker exists.
 */
export function registerSW(): never {
  throw new Error('virtual:pwa-register is only available in a Vite build; mock it in the test');
}

import type { AppRuntimeConfig } from '@diagrodl/contracts';

const FALLBACK: AppRuntimeConfig = {
  maintenance: false,
  providerName: 'DiAgro',
  providerKey: 'DiAgro',
};

/** Settings the server writes into index.html (maintenance, provider name). */
export function runtimeConfig(): AppRuntimeConfig {
  const el = typeof document === 'undefined' ? null : document.getElementById('app-config');
  if (!el?.textContent) return FALLBACK;
  try {
    return { ...FALLBACK, ...(JSON.parse(el.textContent) as Partial<AppRuntimeConfig>) };
  } catch {
    return FALLBACK;
  }
}

import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/lib/i18n.ts';

// The service worker's registration (vite-plugin-pwa): what the app is told when a new version
// is waiting, and the function that switches to it.
const pwa = vi.hoisted(() => ({
  onNeedRefresh: null as (() => void) | null,
  updateSW: vi.fn(async (_reload?: boolean) => {}),
}));
vi.mock('virtual:pwa-register', () => ({
  registerSW: (opts: { onNeedRefresh?: () => void }) => {
    pwa.onNeedRefresh = opts.onNeedRefresh ?? null;
    return pwa.updateSW;
  },
}));

async function renderWithNewVersion() {
  vi.stubEnv('DEV', false);
  Object.defineProperty(navigator, 'serviceWorker', { value: {}, configurable: true });
  const { registerServiceWorker } = await import('@/lib/pwa.ts');
  const { UpdateOffer } = await import('./AppStatus.tsx');
  await registerServiceWorker();
  render(
    <I18nextProvider i18n={i18n}>
      <UpdateOffer />
    </I18nextProvider>,
  );
  expect(screen.queryByTestId('update-offer')).toBeNull();
  act(() => pwa.onNeedRefresh?.());
}

describe('UpdateOffer: a new version is offered, not forced', () => {
  beforeEach(async () => {
    vi.resetModules();
    pwa.updateSW.mockClear();
    await i18n.changeLanguage('es');
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    Reflect.deleteProperty(navigator, 'serviceWorker');
  });

  it('shows the offer and switches only when the person accepts', async () => {
    await renderWithNewVersion();
    expect(screen.getByTestId('update-offer')).toHaveTextContent(
      'Hay una versión nueva de DiAgroDL.',
    );
    expect(pwa.updateSW).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Actualizar ahora' }));
    expect(pwa.updateSW).toHaveBeenCalledWith(true);
  });

  it('"Más tarde" hides the offer and keeps the running version', async () => {
    await renderWithNewVersion();
    await userEvent.click(screen.getByRole('button', { name: 'Más tarde' }));
    expect(screen.queryByTestId('update-offer')).toBeNull();
    expect(pwa.updateSW).not.toHaveBeenCalled();
  });
});

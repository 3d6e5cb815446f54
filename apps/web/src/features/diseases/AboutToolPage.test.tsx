// /About_DiAgroDL's model list: the models the server loaded, never one it refused (a card that
// no longer matches its file, or an ensemble whose card says it does not beat its members).
import { render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/lib/i18n.ts';
import AboutToolPage from './AboutToolPage.tsx';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('About DiAgroDL: model accuracy', () => {
  it('lists the loaded models and leaves out the refused ones', async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const url = String(input instanceof Request ? input.url : input);
      const body = url.includes('/api/health')
        ? {
            status: 'OK',
            database: { ok: true, kind: 'sqlite' },
            maintenance: false,
            uptimeSeconds: 1,
            models: [
              { id: 'mobilenet', accuracy: 0.9751, status: 'loaded' },
              { id: 'ensemble', accuracy: null, status: 'refused' },
              { id: 'stray', accuracy: null, status: 'refused' },
            ],
          }
        : [];
      return new Response(JSON.stringify(body), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    });
    await i18n.changeLanguage('es');
    render(
      <I18nextProvider i18n={i18n}>
        <MemoryRouter>
          <AboutToolPage />
        </MemoryRouter>
      </I18nextProvider>,
    );
    const list = await screen.findByTestId('model-accuracy');
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(1);
    expect(items[0]).toHaveTextContent(/MobileNet/);
    expect(list).not.toHaveTextContent(/stray|Ensemble|Conjunto/);
  });
});

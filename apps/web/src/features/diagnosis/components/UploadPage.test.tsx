// /upload, opened directly by 'Diagnosticar una hoja': it prepares the on-device model as
// /DiAgroDL and /Custom do, so opening the app once with a connection is enough to diagnose
// without one afterwards.
import { render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/lib/i18n.ts';
import { diagnosisApi } from '../api.ts';
import { prepareDeviceModel } from '../device/model.ts';
import UploadPage from './UploadPage.tsx';

vi.mock('../device/model.ts', () => ({
  deviceModelCached: async () => false,
  onDownloadProgress: () => () => undefined,
  prepareDeviceModel: vi.fn(async () => undefined),
}));
vi.mock('../device/classify.ts', () => ({}));

afterEach(() => vi.restoreAllMocks());

describe('/upload', () => {
  it('downloads the on-device model (once) and says when offline diagnosis is ready', async () => {
    await i18n.changeLanguage('es');
    vi.spyOn(diagnosisApi, 'pending').mockResolvedValue([]);
    render(
      <I18nextProvider i18n={i18n}>
        <MemoryRouter>
          <UploadPage />
        </MemoryRouter>
      </I18nextProvider>,
    );
    await waitFor(() =>
      expect(screen.getByTestId('device-readiness')).toHaveAttribute('data-state', 'ready'),
    );
    expect(prepareDeviceModel).toHaveBeenCalledTimes(1);
  });
});

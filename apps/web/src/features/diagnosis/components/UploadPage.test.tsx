// /upload downloads no model by itself: it offers the on-device model with its size, and
// downloads it (once) when the person asks for it or chooses diagnosis on the device. One
// primary action, 'Diagnosticar'; the specification's two buttons stay under it, secondary.
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/lib/i18n.ts';
import { diagnosisApi } from '../api.ts';
import { DEVICE_MODE_KEY } from '../device/hooks.ts';
import { prepareDeviceModel } from '../device/model.ts';
import UploadPage from './UploadPage.tsx';

vi.mock('../device/model.ts', () => ({
  deviceModelCached: vi.fn(async () => false),
  deviceModelBytes: async () => 8_377_434,
  onDownloadProgress: () => () => undefined,
  prepareDeviceModel: vi.fn(async () => undefined),
}));
vi.mock('../device/classify.ts', () => ({}));

beforeEach(() => {
  vi.mocked(prepareDeviceModel).mockClear();
  localStorage.removeItem(DEVICE_MODE_KEY);
});
afterEach(() => vi.restoreAllMocks());

const renderPage = async (lang: 'es' | 'en' = 'es') => {
  await i18n.changeLanguage(lang);
  vi.spyOn(diagnosisApi, 'pending').mockResolvedValue([]);
  render(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter>
        <UploadPage />
      </MemoryRouter>
    </I18nextProvider>,
  );
};

describe('/upload', () => {
  it('downloads no model when opened; the model comes when asked for, its size said', async () => {
    await renderPage();
    const offer = await screen.findByRole('button', { name: 'Descargar el modelo (8.4 MB)' });
    expect(screen.getByTestId('device-readiness')).toHaveAttribute('data-state', 'offer');
    expect(prepareDeviceModel).not.toHaveBeenCalled();
    await userEvent.click(offer);
    await waitFor(() =>
      expect(screen.getByTestId('device-readiness')).toHaveAttribute('data-state', 'ready'),
    );
    expect(prepareDeviceModel).toHaveBeenCalledTimes(1);
  });

  it('downloads the model when the person chooses diagnosis on the device', async () => {
    await renderPage();
    await screen.findByRole('button', { name: /^Descargar el modelo/ });
    expect(prepareDeviceModel).not.toHaveBeenCalled();
    await userEvent.click(screen.getByLabelText(/Diagnosticar en este dispositivo/));
    await waitFor(() =>
      expect(screen.getByTestId('device-readiness')).toHaveAttribute('data-state', 'ready'),
    );
    expect(prepareDeviceModel).toHaveBeenCalledTimes(1);
  });

  it('has one primary action; the two step-by-step buttons are secondary and smaller', async () => {
    await renderPage('en');
    const primary = screen.getByRole('button', { name: 'Diagnose' });
    expect(primary).toHaveClass('btn-primary', 'btn-lg');
    const steps = screen.getByRole('group', { name: /step by step/ });
    for (const name of ['Upload selected images', 'Identify and diagnose images']) {
      const b = screen.getByRole('button', { name });
      expect(steps).toContainElement(b);
      expect(b).toHaveClass('btn-outline-secondary', 'btn-sm');
    }
    expect(document.querySelectorAll('.btn-primary')).toHaveLength(1);
    await screen.findByRole('button', { name: 'Download the model (8.4 MB)' });
  });
});

// The configuration page (/Custom): each loaded model with its measured test accuracy, the
// ensemble's too when the server has its card (GET /diagrodl/models/ gives a testAccuracy), and
// the accuracy on real field photos when the card measured it (fieldAccuracy).
import { render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LoadedModelDetails } from '@diagrodl/contracts';
import i18n from '@/lib/i18n.ts';
import { diagnosisApi } from '../api.ts';
import CustomPage from './CustomPage.tsx';

// the on-device model's download is not what this page's test is about
vi.mock('../device/DeviceReadiness.tsx', () => ({ DeviceReadiness: () => null }));

const MODELS: LoadedModelDetails[] = [
  {
    id: 'resnet50',
    modeloVersion: 'Tomato_leaf_cnn_resnet50',
    label: 'ResNet50 v1',
    testAccuracy: 0.9512,
    fieldAccuracy: 0.3736,
    threshold: 0.6,
  },
  {
    id: 'mobilenet',
    modeloVersion: 'tomato_leaf_cnn_mobilenet',
    label: 'MobileNet v1',
    testAccuracy: 0.962,
    fieldAccuracy: 0.5824,
    threshold: 0.5,
  },
  {
    id: 'ensemble',
    modeloVersion: 'ensemble',
    label: 'Ensemble (MobileNet + ResNet50)',
    testAccuracy: 0.9734,
    fieldAccuracy: null,
    threshold: 0.62,
    members: ['mobilenet', 'resnet50'],
  },
];

async function options(models: LoadedModelDetails[]): Promise<string[]> {
  await i18n.changeLanguage('es');
  vi.spyOn(diagnosisApi, 'models').mockResolvedValue(models);
  render(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter>
        <CustomPage />
      </MemoryRouter>
    </I18nextProvider>,
  );
  const select = screen.getByLabelText('Modelos');
  // loaded: the MobileNet (in every test's list) no longer reads 'no disponible'
  await within(select).findByRole('option', { name: /^MobileNet v1 \((?!no disponible)/ });
  return within(select)
    .getAllByRole('option')
    .map((o) => o.textContent ?? '');
}

afterEach(() => vi.restoreAllMocks());

describe('the configuration page', () => {
  it("shows the ensemble's test accuracy like the single models' when the server gives it", async () => {
    expect(await options(MODELS)).toEqual([
      'Elige un modelo',
      'VGG16 v1 (no disponible en este servidor)',
      'ResNet50 v1 (exactitud en prueba 95.1%; en fotos de campo 37.4%)',
      'MobileNet v1 (exactitud en prueba 96.2%; en fotos de campo 58.2%)',
      'Ensemble (VGG16 + ResNet50 + MobileNet) (exactitud en prueba 97.3%)',
    ]);
  });

  it('shows no accuracy for the ensemble without one (no card on the server)', async () => {
    const noCard = MODELS.map((m) => (m.id === 'ensemble' ? { ...m, testAccuracy: null } : m));
    expect((await options(noCard)).at(-1)).toBe('Ensemble (VGG16 + ResNet50 + MobileNet)');
  });

  it('shows the field accuracy alone when the test accuracy is not known', async () => {
    const onlyField = MODELS.map((m) => (m.id === 'mobilenet' ? { ...m, testAccuracy: null } : m));
    expect(await options(onlyField)).toContain('MobileNet v1 (en fotos de campo 58.2%)');
  });
});

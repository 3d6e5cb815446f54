// The configuration page (/Custom): each loaded model with its measured test accuracy, the
// ensemble's too when the server has its card (GET /diagrodl/models/ gives a testAccuracy), and
// the accuracy on real field photos when the card measured it (fieldAccuracy).
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConfigStateReply, LoadedModelDetails } from '@diagrodl/contracts';
import i18n from '@/lib/i18n.ts';
import { diagnosisApi } from '../api.ts';
import { configFor } from '../model-choice.ts';
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
    reliability: [
      { set: 'lab_test', n: 1124, top1: 0.9512, acceptedShare: 0.94, accuracyAccepted: 0.96 },
      { set: 'field_val', n: 91, top1: 0.3736, acceptedShare: 0.6813, accuracyAccepted: 0.4194 },
    ],
    threshold: 0.6,
  },
  {
    id: 'mobilenet',
    modeloVersion: 'tomato_leaf_cnn_mobilenet',
    label: 'MobileNet v1',
    testAccuracy: 0.962,
    fieldAccuracy: 0.5824,
    reliability: [
      {
        set: 'lab_test',
        n: 1124,
        top1: 0.962,
        top1Ci95: [0.9697, 0.9911],
        acceptedShare: 0.9867,
        accuracyAccepted: 0.9874,
        accuracyAcceptedCi95: [0.9789, 0.9925],
      },
      { set: 'lab_new_leaves', n: 861, top1: 0.9768, top1Ci95: [0.9627, 0.9889] },
      {
        set: 'field_val',
        n: 91,
        top1: 0.5824,
        top1Ci95: [0.4907, 0.6886],
        acceptedShare: 0.3297,
        accuracyAccepted: 0.8,
        accuracyAcceptedCi95: [0.6269, 0.905],
      },
      { set: 'negatives_holdout', n: 2805, refusedShare: 1, refusedCi95: [0.9986, 1] },
    ],
    threshold: 0.5,
  },
  {
    id: 'ensemble',
    modeloVersion: 'ensemble',
    label: 'Ensemble (ResNet50 + MobileNet)',
    testAccuracy: 0.9734,
    fieldAccuracy: null,
    reliability: [
      { set: 'lab_test', n: 1124, top1: 0.9734, acceptedShare: 0.96, accuracyAccepted: 0.98 },
    ],
    threshold: 0.62,
    members: ['mobilenet', 'resnet50'],
  },
];

async function options(
  models: LoadedModelDetails[],
  stored: Promise<ConfigStateReply> = Promise.resolve({ config: null }),
): Promise<string[]> {
  await i18n.changeLanguage('es');
  vi.spyOn(diagnosisApi, 'models').mockResolvedValue(models);
  vi.spyOn(diagnosisApi, 'config').mockReturnValue(stored);
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
      // the server's label names the ensemble's members
      'Ensemble (ResNet50 + MobileNet) (exactitud en prueba 97.3%)',
    ]);
  });

  it('shows no accuracy for the ensemble without one (no card on the server)', async () => {
    const noCard = MODELS.map((m) => (m.id === 'ensemble' ? { ...m, testAccuracy: null } : m));
    expect((await options(noCard)).at(-1)).toBe('Ensemble (ResNet50 + MobileNet)');
  });

  it('shows the field accuracy alone when the test accuracy is not known', async () => {
    const onlyField = MODELS.map((m) => (m.id === 'mobilenet' ? { ...m, testAccuracy: null } : m));
    expect(await options(onlyField)).toContain('MobileNet v1 (en fotos de campo 58.2%)');
  });

  it("shows how far the chosen model can be trusted, set by set, from the server's figures", async () => {
    await options(MODELS);
    // the MobileNet is chosen first
    const panel = await screen.findByTestId('model-reliability');
    expect(
      within(panel).getByRole('heading', { name: '¿Qué tan confiable es MobileNet v1?' }),
    ).toBeTruthy();
    expect(within(panel).getByTestId('field-summary').textContent).toMatch(
      /^En fotos reales de campo da un diagnóstico en el 33\.0% de los casos y acierta en el 80\.0% de esas veces\./,
    );
    const rows = within(panel)
      .getAllByRole('row')
      .slice(1)
      .map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent));
    expect(rows).toEqual([
      [
        'De laboratorio (PlantVillage), reservadas para la prueba',
        '1,124',
        '96.2%intervalo de confianza del 95%: 97.0%–99.1%',
        '98.7%',
        '98.7%intervalo de confianza del 95%: 97.9%–99.3%',
      ],
      [
        'De laboratorio, solo hojas que no vio al entrenar',
        '861',
        '97.7%intervalo de confianza del 95%: 96.3%–98.9%',
        '—no medido',
        '—no medido',
      ],
      [
        'Reales de campo (PlantDoc), reservadas para la validación',
        '91',
        '58.2%intervalo de confianza del 95%: 49.1%–68.9%',
        '33.0%',
        '80.0%intervalo de confianza del 95%: 62.7%–90.5%',
      ],
      [
        'Cotidianas que no son hojas de tomate',
        '2,805',
        'rechaza el 100.0%intervalo de confianza del 95%: 99.9%–100.0%',
      ],
    ]);
  });

  it('shows the figures of the model the user switches to, and says when field photos were not measured', async () => {
    await options(MODELS);
    await screen.findByTestId('model-reliability');
    fireEvent.change(screen.getByLabelText('Modelos'), {
      target: { value: 'Tomato_leaf_cnn_resnet50' },
    });
    expect((await screen.findByTestId('field-summary')).textContent).toMatch(
      /da un diagnóstico en el 68\.1% de los casos y acierta en el 41\.9% de esas veces/,
    );
    fireEvent.change(screen.getByLabelText('Modelos'), { target: { value: 'ensemble' } });
    expect((await screen.findByTestId('field-summary')).textContent).toBe(
      'Este modelo no se midió en fotos reales de campo: sus cifras son de fotos de laboratorio, y en campo acertará menos.',
    );
    expect(
      screen.getByRole('heading', { name: /Ensemble \(ResNet50 \+ MobileNet\)/ }),
    ).toBeTruthy();
  });

  it('says so when the model gave no diagnosis on any field photo', async () => {
    const none = MODELS.map((m) =>
      m.id === 'mobilenet'
        ? {
            ...m,
            reliability: [{ set: 'field_val' as const, n: 91, top1: 0.59, acceptedShare: 0 }],
          }
        : m,
    );
    await options(none);
    expect((await screen.findByTestId('field-summary')).textContent).toBe(
      'En fotos reales de campo no dio ningún diagnóstico: a todas respondió «No reconocido con confianza» o «No parece una hoja de tomate».',
    );
    const row = screen.getByRole('row', { name: /Reales de campo/ });
    expect([...row.querySelectorAll('td')].map((c) => c.textContent)).toEqual([
      '91',
      '59.0%',
      '0.0%',
      '—no medido',
    ]);
  });

  it("preselects the person's stored choice, and the default when there is none to keep", async () => {
    const chosen = () => (screen.getByLabelText('Modelos') as HTMLSelectElement).value;
    const stored: ConfigStateReply = {
      config: { ...configFor('Tomato_leaf_cnn_resnet50'), modelId: 'resnet50' },
    };
    await options(MODELS, Promise.resolve(stored));
    expect(
      await screen.findByRole('heading', { name: '¿Qué tan confiable es ResNet50 v1?' }),
    ).toBeTruthy();
    expect(chosen()).toBe('Tomato_leaf_cnn_resnet50');
    cleanup();
    // the stored choice cannot be read (signed out, server error): the default, without an error
    await options(MODELS, Promise.reject(new Error('401')));
    expect(await screen.findByRole('heading', { name: /MobileNet v1/ })).toBeTruthy();
    expect(chosen()).toBe('tomato_leaf_cnn_mobilenet');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("keeps the accepted configuration: 'Subir imágenes' is enabled at once while the stored model is chosen", async () => {
    const stored: ConfigStateReply = {
      config: { ...configFor('Tomato_leaf_cnn_resnet50'), modelId: 'resnet50' },
    };
    await options(MODELS, Promise.resolve(stored));
    const next = await screen.findByRole('link', { name: 'Subir imágenes' });
    expect(next).toHaveAttribute('href', '/upload');
    expect(screen.getByTestId('custom-kept').textContent).toBe(
      'Se mantiene tu configuración anterior: ya puedes subir imágenes.',
    );
    // another model is not accepted until it is sent; back to the stored one, it is again
    fireEvent.change(screen.getByLabelText('Modelos'), {
      target: { value: 'tomato_leaf_cnn_mobilenet' },
    });
    expect(screen.getByRole('button', { name: 'Subir imágenes' })).toBeDisabled();
    expect(screen.queryByRole('link', { name: 'Subir imágenes' })).toBeNull();
    fireEvent.change(screen.getByLabelText('Modelos'), {
      target: { value: 'Tomato_leaf_cnn_resnet50' },
    });
    expect(screen.getByRole('link', { name: 'Subir imágenes' })).toBeTruthy();
    cleanup();
    // never configured: disabled until 'Enviar configuración' is accepted
    await options(MODELS);
    expect(screen.getByRole('button', { name: 'Subir imágenes' })).toBeDisabled();
    expect(screen.queryByTestId('custom-kept')).toBeNull();
  });

  it('keeps a choice not yet sent when the language changes (the list is read again)', async () => {
    const chosen = () => (screen.getByLabelText(/Modelos|Models/) as HTMLSelectElement).value;
    await options(MODELS);
    await screen.findByTestId('model-reliability');
    fireEvent.change(screen.getByLabelText('Modelos'), {
      target: { value: 'Tomato_leaf_cnn_resnet50' },
    });
    const reads = vi.mocked(diagnosisApi.models).mock.calls.length;
    await act(() => i18n.changeLanguage('en'));
    // the page has read the list again, in English, and the choice stayed
    await waitFor(() =>
      expect(vi.mocked(diagnosisApi.models).mock.calls.length).toBeGreaterThan(reads),
    );
    await screen.findByRole('heading', { name: /ResNet50 v1/ });
    expect(chosen()).toBe('Tomato_leaf_cnn_resnet50');
    await act(() => i18n.changeLanguage('es'));
  });

  it('shows no figures for a model without a card', async () => {
    await options(MODELS.map((m) => ({ ...m, reliability: [] })));
    expect(screen.queryByTestId('model-reliability')).toBeNull();
  });
});

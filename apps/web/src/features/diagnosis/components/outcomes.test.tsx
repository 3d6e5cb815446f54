// The three outcomes of a photo on the results card, the results summary and the history:
// a diagnosis, 'No parece una hoja de tomate' (with its hint) and 'No reconocido con confianza'.
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type DiagnosisRow,
  FIELD_PHOTO_CAUTION,
  HISTORY_LIMIT,
  type HistoryItem,
  NOT_LEAF,
  NOT_LEAF_HINT,
  NOT_RECOGNISED,
  TOP3_REFERENCE_ONLY,
} from '@diagrodl/contracts';
import i18n from '@/lib/i18n.ts';
import { diagnosisApi } from '../api.ts';
import { deviceRow } from '../device/rows.ts';
import type { DevicePhoto } from '../device/store.ts';
import { DiagnosisCard } from './DiagnosisCard.tsx';
import HistoryPage from './HistoryPage.tsx';
import ResultsPage from './ResultsPage.tsx';

function row(id: number, over: Partial<DiagnosisRow>): HistoryItem {
  return {
    id,
    name_img: `foto_${id}.jpg`,
    predict: 'Tizón tardío',
    probability: 0.9731,
    label: 'late_blight',
    top3: [
      { label: 'late_blight', predict: 'Tizón tardío', probability: 0.9731 },
      { label: 'early_blight', predict: 'Tizón temprano', probability: 0.02 },
      { label: 'healthy', predict: 'Sana', probability: 0.0069 },
    ],
    accepted: true,
    reason: null,
    leaf_probability: 0.98,
    lab_like: 0.97,
    field_photo: false,
    model: 'mobilenet',
    modelLabel: 'MobileNet v1',
    created_at: '2026-05-01T10:00:00.000Z',
    image: `/media/post_images/${id}.jpg`,
    heatmap: `/media/heatmaps/h${id}.jpg`,
    page: '/Late_blight',
    thumbnail: `/media/thumbs/t${id}.jpg`,
    ...over,
  };
}

const DIAGNOSIS = row(1, {});
const FIELD = row(4, { lab_like: 0.12, field_photo: true, name_img: 'campo.jpg' });
const NOT_A_LEAF = row(2, {
  accepted: false,
  reason: 'not_leaf',
  leaf_probability: 0.03,
  predict: NOT_LEAF.es,
});
const UNSURE = row(3, {
  accepted: false,
  reason: 'low_confidence',
  predict: NOT_RECOGNISED.es,
  probability: 0.41,
});

function renderIn(ui: React.ReactNode) {
  return render(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter>{ui}</MemoryRouter>
    </I18nextProvider>,
  );
}

afterEach(() => vi.restoreAllMocks());

/** The results screen in Spanish, with `rows` from the server and their diagnosis shown. */
async function showResults(rows: Awaited<ReturnType<typeof diagnosisApi.rows>>) {
  await i18n.changeLanguage('es');
  vi.spyOn(diagnosisApi, 'rows').mockResolvedValue(rows);
  renderIn(<ResultsPage />);
  await userEvent.click(screen.getByRole('button', { name: 'Mostrar el diagnóstico' }));
}

describe('the three outcomes of a photo', () => {
  it('the web strings are the specification messages of the contracts, in both languages', () => {
    for (const lang of ['es', 'en'] as const) {
      const t = i18n.getFixedT(lang);
      expect(t('diagnosis.results.notLeaf')).toBe(NOT_LEAF[lang]);
      expect(t('diagnosis.results.notLeafHint')).toBe(NOT_LEAF_HINT[lang]);
      expect(t('diagnosis.results.notRecognised')).toBe(NOT_RECOGNISED[lang]);
      expect(t('diagnosis.results.top3NotDiagnosis')).toBe(TOP3_REFERENCE_ONLY[lang]);
      expect(t('diagnosis.results.fieldPhoto')).toBe(FIELD_PHOTO_CAUTION[lang]);
    }
  });

  it('results cards: a diagnosis links to its page; not a leaf shows its hint; low confidence its help', async () => {
    await i18n.changeLanguage('es');
    renderIn(
      <>
        <DiagnosisCard row={DIAGNOSIS} />
        <DiagnosisCard row={NOT_A_LEAF} />
        <DiagnosisCard row={UNSURE} />
      </>,
    );
    const [ok, leaf, unsure] = screen.getAllByTestId('diagnosis-row') as [
      HTMLElement,
      HTMLElement,
      HTMLElement,
    ];
    expect(within(ok).getByTestId('row-label')).toHaveTextContent('Tizón tardío');
    expect(within(ok).getByRole('link', { name: 'Qué hacer: Tizón tardío' })).toBeInTheDocument();
    expect(ok).not.toHaveAttribute('data-reason');
    expect(within(ok).queryByTestId('row-top3-note')).toBeNull();
    // a refused photo keeps the three options, marked as no diagnosis
    for (const refused of [leaf, unsure]) {
      expect(within(refused).getByTestId('row-top3-note')).toHaveTextContent(
        'Solo como referencia: no es un diagnóstico.',
      );
    }

    expect(leaf).toHaveAttribute('data-reason', 'not_leaf');
    expect(within(leaf).getByTestId('row-label')).toHaveTextContent('No parece una hoja de tomate');
    expect(within(leaf).getByTestId('row-hint')).toHaveTextContent(NOT_LEAF_HINT.es);
    expect(within(leaf).queryByRole('link')).toBeNull();

    expect(unsure).toHaveAttribute('data-reason', 'low_confidence');
    expect(within(unsure).getByTestId('row-label')).toHaveTextContent(NOT_RECOGNISED.es);
    expect(within(unsure).getByTestId('row-hint')).not.toHaveTextContent(NOT_LEAF_HINT.es);
    expect(screen.queryByTestId('row-caution')).toBeNull();
  });

  it('a diagnosis of a field-like photo carries the field-photo caution, in both languages', async () => {
    await i18n.changeLanguage('es');
    const { unmount } = renderIn(
      <>
        <DiagnosisCard row={FIELD} />
        <DiagnosisCard row={DIAGNOSIS} />
      </>,
    );
    const [field, lab] = screen.getAllByTestId('diagnosis-row') as [HTMLElement, HTMLElement];
    expect(within(field).getByTestId('row-caution')).toHaveTextContent(FIELD_PHOTO_CAUTION.es);
    expect(
      within(field).getByRole('link', { name: 'Qué hacer: Tizón tardío' }),
    ).toBeInTheDocument();
    expect(within(lab).queryByTestId('row-caution')).toBeNull();
    unmount();
    await i18n.changeLanguage('en');
    renderIn(<DiagnosisCard row={FIELD} />);
    expect(screen.getByTestId('row-caution')).toHaveTextContent(FIELD_PHOTO_CAUTION.en);
  });

  it('a not-leaf row (a leaf of another crop, or a cat) says the tool diagnoses tomato leaves only, on the results screen', async () => {
    // the results screen as the server sends it: a pepper leaf refused as not a tomato leaf
    const pepper = { ...NOT_A_LEAF, name_img: 'hoja_de_pimiento.jpg' };
    await showResults([DIAGNOSIS, pepper, UNSURE]);
    const rows = await screen.findAllByTestId('diagnosis-row');
    const leaf = rows.find((r) => r.getAttribute('data-reason') === 'not_leaf')!;
    const unsure = rows.find((r) => r.getAttribute('data-reason') === 'low_confidence')!;
    expect(within(leaf).getByTestId('row-label')).toHaveTextContent(NOT_LEAF.es);
    const hint = within(leaf).getByTestId('row-hint');
    expect(hint).toHaveTextContent(NOT_LEAF_HINT.es);
    expect(hint).toHaveTextContent(
      'Esta herramienta solo diagnostica hojas de tomate: no puede diagnosticar la hoja de otro cultivo ni una foto que no sea de una hoja.',
    );
    expect(hint).toHaveTextContent('Fotografíe una sola hoja de una planta de tomate');
    // the low-confidence help claims nothing about other crops
    expect(within(unsure).getByTestId('row-hint')).not.toHaveTextContent(
      /otro cultivo|solo diagnostica/,
    );

    await act(() => i18n.changeLanguage('en'));
    expect(hint).toHaveTextContent(NOT_LEAF_HINT.en);
    expect(hint).toHaveTextContent(
      'This tool diagnoses tomato leaves only: it cannot diagnose a leaf of another crop or a photo that is not of a leaf.',
    );
    expect(within(unsure).getByTestId('row-hint')).not.toHaveTextContent(
      /another crop|leaves only/,
    );
  });

  it('a not-leaf result made on the device shows the same advice, in both languages', async () => {
    const photo: DevicePhoto = {
      id: '6f0c2a52-3c9e-4d0b-9a57-1f1d3f1b2c3d',
      owner: 'ana',
      name: 'hoja_de_vid.jpg',
      type: 'image/jpeg',
      size: 1000,
      photo: new Blob([]),
      addedAt: '2026-11-20T10:00:00.000Z',
      status: 'done',
      inWorkingSet: true,
      sync: 'unsent',
      result: {
        label: 'healthy',
        probability: 0.4,
        accepted: false,
        reason: 'not_leaf',
        leaf_probability: 0.01,
        lab_like: null,
        top3: [{ label: 'healthy', probability: 0.4 }],
        model: 'mobilenet',
        diagnosed_at: '2026-11-20T10:00:00.000Z',
      },
    };
    for (const lang of ['es', 'en'] as const) {
      await i18n.changeLanguage(lang);
      const { unmount } = renderIn(
        <DiagnosisCard row={deviceRow(photo, 0, { photo: '/p.jpg', heatmap: '/h.jpg' }, lang)!} />,
      );
      expect(screen.getByTestId('row-label')).toHaveTextContent(NOT_LEAF[lang]);
      expect(screen.getByTestId('row-hint')).toHaveTextContent(NOT_LEAF_HINT[lang]);
      unmount();
    }
  });

  it('follows the language toggle (English)', async () => {
    await i18n.changeLanguage('en');
    renderIn(<DiagnosisCard row={NOT_A_LEAF} />);
    expect(screen.getByTestId('row-label')).toHaveTextContent(NOT_LEAF.en);
    expect(screen.getByTestId('row-hint')).toHaveTextContent(NOT_LEAF_HINT.en);
  });

  it('the results summary counts the photos that are not a tomato leaf apart', async () => {
    await showResults([DIAGNOSIS, NOT_A_LEAF, UNSURE]);
    expect(await screen.findByTestId('results-summary')).toHaveTextContent(
      '1 diagnóstico, 1 foto que no parece una hoja de tomate y 1 imagen no reconocida con confianza.',
    );
  });

  it('the results summary counts in the singular and the plural, in both languages', async () => {
    await showResults([DIAGNOSIS, { ...DIAGNOSIS, id: DIAGNOSIS.id + 100 }]);
    expect(await screen.findByTestId('results-summary')).toHaveTextContent(
      '2 diagnósticos y 0 imágenes no reconocidas con confianza.',
    );
    await act(() => i18n.changeLanguage('en'));
    expect(screen.getByTestId('results-summary')).toHaveTextContent(
      '2 diagnoses and 0 images not recognised with confidence.',
    );
  });

  it('the results summary says how many diagnoses carry the field-photo caution', async () => {
    await showResults([DIAGNOSIS, FIELD]);
    expect(await screen.findByTestId('results-field-photos')).toHaveTextContent(
      '1 diagnóstico lleva el aviso de foto de campo: compárelo con las otras posibilidades.',
    );
    await act(() => i18n.changeLanguage('en'));
    expect(screen.getByTestId('results-field-photos')).toHaveTextContent(
      '1 diagnosis carries the field-photo caution: compare it with the other possibilities.',
    );
    expect(i18n.getFixedT('es')('diagnosis.results.count.fieldPhotos', { count: 2 })).toBe(
      '2 diagnósticos llevan el aviso de foto de campo: compárelos con las otras posibilidades.',
    );
  });

  it('no field-photo line without a field-like diagnosis', async () => {
    await showResults([DIAGNOSIS]);
    await screen.findByTestId('results-summary');
    expect(screen.queryByTestId('results-field-photos')).toBeNull();
  });

  it('the identification progress says one image in the singular', async () => {
    await i18n.changeLanguage('es');
    expect(i18n.t('diagnosis.predict.done', { count: 1 })).toBe(
      'Identificación terminada: 1 imagen.',
    );
    expect(i18n.t('diagnosis.predict.done', { count: 3 })).toBe(
      'Identificación terminada: 3 imágenes.',
    );
    expect(i18n.t('diagnosis.predict.progress', { done: 0, count: 1 })).toBe(
      'Identificando: 0 de 1 imagen',
    );
    await i18n.changeLanguage('en');
    expect(i18n.t('diagnosis.predict.done', { count: 1 })).toBe(
      'Identification finished: 1 image.',
    );
  });

  it('the history shows each outcome, the not-leaf one with its hint', async () => {
    await i18n.changeLanguage('es');
    vi.spyOn(diagnosisApi, 'history').mockResolvedValue([DIAGNOSIS, NOT_A_LEAF, UNSURE, FIELD]);
    renderIn(<HistoryPage />);
    await waitFor(() => expect(screen.getAllByTestId('history-label')).toHaveLength(4));
    const [ok, leaf, unsure, field] = screen.getAllByTestId('history-label') as [
      HTMLElement,
      HTMLElement,
      HTMLElement,
      HTMLElement,
    ];
    expect(within(field).getByTestId('history-caution')).toHaveTextContent(FIELD_PHOTO_CAUTION.es);
    expect(screen.getAllByTestId('history-caution')).toHaveLength(1);
    expect(within(ok).getByRole('link', { name: 'Tizón tardío' })).toBeInTheDocument();
    expect(leaf).toHaveTextContent(`${NOT_LEAF.es}${NOT_LEAF_HINT.es}`);
    expect(leaf.closest('[data-testid="history-item"]')).toHaveAttribute('data-reason', 'not_leaf');
    // one card per diagnosis, no table wider than a phone
    expect(screen.getAllByTestId('history-item')).toHaveLength(4);
    expect(screen.queryByRole('table')).toBeNull();
    expect(unsure).toHaveTextContent(NOT_RECOGNISED.es);
    expect(unsure).not.toHaveTextContent(NOT_LEAF_HINT.es);
  });

  it('the history says when it shows only the most recent diagnoses', async () => {
    await i18n.changeLanguage('es');
    const history = vi.spyOn(diagnosisApi, 'history');
    history.mockResolvedValue([DIAGNOSIS, NOT_A_LEAF]);
    const { unmount } = renderIn(<HistoryPage />);
    await waitFor(() => expect(screen.getAllByTestId('history-label')).toHaveLength(2));
    expect(screen.queryByTestId('history-limited')).toBeNull();
    unmount();
    history.mockResolvedValue(Array.from({ length: HISTORY_LIMIT }, (_, i) => row(i + 1, {})));
    renderIn(<HistoryPage />);
    expect(await screen.findByTestId('history-limited')).toHaveTextContent(
      'Se muestran tus 1000 diagnósticos más recientes',
    );
  });
});

// /Get_predict: opened anew, it shows the latest results at once, the answer first (disease and
// confidence as a percentage, above the buttons), with 'Diagnosticar otra hoja'; a photo taken
// again from its result card that got no answer is not announced as identified again (only the
// failure is said, and the old card stays); the language toggle fetches the server's rows again in
// the new language.
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DiagnosisRow } from '@diagrodl/contracts';
import i18n from '@/lib/i18n.ts';
import { diagnosisApi } from '../api.ts';
import * as identify from '../identify.ts';
import ResultsPage from './ResultsPage.tsx';

vi.mock('../identify.ts', async (original) => ({
  ...(await original<typeof import('../identify.ts')>()),
  identifyAgain: vi.fn(),
}));

afterEach(() => vi.restoreAllMocks());

const UNSURE = {
  id: 3,
  name_img: 'foto_3.jpg',
  predict: 'No reconocido',
  probability: 0.41,
  label: 'late_blight',
  top3: [],
  accepted: false,
  reason: 'low_confidence',
  leaf_probability: 0.98,
  lab_like: 0.97,
  field_photo: false,
  model: 'mobilenet',
  created_at: '2026-05-01T10:00:00.000Z',
  image: '/media/post_images/3.jpg',
  heatmap: '/media/heatmaps/h3.jpg',
} as unknown as DiagnosisRow;

const renderPage = () =>
  render(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter>
        <ResultsPage />
      </MemoryRouter>
    </I18nextProvider>,
  );

const LATE_BLIGHT = {
  ...UNSURE,
  id: 4,
  name_img: 'tizon.jpg',
  predict: 'Tizón tardío',
  probability: 0.9979,
  accepted: true,
  reason: null,
  top3: [
    { label: 'late_blight', predict: 'Tizón tardío', probability: 0.9979 },
    { label: 'early_blight', predict: 'Tizón temprano', probability: 0.0015 },
    { label: 'leaf_mold', predict: 'Moho de la hoja', probability: 0.0006 },
  ],
  page: '/Late_blight',
} as unknown as DiagnosisRow;

describe('opened anew', () => {
  it('shows the latest results at once, the answer first, in percent', async () => {
    await i18n.changeLanguage('es');
    const rows = vi.spyOn(diagnosisApi, 'rows').mockResolvedValue([LATE_BLIGHT, UNSURE]);
    renderPage();
    const answer = await screen.findByTestId('results-answer');
    expect(rows).toHaveBeenCalledTimes(1);
    const items = screen.getAllByTestId('answer-item').map((li) => li.textContent);
    expect(items).toEqual([
      'Tizón tardío99.8% de confianzatizon.jpg',
      'No reconocido con confianzafoto_3.jpg',
    ]);
    // above the buttons: the specification's, and the one to diagnose another leaf
    const actions = screen.getByTestId('results-actions');
    expect(answer.compareDocumentPosition(actions) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Mostrar el diagnóstico' })).toBeTruthy();
    const another = screen.getByRole('link', { name: 'Diagnosticar otra hoja' });
    expect(another).toHaveAttribute('href', '/upload?photo=take');
    expect(another).toHaveClass('btn-primary');
    // every probability a person reads is a percentage
    const card = screen.getAllByTestId('diagnosis-row')[0]!;
    expect(card.querySelector('[data-testid="row-probability"]')?.textContent).toBe('99.8%');
    expect(
      [...card.querySelectorAll('[data-testid="row-top3"] li')].map((li) => li.textContent),
    ).toEqual(['Tizón tardío: 99.8%', 'Tizón temprano: 0.2%', 'Moho de la hoja: 0.1%']);
    // 'Mostrar el diagnóstico' still fetches them again
    await userEvent.click(screen.getByRole('button', { name: 'Mostrar el diagnóstico' }));
    await waitFor(() => expect(rows).toHaveBeenCalledTimes(2));
  });

  it('says so when there is no result yet', async () => {
    await i18n.changeLanguage('en');
    vi.spyOn(diagnosisApi, 'rows').mockResolvedValue([]);
    renderPage();
    expect(
      await screen.findByText('There are no results. Start a new identification.'),
    ).toBeTruthy();
    expect(screen.queryByTestId('results-answer')).toBeNull();
    await act(() => i18n.changeLanguage('es'));
  });
});

describe('a photo taken again from its card', () => {
  it('that the device could not read is not announced as identified again', async () => {
    await i18n.changeLanguage('es');
    vi.spyOn(diagnosisApi, 'rows').mockResolvedValue([UNSURE]);
    vi.mocked(identify.identifyAgain).mockResolvedValue({
      progress: { state: 'done', done: 1, total: 1 },
      deviceFailed: 1,
      diagnosed: 0,
      rows: null,
      replacement: { server: [], device: ['new'] },
      identified: false,
    });
    renderPage();
    const input = await screen.findByTestId('retake-input');
    await userEvent.upload(input, new File(['y'], 'otra.jpg', { type: 'image/jpeg' }));
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent(
        '1 foto no se pudo leer y se dejó fuera.',
      ),
    );
    expect(screen.getByTestId('results-again')).toHaveTextContent('');
    expect(screen.getAllByTestId('diagnosis-row')).toHaveLength(1);
  });
});

describe('the language toggle', () => {
  it("fetches the server's rows again in the new language", async () => {
    await i18n.changeLanguage('es');
    const rows = vi
      .spyOn(diagnosisApi, 'rows')
      .mockResolvedValueOnce([UNSURE])
      .mockResolvedValueOnce([{ ...UNSURE, predict: 'Not recognised' } as DiagnosisRow]);
    renderPage();
    await waitFor(() => expect(screen.getAllByTestId('diagnosis-row')).toHaveLength(1));
    expect(rows).toHaveBeenCalledTimes(1);
    await act(() => i18n.changeLanguage('en'));
    await waitFor(() => expect(rows).toHaveBeenCalledTimes(2));
    await act(() => i18n.changeLanguage('es'));
  });
});

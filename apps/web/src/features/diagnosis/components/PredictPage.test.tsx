// The identification page (/Predict_rows): 'Visualizar diagnóstico' is enabled only when the run
// gave at least one of its photos an answer; a run that dropped every photo leaves it disabled
// (the report would have nothing to show).
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DIAGNOSIS_MESSAGES as M, type DiagnosisRow, type PendingImage } from '@diagrodl/contracts';
import i18n from '@/lib/i18n.ts';
import { diagnosisApi } from '../api.ts';
import PredictPage from './PredictPage.tsx';

afterEach(() => vi.restoreAllMocks());

const pending = (id: number) => ({ id, name_img: `p${id}.jpg` }) as PendingImage;
const row = (id: number) => ({ id, name_img: `p${id}.jpg`, accepted: true }) as DiagnosisRow;

/** Presses 'Iniciar identificación' on a run of the `waiting` photos that ends with `rows`. */
async function identify(waiting: number[], dropped: number, rows: DiagnosisRow[]) {
  await i18n.changeLanguage('es');
  vi.spyOn(diagnosisApi, 'progress')
    .mockResolvedValueOnce({ state: 'idle', done: 0, total: 0 })
    .mockResolvedValue({
      state: 'done',
      done: waiting.length,
      total: waiting.length,
      ...(dropped ? { detail: M.failedImages(dropped) } : {}),
    });
  vi.spyOn(diagnosisApi, 'pending').mockResolvedValue(waiting.map(pending));
  vi.spyOn(diagnosisApi, 'predict').mockResolvedValue({
    status: 'OK',
    detail: '',
    total: waiting.length,
  });
  vi.spyOn(diagnosisApi, 'rows').mockResolvedValue(rows);
  render(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter>
        <PredictPage />
      </MemoryRouter>
    </I18nextProvider>,
  );
  const start = screen.getByRole('button', { name: 'Iniciar identificación' });
  await userEvent.click(start);
  // settled: the run is over and the page has decided
  await waitFor(() => expect(start).toBeEnabled());
  expect(screen.getByTestId('predict-status')).toBeVisible();
}

describe("'Visualizar diagnóstico'", () => {
  it('stays disabled when every photo of the run was dropped', async () => {
    await identify([5, 6], 2, []);
    expect(screen.getByTestId('predict-failed')).toHaveTextContent(M.failedImages(2));
    expect(screen.getByRole('button', { name: 'Visualizar diagnóstico' })).toBeDisabled();
    expect(screen.queryByRole('link', { name: 'Visualizar diagnóstico' })).toBeNull();
  });

  it('stays disabled when only rows of an earlier identification are there', async () => {
    await identify([5], 1, [row(1), row(2)]);
    expect(screen.getByRole('button', { name: 'Visualizar diagnóstico' })).toBeDisabled();
  });

  it('is enabled when some photo of the run got an answer, with the note on the others', async () => {
    await identify([5, 6], 1, [row(1), row(6)]);
    expect(screen.getByTestId('predict-failed')).toHaveTextContent(M.failedImages(1));
    expect(screen.getByRole('link', { name: 'Visualizar diagnóstico' })).toHaveAttribute(
      'href',
      '/Create_report',
    );
  });

  it('is enabled after a run that dropped nothing, without asking for the rows', async () => {
    await identify([5, 6], 0, []);
    expect(await screen.findByRole('link', { name: 'Visualizar diagnóstico' })).toBeVisible();
    expect(diagnosisApi.rows).not.toHaveBeenCalled();
  });
});

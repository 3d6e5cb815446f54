// A photo that is not square: the model saw only its centre square, and the card says so next to
// the heatmap, in the page's language; a square photo's card says nothing of it.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { DiagnosisRow } from '@diagrodl/contracts';
import i18n from '@/lib/i18n.ts';
import { DiagnosisCard, isCropped } from './DiagnosisCard.tsx';

const ROW = {
  id: 1,
  name_img: 'retrato.jpg',
  predict: 'Tizón tardío',
  probability: 0.9979,
  label: 'late_blight',
  top3: [],
  accepted: true,
  reason: null,
  field_photo: false,
  model: 'mobilenet',
  modelLabel: 'MobileNet v1',
  image: '/media/post_images/1.jpg',
  heatmap: '/media/heatmaps/h1.jpg',
  page: '/Late_blight',
} as unknown as DiagnosisRow;

/** The card with its heatmap loaded at `width` × `height`. */
async function cardWithHeatmap(lang: 'es' | 'en', width: number, height: number) {
  await i18n.changeLanguage(lang);
  render(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter>
        <DiagnosisCard row={ROW} />
      </MemoryRouter>
    </I18nextProvider>,
  );
  const heat = screen.getByTestId('heatmap');
  Object.defineProperty(heat, 'naturalWidth', { value: width });
  Object.defineProperty(heat, 'naturalHeight', { value: height });
  fireEvent.load(heat);
}

describe('the heatmap of a photo that is not square', () => {
  it('says the model looked at the central square, in Spanish and in English', async () => {
    await cardWithHeatmap('es', 768, 1024);
    expect(screen.getByTestId('heatmap-square').textContent).toBe(
      'El modelo miró el cuadrado central de la foto: los bordes sin color quedaron fuera.',
    );
    cleanup();
    await cardWithHeatmap('en', 1024, 576);
    expect(screen.getByTestId('heatmap-square').textContent).toMatch(
      /^The model looked at the central square of the photo/,
    );
    await i18n.changeLanguage('es');
  });

  it('says nothing for a square photo', async () => {
    await cardWithHeatmap('es', 1024, 1024);
    expect(screen.queryByTestId('heatmap-square')).toBeNull();
  });

  it('counts a photo a pixel from square (rounding) as square', () => {
    expect(isCropped({ naturalWidth: 1024, naturalHeight: 1023 })).toBe(false);
    expect(isCropped({ naturalWidth: 1024, naturalHeight: 1020 })).toBe(true);
    expect(isCropped({ naturalWidth: 0, naturalHeight: 0 })).toBe(false);
  });
});

// The reliability table of the configuration page (/Custom) with the sets cards written since
// 2026-11-28 may add: both field sources' validation part, their held-out part and the other crops'
// leaves (refused share, its interval and the share refused as not a tomato leaf), in Spanish and
// in English.
import { act, render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { RELIABILITY_SETS, type ReliabilityRow } from '@diagrodl/contracts';
import i18n from '@/lib/i18n.ts';
import { ModelReliability } from './ModelReliability.tsx';

const TODAY: ReliabilityRow[] = [
  { set: 'lab_test', n: 1124, top1: 0.962, acceptedShare: 0.9867, accuracyAccepted: 0.9874 },
  {
    set: 'field_val',
    n: 91,
    top1: 0.5824,
    top1Ci95: [0.4907, 0.6886],
    acceptedShare: 0.3297,
    accuracyAccepted: 0.8,
  },
  { set: 'negatives_holdout', n: 2805, refusedShare: 1, refusedCi95: [0.9986, 1] },
];

const WITH_NEW_SETS: ReliabilityRow[] = [
  TODAY[0]!,
  TODAY[1]!,
  {
    set: 'field_val_all',
    n: 181,
    top1: 0.55,
    top1Ci95: [0.48, 0.62],
    acceptedShare: 0.4,
    accuracyAccepted: 0.75,
  },
  {
    set: 'field_holdout',
    n: 105,
    top1: 0.52,
    top1Ci95: [0.43, 0.61],
    acceptedShare: 0.38,
    accuracyAccepted: 0.72,
    accuracyAcceptedCi95: [0.56, 0.84],
  },
  TODAY[2]!,
  {
    set: 'other_crop_holdout',
    n: 150,
    refusedShare: 0.94,
    refusedCi95: [0.89, 0.97],
    notLeafShare: 0.83,
  },
];

async function table(rows: ReliabilityRow[], lang: 'es' | 'en') {
  await act(() => i18n.changeLanguage(lang));
  render(
    <I18nextProvider i18n={i18n}>
      <ModelReliability label="MobileNet v1" rows={rows} />
    </I18nextProvider>,
  );
  const panel = screen.getByTestId('model-reliability');
  return {
    panel,
    rows: within(panel)
      .getAllByRole('row')
      .slice(1)
      .map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent)),
  };
}

afterEach(() => i18n.changeLanguage('es'));

describe('the reliability table', () => {
  it('has a label for every set in Spanish and in English', () => {
    for (const lang of ['es', 'en']) {
      for (const set of RELIABILITY_SETS) {
        const key = `diagnosis.custom.reliability.sets.${set}`;
        expect(i18n.exists(key, { lng: lang, fallbackLng: false }), `${lang}: ${set}`).toBe(true);
      }
      expect(
        i18n.exists('diagnosis.custom.reliability.notLeafShare', { lng: lang, fallbackLng: false }),
      ).toBe(true);
    }
  });

  it('shows the new sets in Spanish, the other crops with the share refused as not a tomato leaf', async () => {
    const { panel, rows } = await table(WITH_NEW_SETS, 'es');
    expect(rows).toEqual([
      [
        'De laboratorio (PlantVillage), reservadas para la prueba',
        '1,124',
        '96.2%',
        '98.7%',
        '98.7%',
      ],
      [
        'Reales de campo (PlantDoc), reservadas para la validación',
        '91',
        '58.2%intervalo de confianza del 95%: 49.1%–68.9%',
        '33.0%',
        '80.0%',
      ],
      [
        'De campo, de dos fuentes (PlantDoc incluida), reservadas para la validación',
        '181',
        '55.0%intervalo de confianza del 95%: 48.0%–62.0%',
        '40.0%',
        '75.0%',
      ],
      [
        'De campo, de dos fuentes, apartadas: nunca usadas al entrenar ni al ajustar el modelo',
        '105',
        '52.0%intervalo de confianza del 95%: 43.0%–61.0%',
        '38.0%',
        '72.0%intervalo de confianza del 95%: 56.0%–84.0%',
      ],
      [
        'Cotidianas que no son hojas de tomate',
        '2,805',
        'rechaza el 100.0%intervalo de confianza del 95%: 99.9%–100.0%',
      ],
      [
        'De hojas de otros cultivos, en el campo, apartadas',
        '150',
        'rechaza el 94.0%intervalo de confianza del 95%: 89.0%–97.0%el 83.0% con «No parece una hoja de tomate»',
      ],
    ]);
    // one not-leaf share, on its own line under the refused share and its interval
    expect(within(panel).getAllByTestId('not-leaf-share')).toHaveLength(1);
    // the summary reads the held-out field photos, never used for a choice
    expect(within(panel).getByTestId('field-summary').textContent).toMatch(
      /^En fotos reales de campo da un diagnóstico en el 38\.0% de los casos y acierta en el 72\.0% de esas veces\./,
    );
  });

  it('shows the new sets in English', async () => {
    const { panel, rows } = await table(WITH_NEW_SETS, 'en');
    expect(rows.map((r) => r[0])).toEqual([
      'Lab (PlantVillage), kept for the test',
      'Real field photos (PlantDoc), kept for validation',
      'Field photos from two sources (PlantDoc included), kept for validation',
      'Field photos from two sources, set aside: never used to train or tune the model',
      'Everyday photos that are not tomato leaves',
      'Leaves of other crops, in the field, set aside',
    ]);
    expect(rows.at(-1)).toEqual([
      'Leaves of other crops, in the field, set aside',
      '150',
      'refuses 94.0%95% confidence interval: 89.0%–97.0%83.0% as “This does not look like a tomato leaf”',
    ]);
    expect(within(panel).getByTestId('field-summary').textContent).toMatch(
      /^On real field photos it gives a diagnosis for 38\.0% of them and is right 72\.0% of those times\./,
    );
    // the table still scrolls sideways as a named, focusable region
    const region = within(panel).getByRole('region', {
      name: 'How far can MobileNet v1 be trusted?',
    });
    expect(region.getAttribute('tabindex')).toBe('0');
  });

  it("gives today's cards today's table: no new row, no not-leaf share, the summary from field_val", async () => {
    const { panel, rows } = await table(TODAY, 'es');
    expect(rows.map((r) => r[0])).toEqual([
      'De laboratorio (PlantVillage), reservadas para la prueba',
      'Reales de campo (PlantDoc), reservadas para la validación',
      'Cotidianas que no son hojas de tomate',
    ]);
    expect(within(panel).queryByTestId('not-leaf-share')).toBeNull();
    expect(within(panel).getByTestId('field-summary').textContent).toMatch(
      /da un diagnóstico en el 33\.0% de los casos y acierta en el 80\.0% de esas veces/,
    );
  });
});

/** The main-line designer's result as one report description (CSV and PDF: see shared/report.ts). */
import {
  MAINLINE_PIPE_TYPES,
  STATUS_HERE,
  localizeToolMessage,
  resolveMainlinePipeType,
} from '@diagrodl/hydraulics';
import { formatNumber } from '@/lib/format.ts';
import type { Language } from '@/lib/i18n.ts';
import { reportedFields, type Cell, type Figure, type Report } from '../shared/report.ts';
import type { Translate } from '../shared/translate.ts';
import type { State } from './state.ts';

const pipeLabel = (value: string, lang: Language) => {
  const info = MAINLINE_PIPE_TYPES.find((p) => p.id === resolveMainlinePipeType(value));
  return info ? `${info.code} ${info.label[lang]}` : value;
};

/** The totals as figures (label, value, unit; three decimals on the screen and in the PDF). */
export function totalsFigures(state: State, t: Translate): Figure[] {
  const { totals } = state;
  if (!totals) return [];
  const figure = (key: string, value: number, unit: string): Figure => ({
    label: t(`irrigation.mainline.totals.${key}`),
    value,
    unit,
    digits: 3,
  });
  return [
    figure('initialPressure', totals.initialPressure, 'm'),
    figure('hfTotal', totals.hfTotal, 'm'),
    figure('endPressure', totals.endPressure, 'm'),
    figure('maxFlow', totals.maxFlow, 'L/s'),
    figure('maxVelocity', totals.maxVelocity, 'm/s'),
  ];
}

/**
 * Beyond the specification: the warning when the totals end below 0 m of pressure (the line cannot
 * carry its flows to the end), with the end pressure as `format` writes it; null otherwise.
 */
export function negativeEndWarning(
  state: State,
  t: Translate,
  format: (value: number) => string,
): string | null {
  const { totals } = state;
  if (!totals || !(totals.endPressure < 0)) return null;
  return t('irrigation.mainline.totals.negativeEnd', { end: format(totals.endPressure) });
}

export function mainlineReport(state: State, t: Translate, lang: Language): Report {
  const negativeEnd = negativeEndWarning(state, t, (v) =>
    formatNumber(v, lang, { minimumFractionDigits: 3, maximumFractionDigits: 3 }),
  );
  const { sections, totals } = state;
  const field = (key: string) => t(`irrigation.mainline.fields.${key}`);
  const number = (value: number | null | undefined) =>
    value === null || value === undefined ? '' : value;
  // The pressure the totals were made with (the field may have changed since); as typed without.
  const pressure: Cell = totals
    ? {
        csv: totals.initialPressure,
        pdf: formatNumber(totals.initialPressure, lang, { maximumFractionDigits: 6 }),
      }
    : state.initialPressure;
  return {
    title: t('irrigation.mainline.title'),
    blocks: [
      {
        kind: 'figures',
        heading: t('irrigation.pdf.inputs'),
        figures: [{ label: t('irrigation.mainline.initialPressure'), value: pressure, unit: 'm' }],
      },
      {
        kind: 'table',
        heading: t('irrigation.mainline.sectionsTitle'),
        columns: [
          { label: t('irrigation.mainline.section'), pdfLabel: '#' },
          { label: field('pipeType') },
          { label: field('nominalDiameter'), pdfLabel: 'DN (mm)' },
          { label: field('flow'), pdfLabel: 'Q (L/s)' },
          { label: field('length'), pdfLabel: 'L (m)' },
          { label: field('slope') },
          { label: field('velocity'), pdfLabel: 'V (m/s)', digits: 3 },
          { label: field('hf'), pdfLabel: 'Hf (m)', digits: 3 },
          { label: t('irrigation.status') },
        ],
        // a calculated section's inputs are those its result came from (not the fields edited since)
        rows: sections.map((s, i) => {
          const raw = reportedFields(s);
          return [
            { csv: i + 1, pdf: String(i + 1) },
            { csv: raw.pipeType, pdf: pipeLabel(raw.pipeType, lang) },
            raw.nominalDiameter,
            { csv: s.input?.flow ?? raw.flow, pdf: raw.flow },
            { csv: s.input?.length ?? raw.length, pdf: raw.length },
            { csv: s.input?.slope ?? raw.slope, pdf: raw.slope },
            number(s.result?.velocity),
            number(s.result?.hf),
            localizeToolMessage(s.result?.message ?? STATUS_HERE, lang),
          ];
        }),
        maxRows: 20,
      },
      ...(totals
        ? [
            {
              kind: 'figures' as const,
              heading: t('irrigation.mainline.totals.title'),
              csvHeader: [
                t('irrigation.mainline.totals.title'),
                t('irrigation.csv.value'),
                t('irrigation.csv.unit'),
              ],
              figures: totalsFigures(state, t),
            },
            ...(totals.message
              ? [
                  {
                    kind: 'text' as const,
                    text: localizeToolMessage(totals.message, lang),
                    tone: 'danger' as const,
                    joined: true,
                  },
                ]
              : []),
            ...(negativeEnd
              ? [
                  {
                    kind: 'text' as const,
                    text: negativeEnd,
                    tone: 'danger' as const,
                    joined: true,
                  },
                ]
              : []),
          ]
        : []),
      { kind: 'charts', heading: t('irrigation.mainline.chartTitle'), charts: [0] },
    ],
  };
}

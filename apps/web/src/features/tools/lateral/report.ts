/** The lateral calculator's result as one report description (see shared/report.ts). */
import {
  DESIGN_MESSAGES,
  FRICTION_FORMULA_LABELS,
  uniformityStatusText,
  type LateralDesign,
  type LateralInput,
  type LateralResult,
} from '@diagrodl/hydraulics';
import { formatNumber } from '@/lib/format.ts';
import type { Language } from '@/lib/i18n.ts';
import type { FigureRow } from '../shared/FiguresTable.tsx';
import type { Figure, Report, ReportBlock } from '../shared/report.ts';
import type { Translate } from '../shared/translate.ts';
import type { FixedFormatter } from '../shared/useNumberFormat.ts';
import { LATERAL_COLUMNS, LATERAL_FIELDS } from './state.ts';

/** The figures of the designed lateral: [key, value, unit, decimals]. */
export function designFigures(d: LateralDesign): FigureRow[] {
  return [
    ['emitters', d.emitters, '', 0],
    ['length', d.length, 'm', 2],
    ['inletPressure', d.inletPressure, 'm', 3],
    ['frictionLoss', d.frictionLoss, 'm', 3],
    ['elevationChange', d.elevationChange, 'm', 3],
    ['minPressure', d.minPressure, 'm', 3],
    ['maxPressure', d.maxPressure, 'm', 3],
    ['totalFlow', d.totalFlow, 'L/h', 2],
    ['qMin', d.qMin, 'L/h', 4],
    ['qAvg', d.qAvg, 'L/h', 4],
    ['qMax', d.qMax, 'L/h', 4],
    ['flowVariation', 100 * d.flowVariation, '%', 2],
    ['eu', d.eu, '%', 2],
  ];
}

/** "Hazen-Williams (m = 1.852)" in the active language. */
export function formulaText(result: LateralResult, lang: Language): string {
  return `${FRICTION_FORMULA_LABELS[result.formula][lang]} (m = ${formatNumber(result.m, lang)})`;
}

/** The decimals of the emitter table's columns (emitter, distance, elevation, pressure, flow). */
export const EMITTER_DIGITS = [0, 2, 3, 3, 4];

/** A field's words with the specification's code name as a tag: "Presión de operación (Po)". */
export const tagged = (words: string, name: string) => `${words} (${name})`;

export function emitterColumns(t: Translate): string[] {
  return ['emitter', 'distance', 'elevation', 'pressure', 'flow'].map((c) =>
    t(`irrigation.lateral.design.cols.${c}`),
  );
}

export function formatPlain(value: number, lang: Language): string {
  return formatNumber(value, lang, { maximumFractionDigits: 6 });
}

/** The designed lateral (beyond the specification): the formula, the emitter law, its figures, status and profile. */
function designBlocks(
  result: LateralResult,
  t: Translate,
  lang: Language,
  fmt: FixedFormatter,
): ReportBlock[] {
  const blocks: ReportBlock[] = [
    {
      kind: 'figures',
      only: 'csv',
      heading: '',
      figures: [
        { label: t('irrigation.formula'), value: FRICTION_FORMULA_LABELS[result.formula][lang] },
      ],
    },
    {
      kind: 'text',
      only: 'pdf',
      text: t('irrigation.formulaUsed', { formula: formulaText(result, lang) }),
    },
  ];
  if (result.blasiusOutOfRange) {
    blocks.push({ kind: 'text', text: DESIGN_MESSAGES[lang].blasiusRange, joined: true });
  }
  const d = result.design;
  if (!d) return [...blocks, { kind: 'text', text: DESIGN_MESSAGES[lang].noDesign, joined: true }];
  const field = (key: string, name: string) =>
    tagged(t(`irrigation.lateral.design.fields.${key}`), name);
  const figures: Figure[] = [
    { label: field('x', 'x'), value: d.x, digits: 2 },
    { label: field('cv', 'Cv'), value: d.cv, digits: 3 },
    { label: field('emittersPerPlant', 'n'), value: d.emittersPerPlant, digits: 0 },
    {
      label: t('irrigation.lateral.design.source'),
      value: t(`irrigation.lateral.design.fixModes.${d.source}`),
      only: 'csv',
    },
    ...designFigures(d).map(([key, value, unit, digits]) => ({
      label: t(`irrigation.lateral.design.figures.${key}`),
      value,
      unit,
      digits,
    })),
    {
      label: t('irrigation.status'),
      value: uniformityStatusText(d, lang, (v, digits) => v.toFixed(digits)),
      only: 'csv',
    },
  ];
  blocks.push(
    { kind: 'figures', heading: t('irrigation.lateral.design.title'), figures, joined: true },
    {
      kind: 'text',
      only: 'pdf',
      text: uniformityStatusText(d, lang, fmt),
      tone: d.status === 'ok' ? 'success' : 'danger',
    },
    {
      kind: 'table',
      only: 'csv',
      heading: '',
      columns: emitterColumns(t).map((label, i) => ({ label, digits: EMITTER_DIGITS[i] })),
      rows: d.points.map((p) => [p.emitter, p.distance, p.elevation, p.pressure, p.flow]),
    },
  );
  return blocks;
}

export function lateralReport(
  result: LateralResult,
  input: LateralInput,
  t: Translate,
  lang: Language,
  fmt: FixedFormatter,
): Report {
  const limitText = t('irrigation.lateral.limit', { limit: fmt(result.limit, 2) });
  // One page holds about 25 rows: every step-th row, always with the first and the last.
  const step = Math.max(1, Math.ceil(result.rows.length / 24));
  const sampled = result.rows.flatMap((r, i) =>
    i === 0 || r.n % step === 0 || i === result.rows.length - 1 ? [i] : [],
  );
  return {
    title: t('irrigation.lateral.title'),
    blocks: [
      {
        kind: 'figures',
        heading: t('irrigation.pdf.inputs'),
        csvHeader: [t('irrigation.csv.input'), t('irrigation.csv.value'), t('irrigation.csv.unit')],
        figures: LATERAL_FIELDS.map((f) => {
          const value = f.key === 'm' ? result.m : input[f.key];
          return {
            label: tagged(t(`irrigation.lateral.fields.${f.key}`), f.name),
            value: { csv: value, pdf: formatPlain(value, lang) },
            unit: f.unit,
          };
        }),
      },
      {
        kind: 'figures',
        only: 'csv',
        heading: '',
        figures: [
          {
            // when the table ends below the limit, its 499 emitters are a lower bound
            label: t(
              result.limitReached
                ? 'irrigation.lateral.maxEmitters'
                : 'irrigation.lateral.maxEmittersNoLimit',
            ),
            value: result.maxEmitters,
          },
          {
            label: t('irrigation.lateral.maxLength'),
            value: result.maxLength,
            unit: 'm',
            digits: 2,
          },
          { label: t('irrigation.lateral.limitLabel'), value: result.limit, unit: 'm', digits: 3 },
        ],
      },
      { kind: 'text', only: 'pdf', text: lateralSentence(result, t, fmt), tone: 'success' },
      { kind: 'text', only: 'pdf', text: limitText },
      ...designBlocks(result, t, lang, fmt),
      {
        kind: 'charts',
        heading: `${t('irrigation.lateral.chartTitle')} · ${t('irrigation.lateral.design.chartTitle')}`,
        charts: [0, 1],
      },
      {
        kind: 'table',
        heading: t('irrigation.lateral.tableTitle'),
        columns: LATERAL_COLUMNS.map((c) => ({
          label: tagged(t(`irrigation.lateral.cols.${c.key}`), c.name),
          digits: c.digits,
        })),
        rows: result.rows.map((r) => LATERAL_COLUMNS.map((c) => r[c.key])),
        pdfRows: sampled,
      },
      ...(step > 1
        ? [
            {
              kind: 'text' as const,
              only: 'pdf' as const,
              text: t('irrigation.lateral.pdfSampled', { step }),
            },
          ]
        : []),
    ],
  };
}

/**
 * The sentence under the results: the maximum number of emitters and length, or, when the table
 * ended at 499 emitters below the limit, that the lateral takes at least that many.
 */
export function lateralSentence(result: LateralResult, t: Translate, fmt: FixedFormatter): string {
  return t(
    result.limitReached ? 'irrigation.lateral.sentence' : 'irrigation.lateral.sentenceNoLimit',
    {
      n: fmt(result.maxEmitters, 0),
      length: fmt(result.maxLength, 2),
    },
  );
}

/** The chart's summary for screen readers: where the loss crosses the limit, or that it does not. */
export function lateralChartSummary(
  result: LateralResult,
  t: Translate,
  fmt: FixedFormatter,
): string {
  const key = result.limitReached ? 'chartSummary' : 'chartSummaryNoLimit';
  return t(`irrigation.lateral.${key}`, {
    rows: result.rows.length,
    limit: fmt(result.limit, 2),
    length: fmt(result.maxLength, 2),
  });
}

/**
 * The season calendar as one report description (see shared/report.ts): the water balance's
 * inputs, totals and daily table, the disease risk's alerts and daily sums, and the two charts.
 * CSV numbers keep the precision that fits a measurement (3 decimals); the design file keeps all.
 */
import type { RiskResult, WaterBalanceInput, WaterBalanceResult } from '@diagrodl/hydraulics';
import { formatNumber } from '@/lib/format.ts';
import { LOCALE_TAG, type Language } from '@/lib/i18n.ts';
import type { FigureRow } from '../shared/FiguresTable.tsx';
import type { Cell, Figure, Report, ReportBlock } from '../shared/report.ts';
import type { Translate } from '../shared/translate.ts';
import type { FixedFormatter } from '../shared/useNumberFormat.ts';
import { FIELDS, sectionFields, type Computed, type State } from './state.ts';

/** A date (YYYY-MM-DD) as the language writes it short ('1 abr', 'Apr 1'). */
export function shortDate(date: string, lang: Language, year = false): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Intl.DateTimeFormat(LOCALE_TAG[lang], {
    day: 'numeric',
    month: 'short',
    ...(year ? { year: 'numeric' } : {}),
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(y, m - 1, d)));
}

/** A chart's x tick (the day's number in the table, from 1) as that day's short date. */
export const dateTick =
  (days: readonly { date: string }[], lang: Language) =>
  (v: number): string => {
    const day = days[Math.round(v) - 1];
    return day ? shortDate(day.date, lang) : '';
  };

/** The balance's totals as figures of the screen: [key, value, unit, decimals]. */
export function balanceFigures(r: WaterBalanceResult): FigureRow[] {
  const t = r.totals;
  const rows: [string, number | null, string, number][] = [
    ['taw', r.taw, 'mm', 1],
    ['etc', t.etc, 'mm', 1],
    ['eta', t.eta, 'mm', 1],
    ['rain', t.rain, 'mm', 1],
    ['effectiveRain', t.effectiveRain, 'mm', 1],
    ['irrigation', t.irrigation, 'mm', 1],
    ['irrigations', t.irrigations, '', 0],
    ['grossIrrigation', t.grossIrrigation, 'mm', 1],
    ['deepPercolation', t.deepPercolation, 'mm', 1],
    ['stressDays', t.stressDays, 'd', 0],
  ];
  return rows.filter((row): row is FigureRow => row[1] !== null);
}

/** The balance's columns: the key of each BalanceDay shown, its unit and decimals. */
export const BALANCE_COLUMNS = [
  ['et0', 'mm', 2],
  ['kc', '', 3],
  ['etc', 'mm', 2],
  ['raw', 'mm', 1],
  ['rain', 'mm', 1],
  ['effectiveRain', 'mm', 1],
  ['irrigation', 'mm', 1],
  ['ks', '', 3],
  ['eta', 'mm', 2],
  ['deepPercolation', 'mm', 1],
  ['depletion', 'mm', 1],
] as const;
export const DRIP_COLUMNS = [
  ['grossIrrigation', 'mm', 1],
  ['hoursPerSector', 'h', 2],
] as const;

/** The risk's columns: the key of each RiskDay shown and its decimals. */
export const RISK_COLUMNS = [
  ['wetHours', 0],
  ['meanWetTemperature', 1],
  ['dsv', 0],
  ['tomcastSum', 0],
  ['severityValue', 0],
  ['lateBlightSum', 0],
] as const;

/** The sentence over the balance's results. */
export function balanceSentence(
  r: WaterBalanceResult,
  t: Translate,
  fmt: FixedFormatter,
  lang: Language,
): string {
  const first = r.days[0]!;
  const last = r.days[r.days.length - 1]!;
  return t('irrigation.season.balance.sentence', {
    count: r.days.length,
    from: shortDate(first.date, lang, true),
    to: shortDate(last.date, lang, true),
    irrigations: r.totals.irrigations,
    irrigation: fmt(r.totals.irrigation, 0),
    stress: r.totals.stressDays,
  });
}

/** The alerts of the risk: each day with an alert and the models that gave it. */
export function riskAlerts(r: RiskResult): { date: string; model: 'tomcast' | 'lateBlight' }[] {
  return r.days.flatMap((d) => [
    ...(d.tomcastAlert ? [{ date: d.date, model: 'tomcast' as const }] : []),
    ...(d.lateBlightAlert ? [{ date: d.date, model: 'lateBlight' as const }] : []),
  ]);
}

const num = (value: number | null): Cell => value ?? '';

/** The columns of the balance's table the PDF keeps (its page is narrow); the CSV has them all. */
const PDF_BALANCE = new Set([
  'et0',
  'etc',
  'rain',
  'irrigation',
  'ks',
  'depletion',
  'hoursPerSector',
]);

/**
 * The report of the results shown (their inputs are the calculation's own, not the fields now).
 * The one-page PDF: the inputs and totals, the alerts, both charts side by side, then the first
 * days of each table; the CSV has every day and every column.
 */
export function seasonReport(
  state: State,
  computed: Computed,
  t: Translate,
  lang: Language,
  fmt: FixedFormatter,
): Report {
  const { balance, risk } = computed;
  const short = (key: string) => t(`irrigation.season.short.${key}`);
  const col = (key: string, unit: string) =>
    `${t(`irrigation.season.cols.${key}`)}${unit ? ` (${unit})` : ''}`;
  const head: ReportBlock[] = [];
  const tables: ReportBlock[] = [];
  if (balance && state.balanceInput) {
    const input: WaterBalanceInput = state.balanceInput;
    const numbers: Record<string, unknown> = { ...input, ...input.stages, ...input.drip };
    const options = {
      ...state.options,
      strategy: input.strategy,
      kcMode: input.kc === undefined ? ('stage' as const) : ('typed' as const),
      drip: input.drip !== undefined,
    };
    const inputs: Figure[] = [
      {
        label: t('irrigation.season.strategy'),
        pdfLabel: short('strategy'),
        value: {
          csv: t(`irrigation.season.strategies.${input.strategy}`),
          pdf: short(input.strategy),
        },
      },
      ...(input.plantingDate
        ? [
            {
              label: t('irrigation.season.fields.plantingDate'),
              pdfLabel: short('plantingDate'),
              value: input.plantingDate,
            },
          ]
        : []),
      ...sectionFields('balance', options).flatMap((key) => {
        const value = numbers[key];
        return typeof value === 'number'
          ? [
              {
                label: t(`irrigation.season.fields.${key}`),
                pdfLabel: short(key),
                value: { csv: value, pdf: plainNumber(value, lang) },
                unit: FIELDS[key].unit,
              },
            ]
          : [];
      }),
    ];
    const columns = [...BALANCE_COLUMNS, ...(input.drip ? DRIP_COLUMNS : [])];
    head.push(
      {
        kind: 'figures',
        heading: `${t('irrigation.season.balance.title')}: ${t('irrigation.pdf.inputs')}`,
        csvHeader: [t('irrigation.csv.input'), t('irrigation.csv.value'), t('irrigation.csv.unit')],
        figures: inputs,
      },
      {
        kind: 'figures',
        heading: `${t('irrigation.season.balance.title')}: ${t('irrigation.results')}`,
        figures: balanceFigures(balance).map(([key, value, unit, digits]) => ({
          label: t(`irrigation.season.figures.${key}`),
          value,
          unit,
          digits,
        })),
      },
      { kind: 'text', text: balanceSentence(balance, t, fmt, lang) },
    );
    tables.push({
      kind: 'table',
      heading: t('irrigation.season.balance.tableTitle'),
      columns: [
        { label: t('irrigation.season.cols.date') },
        ...columns.map(([key, unit, digits]) => ({
          label: col(key, unit),
          digits,
          ...(PDF_BALANCE.has(key) ? {} : { only: 'csv' as const }),
        })),
      ],
      rows: balance.days.map((d) => [
        { csv: d.date, pdf: shortDate(d.date, lang) },
        ...columns.map(([key]) => num(d[key])),
      ]),
      maxRows: 6,
    });
  }
  if (risk) {
    const alerts = riskAlerts(risk);
    head.push(
      {
        kind: 'figures',
        heading: t('irrigation.season.risk.title'),
        figures: [
          {
            label: t('irrigation.season.tomcastThreshold'),
            pdfLabel: short('tomcastThreshold'),
            value: risk.tomcastThreshold,
          },
          {
            label: t('irrigation.season.fields.lateBlightThreshold'),
            pdfLabel: short('lateBlightThreshold'),
            value: risk.lateBlightThreshold,
          },
        ],
      },
      {
        kind: 'text',
        text: alerts.length
          ? alerts
              .map((a) =>
                t('irrigation.season.risk.alertLine', {
                  date: shortDate(a.date, lang, true),
                  model: t(`irrigation.season.risk.models.${a.model}`),
                }),
              )
              .join(' · ')
          : t('irrigation.season.risk.noAlerts'),
        tone: alerts.length ? 'danger' : 'success',
      },
      { kind: 'text', text: t('irrigation.season.risk.sources') },
    );
    tables.push({
      kind: 'table',
      heading: t('irrigation.season.risk.tableTitle'),
      columns: [
        { label: t('irrigation.season.cols.date') },
        ...RISK_COLUMNS.map(([key, digits]) => ({
          label: col(key, key === 'meanWetTemperature' ? '°C' : key === 'wetHours' ? 'h' : ''),
          pdfLabel: short(key),
          digits,
        })),
        { label: t('irrigation.season.cols.alerts'), only: 'csv' as const },
      ],
      rows: risk.days.map((d) => [
        { csv: d.date, pdf: shortDate(d.date, lang) },
        ...RISK_COLUMNS.map(([key]) => num(d[key])),
        [
          ...(d.tomcastAlert ? [t('irrigation.season.risk.models.tomcast')] : []),
          ...(d.lateBlightAlert ? [t('irrigation.season.risk.models.lateBlight')] : []),
        ].join(', '),
      ]),
      maxRows: 6,
    });
  }
  const charts = [...(balance ? [0] : []), ...(risk ? [1] : [])];
  const chartHeading = [
    ...(balance ? [t('irrigation.season.balance.chartTitle')] : []),
    ...(risk ? [t('irrigation.season.risk.chartTitle')] : []),
  ].join(' · ');
  return {
    title: t('irrigation.season.title'),
    blocks: [...head, { kind: 'charts', heading: chartHeading, charts }, ...tables],
  };
}

/** A number in the language, without trailing zeros (an input as it was typed). */
export const plainNumber = (value: number, lang: Language) =>
  formatNumber(value, lang, { maximumFractionDigits: 6 });

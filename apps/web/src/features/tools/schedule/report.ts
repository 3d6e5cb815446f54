/** The irrigation schedule as one report description (see shared/report.ts) and its figures. */
import { cropCoefficientCurve, type Et0Result, type ScheduleResult } from '@diagrodl/hydraulics';
import { formatNumber } from '@/lib/format.ts';
import type { Language } from '@/lib/i18n.ts';
import type { FigureRow } from '../shared/FiguresTable.tsx';
import type { Figure, Report } from '../shared/report.ts';
import type { Translate } from '../shared/translate.ts';
import type { FixedFormatter } from '../shared/useNumberFormat.ts';
import { activeFields, FIELDS, type Calculation, type Computed } from './state.ts';

export type { FigureRow };

/** ET0 and its intermediates (the Penman-Monteith ones only with Penman-Monteith). */
export function et0Figures(r: Et0Result): FigureRow[] {
  const rows: [string, number | null, string, number][] = [
    ['et0', r.et0, 'mm/d', 2],
    ['tmean', r.tmean, '°C', 2],
    ['pressure', r.pressure, 'kPa', 2],
    ['gamma', r.gamma, 'kPa/°C', 4],
    ['delta', r.delta, 'kPa/°C', 4],
    ['es', r.es, 'kPa', 3],
    ['ea', r.ea, 'kPa', 3],
    ['vpd', r.es === null || r.ea === null ? null : r.es - r.ea, 'kPa', 3],
    ['dr', r.dr, '', 4],
    ['declination', r.declination, 'rad', 4],
    ['sunsetAngle', r.sunsetAngle, 'rad', 4],
    ['Ra', r.Ra, 'MJ/m²/d', 2],
    ['N', r.N, 'h', 2],
    ['Rs', r.Rs, 'MJ/m²/d', 2],
    ['Rso', r.Rso, 'MJ/m²/d', 2],
    ['Rns', r.Rns, 'MJ/m²/d', 2],
    ['Rnl', r.Rnl, 'MJ/m²/d', 2],
    ['Rn', r.Rn, 'MJ/m²/d', 2],
    ['G', r.G, 'MJ/m²/d', 2],
    ['u2', r.u2, 'm/s', 3],
  ];
  return rows.filter((row): row is FigureRow => row[1] !== null);
}

/** The schedule's figures (the flow ones only with the area, the pump's with the system flow). */
export function scheduleFigures(r: ScheduleResult, et0: number): FigureRow[] {
  const rows: [string, number | null, string, number][] = [
    ['et0', et0, 'mm/d', 2],
    ['kc', r.kc, '', 3],
    ['etc', r.etc, 'mm/d', 2],
    ['netDepth', r.netDepth, 'mm/d', 2],
    ['grossDepth', r.grossDepth, 'mm/d', 3],
    ['applicationRate', r.applicationRate, 'mm/h', 3],
    ['hoursPerSector', r.hoursPerSector, 'h', 3],
    ['sectors', r.sectors, '', 0],
    ['flowPerSector', r.flowPerSector, 'm³/h', 2],
    ['sectorsForPump', r.sectorsForPump, '', 0],
  ];
  return rows.filter((row): row is FigureRow => row[1] !== null);
}

/** Kc and ETc (at this ET0) on each day of the season. */
export function seasonCurve(calculation: Calculation, et0: number) {
  return cropCoefficientCurve(calculation.stages).map((p) => ({ ...p, etc: p.kc * et0 }));
}

/** The sentence under the results: hours per sector and how many sectors fit. */
export function scheduleSentence(
  r: ScheduleResult,
  hoursAvailable: number,
  t: Translate,
  fmt: FixedFormatter,
): string {
  if (r.sectors === null) return t('irrigation.schedule.sentence.noIrrigation');
  return t(`irrigation.schedule.sentence.${r.sectors === 0 ? 'none' : 'sectors'}`, {
    hours: fmt(r.hoursPerSector, 2),
    gross: fmt(r.grossDepth, 2),
    rate: fmt(r.applicationRate, 2),
    available: fmt(hoursAvailable, 1),
    count: r.sectors,
  });
}

/** Whether the system flow serves a sector, in words (null without the system flow). */
export function pumpSentence(r: ScheduleResult, t: Translate, fmt: FixedFormatter): string | null {
  if (r.pumpOk === null || r.systemFlow === null) return null;
  const values = {
    flow: fmt(r.systemFlow, 2),
    perSector: r.flowPerSector === null ? '' : fmt(r.flowPerSector, 2),
    min: r.sectorsForPump,
    count: r.sectors ?? 0,
  };
  if (r.sectors === null) return t('irrigation.schedule.pump.noIrrigation', values);
  return t(`irrigation.schedule.pump.${r.pumpOk ? 'ok' : 'short'}`, values);
}

/** Kc's label: its stage and day when it comes from the stages. */
export function kcLabel(r: ScheduleResult, t: Translate): string {
  return r.stage === null
    ? t('irrigation.schedule.figures.kcTyped')
    : t('irrigation.schedule.figures.kcStage', {
        day: r.day,
        stage: t(`irrigation.schedule.stages.${r.stage}`),
      });
}

const GREEK: Record<string, string> = { γ: 'gamma', Δ: 'Delta', δ: 'delta', ω: 'omega' };

/** The Greek letters of a label spelled out: the PDF's standard fonts have none. */
export function latinLetters(text: string): string {
  return text.replace(/[γΔδω]/g, (c) => GREEK[c]!);
}

/** The month's name in the language ('julio', 'July'). */
export function monthName(month: number, lang: Language): string {
  return new Intl.DateTimeFormat(lang === 'en' ? 'en-US' : 'es-MX', {
    month: 'long',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(2001, month - 1, 15)));
}

function plain(value: number, lang: Language): string {
  return formatNumber(value, lang, { maximumFractionDigits: 6 });
}

/**
 * The report of the results shown: their choices and inputs are the calculation's own (the
 * selectors and fields may have changed since), so the export always describes those results.
 */
export function scheduleReport(
  calculation: Calculation,
  computed: Computed,
  t: Translate,
  lang: Language,
  fmt: FixedFormatter,
): Report {
  const s = computed.schedule;
  const { options, et0Input } = calculation;
  const field = (key: string) => t(`irrigation.schedule.fields.${key}`);
  const choice = (group: string, value: string) => t(`irrigation.schedule.${group}.${value}`);
  const numbers: Record<string, unknown> = {
    ...et0Input,
    ...calculation.schedule,
    ...calculation.stages,
  };
  const choices: Figure[] = [
    { label: t('irrigation.schedule.et0Source'), value: choice('et0Sources', options.et0Source) },
  ];
  if (et0Input) {
    choices.push({
      label: t('irrigation.schedule.period'),
      value: choice('periods', options.period),
    });
    if (options.period === 'month') {
      choices.push({
        label: t('irrigation.schedule.month'),
        value: `${monthName(Number(options.month), lang)} (J = ${et0Input.dayOfYear})`,
      });
    }
  }
  const inputs: Figure[] = activeFields(options).flatMap((key) => {
    const value = key === 'et0' && options.et0Source !== 'typed' ? undefined : numbers[key];
    return typeof value !== 'number'
      ? []
      : [
          {
            label: field(key),
            value: { csv: value, pdf: plain(value, lang) },
            unit: FIELDS[key].unit,
          },
        ];
  });
  const figure = ([key, value, unit, digits]: FigureRow, group: string): Figure => {
    const label =
      key === 'kc' && group === 'figures'
        ? kcLabel(s, t)
        : t(`irrigation.schedule.${group}.${key}`);
    return { label, pdfLabel: latinLetters(label), value, unit, digits };
  };
  const pump = pumpSentence(s, t, fmt);
  return {
    title: t('irrigation.schedule.title'),
    blocks: [
      {
        kind: 'figures',
        heading: t('irrigation.pdf.inputs'),
        csvHeader: [t('irrigation.csv.input'), t('irrigation.csv.value'), t('irrigation.csv.unit')],
        figures: [...choices, ...inputs],
      },
      ...(computed.et0
        ? [
            {
              kind: 'figures' as const,
              heading: t('irrigation.schedule.et0Title'),
              figures: et0Figures(computed.et0).map((row) => figure(row, 'et0Figures')),
            },
          ]
        : []),
      {
        kind: 'figures',
        heading: t('irrigation.results'),
        figures: scheduleFigures(s, computed.et0Value).map((row) => figure(row, 'figures')),
      },
      {
        kind: 'text',
        text: scheduleSentence(s, calculation.schedule.hoursAvailable, t, fmt),
        tone: s.sectors === 0 ? 'danger' : 'success',
      },
      ...(pump
        ? [
            {
              kind: 'text' as const,
              text: pump,
              tone: s.pumpOk ? ('success' as const) : ('danger' as const),
            },
          ]
        : []),
      { kind: 'charts', heading: t('irrigation.schedule.chartTitle'), charts: [0] },
      {
        kind: 'table',
        only: 'csv',
        heading: '',
        columns: (
          [
            ['day', 0],
            ['stage', undefined],
            ['kc', 3],
            ['etc', 2],
          ] as const
        ).map(([c, digits]) => ({ label: t(`irrigation.schedule.cols.${c}`), digits })),
        rows: seasonCurve(calculation, computed.et0Value).map((p) => [
          p.day,
          t(`irrigation.schedule.stages.${p.stage}`),
          p.kc,
          p.etc,
        ]),
      },
    ],
  };
}

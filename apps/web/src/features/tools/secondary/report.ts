/** The secondary-line designer's result as one report description (see shared/report.ts). */
import {
  DEFAULT_FRICTION_FORMULA,
  DESIGN_MESSAGES,
  FRICTION_FORMULA_LABELS,
  SECONDARY_FIELD_LABELS,
  STATUS_HERE,
  localizeToolMessage,
  isFrictionFormula,
  type SecondarySectionResult,
} from '@diagrodl/hydraulics';
import type { Language } from '@/lib/i18n.ts';
import { reportedFields, type Column, type Report, type ReportBlock } from '../shared/report.ts';
import type { Translate } from '../shared/translate.ts';
import type { FixedFormatter } from '../shared/useNumberFormat.ts';
import { FIELDS, designedSections, pressureProfiles, stretchRows, type State } from './state.ts';

export const formulaName = (f: string | undefined, lang: Language) =>
  FRICTION_FORMULA_LABELS[isFrictionFormula(f) ? f : DEFAULT_FRICTION_FORMULA][lang];

/**
 * The pressures of the designed sections and the one the main line must deliver, with the summary
 * and of the same results (not of sections calculated again since).
 */
export function sectionPressures(state: State) {
  return state.summary ? state.pressures : null;
}

/** The header of a table of pipe stretches on the page: type, nominal diameter, then `figures`. */
export function stretchColumns(t: Translate, figures: readonly string[]) {
  return [
    { label: t('irrigation.secondary.cols.pipeType') },
    ...['nominal', ...figures].map((key) => ({
      label: t(`irrigation.secondary.cols.${key}`),
      num: true,
    })),
  ];
}

export function secondaryReport(
  state: State,
  t: Translate,
  lang: Language,
  fmt: FixedFormatter,
): Report {
  const { units, summary } = state;
  const col = (key: string, digits?: number): Column => ({
    label: t(`irrigation.secondary.cols.${key}`),
    ...(digits === undefined ? {} : { digits }),
  });
  const section: Column = { label: t('irrigation.secondary.section') };
  const designed = designedSections(state);
  const pressures = sectionPressures(state);
  const required = pressures?.required ?? null;
  const requiredText = required
    ? t('irrigation.secondary.mainlinePressure', { n: required.section })
    : '';
  const detail = (result: SecondarySectionResult) =>
    [
      `${t('irrigation.formulaUsed', { formula: formulaName(result.formula, lang) })}.`,
      result.inletPressure === null
        ? ''
        : t('irrigation.secondary.inletPressure', {
            pressure: fmt(result.inletPressure, 2),
            last: fmt(result.outletPressures!.at(-1)!, 2),
          }),
      result.blasiusOutOfRange ? DESIGN_MESSAGES[lang].blasiusRange : '',
    ]
      .filter(Boolean)
      .join(' ');

  const fieldLabel = (f: (typeof FIELDS)[number]) => {
    const words = t(`irrigation.secondary.fields.${f}`);
    const code = SECONDARY_FIELD_LABELS[f];
    return f === 'pipeType' || f === 'length' ? words : `${words} (${code})`;
  };

  const blocks: ReportBlock[] = [
    {
      kind: 'table',
      heading: t('irrigation.pdf.inputs'),
      columns: [
        { ...section, pdfLabel: '#' },
        // the field's words in the report's language, its code name (ND, qs, S0…) beside them
        ...FIELDS.map((f) => ({ label: fieldLabel(f) })),
        { label: t('irrigation.status'), only: 'csv' },
        { label: t('irrigation.formula') },
        { label: t('irrigation.secondary.fields.pressure') },
      ],
      // a calculated section's inputs are those its result came from (not the fields edited since)
      rows: units.map((u, i) => {
        const raw = reportedFields(u);
        return [
          i + 1,
          ...FIELDS.map((f) => raw[f]),
          localizeToolMessage(u.result ? u.result.statusText : STATUS_HERE, lang),
          {
            csv: formulaName(u.result?.formula ?? raw.formula, lang),
            pdf: formulaName(raw.formula, lang),
          },
          raw.pressure ?? '',
        ];
      }),
      maxRows: 12,
    },
    {
      kind: 'table',
      heading: t('irrigation.results'),
      columns: [
        section,
        col('pipeType'),
        col('nominal', 0),
        col('length', 2),
        col('outlets', 0),
        col('hf', 4),
      ],
      rows: stretchRows(state).map((r) => [
        r.section,
        r.stretch.pipeType,
        r.stretch.nominalDiameter,
        r.stretch.length,
        r.stretch.outlets,
        r.stretch.hf,
      ]),
      maxRows: 14,
    },
    // Beyond the specification: the formula and inlet pressure of each section, then every outlet's pressure.
    {
      kind: 'table',
      only: 'csv',
      heading: '',
      columns: [section, { label: t('irrigation.formula') }, col('inletPressure', 2)],
      rows: designed.map(({ section: n, result }) => [
        n,
        formulaName(result.formula, lang),
        result.inletPressure,
      ]),
    },
    {
      kind: 'table',
      only: 'csv',
      heading: '',
      columns: [section, col('outlet', 0), col('distance', 2), col('pressure', 3)],
      rows: pressureProfiles(state).flatMap(({ section: n, outlets }) =>
        outlets.map((o) => [n, o.outlet, o.distance, o.pressure]),
      ),
    },
    ...designed.flatMap(({ result }): ReportBlock[] => [
      {
        kind: 'text',
        only: 'pdf',
        text: `${t('irrigation.secondary.sectionN', { n: result.section })}: ${localizeToolMessage(result.message, lang)}`,
        tone: result.status === 'ok' ? 'success' : 'danger',
      },
      { kind: 'text', only: 'pdf', text: detail(result) },
    ]),
  ];
  if (summary) {
    blocks.push({
      kind: 'table',
      heading: t('irrigation.secondary.summaryTitle'),
      columns: [col('pipeType'), col('nominal', 0), col('totalLength', 2), col('adjusted', 0)],
      rows: summary.map((r) => [r.pipeType, r.nominalDiameter, r.totalLength, r.adjustedLength]),
      maxRows: 10,
    });
    if (required) {
      blocks.push(
        {
          kind: 'figures',
          only: 'csv',
          heading: '',
          figures: [{ label: requiredText, value: required.inletPressure, unit: 'm', digits: 2 }],
        },
        {
          kind: 'text',
          only: 'pdf',
          text: `${requiredText}: ${fmt(required.inletPressure, 2)} m`,
          tone: 'success',
        },
      );
    }
  }
  blocks.push({
    kind: 'charts',
    heading: `${t('irrigation.secondary.chartTitle')} · ${t('irrigation.secondary.profileTitle')}`,
    charts: [0, 1],
  });
  return { title: t('irrigation.secondary.title'), blocks };
}

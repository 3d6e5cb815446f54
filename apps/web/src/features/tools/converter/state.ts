/**
 * The unit converter's state (measure, units, value, what is shown, the messages) with a pure
 * reducer, and its result as one report description (see shared/report.ts). Beyond the
 * specification (README): the value must be a number no larger than 10¹² either way.
 */
import {
  CONVERTER_DEFAULTS,
  UNIT_CATALOGUE,
  convert,
  equivalents,
  isMeasure,
  isUnitOf,
  type Measure,
  type UnitIdByMeasure,
} from '@diagrodl/hydraulics';
import { formatNumber } from '@/lib/format.ts';
import type { Language } from '@/lib/i18n.ts';
import { is } from '../shared/export.ts';
import { checkField, type FieldErrors, type FieldSpec } from '../shared/fieldCheck.ts';
import type { Report } from '../shared/report.ts';
import type { Translate } from '../shared/translate.ts';

export const KIND = 'converter';

export interface Saved {
  measure: string;
  from: string;
  to: string;
  value: string;
  /** The conversion was executed (the converted value is shown). */
  executed: boolean;
  /** The list of equivalents is shown. */
  showAll: boolean;
}

export type Field = 'measure' | 'from' | 'to' | 'value';

export interface State extends Saved {
  /** The messages of the last run, by field. */
  errors: FieldErrors<Field>;
  /** Counts the runs that found errors: the screen moves the focus to the first. */
  attempt: number;
}

/** The value: any number up to 10¹² either way (every conversion of it stays a finite number). */
export const VALUE_SPEC: FieldSpec = { unit: '', min: -1e12, max: 1e12 };

type Inputs = Partial<Pick<Saved, 'measure' | 'from' | 'to' | 'value'>>;

export type Action =
  /** A changed input hides the results until the next run. */
  | { type: 'update'; patch: Inputs }
  /** Convert or list the equivalents (when the inputs are valid). */
  | { type: 'run'; patch: Partial<Saved> };

export function parseSaved(data: unknown): Saved | null {
  if (!is.stringRecord(data, ['measure', 'from', 'to', 'value'] as const)) return null;
  const d = data as Record<string, unknown>;
  return {
    measure: String(d.measure),
    from: String(d.from),
    to: String(d.to),
    value: String(d.value),
    executed: d.executed === true,
    showAll: d.showAll === true,
  };
}

export function init(saved: Saved | null): State {
  return {
    measure: CONVERTER_DEFAULTS.measure,
    from: CONVERTER_DEFAULTS.from,
    to: CONVERTER_DEFAULTS.to,
    value: String(CONVERTER_DEFAULTS.value),
    executed: false,
    showAll: false,
    ...saved,
    errors: {},
    attempt: 0,
  };
}

export function toSaved({ measure, from, to, value, executed, showAll }: State): Saved {
  return { measure, from, to, value, executed, showAll };
}

export type Checked =
  | { ok: true; measure: Measure; from: string; to: string; value: number }
  | { ok: false; errors: FieldErrors<Field> };

/** The inputs as a conversion, or the message of every field that is not valid. */
export function check(state: Saved): Checked {
  const errors: FieldErrors<Field> = {};
  const measure = isMeasure(state.measure) ? state.measure : null;
  if (!measure) errors.measure = { key: 'converter.selectMeasure' };
  for (const field of ['from', 'to'] as const) {
    if (!measure || !isUnitOf(measure, state[field]))
      errors[field] = { key: 'converter.selectUnit' };
  }
  const value = checkField(VALUE_SPEC, state.value);
  if ('error' in value) errors.value = value.error;
  if (!measure || 'error' in value || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, measure, from: state.from, to: state.to, value: value.value };
}

export function reducer(state: State, action: Action): State {
  switch (action.type) {
    case 'update':
      return { ...state, ...action.patch, errors: {}, executed: false, showAll: false };
    case 'run': {
      const c = check(state);
      if (!c.ok) {
        return {
          ...state,
          errors: c.errors,
          attempt: state.attempt + 1,
          executed: false,
          showAll: false,
        };
      }
      return { ...state, ...action.patch, errors: {} };
    }
  }
}

type Unit = UnitIdByMeasure[Measure];

/** The converted value and every equivalent of valid inputs. */
export function conversion(c: Extract<Checked, { ok: true }>) {
  return {
    converted: convert(c.measure, c.from as Unit, c.to as Unit, c.value),
    equivalents: equivalents(c.measure, c.from as Unit, c.value) as Record<string, number>,
  };
}

/**
 * A converted value with the precision shown (and given in the CSV): six decimals from 1 up, seven
 * significant digits below 1 and from 10¹² up, so that 1 L/h in L/s is 0.0002777778, not 0.000278.
 */
export function roundConverted(value: number): number {
  const abs = Math.abs(value);
  return abs < 1 || abs >= 1e12 ? Number(value.toPrecision(7)) : Number(value.toFixed(6));
}

/** Plain for ordinary magnitudes, scientific for very large or very small ones. */
export function formatConverted(value: number, lang: Language): string {
  const abs = Math.abs(value);
  if (abs !== 0 && (abs < 1e-4 || abs >= 1e12)) {
    return formatNumber(value, lang, { notation: 'scientific', maximumSignificantDigits: 7 });
  }
  if (abs < 1) return formatNumber(value, lang, { maximumSignificantDigits: 7 });
  return formatNumber(value, lang, { maximumFractionDigits: 6 });
}

export function converterReport(
  c: Extract<Checked, { ok: true }>,
  t: Translate,
  lang: Language,
): Report {
  const units = UNIT_CATALOGUE[c.measure].units;
  const unitLabel = (id: string) => units.find((u) => u.id === id)?.label[lang] ?? id;
  const { converted, equivalents: eq } = conversion(c);
  const number = (value: number, suffix = '') => ({
    csv: roundConverted(value),
    pdf: `${formatConverted(value, lang)}${suffix}`,
  });
  return {
    title: t('converter.title'),
    blocks: [
      {
        kind: 'figures',
        heading: t('converter.pdf.inputs'),
        csvHeader: [t('converter.csv.field'), t('converter.csv.value')],
        figures: [
          { label: t('converter.measure'), value: UNIT_CATALOGUE[c.measure].label[lang] },
          { label: t('converter.from'), value: unitLabel(c.from) },
          { label: t('converter.value'), value: number(c.value) },
          { label: t('converter.to'), value: unitLabel(c.to) },
        ],
      },
      {
        kind: 'figures',
        heading: t('converter.pdf.result'),
        joined: true,
        figures: [
          { label: t('converter.converted'), value: number(converted, ` ${unitLabel(c.to)}`) },
        ],
      },
      {
        kind: 'table',
        heading: t('converter.equivalents'),
        columns: [{ label: t('converter.csv.unit') }, { label: t('converter.csv.equivalent') }],
        rows: units.map((u) => [u.label[lang], number(eq[u.id]!)]),
      },
    ],
  };
}

/** The designer as `useDesign` runs it: autosave, restore and design files. */
export const DESIGN = { kind: KIND, reducer, init, parse: parseSaved, toSaved };

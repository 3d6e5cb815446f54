/**
 * The unit converter's state (measure, units, value, what is shown, the alert) with a pure
 * reducer, and its result as one report description (see shared/report.ts).
 */
import {
  CONVERTER_DEFAULTS,
  UNIT_CATALOGUE,
  convert,
  equivalents,
  isMeasure,
  isUnitOf,
  parseDecimal,
  type Measure,
  type UnitIdByMeasure,
} from '@diagrodl/hydraulics';
import { formatNumber } from '@/lib/format.ts';
import type { Language } from '@/lib/i18n.ts';
import { is } from '../shared/export.ts';
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

export interface State extends Saved {
  /** The field in error and the i18n key of its alert. */
  alert: { field: string; key: string } | null;
}

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
    alert: null,
  };
}

export function toSaved({ measure, from, to, value, executed, showAll }: State): Saved {
  return { measure, from, to, value, executed, showAll };
}

export type Checked =
  | { ok: true; measure: Measure; from: string; to: string; value: number }
  | { ok: false; field: 'measure' | 'from' | 'to' | 'value'; key: string };

export function check(state: Saved): Checked {
  if (!isMeasure(state.measure))
    return { ok: false, field: 'measure', key: 'converter.selectMeasure' };
  if (!isUnitOf(state.measure, state.from))
    return { ok: false, field: 'from', key: 'converter.selectUnit' };
  if (!isUnitOf(state.measure, state.to))
    return { ok: false, field: 'to', key: 'converter.selectUnit' };
  const value = parseDecimal(state.value);
  if (value === null) return { ok: false, field: 'value', key: 'converter.notANumber' };
  const checked = {
    ok: true,
    measure: state.measure,
    from: state.from,
    to: state.to,
    value,
  } as const;
  // A finite value whose conversion overflows (1e303 km in mm) would show as '—' with no reason.
  const { converted, equivalents: all } = conversion(checked);
  if (![converted, ...Object.values(all)].every(Number.isFinite)) {
    return { ok: false, field: 'value', key: 'converter.outOfRange' };
  }
  return checked;
}

export function reducer(state: State, action: Action): State {
  switch (action.type) {
    case 'update':
      return { ...state, ...action.patch, alert: null, executed: false, showAll: false };
    case 'run': {
      const c = check(state);
      if (!c.ok) {
        return { ...state, alert: { field: c.field, key: c.key }, executed: false, showAll: false };
      }
      return { ...state, ...action.patch, alert: null };
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
 * Plain for ordinary magnitudes (six decimals from 1 up, seven significant digits below 1, so that
 * 1 L/h in L/s reads 0.0002777778 and not 0.000278), scientific for very large or very small ones.
 */
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
    csv: value,
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

/**
 * The secondary-line designer's state: its sections and the pipe summary, with a pure reducer
 * (no React, no browser) so every rule can be unit-tested. Beyond the specification (README): every
 * number field has a physical range too; the specification's alert on a field comes first.
 */
import {
  DEFAULT_FRICTION_FORMULA,
  HydraulicsInputError,
  SECONDARY_MAX_DIAMETERS,
  SECONDARY_PIPE_TYPES,
  addSectionAlert,
  designSecondarySection,
  sectionCountAlert,
  summarizePipes,
  summarizePressures,
  validateSecondarySection,
  type SecondaryPipeType,
  type SecondaryPressureSummary,
  type SecondarySectionInput,
  type SecondarySectionRaw,
  type SecondarySectionResult,
  type SecondarySummaryRow,
} from '@diagrodl/hydraulics';
import type { Language } from '@/lib/i18n.ts';
import { is, recalculateSaved } from '../shared/export.ts';
import {
  CENTIMETRES,
  checkFields,
  errorCount,
  type FieldErrors,
  type FieldSpec,
} from '../shared/fieldCheck.ts';
import { messageNumber } from '../shared/useNumberFormat.ts';

export const KIND = 'secondary';
export type Field = keyof SecondarySectionRaw;
/** The fields beyond the specification: friction formula, pressure the laterals need. */
const EXTRA_FIELDS = ['formula', 'pressure'] as const;
/** The specification's seven fields. */
export const FIELDS: readonly Exclude<Field, (typeof EXTRA_FIELDS)[number]>[] = [
  'pipeType',
  'nd',
  'length',
  'qs',
  's0',
  'se',
  'hfp',
];
/**
 * The number fields, their units and physical ranges: a secondary (manifold) line of a drip or
 * sprinkler sector, its outlets (laterals) and the loss and pressure it is designed for.
 */
export const SECONDARY_SPECS = {
  nd: { unit: '', min: 1, max: SECONDARY_MAX_DIAMETERS, integer: true },
  length: { unit: 'm', min: 0.5, max: 5000 },
  qs: { unit: 'L/h', min: 0.5, max: 100_000 },
  s0: { unit: 'm', min: 0.05, max: 1000 },
  se: { unit: 'm', min: 0.1, max: 100, other: CENTIMETRES },
  hfp: { unit: 'm', min: 0.01, max: 50 },
  pressure: { unit: 'm', min: 0.5, max: 150, optional: true },
} as const satisfies Partial<Record<Field, FieldSpec>>;
export type NumberKey = keyof typeof SECONDARY_SPECS;
const NUMBER_KEYS = Object.keys(SECONDARY_SPECS) as NumberKey[];

/** Pressure proposed for the laterals on a new section, m (the lateral calculator's Po). */
const DEFAULT_PRESSURE = '10';

export interface Unit {
  key: number;
  /** The fields as typed; editing them keeps the last result until the next calculation. */
  raw: SecondarySectionRaw;
  /**
   * The values `result` was calculated from (null without a result), so that what is drawn from
   * the result (the outlet positions) is its own geometry, not the fields typed since.
   */
  input: SecondarySectionInput | null;
  /** The fields as they were typed when `result` was calculated (null without a result). */
  calculatedRaw: SecondarySectionRaw | null;
  result: SecondarySectionResult | null;
  /** The messages of the last calculation, by field (the specification's alert first). */
  errors: FieldErrors<Field>;
  /** Counts the Calculate presses that found errors: the section moves the focus to the first. */
  attempt: number;
}

export interface State {
  units: Unit[];
  /** The pipe accounting of the results there were when it was asked for; null: none. */
  summary: SecondarySummaryRow[] | null;
  /**
   * The section pressures and the one the main line must deliver, of the same results as
   * `summary` (computed with it, null with it), so the totals agree with each other.
   */
  pressures: SecondaryPressureSummary | null;
  nextKey: number;
  /** The engine's alert of the add button or of the summary. */
  pageAlert: { place: 'add' | 'summary'; text: string } | null;
}

/** The pipe accounting and the pressures shown with it (`State`'s summary and pressures). */
export interface Totals {
  summary: SecondarySummaryRow[];
  pressures: SecondaryPressureSummary;
}

export interface Saved {
  units: {
    raw: SecondarySectionRaw;
    calculated: boolean;
    /**
     * The fields the result shown was calculated from (files saved before it was kept have none:
     * such a section is calculated again from `raw`).
     */
    calculatedRaw?: SecondarySectionRaw | null;
  }[];
  summary: boolean;
  /**
   * The totals shown (those of the results there were when they were asked for, which sections
   * calculated since do not change); files saved before they were kept have none: made again from
   * the sections' results.
   */
  totals?: Totals | null;
}

export type Action =
  | { type: 'add' }
  | { type: 'reset' }
  | { type: 'accounting' }
  | { type: 'remove'; key: number; lang: Language }
  | { type: 'raw'; key: number; field: Field; value: string }
  | { type: 'calculate'; key: number; lang: Language }
  | { type: 'clear'; key: number };

const emptyRaw = (): SecondarySectionRaw => ({
  pipeType: '',
  nd: '',
  length: '',
  qs: '',
  s0: '',
  se: '',
  hfp: '',
  formula: DEFAULT_FRICTION_FORMULA,
  pressure: DEFAULT_PRESSURE,
});

const newUnit = (key: number): Unit => ({
  key,
  raw: emptyRaw(),
  input: null,
  calculatedRaw: null,
  result: null,
  errors: {},
  attempt: 0,
});

/**
 * A section the specification's rules take, but for `field` as typed: every other field valid and
 * the pipe one outlet long (for S0, long enough for any S0), so that only the field's own rule can
 * fail, not one that compares it with another field.
 */
function probe(raw: SecondarySectionRaw, field: Field): SecondarySectionRaw {
  const valid: SecondarySectionRaw = {
    pipeType: 'PVC_CED40',
    nd: '1',
    length: field === 's0' ? '1e300' : '1',
    qs: '1',
    s0: '1',
    se: '1',
    hfp: '1',
    formula: '',
    pressure: '',
  };
  return { ...valid, [field]: raw[field] ?? '' };
}

/** Every field of a section: the specification's seven and the design checks' two. */
const ALL_FIELDS: readonly Field[] = [...FIELDS, ...EXTRA_FIELDS];

/**
 * Validates and designs one section: the result, or no result and the message of every field
 * at once: the specification's alert where its rule applies to the field (empty, ND 1-5, no
 * negative, more than 0), else the field's range; then the rules between fields (S0 within the
 * pipe, the number of outlets).
 */
export function calculateUnit(unit: Unit, section: number, lang: Language): Unit {
  const raw = { ...unit.raw, pressure: unit.raw.pressure ?? '' };
  const errors: FieldErrors<Field> = checkFields(SECONDARY_SPECS, raw, NUMBER_KEYS).errors;
  for (const field of ALL_FIELDS) {
    const own = validateSecondarySection(probe(unit.raw, field), section);
    if (!own.ok && own.field === field) errors[field] = { text: own.message };
  }
  /** No result: the messages of the fields that stopped it. */
  const refused = (e: FieldErrors<Field>): Unit => ({
    ...unit,
    input: null,
    calculatedRaw: null,
    result: null,
    errors: e,
  });
  if (errorCount(errors) > 0) return refused(errors);
  const check = validateSecondarySection(unit.raw, section);
  if (!check.ok) return refused({ [check.field]: { text: check.message } });
  try {
    const result = designSecondarySection(check.value, section, {
      formatNumber: messageNumber(lang),
    });
    return { ...unit, input: check.value, calculatedRaw: unit.raw, result, errors: {} };
  } catch (err) {
    if (err instanceof HydraulicsInputError) return refused({ [err.field]: { text: err.message } });
    throw err;
  }
}

/**
 * The fields of a saved section, or null when they are not; those saved before the design checks
 * existed get a new section's formula and pressure.
 */
function readRaw(data: unknown): SecondarySectionRaw | null {
  if (!is.stringRecord(data, FIELDS)) return null;
  const saved = data as Record<string, unknown>;
  const raw = { ...emptyRaw(), ...Object.fromEntries(FIELDS.map((f) => [f, saved[f]])) };
  for (const f of EXTRA_FIELDS) if (typeof saved[f] === 'string') raw[f] = saved[f];
  return raw as SecondarySectionRaw;
}

/** A saved section pressure, or null when it is not one. */
function readPressure(data: unknown): { section: number; inletPressure: number } | null {
  return is.numberRecord(data, ['section', 'inletPressure'])
    ? { section: data.section, inletPressure: data.inletPressure }
    : null;
}

/** A saved row of the pipe accounting, or null when it is not one. */
function readSummaryRow(data: unknown): SecondarySummaryRow | null {
  const pipeType = is.record(data) ? data.pipeType : null;
  if (!SECONDARY_PIPE_TYPES.includes(pipeType as SecondaryPipeType)) return null;
  if (!is.numberRecord(data, ['nominalDiameter', 'totalLength', 'adjustedLength'])) return null;
  const { nominalDiameter, totalLength, adjustedLength } = data;
  return {
    pipeType: pipeType as SecondaryPipeType,
    nominalDiameter,
    totalLength,
    adjustedLength,
  };
}

const present = <T>(values: (T | null)[]): values is T[] => values.every((v) => v !== null);

/** Saved totals: the accounting's rows and the pressures, or null when they are not. */
function readTotals(data: unknown): Totals | null {
  if (!is.record(data) || !Array.isArray(data.summary) || !is.record(data.pressures)) return null;
  const summary = (data.summary as unknown[]).map(readSummaryRow);
  const { sections, required } = data.pressures;
  const pressures = Array.isArray(sections) ? (sections as unknown[]).map(readPressure) : [null];
  const top = required === null ? null : readPressure(required);
  if (!present(summary) || !present(pressures) || (required !== null && !top)) return null;
  return { summary, pressures: { sections: pressures, required: top } };
}

export function parseSaved(data: unknown): Saved | null {
  if (!is.record(data) || !Array.isArray(data.units) || data.units.length > 20) return null;
  const units: Saved['units'] = [];
  for (const u of data.units) {
    const raw = is.record(u) ? readRaw(u.raw) : null;
    if (!raw) return null;
    const calculated = u.calculated === true;
    units.push({ raw, calculated, calculatedRaw: calculated ? readRaw(u.calculatedRaw) : null });
  }
  const summary = data.summary === true;
  return { units, summary, totals: summary ? readTotals(data.totals) : null };
}

export function toSaved(state: State): Saved {
  return {
    units: state.units.map((u) => ({
      raw: u.raw,
      calculated: u.result !== null,
      calculatedRaw: u.result ? u.calculatedRaw : null,
    })),
    summary: state.summary !== null,
    totals:
      state.summary && state.pressures
        ? { summary: state.summary, pressures: state.pressures }
        : null,
  };
}

/** The totals of the calculated sections: the pipe accounting and the pressures, together. */
function summarize(units: Unit[]): Pick<State, 'summary' | 'pressures'> {
  const results = units.flatMap((u) => (u.result ? [u.result] : []));
  return { summary: summarizePipes(results), pressures: summarizePressures(results) };
}

const NO_SUMMARY = { summary: null, pressures: null } as const;

/**
 * The state of a saved design, or of a new one (one empty section): each section's fields as typed
 * and its result calculated again from the fields it came from (one the engine now refuses gets
 * Calculate's alert), and the totals shown.
 */
export function init(saved: Saved | null, lang: Language): State {
  if (!saved) return { units: [newUnit(1)], ...NO_SUMMARY, nextKey: 2, pageAlert: null };
  const units = saved.units.map((u, i) => {
    const unit: Unit = { ...newUnit(i + 1), raw: u.raw };
    if (!u.calculated) return unit;
    return recalculateSaved(unit, u.calculatedRaw, (x) => calculateUnit(x, i + 1, lang));
  });
  const totals = !saved.summary
    ? NO_SUMMARY
    : (saved.totals ?? (sectionCountAlert(units.length) ? NO_SUMMARY : summarize(units)));
  return { units, ...totals, nextKey: units.length + 1, pageAlert: null };
}

const updateUnit = (state: State, key: number, update: (u: Unit, index: number) => Unit) =>
  state.units.map((u, i) => (u.key === key ? update(u, i) : u));

export function reducer(state: State, action: Action): State {
  switch (action.type) {
    case 'add': {
      const alert = addSectionAlert(state.units.length);
      if (alert) return { ...state, pageAlert: { place: 'add', text: alert } };
      return {
        ...state,
        pageAlert: null,
        units: [...state.units, newUnit(state.nextKey)],
        nextKey: state.nextKey + 1,
      };
    }
    case 'reset':
      return { ...state, units: [], ...NO_SUMMARY, pageAlert: null };
    case 'accounting': {
      const alert = sectionCountAlert(state.units.length);
      if (alert) return { ...state, ...NO_SUMMARY, pageAlert: { place: 'summary', text: alert } };
      return { ...state, pageAlert: null, ...summarize(state.units) };
    }
    case 'remove':
      return {
        ...state,
        pageAlert: null,
        ...NO_SUMMARY,
        // Sections are numbered by position: the ones after the deleted section are renumbered.
        units: state.units
          .filter((u) => u.key !== action.key)
          .map((u, i) => (u.result ? calculateUnit(u, i + 1, action.lang) : u)),
      };
    case 'raw':
      return {
        ...state,
        units: updateUnit(state, action.key, (u) => ({
          ...u,
          raw: { ...u.raw, [action.field]: action.value },
        })),
      };
    case 'calculate':
      return {
        ...state,
        units: updateUnit(state, action.key, (u, i) => {
          const next = calculateUnit(u, i + 1, action.lang);
          return errorCount(next.errors) > 0 ? { ...next, attempt: u.attempt + 1 } : next;
        }),
      };
    case 'clear':
      return {
        ...state,
        ...NO_SUMMARY,
        units: updateUnit(state, action.key, (u) => newUnit(u.key)),
      };
  }
}

/** The designed sections with their numbers and the values they were calculated from. */
export function designedSections(state: State) {
  return state.units.flatMap((u, i) =>
    u.result && u.input ? [{ section: i + 1, input: u.input, result: u.result }] : [],
  );
}

/** Every stretch of the designed sections, with where it starts and ends along its section. */
export function stretchRows(state: State) {
  return designedSections(state).flatMap(({ section, result }) => {
    let from = 0;
    return result.stretches.map((stretch) => {
      const row = { section, from, to: from + stretch.length, stretch };
      from += stretch.length;
      return row;
    });
  });
}

/**
 * Beyond the specification: pressures along each designed section (the inlet, then every outlet),
 * outlet m at S0 + (m − 1)·Se of the values the result was calculated from (not of the fields as
 * edited since).
 */
export function pressureProfiles(state: State) {
  return designedSections(state).flatMap(({ section, input, result }) => {
    if (!result.outletPressures || result.inletPressure === null) return [];
    const outlets = result.outletPressures.map((pressure, i) => ({
      outlet: i + 1,
      distance: input.s0 + i * input.se,
      pressure,
    }));
    return [{ section, inlet: result.inletPressure, outlets }];
  });
}

/** The designer as `useDesign` runs it (a new design's units follow the language). */
export function design(lang: Language) {
  return {
    kind: KIND,
    reducer,
    init: (saved: Saved | null) => init(saved, lang),
    parse: parseSaved,
    toSaved,
  };
}

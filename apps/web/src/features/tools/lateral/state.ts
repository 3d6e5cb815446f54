/**
 * The lateral calculator's state: the specification's inputs, the design inputs beyond it (README: what an engineer checks), the
 * last calculation and the messages of its fields, with a pure reducer (no React, no browser).
 * Beyond the specification (README): every number field has a physical range; a value outside it
 * gets a message on its field and no result.
 */
import {
  HydraulicsInputError,
  DEFAULT_FRICTION_FORMULA,
  EMITTER_DEFAULTS,
  LATERAL_DEFAULTS,
  designLateral,
  isFrictionFormula,
  type FrictionFormula,
  type LateralInput,
  type LateralOptions,
} from '@diagrodl/hydraulics';
import { is } from '../shared/export.ts';
import {
  MILLIMETRES,
  PERCENT,
  SHARED_FIELDS,
  checkFields,
  checkValues,
  type FieldErrors,
  type FieldSpec,
} from '../shared/fieldCheck.ts';

export const KIND = 'lateral';

/**
 * The nine inputs in the specification's order: their code names (a tag next to their words) and
 * units (m is read-only).
 */
export const LATERAL_FIELDS = [
  { key: 'Po', name: 'Po', unit: 'mca' },
  { key: 'lossEmitter', name: 'Loss_emitter', unit: 'm' },
  { key: 'qEmitter', name: 'Q_emitter', unit: 'L/h' },
  { key: 'spaceEmitter', name: 'Space_emitter', unit: 'm' },
  { key: 'C', name: 'N_HZ', unit: '' },
  { key: 'hfAdminPerc', name: 'Hf_admin_perc', unit: '' },
  { key: 'D', name: 'D_LL', unit: 'm' },
  { key: 'm', name: 'm', unit: '' },
  { key: 'slope', name: 'Slope', unit: '' },
] as const satisfies readonly { key: keyof LateralInput; name: string; unit: string }[];

export type FieldKey = (typeof LATERAL_FIELDS)[number]['key'];
export type Raw = Record<FieldKey, string>;
const KEYS = LATERAL_FIELDS.map((f) => f.key);
/** The fields typed in (m is read-only: the formula's). */
const TYPED_KEYS = KEYS.filter((k): k is Exclude<FieldKey, 'm'> => k !== 'm');

/** Result table columns (specification §3) and the decimals shown for each. */
export const LATERAL_COLUMNS = [
  { name: 'N_emitter', key: 'n', digits: 0 },
  { name: 'Le_real', key: 'leReal', digits: 2 },
  { name: 'Le_equiv', key: 'leEquiv', digits: 2 },
  { name: 'Qa_m3/s', key: 'qa', digits: -1 },
  { name: "HF'", key: 'hfUnit', digits: 6 },
  { name: 'F', key: 'F', digits: 4 },
  { name: 'HF_meter', key: 'hf', digits: 6 },
  { name: 'Slope', key: 'slope', digits: 4 },
  { name: 'HF+Slope_meter', key: 'hfSlope', digits: 6 },
] as const;

/** The design inputs beyond the specification: emitter law, uniformity, a fixed lateral. */
export const LATERAL_EXTRA_FIELDS = [
  { key: 'x', name: 'x' },
  { key: 'cv', name: 'Cv' },
  { key: 'emittersPerPlant', name: 'n' },
] as const;
export type ExtraKey = (typeof LATERAL_EXTRA_FIELDS)[number]['key'];
const EXTRA_KEYS = LATERAL_EXTRA_FIELDS.map((f) => f.key);
export const FIX_MODES = ['table', 'length', 'emitters'] as const;
export type FixMode = (typeof FIX_MODES)[number];

export interface Extra extends Record<ExtraKey, string> {
  formula: FrictionFormula;
  fix: FixMode;
  fixValue: string;
}

/** The fixed lateral's value: a length or a number of emitters. */
type FixKey = Exclude<FixMode, 'table'>;
/** A field with a message: an input, a design input, or the fixed lateral's value. */
export type ErrorKey = FieldKey | ExtraKey | FixKey;

/**
 * The physical range of every number typed in (an operating pressure of a drip lateral, its
 * emitters, its pipe), and of the design inputs; the engine's own checks come after.
 */
export const LATERAL_SPECS = {
  Po: { unit: 'mca', min: 0.5, max: 150 },
  lossEmitter: { unit: 'm', min: 0, max: 5 },
  qEmitter: SHARED_FIELDS.emitterFlow,
  spaceEmitter: SHARED_FIELDS.emitterSpacing,
  C: { unit: '', min: 60, max: 160 },
  hfAdminPerc: { unit: '', min: 0.01, max: 0.9, other: PERCENT },
  D: { unit: 'm', min: 0.008, max: 0.05, other: MILLIMETRES },
  slope: { unit: '', min: -1, max: 1, other: PERCENT },
  x: { unit: '', min: 0, max: 1 },
  cv: { unit: '', min: 0, max: 0.5, other: PERCENT },
  emittersPerPlant: { unit: '', min: 1, max: 20, integer: true },
  length: { unit: 'm', min: 0.1, max: 2000 },
  emitters: { unit: '', min: 1, max: 5000, integer: true },
} as const satisfies Record<Exclude<ErrorKey, 'm'>, FieldSpec>;

const defaultRaw = (): Raw =>
  Object.fromEntries(KEYS.map((k) => [k, String(LATERAL_DEFAULTS[k])])) as Raw;
const defaultExtra = (): Extra => ({
  formula: DEFAULT_FRICTION_FORMULA,
  x: String(EMITTER_DEFAULTS.x),
  cv: String(EMITTER_DEFAULTS.cv),
  emittersPerPlant: String(EMITTER_DEFAULTS.emittersPerPlant),
  fix: 'table',
  fixValue: '',
});

export interface Calculation {
  input: LateralInput;
  options: LateralOptions;
}

export interface Saved {
  raw: Raw;
  extra: Extra;
  /**
   * The calculation of the results shown when it was saved (their own inputs and options, not the
   * fields edited since); null: no results.
   */
  calculation: Calculation | null;
  /**
   * True for a file with results whose calculation cannot be read back (written with the input but
   * not its options, when the design inputs do not read as numbers): recalculated from the fields.
   */
  recalculate: boolean;
}

/** What the design file and the autosave hold (`parseSaved` reads it back). */
export interface SavedData {
  raw: Raw;
  extra: Extra;
  /** The input of the results shown (null: none). */
  input: LateralInput | null;
  /** Their options (null: none); files saved before it was kept have no `options`. */
  options: LateralOptions | null;
}

/** A saved input: every field a finite number. */
function readInput(data: unknown): LateralInput | null {
  if (!is.numberRecord(data, KEYS)) return null;
  return Object.fromEntries(KEYS.map((k) => [k, data[k]])) as unknown as LateralInput;
}

/** Saved options: a known formula and the emitter's numbers, with the fixed lateral's, if any. */
function readOptions(data: unknown): LateralOptions | null {
  if (!is.record(data) || !isFrictionFormula(data.formula)) return null;
  const options: LateralOptions = { formula: data.formula };
  for (const key of [...EXTRA_KEYS, 'emitters', 'length'] as const) {
    const value = data[key];
    const optional = key === 'emitters' || key === 'length';
    if (optional && value === undefined) continue;
    if (!is.number(value)) return null;
    options[key] = value;
  }
  return options;
}

/**
 * A saved design; files saved before the design checks existed have no `extra` and get its
 * defaults. The results come back from the input and options they were calculated from (files
 * saved before the options were kept: the saved input with the design inputs as typed).
 */
export function parseSaved(data: unknown): Saved | null {
  if (!is.record(data) || !is.stringRecord(data.raw, KEYS)) return null;
  const raw = { ...(data.raw as Raw), m: String(LATERAL_DEFAULTS.m) };
  const extra = defaultExtra();
  if (is.record(data.extra)) {
    const saved = data.extra;
    if (isFrictionFormula(saved.formula)) extra.formula = saved.formula;
    if ((FIX_MODES as readonly unknown[]).includes(saved.fix)) extra.fix = saved.fix as FixMode;
    for (const key of [...EXTRA_KEYS, 'fixValue'] as const) {
      if (typeof saved[key] === 'string') extra[key] = saved[key];
    }
  }
  const none = { raw, extra, calculation: null, recalculate: false };
  if (!is.record(data.input)) return none;
  const input = readInput(data.input);
  const fromExtra = toOptions(extra);
  const options =
    'options' in data ? readOptions(data.options) : 'value' in fromExtra ? fromExtra.value : null;
  if (!input || !options) return { ...none, recalculate: true };
  return { ...none, calculation: { input, options } };
}

/** The design inputs typed in as the engine's options, or every message. */
function toOptions(extra: Extra): { value: LateralOptions } | { errors: FieldErrors<ErrorKey> } {
  const fix = extra.fix === 'table' ? [] : [extra.fix];
  const raw = { ...extra, length: extra.fixValue, emitters: extra.fixValue };
  const { values, errors } = checkFields(LATERAL_SPECS, raw, [...EXTRA_KEYS, ...fix]);
  if (Object.keys(errors).length > 0) return { errors };
  return { value: { formula: extra.formula, ...values } };
}

/** The fields typed in as a calculation (its input and options), or every message at once. */
export function toCalculation(
  raw: Raw,
  extra: Extra,
): { value: Calculation } | { errors: FieldErrors<ErrorKey> } {
  const inputs = checkFields(LATERAL_SPECS, raw, TYPED_KEYS);
  const options = toOptions(extra);
  const errors = { ...inputs.errors, ...('errors' in options ? options.errors : {}) };
  if (Object.keys(errors).length > 0 || 'errors' in options) return { errors };
  return {
    value: { input: { ...LATERAL_DEFAULTS, ...inputs.values }, options: options.value },
  };
}

export interface State {
  raw: Raw;
  extra: Extra;
  calculation: Calculation | null;
  /** The messages of the last Calculate, by field (none: no message). */
  errors: FieldErrors<ErrorKey>;
  /** Counts the Calculate presses that found errors: the screen moves the focus to the first. */
  attempt: number;
}

export type Action =
  | { type: 'raw'; key: FieldKey; value: string }
  | { type: 'extra'; patch: Partial<Extra> }
  | { type: 'calculate' }
  | { type: 'reset' };

/**
 * The messages Calculate gives for a calculation: numbers outside their ranges (a saved design's
 * too), else the field the engine refuses; none when it designs it.
 */
function calculationErrors(calculation: Calculation): FieldErrors<ErrorKey> {
  const { formula: _formula, ...options } = calculation.options;
  const ranges = checkValues<ErrorKey>(LATERAL_SPECS, { ...calculation.input, ...options });
  if (Object.keys(ranges).length > 0) return ranges;
  try {
    designLateral(calculation.input, calculation.options);
    return {};
  } catch (err) {
    if (err instanceof HydraulicsInputError) {
      return {
        [err.field]: { key: `irrigation.lateral.invalid.${err.field}`, fallback: err.message },
      };
    }
    throw err;
  }
}

/**
 * The state of a saved design (null: a new one): the fields as typed and the results shown, from
 * the calculation they came from; one the engine now refuses gives Calculate's alert instead.
 */
export function init(saved: Saved | null): State {
  const state: State = {
    raw: saved?.raw ?? defaultRaw(),
    extra: saved?.extra ?? defaultExtra(),
    calculation: null,
    errors: {},
    attempt: 0,
  };
  if (saved?.recalculate) return { ...reducer(state, { type: 'calculate' }), attempt: 0 };
  if (!saved?.calculation) return state;
  const errors = calculationErrors(saved.calculation);
  return Object.keys(errors).length > 0
    ? { ...state, errors }
    : { ...state, calculation: saved.calculation };
}

export function toSaved(state: State): SavedData {
  return {
    raw: state.raw,
    extra: state.extra,
    input: state.calculation?.input ?? null,
    options: state.calculation?.options ?? null,
  };
}

export function reducer(state: State, action: Action): State {
  switch (action.type) {
    case 'raw':
      return { ...state, raw: { ...state.raw, [action.key]: action.value } };
    case 'extra':
      return { ...state, extra: { ...state.extra, ...action.patch } };
    case 'reset':
      return init(null);
    case 'calculate': {
      // A Calculate with errors leaves no result of the values before on the screen.
      const parsed = toCalculation(state.raw, state.extra);
      const errors = 'errors' in parsed ? parsed.errors : calculationErrors(parsed.value);
      if (Object.keys(errors).length > 0) {
        return { ...state, errors, calculation: null, attempt: state.attempt + 1 };
      }
      return { ...state, errors: {}, calculation: 'value' in parsed ? parsed.value : null };
    }
  }
}

/** The designer as `useDesign` runs it: autosave, restore and design files. */
export const DESIGN = { kind: KIND, reducer, init, parse: parseSaved, toSaved };

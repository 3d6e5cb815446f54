/**
 * The irrigation scheduling screen's state: the raw strings of its fields, the choices (how ET0
 * is obtained, humidity, radiation, how Kc is chosen), the last calculation and the messages of its
 * fields, with a pure reducer (no React, no browser). Every number field has a physical range: a
 * value outside it gets a message on its field and no result.
 */
import {
  HydraulicsInputError,
  KC_KEYS,
  LENGTH_KEYS,
  TOMATO_STAGES,
  checkCropStages,
  irrigationSchedule,
  monthDayOfYear,
  referenceEvapotranspiration,
  type CropStages,
  type Et0Input,
  type ScheduleInput,
} from '@diagrodl/hydraulics';
import { is } from '../shared/export.ts';
import {
  CENTIMETRES,
  KC,
  SHARED_FIELDS,
  STAGE_FIELDS,
  checkFields,
  checkValues,
  type FieldErrors,
  type FieldSpec,
} from '../shared/fieldCheck.ts';

export const KIND = 'schedule';

export const ET0_SOURCES = ['penman-monteith', 'hargreaves', 'typed'] as const;
export type Et0Source = (typeof ET0_SOURCES)[number];
export const PERIODS = ['day', 'month'] as const;
export type Period = (typeof PERIODS)[number];
export const HUMIDITY_MODES = ['rhmax-rhmin', 'rhmean', 'tdew', 'ea'] as const;
export type HumidityMode = (typeof HUMIDITY_MODES)[number];
export const RADIATION_MODES = ['sunshine', 'measured'] as const;
export type RadiationMode = (typeof RADIATION_MODES)[number];
export const KC_MODES = ['stage', 'typed'] as const;
export type KcMode = (typeof KC_MODES)[number];

const TEMPERATURE: FieldSpec = { unit: '°C', min: -40, max: 60 };
const HUMIDITY: FieldSpec = { unit: '%', min: 0, max: 100 };

/**
 * Every number field of the screen with its unit and physical range (the field's label is in the
 * locales); the engines' own checks (tmin not above tmax, sunshine within the day's light…) come
 * after.
 */
export const FIELDS = {
  latitude: SHARED_FIELDS.latitude,
  altitude: SHARED_FIELDS.altitude,
  dayOfYear: { unit: '', min: 1, max: 366, integer: true },
  tmax: TEMPERATURE,
  tmin: TEMPERATURE,
  rhmax: HUMIDITY,
  rhmin: HUMIDITY,
  rhmean: HUMIDITY,
  tdew: { unit: '°C', min: -40, max: 50 },
  ea: { unit: 'kPa', min: 0, max: 10, other: { factor: 0.1, unit: 'hPa' } },
  windSpeed: { unit: 'm/s', min: 0, max: 30, other: { factor: 1 / 3.6, unit: 'km/h' } },
  windHeight: { unit: 'm', min: 0.5, max: 100, other: CENTIMETRES },
  sunshineHours: { unit: 'h', min: 0, max: 24 },
  solarRadiation: {
    unit: 'MJ/m²/d',
    min: 0.1,
    max: 50,
    // a day's mean in W/m²: 1 W/m² over 86 400 s is 0.0864 MJ/m²
    other: { factor: 0.0864, unit: 'W/m²' },
  },
  tPrevious: TEMPERATURE,
  tNext: { ...TEMPERATURE, optional: true },
  et0: { unit: 'mm/d', min: 0, max: 25 },
  ...STAGE_FIELDS,
  day: { unit: '', min: 1, max: 4 * 365, integer: true },
  kc: KC,
  effectiveRain: { unit: 'mm/d', min: 0, max: 200, optional: true },
  emitterFlow: SHARED_FIELDS.emitterFlow,
  emitterSpacing: SHARED_FIELDS.emitterSpacing,
  lateralSpacing: SHARED_FIELDS.lateralSpacing,
  eu: SHARED_FIELDS.eu,
  leachingFraction: { ...SHARED_FIELDS.leachingFraction, optional: true },
  hoursAvailable: SHARED_FIELDS.hoursAvailable,
  area: { unit: 'ha', min: 0.001, max: 5000, optional: true },
  systemFlow: { unit: 'm³/h', min: 0.1, max: 5000, optional: true },
} as const satisfies Record<string, FieldSpec>;
export type FieldKey = keyof typeof FIELDS;
export type Raw = Record<FieldKey, string>;

/** The fields of each card of the form, in the screen's order (the choices leave some out). */
export const FIELD_GROUPS = {
  climate: [
    'et0',
    'latitude',
    'altitude',
    'dayOfYear',
    'tmax',
    'tmin',
    'rhmax',
    'rhmin',
    'rhmean',
    'tdew',
    'ea',
    'windSpeed',
    'windHeight',
    'sunshineHours',
    'solarRadiation',
    'tPrevious',
    'tNext',
  ],
  crop: [...LENGTH_KEYS, ...KC_KEYS, 'day', 'kc'],
  drip: [
    'effectiveRain',
    'emitterFlow',
    'emitterSpacing',
    'lateralSpacing',
    'eu',
    'leachingFraction',
    'hoursAvailable',
    'area',
    'systemFlow',
  ],
} as const satisfies Record<string, readonly FieldKey[]>;

/** The climate fields ET0's input takes only when the choices use them. */
const ET0_OPTIONAL = FIELD_GROUPS.climate.filter(
  (k): k is Exclude<typeof k, 'et0' | 'latitude' | 'dayOfYear' | 'tmax' | 'tmin'> =>
    !['et0', 'latitude', 'dayOfYear', 'tmax', 'tmin'].includes(k),
);
const KEYS = Object.keys(FIELDS) as FieldKey[];
/** Whether a field may stay blank (its default, 0, or nothing). */
const optional = (key: FieldKey) => (FIELDS[key] as FieldSpec).optional === true;

export interface Options {
  et0Source: Et0Source;
  period: Period;
  /** The month (1-12) of a monthly ET0, as text for the select. */
  month: string;
  humidity: HumidityMode;
  radiation: RadiationMode;
  kcMode: KcMode;
}

/**
 * The defaults: the climate of FAO-56 Example 18 (Brussels, 6 July; wind 10 km/h = 2.778 m/s at
 * 10 m), tomato's stages on day 80 (mid-season), and a drip layout of 1.6 L/h emitters every
 * 0.30 m, laterals 1.5 m apart, EU 90 %, 20 h a day.
 */
const DEFAULT_RAW: Raw = {
  latitude: '50.8',
  altitude: '100',
  dayOfYear: '187',
  tmax: '21.5',
  tmin: '12.3',
  rhmax: '84',
  rhmin: '63',
  rhmean: '',
  tdew: '',
  ea: '',
  windSpeed: '2.778',
  windHeight: '10',
  sunshineHours: '9.25',
  solarRadiation: '',
  tPrevious: '',
  tNext: '',
  et0: '5',
  ...(Object.fromEntries(
    [...LENGTH_KEYS, ...KC_KEYS].map((k) => [k, String(TOMATO_STAGES[k])]),
  ) as Record<keyof CropStages, string>),
  day: '80',
  kc: '1.15',
  effectiveRain: '0',
  emitterFlow: '1.6',
  emitterSpacing: '0.3',
  lateralSpacing: '1.5',
  eu: '90',
  leachingFraction: '0',
  hoursAvailable: '20',
  area: '',
  systemFlow: '',
};

const DEFAULT_OPTIONS: Options = {
  et0Source: 'penman-monteith',
  period: 'day',
  month: '7',
  humidity: 'rhmax-rhmin',
  radiation: 'sunshine',
  kcMode: 'stage',
};

/** What one calculation needs: the ET0 input (null when ET0 is typed) and the schedule's. */
export interface Calculation {
  /**
   * The choices it was made with: the selectors may change before the next calculation, and the
   * report must describe the results shown, not the selectors as they are now.
   */
  options: Options;
  et0Input: Et0Input | null;
  /** The schedule's input; et0 is the typed value, or filled in from et0Input. */
  schedule: ScheduleInput;
  /** The crop's stages (for the season's chart), whichever way Kc is chosen. */
  stages: CropStages;
}

/** The number fields the current choices use, in the screen's order. */
export function activeFields(options: Options): FieldKey[] {
  const fields: FieldKey[] = [];
  if (options.et0Source === 'typed') fields.push('et0');
  else {
    fields.push('latitude');
    if (options.et0Source === 'penman-monteith') fields.push('altitude');
    if (options.period === 'day') fields.push('dayOfYear');
    fields.push('tmax', 'tmin');
    if (options.et0Source === 'penman-monteith') {
      const humidity: Record<HumidityMode, FieldKey[]> = {
        'rhmax-rhmin': ['rhmax', 'rhmin'],
        rhmean: ['rhmean'],
        tdew: ['tdew'],
        ea: ['ea'],
      };
      fields.push(...humidity[options.humidity], 'windSpeed', 'windHeight');
      fields.push(options.radiation === 'sunshine' ? 'sunshineHours' : 'solarRadiation');
      if (options.period === 'month') fields.push('tPrevious', 'tNext');
    }
  }
  fields.push(...LENGTH_KEYS, ...KC_KEYS, options.kcMode === 'stage' ? 'day' : 'kc');
  fields.push(...FIELD_GROUPS.drip);
  return fields;
}

/** The messages of a calculation, by field (an engine's may name a field the choices hide). */
export type Errors = FieldErrors<string>;

/** The numbers of the active fields, by field (optional fields left blank are left out). */
type Values = Partial<Record<FieldKey, number>>;

/** The calculation of the active fields, or every message of them at once. */
export function toCalculation(
  raw: Raw,
  options: Options,
): { value: Calculation } | { errors: Errors } {
  const { values, errors } = checkFields(FIELDS, raw, activeFields(options));
  return Object.keys(errors).length > 0 ? { errors } : { value: buildCalculation(values, options) };
}

/** The calculation of the active fields' numbers `n` with the choices `options`. */
function buildCalculation(n: Values, options: Options): Calculation {
  const stages = Object.fromEntries(
    [...LENGTH_KEYS, ...KC_KEYS].map((k) => [k, n[k]!]),
  ) as unknown as CropStages;
  let et0Input: Et0Input | null = null;
  if (options.et0Source !== 'typed') {
    const month = Number(options.month);
    et0Input = {
      method: options.et0Source,
      period: options.period,
      latitude: n.latitude!,
      dayOfYear: options.period === 'month' ? monthDayOfYear(month) : n.dayOfYear!,
      tmax: n.tmax!,
      tmin: n.tmin!,
    };
    for (const key of ET0_OPTIONAL) {
      if (n[key] !== undefined) et0Input[key] = n[key];
    }
  }
  const schedule: ScheduleInput = {
    et0: n.et0 ?? 0,
    effectiveRain: n.effectiveRain ?? 0,
    emitterFlow: n.emitterFlow!,
    emitterSpacing: n.emitterSpacing!,
    lateralSpacing: n.lateralSpacing!,
    eu: n.eu!,
    leachingFraction: n.leachingFraction ?? 0,
    hoursAvailable: n.hoursAvailable!,
    ...(options.kcMode === 'stage' ? { stages, day: n.day! } : { kc: n.kc! }),
    ...(n.area === undefined ? {} : { area: n.area }),
    ...(n.systemFlow === undefined ? {} : { systemFlow: n.systemFlow }),
  };
  return { options, et0Input, schedule, stages };
}

/** The numbers a calculation was made of, by field (`buildCalculation` makes it again of them). */
function calculationValues(calculation: Calculation): Values {
  const all: Record<string, unknown> = {
    ...calculation.et0Input,
    ...calculation.stages,
    ...calculation.schedule,
  };
  return Object.fromEntries(
    activeFields(calculation.options).flatMap((k) => (is.number(all[k]) ? [[k, all[k]]] : [])),
  ) as Values;
}

/** ET0, the schedule and the season's Kc, computed (throws HydraulicsInputError on bad input). */
export function compute(calculation: Calculation) {
  checkCropStages(calculation.stages);
  const et0 = calculation.et0Input ? referenceEvapotranspiration(calculation.et0Input) : null;
  const schedule = irrigationSchedule({
    ...calculation.schedule,
    et0: et0 ? et0.et0 : calculation.schedule.et0,
  });
  return { et0, schedule, et0Value: et0 ? et0.et0 : calculation.schedule.et0 };
}
export type Computed = ReturnType<typeof compute>;

/** What the lateral page hands over: its EU, mean emitter flow and emitter spacing. */
export interface FromLateral {
  eu: number;
  emitterFlow: number;
  emitterSpacing: number;
}

export interface Saved {
  raw: Raw;
  options: Options;
  calculated: boolean;
  /**
   * The calculation of the results shown when it was saved (its own choices and numbers, not the
   * fields and selectors changed since); null without results, or for a file saved before it was
   * kept (`calculated`: calculated again from the fields).
   */
  calculation: Calculation | null;
}

/** What the design file and the autosave hold (`parseSaved` reads it back). */
export interface SavedData {
  raw: Raw;
  options: Options;
  calculated: boolean;
  /** The results' choices and their numbers by field (null: no results). */
  calculation: { options: Options; values: Values } | null;
}

export interface State extends Saved {
  /** The calculation of the results shown (the fields and selectors may have changed since). */
  calculation: Calculation | null;
  /** The messages of the last Calculate, by field. */
  errors: Errors;
  /** Counts the Calculate presses that found errors: the screen moves the focus to the first. */
  attempt: number;
  /** True right after values came from the lateral page (a note on the screen; not saved). */
  imported: boolean;
}

export type Action =
  | { type: 'raw'; key: FieldKey; value: string }
  | { type: 'options'; patch: Partial<Options> }
  | { type: 'fromLateral'; values: FromLateral }
  | { type: 'calculate' }
  | { type: 'reset' };

/** The message for an input the engine refuses, on its field. */
function engineError(error: HydraulicsInputError): Errors {
  const field = error.field.replace(/^stages\./, '');
  return {
    [field]: { key: `irrigation.schedule.invalid.${field}`, fallback: error.message },
  };
}

/**
 * The messages Calculate gives for a calculation: numbers outside their ranges (a saved design's
 * too), else the field the engines refuse; null when it computes.
 */
function refused(calculation: Calculation): Errors | null {
  const ranges = checkValues(FIELDS, calculationValues(calculation));
  if (Object.keys(ranges).length > 0) return ranges;
  try {
    compute(calculation);
    return null;
  } catch (error) {
    if (error instanceof HydraulicsInputError) return engineError(error);
    throw error;
  }
}

/** Calculate: the results, or every message and no result (none of the values before either). */
function calculate(state: State): State {
  const parsed = toCalculation(state.raw, state.options);
  const errors = 'errors' in parsed ? parsed.errors : refused(parsed.value);
  if (errors || !('value' in parsed)) {
    return {
      ...state,
      errors: errors ?? {},
      calculation: null,
      calculated: false,
      attempt: state.attempt + 1,
    };
  }
  return { ...state, errors: {}, calculation: parsed.value, calculated: true };
}

/**
 * The state of a saved design (null: a new one): the fields and choices as they were and the
 * results shown, of the calculation they came from (one the engine now refuses gives Calculate's
 * alert instead); files saved before it was kept are calculated again from the fields.
 */
export function init(saved: Saved | null): State {
  const state: State = {
    raw: saved?.raw ?? { ...DEFAULT_RAW },
    options: saved?.options ?? { ...DEFAULT_OPTIONS },
    calculated: false,
    calculation: null,
    errors: {},
    attempt: 0,
    imported: false,
  };
  if (saved?.calculation) {
    const errors = refused(saved.calculation);
    if (errors) return { ...state, errors };
    return { ...state, calculation: saved.calculation, calculated: true };
  }
  return saved?.calculated ? { ...calculate(state), attempt: 0 } : state;
}

/** Saved choices: those that are one of their values (a month 1-12 as text). */
function readOptions(o: Record<string, unknown>): Partial<Options> {
  const options: Partial<Options> = {};
  const pick = <K extends keyof Options>(key: K, values: readonly Options[K][]) => {
    if ((values as readonly unknown[]).includes(o[key])) options[key] = o[key] as Options[K];
  };
  pick('et0Source', ET0_SOURCES);
  pick('period', PERIODS);
  pick('humidity', HUMIDITY_MODES);
  pick('radiation', RADIATION_MODES);
  pick('kcMode', KC_MODES);
  const month = Number(o.month);
  if (Number.isInteger(month) && month >= 1 && month <= 12) options.month = String(month);
  return options;
}

/** A saved calculation: every choice one of its values, every number its field needs. */
function readCalculation(data: unknown): Calculation | null {
  if (!is.record(data) || !is.record(data.options) || !is.record(data.values)) return null;
  const options = readOptions(data.options);
  if (Object.keys(options).length !== Object.keys(DEFAULT_OPTIONS).length) return null;
  const { values } = data;
  const n: Values = {};
  for (const key of activeFields(options as Options)) {
    const value = values[key];
    if (optional(key) && value === undefined) continue;
    if (!is.number(value)) return null;
    n[key] = value;
  }
  return buildCalculation(n, options as Options);
}

/** A saved design (autosave or file); null when it is not one of this screen. */
export function parseSaved(data: unknown): Saved | null {
  if (!is.record(data) || !is.stringRecord(data.raw, KEYS) || !is.record(data.options)) {
    return null;
  }
  const calculated = data.calculated === true;
  return {
    raw: Object.fromEntries(KEYS.map((k) => [k, (data.raw as Raw)[k]])) as Raw,
    options: { ...DEFAULT_OPTIONS, ...readOptions(data.options) },
    calculated,
    calculation: calculated ? readCalculation(data.calculation) : null,
  };
}

export function toSaved(state: State): SavedData {
  const { calculation } = state;
  return {
    raw: state.raw,
    options: state.options,
    calculated: calculation !== null,
    calculation: calculation && {
      options: calculation.options,
      values: calculationValues(calculation),
    },
  };
}

/** A number as a field's text, without binary noise (93.456789 → "93.46" with 2 decimals). */
const fieldText = (value: number, digits: number) => String(Number(value.toFixed(digits)));

export function reducer(state: State, action: Action): State {
  switch (action.type) {
    case 'raw':
      return { ...state, raw: { ...state.raw, [action.key]: action.value } };
    case 'options':
      return { ...state, options: { ...state.options, ...action.patch } };
    case 'fromLateral':
      return {
        ...state,
        raw: {
          ...state.raw,
          eu: fieldText(action.values.eu, 2),
          emitterFlow: fieldText(action.values.emitterFlow, 4),
          emitterSpacing: fieldText(action.values.emitterSpacing, 4),
        },
        // the results came from the values before: they go until Calculate
        calculation: null,
        calculated: false,
        errors: {},
        imported: true,
      };
    case 'reset':
      return init(null);
    case 'calculate':
      return calculate(state);
  }
}

/** The screen as `useDesign` runs it: autosave, restore and design files. */
export const DESIGN = { kind: KIND, reducer, init, parse: parseSaved, toSaved };

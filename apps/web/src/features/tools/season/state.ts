/**
 * The season calendar's state: the raw strings of its fields, its choices, the two weather files
 * (daily for the water balance, hourly for the disease risk), the inputs of the results shown, and
 * the messages of the last calculation, with a pure reducer (no React, no browser).
 *
 * Every number field has a physical range: a value outside it gets a message on its field and no
 * result; a value that fits another unit ("70" for a root depth in metres) says so.
 */
import {
  BALANCE_STRATEGIES,
  HydraulicsInputError,
  KC_KEYS,
  LATE_BLIGHT_DEFAULT_THRESHOLD,
  LENGTH_KEYS,
  SAMPLE_DAILY_SITE,
  TOMATO_STAGES,
  TOMCAST_DEFAULT_THRESHOLD,
  TOMCAST_THRESHOLDS,
  diseaseRisk,
  parseWeatherCsv,
  waterBalance,
  type BalanceStrategy,
  type CropStages,
  type RiskInput,
  type WaterBalanceInput,
  type WeatherCsvError,
} from '@diagrodl/hydraulics';
import { is } from '../shared/export.ts';
import {
  CENTIMETRES,
  KC,
  PERCENT,
  SHARED_FIELDS,
  STAGE_FIELDS,
  checkFields,
  plainNumber,
  type FieldErrors,
  type FieldMessage,
  type FieldSpec,
} from '../shared/fieldCheck.ts';

export const KIND = 'season';

export const KC_MODES = ['stage', 'typed'] as const;
export type KcMode = (typeof KC_MODES)[number];
export { BALANCE_STRATEGIES, TOMCAST_THRESHOLDS };

export const FIELDS = {
  fieldCapacity: { unit: 'm³/m³', min: 0.05, max: 0.6, other: PERCENT },
  wiltingPoint: { unit: 'm³/m³', min: 0.01, max: 0.45, other: PERCENT },
  rootDepth: { unit: 'm', min: 0.1, max: 3, other: CENTIMETRES },
  p: { unit: '', min: 0.1, max: 0.8, other: PERCENT },
  initialDepletion: { unit: 'mm', min: 0, max: 1000 },
  runoffFraction: { unit: '', min: 0, max: 0.9, optional: true, other: PERCENT },
  every: { unit: 'd', min: 1, max: 60, integer: true },
  ...STAGE_FIELDS,
  kc: KC,
  ...SHARED_FIELDS,
  lateBlightThreshold: { unit: '', min: 10, max: 30, integer: true },
} as const satisfies Record<string, FieldSpec>;
export type FieldKey = keyof typeof FIELDS;
/** The number fields and the planting date (YYYY-MM-DD, blank: the first day of the file). */
export type Raw = Record<FieldKey | 'plantingDate', string>;

/** The fields of each card of the balance's form, in the screen's order. */
export const BALANCE_GROUPS = {
  soil: ['fieldCapacity', 'wiltingPoint', 'rootDepth', 'p', 'initialDepletion', 'runoffFraction'],
  crop: [...LENGTH_KEYS, ...KC_KEYS, 'kc'],
  site: ['latitude', 'altitude'],
  drip: [
    'emitterFlow',
    'emitterSpacing',
    'lateralSpacing',
    'eu',
    'leachingFraction',
    'hoursAvailable',
  ],
} as const satisfies Record<string, readonly FieldKey[]>;
export type BalanceGroup = keyof typeof BALANCE_GROUPS;

export interface Options {
  strategy: BalanceStrategy;
  kcMode: KcMode;
  /** Gross depth and hours per sector from the drip layout. */
  drip: boolean;
  /** TOMCAST's threshold, 15-20, as text for the select. */
  tomcastThreshold: string;
}

/** A weather file as it was read: its name and its text (kept, so a saved design has it). */
export interface WeatherFile {
  name: string;
  text: string;
}

/**
 * The defaults: a loam (θFC 0.30, θWP 0.15: FAO-56 Table 19's middle), tomato's roots of 0.7 m
 * and p 0.40 (FAO-56 Table 22), irrigated at RAW; tomato's stages from the first day of the file;
 * the site of the daily sample file; the drip layout of the scheduling screen (1.6 L/h every 0.30 m, laterals 1.5 m apart, EU 90 %).
 */
export const DEFAULT_RAW: Raw = {
  fieldCapacity: '0.30',
  wiltingPoint: '0.15',
  rootDepth: '0.7',
  p: '0.40',
  initialDepletion: '0',
  runoffFraction: '',
  every: '3',
  plantingDate: '',
  ...(Object.fromEntries(
    [...LENGTH_KEYS, ...KC_KEYS].map((k) => [k, String(TOMATO_STAGES[k])]),
  ) as Record<keyof CropStages, string>),
  kc: '1.15',
  latitude: String(SAMPLE_DAILY_SITE.latitude),
  altitude: String(SAMPLE_DAILY_SITE.altitude),
  emitterFlow: '1.6',
  emitterSpacing: '0.3',
  lateralSpacing: '1.5',
  eu: '90',
  leachingFraction: '0',
  hoursAvailable: '20',
  lateBlightThreshold: String(LATE_BLIGHT_DEFAULT_THRESHOLD),
};

export const DEFAULT_OPTIONS: Options = {
  strategy: 'depletion',
  kcMode: 'stage',
  drip: true,
  tomcastThreshold: String(TOMCAST_DEFAULT_THRESHOLD),
};

/** A message of the screen (see shared/fieldCheck.ts). */
export type Message = FieldMessage;

/** The two sections of the screen, each calculated on its own. */
export type Section = 'balance' | 'risk';

/** What the design file and the autosave hold: the fields, choices, files and results' inputs. */
export interface Saved {
  raw: Raw;
  options: Options;
  daily: WeatherFile | null;
  hourly: WeatherFile | null;
  /** The inputs of the results shown (the fields may have changed since); null: no results. */
  balanceInput: WaterBalanceInput | null;
  riskInput: RiskInput | null;
}

export interface State extends Saved {
  /** The messages of the last Calculate of a section, by field ('daily' and 'hourly': the files). */
  errors: FieldErrors<FieldKey | 'plantingDate' | 'daily' | 'hourly'>;
  /** The rows of a weather file that could not be read (each says its row and field). */
  csvErrors: { daily: WeatherCsvError[]; hourly: WeatherCsvError[] };
  /** Counts the Calculate presses that found errors: the screen moves the focus to the first. */
  attempt: number;
  /** True right after values came from the scheduling screen (a note; not saved). */
  imported: boolean;
}

/** The fields each section's Calculate reads, with these choices. */
export function sectionFields(section: Section, options: Options): FieldKey[] {
  if (section === 'risk') return ['lateBlightThreshold'];
  const fields: FieldKey[] = [...BALANCE_GROUPS.soil];
  if (options.strategy === 'interval') fields.push('every');
  fields.push(...(options.kcMode === 'stage' ? [...LENGTH_KEYS, ...KC_KEYS] : (['kc'] as const)));
  fields.push(...BALANCE_GROUPS.site);
  if (options.drip) fields.push(...BALANCE_GROUPS.drip);
  return fields;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

type Checked<T> = { value: T; errors: null } | { value: null; errors: State['errors'] };

/** The numbers of a section's fields, or every message at once. */
function readFields(section: Section, state: State): Checked<Partial<Record<FieldKey, number>>> {
  const checked = checkFields(FIELDS, state.raw, sectionFields(section, state.options));
  const errors: State['errors'] = checked.errors;
  const n = checked.values;
  if (section === 'balance') {
    const { fieldCapacity, wiltingPoint, rootDepth, initialDepletion } = n;
    if (
      fieldCapacity !== undefined &&
      wiltingPoint !== undefined &&
      wiltingPoint >= fieldCapacity
    ) {
      errors.wiltingPoint = {
        key: 'irrigation.season.errors.wiltingPoint',
        values: { fc: plainNumber(fieldCapacity) },
      };
    } else if (
      fieldCapacity !== undefined &&
      wiltingPoint !== undefined &&
      rootDepth !== undefined &&
      initialDepletion !== undefined
    ) {
      const taw = 1000 * (fieldCapacity - wiltingPoint) * rootDepth;
      if (initialDepletion > taw + 1e-9) {
        errors.initialDepletion = {
          key: 'irrigation.season.errors.initialDepletion',
          values: { taw: plainNumber(taw) },
        };
      }
    }
    const date = state.raw.plantingDate.trim();
    if (state.options.kcMode === 'stage' && date !== '' && !ISO_DATE.test(date)) {
      errors.plantingDate = { key: 'irrigation.season.errors.date' };
    }
  }
  return Object.keys(errors).length ? { value: null, errors } : { value: n, errors: null };
}

/** The weather of a section: its file's days or hours, or the messages of its rows. */
function readWeather(section: Section, state: State) {
  const which = section === 'balance' ? 'daily' : 'hourly';
  const file = state[which];
  if (!file) {
    return { error: { key: `irrigation.season.errors.no_${which}` } as Message, rows: [] };
  }
  const parsed = parseWeatherCsv(file.text, which);
  if (!parsed.ok) {
    return { error: { key: 'irrigation.season.errors.csv' } as Message, rows: parsed.errors };
  }
  return { parsed, rows: [] };
}

/** The balance's input of numbers `n` (all read) and the file's days. */
function balanceInputOf(
  n: Partial<Record<FieldKey, number>>,
  state: State,
  days: WaterBalanceInput['days'],
): WaterBalanceInput {
  const { options } = state;
  const stages = Object.fromEntries(
    [...LENGTH_KEYS, ...KC_KEYS].map((k) => [k, n[k]!]),
  ) as unknown as CropStages;
  const plantingDate = state.raw.plantingDate.trim();
  return {
    fieldCapacity: n.fieldCapacity!,
    wiltingPoint: n.wiltingPoint!,
    rootDepth: n.rootDepth!,
    p: n.p!,
    initialDepletion: n.initialDepletion!,
    strategy: options.strategy,
    ...(options.strategy === 'interval' ? { every: n.every! } : {}),
    ...(n.runoffFraction === undefined ? {} : { runoffFraction: n.runoffFraction }),
    ...(options.kcMode === 'typed'
      ? { kc: n.kc! }
      : { stages, ...(plantingDate ? { plantingDate } : {}) }),
    latitude: n.latitude!,
    altitude: n.altitude!,
    days,
    ...(options.drip
      ? {
          drip: {
            emitterFlow: n.emitterFlow!,
            emitterSpacing: n.emitterSpacing!,
            lateralSpacing: n.lateralSpacing!,
            eu: n.eu!,
            leachingFraction: n.leachingFraction!,
            hoursAvailable: n.hoursAvailable!,
          },
        }
      : {}),
  };
}

/** The message of an input the engine refuses, on the field it names (the file's for its days). */
function engineError(error: HydraulicsInputError, section: Section): State['errors'] {
  const field = error.field.replace(/^(stages|drip)\./, '');
  if (field in FIELDS) {
    return { [field]: { key: 'irrigation.season.errors.refused' } };
  }
  if (field === 'plantingDate' || (section === 'balance' && field === 'days')) {
    return { plantingDate: { key: 'irrigation.season.errors.noSeasonDays' } };
  }
  return {
    [section === 'balance' ? 'daily' : 'hourly']: { key: 'irrigation.season.errors.refusedFile' },
  };
}

/** Runs a section's engine on its input: null when it computes, else its messages. */
function refusal(section: Section, input: WaterBalanceInput | RiskInput): State['errors'] | null {
  try {
    if (section === 'balance') waterBalance(input as WaterBalanceInput);
    else diseaseRisk(input as RiskInput);
    return null;
  } catch (error) {
    if (error instanceof HydraulicsInputError) return engineError(error, section);
    throw error;
  }
}

/** Calculate of one section: its results, or every message of its fields and its file. */
function calculate(state: State, section: Section): State {
  const which = section === 'balance' ? 'daily' : 'hourly';
  const fields = readFields(section, state);
  const weather = readWeather(section, state);
  const errors: State['errors'] = { ...(fields.errors ?? {}) };
  if (weather.error) errors[which] = weather.error;
  const csvErrors = { ...state.csvErrors, [which]: weather.rows };
  const cleared = { ...state, csvErrors, errors: {} };
  const fail = (e: State['errors']) => ({
    ...cleared,
    errors: e,
    attempt: state.attempt + 1,
    ...(section === 'balance' ? { balanceInput: null } : { riskInput: null }),
  });
  if (fields.value === null || !weather.parsed) return fail(errors);
  const { parsed } = weather;
  if (section === 'balance') {
    if (parsed.kind !== 'daily') return fail({ daily: { key: 'irrigation.season.errors.csv' } });
    const input = balanceInputOf(fields.value, state, parsed.days);
    const refused = refusal('balance', input);
    return refused ? fail(refused) : { ...cleared, balanceInput: input };
  }
  if (parsed.kind !== 'hourly') return fail({ hourly: { key: 'irrigation.season.errors.csv' } });
  const input: RiskInput = {
    hours: parsed.hours,
    tomcastThreshold: Number(state.options.tomcastThreshold),
    lateBlightThreshold: fields.value.lateBlightThreshold!,
  };
  const refused = refusal('risk', input);
  return refused ? fail(refused) : { ...cleared, riskInput: input };
}

/** What the scheduling screen hands over: its drip layout, its crop's stages and its site. */
export type FromSchedule = Partial<Record<FieldKey, string>>;

export type Action =
  | { type: 'raw'; key: FieldKey | 'plantingDate'; value: string }
  | { type: 'options'; patch: Partial<Options> }
  | { type: 'file'; which: 'daily' | 'hourly'; file: WeatherFile }
  | { type: 'calculate'; section: Section }
  | { type: 'fromSchedule'; values: FromSchedule }
  | { type: 'reset' };

/** A saved design's state: its results again from the inputs they came from (unless now refused). */
export function init(saved: Saved | null): State {
  const state: State = {
    raw: saved?.raw ?? { ...DEFAULT_RAW },
    options: saved?.options ?? { ...DEFAULT_OPTIONS },
    daily: saved?.daily ?? null,
    hourly: saved?.hourly ?? null,
    balanceInput: null,
    riskInput: null,
    errors: {},
    csvErrors: { daily: [], hourly: [] },
    attempt: 0,
    imported: false,
  };
  const balance = saved?.balanceInput ?? null;
  const risk = saved?.riskInput ?? null;
  return {
    ...state,
    balanceInput: balance && !refusal('balance', balance) ? balance : null,
    riskInput: risk && !refusal('risk', risk) ? risk : null,
  };
}

const RAW_KEYS = Object.keys(DEFAULT_RAW) as (keyof Raw)[];

function readFile(v: unknown): WeatherFile | null {
  return is.record(v) && typeof v.name === 'string' && typeof v.text === 'string'
    ? { name: v.name, text: v.text }
    : null;
}

/** A saved design (autosave or file); null when it is not one of this screen. */
export function parseSaved(data: unknown): Saved | null {
  if (!is.record(data) || !is.record(data.raw) || !is.record(data.options)) return null;
  const raw = { ...DEFAULT_RAW };
  for (const key of RAW_KEYS) {
    const value = data.raw[key];
    if (typeof value === 'string') raw[key] = value;
  }
  const o = data.options;
  const options: Options = {
    strategy: (BALANCE_STRATEGIES as readonly unknown[]).includes(o.strategy)
      ? (o.strategy as BalanceStrategy)
      : DEFAULT_OPTIONS.strategy,
    kcMode: o.kcMode === 'typed' ? 'typed' : 'stage',
    drip: typeof o.drip === 'boolean' ? o.drip : DEFAULT_OPTIONS.drip,
    tomcastThreshold: TOMCAST_THRESHOLDS.map(String).includes(String(o.tomcastThreshold))
      ? String(o.tomcastThreshold)
      : DEFAULT_OPTIONS.tomcastThreshold,
  };
  // The engines check the saved inputs again (init): one they refuse shows no result.
  const input = <T>(v: unknown): T | null => (is.record(v) ? (v as T) : null);
  return {
    raw,
    options,
    daily: readFile(data.daily),
    hourly: readFile(data.hourly),
    balanceInput: input<WaterBalanceInput>(data.balanceInput),
    riskInput: input<RiskInput>(data.riskInput),
  };
}

export function toSaved(state: State): Saved {
  const { raw, options, daily, hourly, balanceInput, riskInput } = state;
  return { raw, options, daily, hourly, balanceInput, riskInput };
}

export function reducer(state: State, action: Action): State {
  switch (action.type) {
    case 'raw':
      return { ...state, raw: { ...state.raw, [action.key]: action.value } };
    case 'options':
      return { ...state, options: { ...state.options, ...action.patch } };
    case 'file': {
      // A new file: the old results and the old file's messages go.
      const { [action.which]: _gone, ...errors } = state.errors;
      return {
        ...state,
        [action.which]: action.file,
        ...(action.which === 'daily' ? { balanceInput: null } : { riskInput: null }),
        errors,
        csvErrors: { ...state.csvErrors, [action.which]: [] },
      };
    }
    case 'fromSchedule': {
      const raw = { ...state.raw };
      for (const [key, value] of Object.entries(action.values)) {
        if (key in FIELDS && typeof value === 'string' && value.trim() !== '') {
          raw[key as FieldKey] = value;
        }
      }
      // The results came from the values before: they go until Calculate.
      return {
        ...state,
        raw,
        options: { ...state.options, drip: true },
        balanceInput: null,
        errors: {},
        imported: true,
      };
    }
    case 'calculate':
      return calculate(state, action.section);
    case 'reset':
      return init(null);
  }
}

/** Both results, computed from the inputs shown (the reducer checked that the engines take them). */
export function compute(state: Pick<State, 'balanceInput' | 'riskInput'>) {
  return {
    balance: state.balanceInput ? waterBalance(state.balanceInput) : null,
    risk: state.riskInput ? diseaseRisk(state.riskInput) : null,
  };
}
export type Computed = ReturnType<typeof compute>;

/** The screen as `useDesign` runs it: autosave, restore and design files. */
export const DESIGN = { kind: KIND, reducer, init, parse: parseSaved, toSaved };

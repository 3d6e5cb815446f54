/**
 * The main-line designer's state: the initial pressure and the sections, with a pure reducer
 * (no React, no browser) so every rule can be unit-tested. Beyond the specification (README): every
 * number field has a physical range too; the specification's alert on a field comes first.
 */
import {
  HydraulicsInputError,
  MAINLINE_MIN_INITIAL_PRESSURE,
  STATUS_HERE,
  availableNominalDiameters,
  designMainline,
  designMainlineSection,
  mainlineTotals,
  resolveMainlinePipeType,
  validateInitialPressure,
  validateMainlineSection,
  type MainlineDesign,
  type MainlineSectionInput,
  type MainlineSectionRaw,
  type MainlineSectionResult,
  type MainlineTotals,
} from '@diagrodl/hydraulics';
import { is, recalculateSaved } from '../shared/export.ts';
import {
  checkField,
  checkFields,
  errorCount,
  type FieldErrors,
  type FieldMessage,
  type FieldSpec,
} from '../shared/fieldCheck.ts';

export const KIND = 'mainline';
export type Field = keyof MainlineSectionRaw;
const FIELDS: readonly Field[] = ['pipeType', 'nominalDiameter', 'flow', 'length', 'slope'];

/**
 * The number fields, their units and physical ranges (a farm's main line); the specification's
 * rules (three decimals, −1 < slope < 1) come first. A length of 0 is the specification's.
 */
export const MAINLINE_SPECS = {
  flow: { unit: 'L/s', min: 0.01, max: 2000 },
  length: { unit: 'm', min: 0, max: 10_000 },
  slope: { unit: '', min: -1, max: 1 },
} as const satisfies Partial<Record<Field, FieldSpec>>;
type NumberKey = keyof typeof MAINLINE_SPECS;
const NUMBER_KEYS = Object.keys(MAINLINE_SPECS) as NumberKey[];
/** The initial pressure: at least the specification's 0.1 m. */
export const PRESSURE_SPEC: FieldSpec = {
  unit: 'm',
  min: MAINLINE_MIN_INITIAL_PRESSURE,
  max: 300,
};

export interface Section {
  key: number;
  /** The fields as typed; editing them keeps the last result until the next calculation. */
  raw: MainlineSectionRaw;
  /** The values `result` was calculated from (null without a result). */
  input: MainlineSectionInput | null;
  /**
   * The fields as they were typed when `result` was calculated (null without a result), so that
   * the report gives the inputs of the results it shows, not the fields edited since.
   */
  calculatedRaw: MainlineSectionRaw | null;
  result: MainlineSectionResult | null;
  /** The messages of the last calculation, by field (the specification's alert first). */
  errors: FieldErrors<Field>;
  /** Counts the Calculate presses that found errors: the section moves the focus to the first. */
  attempt: number;
}

export interface State {
  initialPressure: string;
  /** The initial pressure's message (the specification's, or its range). */
  pressureAlert: FieldMessage | null;
  /** Counts the totals and exports that found errors: the focus moves to the first. */
  attempt: number;
  /**
   * The i18n key of the export bar's alert (EPANET needs a pressure and designed sections, each
   * longer than 0 m).
   */
  exportMessage: string | null;
  sections: Section[];
  totals: MainlineTotals | null;
  nextKey: number;
}

export interface Saved {
  initialPressure: string;
  sections: {
    raw: MainlineSectionRaw;
    calculated: boolean;
    /**
     * The fields the result shown was calculated from (files saved before it was kept have none:
     * such a section is calculated again from `raw`).
     */
    calculatedRaw?: MainlineSectionRaw | null;
  }[];
  totals: boolean;
  /**
   * The initial pressure the totals shown were made with (the field may have changed since); files
   * saved before it was kept have none: the field's.
   */
  totalsPressure?: number | null;
}

export type Action =
  | { type: 'pressure'; value: string }
  | { type: 'add' }
  | { type: 'reset' }
  | { type: 'remove'; key: number }
  | { type: 'raw'; key: number; field: Field; value: string }
  | { type: 'calculate'; key: number }
  | { type: 'clear'; key: number }
  | { type: 'totals' }
  | { type: 'epanet' };

const emptyRaw = (): MainlineSectionRaw => ({
  pipeType: '',
  nominalDiameter: '',
  flow: '',
  length: '',
  slope: '',
});

const newSection = (key: number): Section => ({
  key,
  raw: emptyRaw(),
  input: null,
  calculatedRaw: null,
  result: null,
  errors: {},
  attempt: 0,
});

/**
 * A section the specification's rules take, but for `field` as typed (the rules of a main-line
 * section are each about one field): the field's own alert, if any, is the one it gives.
 */
function probe(raw: MainlineSectionRaw, field: Field): MainlineSectionRaw {
  const valid = {
    pipeType: 'PVC_RD26',
    nominalDiameter: '150',
    flow: '1',
    length: '1',
    slope: '0',
  };
  return { ...valid, [field]: raw[field] };
}

/**
 * Validates and designs one section: the result, or no result and the message of every field
 * at once: the specification's alert where its rule applies to the field, else the field's range.
 */
export function calculateSection(s: Section, number: number): Section {
  const errors: FieldErrors<Field> = checkFields(MAINLINE_SPECS, s.raw, NUMBER_KEYS).errors;
  for (const field of FIELDS) {
    const own = validateMainlineSection(probe(s.raw, field), number);
    if (!own.ok && own.field === field) errors[field] = { text: own.message };
  }
  const check = validateMainlineSection(s.raw, number);
  if (!check.ok) errors[check.field as Field] = { text: check.message };
  if (!check.ok || errorCount(errors) > 0) {
    return { ...s, input: null, calculatedRaw: null, result: null, errors };
  }
  const result = designMainlineSection(check.value, number);
  return {
    ...s,
    input: check.value,
    calculatedRaw: s.raw,
    result,
    errors: result.innerDiameter === null ? { nominalDiameter: { text: result.message } } : {},
  };
}

/** A section calculated by its Calculate: a press that found errors moves the focus to them. */
function pressCalculate(s: Section, number: number): Section {
  const next = calculateSection(s, number);
  return errorCount(next.errors) > 0 ? { ...next, attempt: s.attempt + 1 } : next;
}

/** The text of a section's first specification alert (for the totals), else 'Status Here'. */
function statusOf(s: Section): string {
  const first = Object.values(s.errors).find((m) => m !== undefined && 'text' in m);
  return first && 'text' in first ? first.text : STATUS_HERE;
}

/** The fields of a saved section, or null when they are not. */
function readRaw(data: unknown): MainlineSectionRaw | null {
  if (!is.stringRecord(data, FIELDS)) return null;
  return Object.fromEntries(FIELDS.map((f) => [f, data[f]])) as MainlineSectionRaw;
}

export function parseSaved(data: unknown): Saved | null {
  if (!is.record(data) || !is.string(data.initialPressure) || !Array.isArray(data.sections)) {
    return null;
  }
  const sections: Saved['sections'] = [];
  for (const s of data.sections) {
    const raw = is.record(s) ? readRaw(s.raw) : null;
    if (!raw) return null;
    const calculated = s.calculated === true;
    sections.push({ raw, calculated, calculatedRaw: calculated ? readRaw(s.calculatedRaw) : null });
  }
  const totals = data.totals === true;
  return {
    initialPressure: data.initialPressure,
    sections,
    totals,
    totalsPressure: totals && is.number(data.totalsPressure) ? data.totalsPressure : null,
  };
}

export function toSaved(state: State): Saved {
  return {
    initialPressure: state.initialPressure,
    sections: state.sections.map((s) => ({
      raw: s.raw,
      calculated: s.result !== null,
      calculatedRaw: s.result ? s.calculatedRaw : null,
    })),
    totals: state.totals !== null,
    totalsPressure: state.totals?.initialPressure ?? null,
  };
}

function computeTotals(initialPressure: number, sections: Section[]): MainlineTotals {
  const inputs: MainlineSectionInput[] = [];
  const results: MainlineSectionResult[] = [];
  sections.forEach((s, i) => {
    inputs.push(
      s.input ?? { pipeType: 'PVC_RD26', nominalDiameter: 50, flow: 0, length: 0, slope: 0 },
    );
    results.push(
      s.result ?? {
        section: i + 1,
        status: 'error',
        message: statusOf(s),
        innerDiameter: null,
        velocity: null,
        hf: null,
      },
    );
  });
  return mainlineTotals(initialPressure, inputs, results);
}

/**
 * The totals shown, made again for sections calculated again: they stay those of the results
 * shown, with the pressure they were made with (none stay none).
 */
const followTotals = (totals: MainlineTotals | null, sections: Section[]) =>
  totals && computeTotals(totals.initialPressure, sections);

/**
 * The totals of a saved design, made with the pressure they were made with (older files: the
 * field's); a pressure the engine refuses gives Calculate's alert instead.
 */
function savedTotals(saved: Saved, sections: Section[]): Pick<State, 'totals' | 'pressureAlert'> {
  if (!saved.totals) return { totals: null, pressureAlert: null };
  let pressure = saved.totalsPressure ?? null;
  if (pressure === null) {
    const check = validateInitialPressure(saved.initialPressure);
    if (!check.ok) return { totals: null, pressureAlert: { text: check.message } };
    pressure = check.value;
  }
  try {
    return { totals: computeTotals(pressure, sections), pressureAlert: null };
  } catch (err) {
    if (err instanceof HydraulicsInputError) {
      return { totals: null, pressureAlert: { text: err.message } };
    }
    throw err;
  }
}

/**
 * The state of a saved design, or of a new one (one empty section): each section's fields as typed
 * and its result calculated again from the fields it came from (one the engine now refuses gets
 * Calculate's alert), and the totals with their own pressure.
 */
export function init(saved: Saved | null): State {
  const base = { pressureAlert: null, exportMessage: null, attempt: 0 };
  if (!saved) {
    return { ...base, initialPressure: '', sections: [newSection(1)], totals: null, nextKey: 2 };
  }
  const sections = saved.sections.map((s, i) => {
    const section: Section = { ...newSection(i + 1), raw: s.raw };
    if (!s.calculated) return section;
    return recalculateSaved(section, s.calculatedRaw, (x) => calculateSection(x, i + 1));
  });
  return {
    ...base,
    ...savedTotals(saved, sections),
    initialPressure: saved.initialPressure,
    sections,
    nextKey: sections.length + 1,
  };
}

const updateSection = (
  state: State,
  key: number,
  update: (s: Section, index: number) => Section,
): Section[] => state.sections.map((s, i) => (s.key === key ? update(s, i) : s));

/**
 * The initial-pressure rule: a number >= 0.1 m, otherwise its alert and the field cleared (the
 * specification's); then its range (a message, the field kept).
 */
function checkPressure(state: State): { state: State; pressure: number | null } {
  const check = validateInitialPressure(state.initialPressure);
  if (!check.ok) {
    return {
      state: {
        ...state,
        pressureAlert: { text: check.message },
        initialPressure: '',
        totals: null,
      },
      pressure: null,
    };
  }
  const range = checkField(PRESSURE_SPEC, state.initialPressure);
  if ('error' in range) {
    return { state: { ...state, pressureAlert: range.error, totals: null }, pressure: null };
  }
  return { state: { ...state, pressureAlert: null }, pressure: check.value };
}

/** A totals or export press: one that found errors moves the focus to the first. */
function pressed(before: State, after: State): State {
  const found =
    after.pressureAlert !== null || after.sections.some((s) => errorCount(s.errors) > 0);
  return found ? { ...after, attempt: before.attempt + 1 } : after;
}

export function reducer(state: State, action: Action): State {
  switch (action.type) {
    case 'pressure':
      return { ...state, initialPressure: action.value, pressureAlert: null };
    case 'add':
      return {
        ...state,
        exportMessage: null,
        sections: [...state.sections, newSection(state.nextKey)],
        nextKey: state.nextKey + 1,
      };
    case 'reset':
      return {
        ...state,
        initialPressure: '',
        pressureAlert: null,
        exportMessage: null,
        sections: [],
        totals: null,
      };
    case 'remove':
      // Sections are numbered by position: the ones after the deleted section are renumbered.
      return {
        ...state,
        exportMessage: null,
        totals: null,
        sections: state.sections
          .filter((s) => s.key !== action.key)
          .map((s, i) => (s.result || errorCount(s.errors) > 0 ? calculateSection(s, i + 1) : s)),
      };
    case 'raw':
      return {
        ...state,
        sections: updateSection(state, action.key, (s) => {
          const raw = { ...s.raw, [action.field]: action.value };
          // A new pipe type keeps the diameter only if the catalogue has it.
          if (action.field === 'pipeType' && raw.nominalDiameter) {
            const type = resolveMainlinePipeType(action.value);
            const sizes: number[] = type ? availableNominalDiameters(type) : [];
            if (!sizes.includes(Number(raw.nominalDiameter))) raw.nominalDiameter = '';
          }
          return { ...s, raw };
        }),
      };
    case 'calculate': {
      const sections = updateSection(state, action.key, (s, i) => pressCalculate(s, i + 1));
      return { ...state, sections, totals: followTotals(state.totals, sections) };
    }
    case 'clear':
      return {
        ...state,
        totals: null,
        sections: updateSection(state, action.key, (s) => newSection(s.key)),
      };
    case 'totals': {
      const checked = checkPressure({ ...state, exportMessage: null });
      if (checked.pressure === null) return pressed(state, checked.state);
      const sections = state.sections.map((s, i) => calculateSection(s, i + 1));
      return pressed(state, {
        ...checked.state,
        sections,
        totals: computeTotals(checked.pressure, sections),
      });
    }
    case 'epanet': {
      const checked = checkPressure(state);
      if (checked.pressure === null) {
        return pressed(state, {
          ...checked.state,
          exportMessage: 'irrigation.mainline.epanetNeedsPressure',
        });
      }
      const sections = state.sections.map((s, i) => calculateSection(s, i + 1));
      return pressed(state, {
        ...checked.state,
        sections,
        totals: followTotals(checked.state.totals, sections),
        exportMessage: epanetProblem(sections),
      });
    }
  }
}

/**
 * Why the sections cannot be exported to EPANET (the alert's i18n key), or null when they can:
 * every section valid with an available diameter, and longer than 0 m (a section of length 0 is
 * valid here, but EPANET refuses a pipe of length 0 and toEpanetInp throws for it).
 */
function epanetProblem(sections: Section[]): string | null {
  const designed = sections.every((s) => s.input !== null && s.result?.innerDiameter != null);
  if (sections.length === 0 || !designed) return 'irrigation.mainline.epanetNeedsSections';
  if (sections.some((s) => !(s.input!.length > 0))) return 'irrigation.mainline.epanetNeedsLength';
  return null;
}

/** The design the EPANET export writes for this state, or null when it cannot be made. */
export function epanetDesign(state: State): MainlineDesign | null {
  const { pressure } = checkPressure(state);
  if (pressure === null) return null;
  const sections = state.sections.map((s, i) => calculateSection(s, i + 1));
  if (epanetProblem(sections) !== null) return null;
  return designMainline({
    initialPressure: pressure,
    sections: sections.map((s) => s.input!),
  });
}

/**
 * The pressure profile along the line: the head falls by the Hf of each OK section (the sections
 * the totals count); a section in error keeps the pressure (its loss is unknown or rejected).
 */
export function pressureProfile(state: State): { x: number; y: number }[] {
  const { totals } = state;
  if (!totals) return [];
  const points = [{ x: 0, y: totals.initialPressure }];
  let x = 0;
  let p = totals.initialPressure;
  for (const s of state.sections) {
    if (!s.input) continue;
    x += s.input.length;
    if (s.result?.status === 'ok') p -= s.result.hf!;
    points.push({ x, y: p });
  }
  return points;
}

/** The designer as `useDesign` runs it: autosave, restore and design files. */
export const DESIGN = { kind: KIND, reducer, init, parse: parseSaved, toSaved };

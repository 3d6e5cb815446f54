/**
 * Main-line designer (specification §3, §4, §5, §8, §9).
 */
import {
  MAINLINE_CATALOGUE,
  MAINLINE_NOMINAL_DIAMETERS,
  MAINLINE_PIPE_TYPES,
  type MainlineNominalDiameter,
  type MainlinePipeType,
  type MainlinePipeTypeInfo,
} from './data/mainline-catalogue';
import { HydraulicsInputError, type ValidationResult } from './errors';
import { hazenWilliamsLoss, pipeVelocity } from './formulas';
import { MAINLINE_MESSAGES } from './messages';
import { isBlank, millimetresToMetres, parseDecimal, parseThreeDecimals } from './numbers';

/** Velocity limits, m/s, and the least initial pressure, m (specification §9). */
export const MAINLINE_MIN_VELOCITY = 0.5;
export const MAINLINE_MAX_VELOCITY = 2.5;
export const MAINLINE_MIN_INITIAL_PRESSURE = 0.1;

export interface MainlineSectionInput {
  pipeType: MainlinePipeType;
  /** Nominal diameter, mm (one of MAINLINE_NOMINAL_DIAMETERS). */
  nominalDiameter: number;
  /** Flow, L/s. */
  flow: number;
  /** Length, m. */
  length: number;
  /** Slope, decimal, −1 < slope < 1; positive uphill. */
  slope: number;
}

/** One section form's raw strings, as typed or selected. */
export type MainlineSectionRaw = { [K in keyof MainlineSectionInput]: string };

export interface MainlineSectionResult {
  section: number;
  status: 'ok' | 'error';
  message: string;
  /** Inner diameter, m; null when the combination is unavailable. */
  innerDiameter: number | null;
  /** Mean velocity, m/s; null when the diameter is unavailable. */
  velocity: number | null;
  /** Head loss including the slope term, m; null when the diameter is unavailable. */
  hf: number | null;
}

export interface MainlineTotals {
  initialPressure: number;
  /** Σ hf over the OK sections, m. */
  hfTotal: number;
  /** initialPressure − hfTotal, m. */
  endPressure: number;
  /** Largest flow among the OK sections, L/s (0 when none). */
  maxFlow: number;
  /** Largest velocity among the OK sections, m/s (0 when none). */
  maxVelocity: number;
  sectionsWithErrors: number;
  /** 'There are N sections with errors, check this please.' when N > 0, else null. */
  message: string | null;
}

export interface MainlineInput {
  /** Pressure at the head of the line, m (>= 0.1). */
  initialPressure: number;
  sections: readonly MainlineSectionInput[];
}

export interface MainlineDesign {
  input: MainlineInput;
  sections: MainlineSectionResult[];
  totals: MainlineTotals;
}

export function mainlinePipeTypeInfo(pipeType: MainlinePipeType): MainlinePipeTypeInfo {
  const info = MAINLINE_PIPE_TYPES.find((t) => t.id === pipeType);
  if (!info) throw new HydraulicsInputError('pipeType', `Unknown pipe type '${String(pipeType)}'`);
  return info;
}

/** The pipe type for a selector value: its id ('PVC_RD26') or its code (1-6, '1'-'6'). */
export function resolveMainlinePipeType(value: string | number): MainlinePipeType | null {
  const text = String(value).trim();
  const info = MAINLINE_PIPE_TYPES.find((t) => t.id === text || String(t.code) === text);
  return info ? info.id : null;
}

function isNominalDiameter(value: number): value is MainlineNominalDiameter {
  return (MAINLINE_NOMINAL_DIAMETERS as readonly number[]).includes(value);
}

/** Inner diameter in mm of a pipe type and nominal diameter, or null when unavailable. */
export function mainlineInnerDiameterMm(
  pipeType: MainlinePipeType,
  nominalDiameter: number,
): number | null {
  const row = MAINLINE_CATALOGUE.find(
    (r) => r.pipeType === pipeType && r.nominal === nominalDiameter,
  );
  return row ? row.inner : null;
}

/** Nominal diameters available for a pipe type (for the selector). */
export function availableNominalDiameters(pipeType: MainlinePipeType): MainlineNominalDiameter[] {
  return MAINLINE_CATALOGUE.filter((r) => r.pipeType === pipeType && r.inner !== null).map(
    (r) => r.nominal,
  );
}

/**
 * Validates one section form's raw strings (specification §5): pipe type chosen ('Please select
 * type pipe in this section N'), nominal diameter chosen, flow and length digits with up to three
 * decimals, slope strictly between −1 and 1. Decimal commas are accepted.
 */
export function validateMainlineSection(
  raw: MainlineSectionRaw,
  section: number,
): ValidationResult<MainlineSectionInput> {
  const pipeType = resolveMainlinePipeType(raw.pipeType ?? '');
  if (!pipeType) {
    return { ok: false, field: 'pipeType', message: MAINLINE_MESSAGES.selectPipeType(section) };
  }
  const nominal = isBlank(raw.nominalDiameter) ? null : parseDecimal(raw.nominalDiameter);
  if (nominal === null || !isNominalDiameter(nominal)) {
    return {
      ok: false,
      field: 'nominalDiameter',
      message: MAINLINE_MESSAGES.selectNominalDiameter(section),
    };
  }
  const flow = parseThreeDecimals(raw.flow ?? '');
  if (flow === null) return { ok: false, field: 'flow', message: MAINLINE_MESSAGES.threeDecimals };
  const length = parseThreeDecimals(raw.length ?? '');
  if (length === null) {
    return { ok: false, field: 'length', message: MAINLINE_MESSAGES.threeDecimals };
  }
  const slope = parseDecimal(raw.slope ?? '');
  if (slope === null || !(slope > -1 && slope < 1)) {
    return { ok: false, field: 'slope', message: MAINLINE_MESSAGES.slope };
  }
  return { ok: true, value: { pipeType, nominalDiameter: nominal, flow, length, slope } };
}

/**
 * Validates the initial pressure field: a number >= 0.1 m, otherwise the specification's
 * message "Please enter some initial pressure in decimal unit, it's should be > 0 meters".
 */
export function validateInitialPressure(raw: string): ValidationResult<number> {
  const value = isBlank(raw) ? null : parseDecimal(raw);
  if (value === null || !(value >= MAINLINE_MIN_INITIAL_PRESSURE)) {
    return { ok: false, field: 'initialPressure', message: MAINLINE_MESSAGES.initialPressure };
  }
  return { ok: true, value };
}

function checkSection(input: MainlineSectionInput, section: number): void {
  mainlinePipeTypeInfo(input.pipeType);
  if (!isNominalDiameter(input.nominalDiameter)) {
    throw new HydraulicsInputError(
      'nominalDiameter',
      MAINLINE_MESSAGES.selectNominalDiameter(section),
    );
  }
  for (const field of ['flow', 'length'] as const) {
    if (!(input[field] >= 0) || !Number.isFinite(input[field])) {
      throw new HydraulicsInputError(field, MAINLINE_MESSAGES.threeDecimals);
    }
  }
  if (!(input.slope > -1 && input.slope < 1)) {
    throw new HydraulicsInputError('slope', MAINLINE_MESSAGES.slope);
  }
}

/**
 * One main-line section: velocity = Q / (π D² / 4) and
 * hf = 10.648 · L · (Q / C)^1.852 / D^4.871 + L · slope with Q = flow / 1000 (specification §9).
 * Status: unavailable diameter, velocity outside 0.5-2.5 m/s, or hf < 0 → error with the
 * specification's message, checked in that order; otherwise 'This section it's OK!'.
 * @throws HydraulicsInputError for values the form rules reject.
 */
export function designMainlineSection(
  input: MainlineSectionInput,
  section = 1,
): MainlineSectionResult {
  checkSection(input, section);
  const innerMm = mainlineInnerDiameterMm(input.pipeType, input.nominalDiameter);
  if (innerMm === null) {
    return {
      section,
      status: 'error',
      message: MAINLINE_MESSAGES.unavailable(section),
      innerDiameter: null,
      velocity: null,
      hf: null,
    };
  }
  const diameter = millimetresToMetres(innerMm);
  const flow = input.flow / 1000;
  const { c } = mainlinePipeTypeInfo(input.pipeType);
  const velocity = pipeVelocity(flow, diameter);
  const hf = hazenWilliamsLoss(flow, c, diameter, input.length) + input.length * input.slope;
  let message: string = MAINLINE_MESSAGES.ok;
  if (velocity < MAINLINE_MIN_VELOCITY || velocity > MAINLINE_MAX_VELOCITY) {
    message = MAINLINE_MESSAGES.velocity;
  } else if (hf < 0) {
    message = MAINLINE_MESSAGES.hfNegative;
  }
  return {
    section,
    status: message === MAINLINE_MESSAGES.ok ? 'ok' : 'error',
    message,
    innerDiameter: diameter,
    velocity,
    hf,
  };
}

/**
 * Totals over the OK sections only (specification §4): hfTotal, endPressure = initialPressure −
 * hfTotal, maxFlow, maxVelocity and the count of sections with errors.
 * @throws HydraulicsInputError ('initialPressure', specification message) below 0.1 m.
 */
export function mainlineTotals(
  initialPressure: number,
  inputs: readonly MainlineSectionInput[],
  results: readonly MainlineSectionResult[],
): MainlineTotals {
  if (!(initialPressure >= MAINLINE_MIN_INITIAL_PRESSURE) || !Number.isFinite(initialPressure)) {
    throw new HydraulicsInputError('initialPressure', MAINLINE_MESSAGES.initialPressure);
  }
  let hfTotal = 0;
  let maxFlow = 0;
  let maxVelocity = 0;
  let errors = 0;
  results.forEach((result, index) => {
    if (result.status !== 'ok') {
      errors++;
      return;
    }
    hfTotal += result.hf!;
    maxFlow = Math.max(maxFlow, inputs[index]!.flow);
    maxVelocity = Math.max(maxVelocity, result.velocity!);
  });
  return {
    initialPressure,
    hfTotal,
    endPressure: initialPressure - hfTotal,
    maxFlow,
    maxVelocity,
    sectionsWithErrors: errors,
    message: errors > 0 ? MAINLINE_MESSAGES.sectionsWithErrors(errors) : null,
  };
}

/** Designs every section (numbered 1, 2, ...) and the totals. */
export function designMainline(input: MainlineInput): MainlineDesign {
  const sections = input.sections.map((section, index) =>
    designMainlineSection(section, index + 1),
  );
  return {
    input,
    sections,
    totals: mainlineTotals(input.initialPressure, input.sections, sections),
  };
}

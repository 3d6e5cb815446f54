/**
 * Lateral-line calculator (specification §3 "Lateral-line calculator inputs").
 *
 * For n = 1, 2, ... emitters the table gives the head loss of a drip lateral with n emitters and
 * stops at the first row whose loss plus slope head reaches the permissible loss hfAdminPerc × Po.
 *
 * The engineering checks (README.md) add, for the designed lateral (the table's longest, or one of a fixed length or number
 * of emitters): the pressure profile emitter by emitter, the inlet pressure, every emitter's flow
 * from q = k·h^x, the flow variation and the emission uniformity; and the choice of friction
 * formula (Hazen-Williams by default, or Darcy-Weisbach with Blasius' factor).
 */
import { HydraulicsInputError } from './errors';
import {
  blasiusGradient,
  christiansenF,
  frictionFlowExponent,
  isFrictionFormula,
  lateralUnitLoss,
  BLASIUS_MAX_DIAMETER,
  DEFAULT_FRICTION_FORMULA,
  type FrictionFormula,
} from './formulas';
import {
  checkEmitterInput,
  emitterCoefficient,
  emitterFlow,
  uniformity,
  EMITTER_DEFAULTS,
  type EmitterInput,
  type UniformityFigures,
} from './uniformity';

export interface LateralInput {
  /** Operating pressure Po, m of water column. */
  Po: number;
  /** Equivalent pipe length of one emitter connection, m. */
  lossEmitter: number;
  /** Emitter flow, L/h. */
  qEmitter: number;
  /** Emitter spacing, m. */
  spaceEmitter: number;
  /** Hazen-Williams coefficient C (N_HZ). */
  C: number;
  /** Permissible loss as a fraction of Po. */
  hfAdminPerc: number;
  /** Lateral inner diameter D_LL, m. */
  D: number;
  /** Ground slope, decimal; positive uphill, negative downhill. */
  slope: number;
  /** Hazen-Williams flow exponent m (read-only on the screen). */
  m: number;
}

/** The screen's default inputs (specification §3). */
export const LATERAL_DEFAULTS: Readonly<LateralInput> = {
  Po: 10,
  lossEmitter: 0.35,
  qEmitter: 1.1,
  spaceEmitter: 0.2,
  C: 140,
  hfAdminPerc: 0.2,
  D: 0.0139,
  slope: 0,
  m: 1.852,
};

/** The table never goes beyond this many emitters (README.md, "Lateral-line calculator"). */
export const LATERAL_MAX_EMITTERS = 499;

/** L/h → m3/s. */
const LITRES_PER_HOUR_TO_M3_PER_S = 1 / 3_600_000;

export interface LateralRow {
  /** Number of emitters N_emitter. */
  n: number;
  /** Real lateral length Le_real = n × spaceEmitter, m. */
  leReal: number;
  /** Equivalent length Le_equiv = n × (spaceEmitter + lossEmitter), m. */
  leEquiv: number;
  /** Lateral inlet flow Qa = n × qEmitter, m3/s. */
  qa: number;
  /** Unit head loss HF', m/m. */
  hfUnit: number;
  /** Christiansen factor F. */
  F: number;
  /** Friction loss HF_meter = HF' × F × Le_equiv, m. */
  hf: number;
  /** Slope head = Le_real × slope, m. */
  slope: number;
  /** HF+Slope_meter, m. */
  hfSlope: number;
}

export interface LateralResult {
  /** The friction formula of the table and the design. */
  formula: FrictionFormula;
  /** Flow exponent used (input m with Hazen-Williams, 1.75 with Blasius). */
  m: number;
  rows: LateralRow[];
  /**
   * Largest n whose hfSlope stayed below the limit; 499 (the end of the table) when the limit is
   * never reached, and then only a lower bound of the hydraulic maximum (see limitReached).
   */
  maxEmitters: number;
  /** maxEmitters × spaceEmitter, m. */
  maxLength: number;
  /**
   * True when a row of the table reached the limit, so maxEmitters is the hydraulic maximum; false
   * when the table ended at 499 emitters (LATERAL_MAX_EMITTERS) with every row below the limit, so
   * the lateral takes at least maxEmitters emitters (maybe more).
   */
  limitReached: boolean;
  /** The permissible loss hfAdminPerc × Po, m. */
  limit: number;
  /**
   * The designed lateral: the table's longest (maxEmitters) unless a length or a number of
   * emitters is fixed; null when the table's longest has no emitter and none is fixed.
   */
  design: LateralDesign | null;
  /** Blasius chosen for a pipe of 125 mm or more, outside the range the literature recommends. */
  blasiusOutOfRange: boolean;
}

/** Options of the engineering checks (README.md), beyond the specification's inputs. */
export interface LateralOptions extends Partial<EmitterInput> {
  /** Friction formula; Hazen-Williams (the specification's) by default. */
  formula?: FrictionFormula;
  /** Design a lateral with this many emitters instead of the table's longest. */
  emitters?: number;
  /** ... or of this length, m: floor(length / spaceEmitter) emitters. */
  length?: number;
}

/** A fixed lateral may have at most this many emitters (beyond the specification). */
export const LATERAL_MAX_DESIGN_EMITTERS = 5000;

export interface EmitterPoint {
  /** Emitter number counted from the inlet (the first one a spacing from it). */
  emitter: number;
  /** Distance from the inlet, m. */
  distance: number;
  /** Ground elevation above the inlet, m (distance × slope). */
  elevation: number;
  /** Pressure head at the emitter, m. */
  pressure: number;
  /** Emitter flow from q = k·h^x, L/h. */
  flow: number;
}

export interface LateralDesign extends UniformityFigures, EmitterInput {
  /** Where the number of emitters comes from. */
  source: 'table' | 'emitters' | 'length';
  emitters: number;
  /** emitters × spaceEmitter, m. */
  length: number;
  /** k of q = k·h^x (L/h per m^x): qEmitter at Po. */
  k: number;
  /** Pressure needed at the lateral inlet so that no emitter gets less than Po, m. */
  inletPressure: number;
  /** Friction loss from the inlet to the last emitter, m. */
  frictionLoss: number;
  /** Elevation of the last emitter above the inlet (length × slope), m. */
  elevationChange: number;
  minPressure: number;
  maxPressure: number;
  /** Flow into the lateral, L/h. */
  totalFlow: number;
  /** Emitter by emitter from the inlet. */
  points: EmitterPoint[];
  /** 'warning' when the flow variation passes 10 % or EU falls below 90 %. */
  status: 'ok' | 'warning';
}

function checkLateralInput(input: LateralInput): void {
  const positive: (keyof LateralInput)[] = [
    'Po',
    'qEmitter',
    'spaceEmitter',
    'C',
    'hfAdminPerc',
    'D',
  ];
  for (const key of Object.keys(LATERAL_DEFAULTS) as (keyof LateralInput)[]) {
    if (!Number.isFinite(input[key])) {
      throw new HydraulicsInputError(key, `${key} must be a finite number`);
    }
  }
  for (const key of positive) {
    if (!(input[key] > 0)) throw new HydraulicsInputError(key, `${key} must be greater than 0`);
  }
  if (input.lossEmitter < 0) {
    throw new HydraulicsInputError('lossEmitter', 'lossEmitter must not be negative');
  }
  if (!(input.m > 1)) throw new HydraulicsInputError('m', 'm must be greater than 1');
}

/** The flow exponent m of the lateral: the input m with Hazen-Williams, 1.75 with Blasius. */
function lateralFlowExponent(input: LateralInput, formula: FrictionFormula): number {
  return formula === 'hazen-williams' ? input.m : frictionFlowExponent(formula);
}

/** Unit head loss (m/m) of the lateral pipe carrying `flow` m3/s with the chosen formula. */
function lateralGradient(flow: number, input: LateralInput, formula: FrictionFormula): number {
  return formula === 'hazen-williams'
    ? lateralUnitLoss(flow, input.C, input.D, input.m)
    : blasiusGradient(flow, input.D);
}

/**
 * One row of the lateral table for n emitters (README.md, "Formulas and sources"):
 * leReal = n·s, leEquiv = n·(s + lossEmitter), qa = n·q/3.6e6, hfUnit = 10.643·(qa/C)^m·D^-4.87,
 * F = Christiansen(n, m), hf = hfUnit·F·leEquiv, slope head = leReal·slope, hfSlope = hf + slope head.
 */
export function lateralRow(
  n: number,
  input: LateralInput,
  formula: FrictionFormula = DEFAULT_FRICTION_FORMULA,
): LateralRow {
  const leReal = n * input.spaceEmitter;
  const leEquiv = n * (input.spaceEmitter + input.lossEmitter);
  const qa = n * input.qEmitter * LITRES_PER_HOUR_TO_M3_PER_S;
  const hfUnit = lateralGradient(qa, input, formula);
  const F = christiansenF(n, lateralFlowExponent(input, formula));
  const hf = hfUnit * F * leEquiv;
  const slope = leReal * input.slope;
  return { n, leReal, leEquiv, qa, hfUnit, F, hf, slope, hfSlope: hf + slope };
}

/**
 * The lateral table: rows n = 1 ... until the first row whose hfSlope >= hfAdminPerc × Po (that
 * row included, limitReached true) or n = 499 (limitReached false: maxEmitters 499 is then the
 * table's end, not the hydraulic maximum). With the defaults: 281 rows, maxEmitters 280, maxLength
 * 56 m.
 * Then the designed lateral (see lateralDesign).
 * @throws HydraulicsInputError for non-finite or out-of-range inputs.
 */
export function designLateral(
  input: Partial<LateralInput> = {},
  options: LateralOptions = {},
): LateralResult {
  const full: LateralInput = { ...LATERAL_DEFAULTS };
  for (const key of Object.keys(LATERAL_DEFAULTS) as (keyof LateralInput)[]) {
    const value = input[key];
    if (value !== undefined) full[key] = value;
  }
  checkLateralInput(full);
  const formula = options.formula ?? DEFAULT_FRICTION_FORMULA;
  if (!isFrictionFormula(formula)) {
    throw new HydraulicsInputError(
      'formula',
      'formula must be hazen-williams or darcy-weisbach-blasius',
    );
  }
  const emitter: EmitterInput = {
    x: options.x ?? EMITTER_DEFAULTS.x,
    cv: options.cv ?? EMITTER_DEFAULTS.cv,
    emittersPerPlant: options.emittersPerPlant ?? EMITTER_DEFAULTS.emittersPerPlant,
  };
  checkEmitterInput(emitter);
  const fixed = fixedEmitters(options, full.spaceEmitter);

  const limit = full.hfAdminPerc * full.Po;
  const rows: LateralRow[] = [];
  let maxEmitters = LATERAL_MAX_EMITTERS;
  let limitReached = false;
  for (let n = 1; n <= LATERAL_MAX_EMITTERS; n++) {
    const row = lateralRow(n, full, formula);
    rows.push(row);
    if (row.hfSlope >= limit) {
      maxEmitters = n - 1;
      limitReached = true;
      break;
    }
  }
  const n = fixed?.emitters ?? maxEmitters;
  return {
    formula,
    m: lateralFlowExponent(full, formula),
    rows,
    maxEmitters,
    maxLength: maxEmitters * full.spaceEmitter,
    limitReached,
    limit,
    design: n > 0 ? lateralDesign(n, full, formula, emitter, fixed?.source ?? 'table') : null,
    blasiusOutOfRange: formula === 'darcy-weisbach-blasius' && full.D >= BLASIUS_MAX_DIAMETER,
  };
}

/** The fixed number of emitters of the options, checked; null when none is fixed. */
function fixedEmitters(
  options: LateralOptions,
  spacing: number,
): { emitters: number; source: 'emitters' | 'length' } | null {
  const { emitters, length } = options;
  if (emitters !== undefined && length !== undefined) {
    throw new HydraulicsInputError('length', 'give emitters or length, not both');
  }
  const inRange = (n: number) => n >= 1 && n <= LATERAL_MAX_DESIGN_EMITTERS;
  if (emitters !== undefined) {
    if (!Number.isInteger(emitters) || !inRange(emitters)) {
      throw new HydraulicsInputError(
        'emitters',
        `emitters must be a whole number from 1 to ${LATERAL_MAX_DESIGN_EMITTERS}`,
      );
    }
    return { emitters, source: 'emitters' };
  }
  if (length !== undefined) {
    const n = Number.isFinite(length) ? Math.floor(length / spacing + INTEGER_TOLERANCE) : NaN;
    if (!inRange(n)) {
      throw new HydraulicsInputError(
        'length',
        `length must hold 1 to ${LATERAL_MAX_DESIGN_EMITTERS} emitters at the spacing given`,
      );
    }
    return { emitters: n, source: 'length' };
  }
  return null;
}

/** Tolerance of floor on quotients that are integers in exact arithmetic (56 / 0.2 = 280). */
const INTEGER_TOLERANCE = 1e-9;

/**
 * The designed lateral of n emitters, computed emitter by emitter (the step-by-step method):
 * segment i runs from emitter i − 1 (the inlet for i = 1) to emitter i, has the friction length
 * spaceEmitter + lossEmitter and the rise spaceEmitter × slope, and carries the flows of emitters
 * i ... n, each q = k·h^x with k = qEmitter / Po^x. Walking upstream from the last emitter gives
 * every pressure; the last emitter's pressure is solved for so that the least-watered emitter
 * (the last one on a flat or uphill lateral) gets exactly Po. With x = 0 and a flat lateral the
 * friction loss is the exact sum that Christiansen's F approximates.
 */
export function lateralDesign(
  n: number,
  input: LateralInput,
  formula: FrictionFormula,
  emitter: EmitterInput,
  source: LateralDesign['source'] = 'table',
): LateralDesign {
  const { x } = emitter;
  const k = emitterCoefficient(input.qEmitter, input.Po, x);
  const segment = input.spaceEmitter + input.lossEmitter;
  const rise = input.spaceEmitter * input.slope;
  const pressure = new Float64Array(n + 1);
  const flow = new Float64Array(n + 1);
  let friction = 0;

  /** Walks upstream from the last emitter at `end` m; returns min emitter pressure − Po. */
  const walk = (end: number): number => {
    pressure[n] = end;
    flow[n] = emitterFlow(k, end, x);
    let carried = flow[n]!;
    let lowest = end;
    friction = 0;
    for (let i = n; i >= 1; i--) {
      const hf = lateralGradient(carried * LITRES_PER_HOUR_TO_M3_PER_S, input, formula) * segment;
      friction += hf;
      pressure[i - 1] = pressure[i]! + hf + rise;
      if (i > 1) {
        flow[i - 1] = emitterFlow(k, pressure[i - 1]!, x);
        carried += flow[i - 1]!;
        lowest = Math.min(lowest, pressure[i - 1]!);
      }
    }
    return lowest - input.Po;
  };

  // The least pressure rises at least as fast as the end pressure, so [Po, Po − f(Po)] brackets
  // the root; the Illinois variant of regula falsi closes it in a few walks.
  let best = input.Po;
  let bestF = walk(best);
  if (bestF !== 0) {
    let a = best;
    let fa = bestF;
    let b = input.Po - fa;
    let fb = walk(b);
    if (Math.abs(fb) < Math.abs(bestF)) [best, bestF] = [b, fb];
    let side = 0;
    for (let i = 0; i < 100 && Math.abs(bestF) > 1e-12 * input.Po && fa !== fb; i++) {
      const c = (fa * b - fb * a) / (fa - fb);
      const fc = walk(c);
      if (Math.abs(fc) < Math.abs(bestF)) [best, bestF] = [c, fc];
      if (fc * fb > 0) {
        [b, fb] = [c, fc];
        if (side === -1) fa /= 2;
        side = -1;
      } else if (fc * fa > 0) {
        [a, fa] = [c, fc];
        if (side === 1) fb /= 2;
        side = 1;
      } else break;
    }
    walk(best);
  }

  const points: EmitterPoint[] = [];
  const flows: number[] = [];
  let minPressure = Infinity;
  let maxPressure = -Infinity;
  for (let i = 1; i <= n; i++) {
    const distance = i * input.spaceEmitter;
    points.push({
      emitter: i,
      distance,
      elevation: distance * input.slope,
      pressure: pressure[i]!,
      flow: flow[i]!,
    });
    flows.push(flow[i]!);
    minPressure = Math.min(minPressure, pressure[i]!);
    maxPressure = Math.max(maxPressure, pressure[i]!);
  }
  const figures = uniformity(flows, emitter);
  return {
    source,
    emitters: n,
    length: n * input.spaceEmitter,
    ...emitter,
    k,
    inletPressure: pressure[0]!,
    frictionLoss: friction,
    elevationChange: n * rise,
    minPressure,
    maxPressure,
    totalFlow: flows.reduce((sum, q) => sum + q, 0),
    points,
    ...figures,
    status: figures.flowVariationOk && figures.euOk ? 'ok' : 'warning',
  };
}

/**
 * Lateral-line calculator (specification §3 "Lateral-line calculator inputs"; issue 4).
 *
 * For n = 1, 2, ... emitters the table gives the head loss of a drip lateral with n emitters and
 * stops at the first row whose loss plus slope head reaches the permissible loss hfAdminPerc × Po.
 */
import { HydraulicsInputError } from './errors';
import { christiansenF, lateralUnitLoss } from './formulas';

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

/** The table never goes beyond this many emitters (issue 4). */
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
  rows: LateralRow[];
  /** Largest n whose hfSlope stayed below the limit (499 when the limit is never reached). */
  maxEmitters: number;
  /** maxEmitters × spaceEmitter, m. */
  maxLength: number;
  /** The permissible loss hfAdminPerc × Po, m. */
  limit: number;
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

/**
 * One row of the lateral table for n emitters (issue 4 formulas):
 * leReal = n·s, leEquiv = n·(s + lossEmitter), qa = n·q/3.6e6, hfUnit = 10.643·(qa/C)^m·D^-4.87,
 * F = Christiansen(n, m), hf = hfUnit·F·leEquiv, slope head = leReal·slope, hfSlope = hf + slope head.
 */
export function lateralRow(n: number, input: LateralInput): LateralRow {
  const leReal = n * input.spaceEmitter;
  const leEquiv = n * (input.spaceEmitter + input.lossEmitter);
  const qa = n * input.qEmitter * LITRES_PER_HOUR_TO_M3_PER_S;
  const hfUnit = lateralUnitLoss(qa, input.C, input.D, input.m);
  const F = christiansenF(n, input.m);
  const hf = hfUnit * F * leEquiv;
  const slope = leReal * input.slope;
  return { n, leReal, leEquiv, qa, hfUnit, F, hf, slope, hfSlope: hf + slope };
}

/**
 * The lateral table: rows n = 1 ... until the first row whose hfSlope >= hfAdminPerc × Po (that
 * row included) or n = 499. With the defaults: 281 rows, maxEmitters 280, maxLength 56 m.
 * @throws HydraulicsInputError for non-finite or out-of-range inputs.
 */
export function designLateral(input: Partial<LateralInput> = {}): LateralResult {
  const full: LateralInput = { ...LATERAL_DEFAULTS };
  for (const key of Object.keys(LATERAL_DEFAULTS) as (keyof LateralInput)[]) {
    const value = input[key];
    if (value !== undefined) full[key] = value;
  }
  checkLateralInput(full);
  const limit = full.hfAdminPerc * full.Po;
  const rows: LateralRow[] = [];
  let maxEmitters = LATERAL_MAX_EMITTERS;
  for (let n = 1; n <= LATERAL_MAX_EMITTERS; n++) {
    const row = lateralRow(n, full);
    rows.push(row);
    if (row.hfSlope >= limit) {
      maxEmitters = n - 1;
      break;
    }
  }
  return { rows, maxEmitters, maxLength: maxEmitters * full.spaceEmitter, limit };
}

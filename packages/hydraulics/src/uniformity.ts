/**
 * Emitter law, flow variation and emission uniformity (README.md, "Engineering checks"): what an irrigation engineer
 * checks on a drip lateral before signing the design.
 *
 * - Emitter law q = k·h^x (x = 0.5 for a turbulent-flow emitter, 0 for a pressure-compensating
 *   one); k comes from the nominal flow at the nominal (operating) pressure.
 * - Flow variation qvar = (qmax − qmin) / qmax; at most 10 % (the common design criterion).
 * - Emission uniformity (Keller & Karmeli, 1974, "Trickle irrigation design parameters", Trans.
 *   ASAE 17(4)): EU = 100 · (1 − 1.27·Cv/√n) · qmin/qavg, with the manufacturer's coefficient of
 *   variation Cv and n emitters per plant; at least 90 % is the usual goal.
 */
import { HydraulicsInputError } from './errors';

/** Designs with a larger flow variation are flagged. */
export const MAX_FLOW_VARIATION = 0.1;
/** Designs with a smaller emission uniformity (%) are flagged. */
export const MIN_EMISSION_UNIFORMITY = 90;

export interface EmitterInput {
  /** Emitter exponent x of q = k·h^x (0 to 1; 0.5 by default, 0 for pressure compensating). */
  x: number;
  /** Manufacturer's coefficient of variation Cv (decimal, e.g. 0.05). */
  cv: number;
  /** Emitters per plant n of the EU formula (a whole number ≥ 1). */
  emittersPerPlant: number;
}

/**
 * Defaults: x = 0.5 (the issue's); Cv = 0.05, the upper limit of ISO 9261 category A emitters
 * (a conservative choice: most catalogues give 0.03-0.05); one emitter per plant.
 */
export const EMITTER_DEFAULTS: Readonly<EmitterInput> = { x: 0.5, cv: 0.05, emittersPerPlant: 1 };

/** Checks x, Cv and n; throws HydraulicsInputError naming the field. */
export function checkEmitterInput(input: EmitterInput): void {
  for (const key of ['x', 'cv', 'emittersPerPlant'] as const) {
    if (!Number.isFinite(input[key])) {
      throw new HydraulicsInputError(key, `${key} must be a finite number`);
    }
  }
  if (input.x < 0 || input.x > 1) throw new HydraulicsInputError('x', 'x must be between 0 and 1');
  if (!Number.isInteger(input.emittersPerPlant) || input.emittersPerPlant < 1) {
    throw new HydraulicsInputError(
      'emittersPerPlant',
      'emittersPerPlant must be a whole number of at least 1',
    );
  }
  if (input.cv < 0 || 1.27 * input.cv >= Math.sqrt(input.emittersPerPlant)) {
    throw new HydraulicsInputError('cv', 'cv must be at least 0 and below √n / 1.27');
  }
}

/** k of q = k·h^x from the nominal flow q at the nominal pressure h (same units as q). */
export function emitterCoefficient(qNominal: number, hNominal: number, x: number): number {
  return qNominal / Math.pow(hNominal, x);
}

/** q = k·h^x; a pressure below 0 gives no flow (x = 0: always k). */
export function emitterFlow(k: number, pressure: number, x: number): number {
  return x === 0 ? k : k * Math.pow(Math.max(pressure, 0), x);
}

/** Flow variation (qmax − qmin) / qmax, as a fraction. */
export function flowVariation(qMin: number, qMax: number): number {
  return (qMax - qMin) / qMax;
}

/** Keller and Karmeli's EU = 100 · (1 − 1.27·Cv/√n) · qmin/qavg, in %. */
export function emissionUniformity(
  cv: number,
  emittersPerPlant: number,
  qMin: number,
  qAvg: number,
): number {
  return 100 * (1 - (1.27 * cv) / Math.sqrt(emittersPerPlant)) * (qMin / qAvg);
}

export interface UniformityFigures {
  qMin: number;
  qMax: number;
  qAvg: number;
  /** (qmax − qmin) / qmax, fraction. */
  flowVariation: number;
  /** Emission uniformity, %. */
  eu: number;
  /** flowVariation ≤ 10 %. */
  flowVariationOk: boolean;
  /** EU ≥ 90 %. */
  euOk: boolean;
}

/** The figures of a set of emitter flows (any one unit). */
export function uniformity(flows: readonly number[], input: EmitterInput): UniformityFigures {
  if (flows.length === 0) throw new HydraulicsInputError('emitters', 'no emitters');
  let qMin = Infinity;
  let qMax = -Infinity;
  let sum = 0;
  for (const q of flows) {
    qMin = Math.min(qMin, q);
    qMax = Math.max(qMax, q);
    sum += q;
  }
  const qAvg = sum / flows.length;
  const variation = flowVariation(qMin, qMax);
  const eu = emissionUniformity(input.cv, input.emittersPerPlant, qMin, qAvg);
  return {
    qMin,
    qMax,
    qAvg,
    flowVariation: variation,
    eu,
    flowVariationOk: variation <= MAX_FLOW_VARIATION,
    euOk: eu >= MIN_EMISSION_UNIFORMITY,
  };
}

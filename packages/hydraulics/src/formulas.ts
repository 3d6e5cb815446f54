/**
 * The hydraulic formulas of the package, each written once.
 *
 * Units: flow in m3/s, diameter and length in m, head loss in m of water column.
 */
import type { LocalisedLabel } from './units';

/** Hazen-Williams flow exponent (Williams & Hazen, Hydraulic Tables, 1905/1920). */
export const HW_FLOW_EXPONENT = 1.852;

/**
 * Coefficient and diameter exponent of the Hazen-Williams equation used by the secondary and
 * main-line designers (specification §9: 10.648, 1.852, 4.871; the SI form of Hazen-Williams as
 * given in Mexican irrigation texts).
 */
export const HW_COEFFICIENT = 10.648;
export const HW_DIAMETER_EXPONENT = 4.871;

/**
 * Coefficient and diameter exponent of the lateral-line calculator (README.md, "Formulas and sources": 10.643 and 4.87).
 * They differ slightly from the designers' constants; both are kept as specified.
 */
export const LATERAL_HW_COEFFICIENT = 10.643;
export const LATERAL_HW_DIAMETER_EXPONENT = 4.87;

/**
 * Hazen-Williams head loss (SI form; specification §9):
 *   hf = 10.648 · (Q / C)^1.852 · D^-4.871 · L
 * @param flow Q in m3/s
 * @param c Hazen-Williams roughness coefficient C
 * @param diameter inner diameter D in m
 * @param length pipe length L in m
 */
export function hazenWilliamsLoss(
  flow: number,
  c: number,
  diameter: number,
  length: number,
): number {
  return hazenWilliamsGradient(flow, c, diameter) * length;
}

/**
 * Hazen-Williams hydraulic gradient J = K · (Q / C)^m · D^-e (m per m), SI units. The defaults
 * are the designers' constants (K 10.648, m 1.852, e 4.871); the textbook SI form has K = 10.67
 * and e = 4.87.
 */
export function hazenWilliamsGradient(
  flow: number,
  c: number,
  diameter: number,
  coefficient = HW_COEFFICIENT,
  diameterExponent = HW_DIAMETER_EXPONENT,
  m = HW_FLOW_EXPONENT,
): number {
  return coefficient * Math.pow(flow / c, m) * Math.pow(diameter, -diameterExponent);
}

/**
 * Unit head loss of the lateral-line calculator (Hazen-Williams, README.md, "Formulas and sources"):
 *   J = 10.643 · (Q / C)^m · D^-4.87   (m per m)
 * with m = 1.852 by default.
 */
export function lateralUnitLoss(flow: number, c: number, diameter: number, m: number): number {
  return hazenWilliamsGradient(
    flow,
    c,
    diameter,
    LATERAL_HW_COEFFICIENT,
    LATERAL_HW_DIAMETER_EXPONENT,
    m,
  );
}

/** The friction formulas a lateral or a secondary line may use (README.md, "Engineering checks"). */
export const FRICTION_FORMULAS = ['hazen-williams', 'darcy-weisbach-blasius'] as const;
export type FrictionFormula = (typeof FRICTION_FORMULAS)[number];
/** Hazen-Williams stays the default: the specification's constants. */
export const DEFAULT_FRICTION_FORMULA: FrictionFormula = 'hazen-williams';

/** Names of the formulas as printed on the screens and in every export. */
export const FRICTION_FORMULA_LABELS: { readonly [F in FrictionFormula]: LocalisedLabel } = {
  'hazen-williams': { es: 'Hazen-Williams', en: 'Hazen-Williams' },
  'darcy-weisbach-blasius': {
    es: 'Darcy-Weisbach con factor de fricción de Blasius',
    en: 'Darcy-Weisbach with the Blasius friction factor',
  },
};

export function isFrictionFormula(value: unknown): value is FrictionFormula {
  return (FRICTION_FORMULAS as readonly unknown[]).includes(value);
}

/**
 * Darcy-Weisbach with Blasius' friction factor f = 0.316·Re^-0.25 for smooth plastic pipe, water
 * at 20 °C, in Keller & Bliesner's form (Sprinkle and Trickle Irrigation, 1990, eq. 8.7):
 *   J = 7.89·10^7 · Q^1.75 · D^-4.75   (J in m per 100 m, Q in L/s, D in mm).
 * In SI units (Q in m3/s, D in m, J in m per m) the coefficient is
 *   7.89e7 · 1000^1.75 · 1000^-4.75 / 100 = 7.89e7 · 1e-9 / 100 = 7.89e-4.
 */
export const BLASIUS_COEFFICIENT = 7.89e-4;
export const BLASIUS_FLOW_EXPONENT = 1.75;
export const BLASIUS_DIAMETER_EXPONENT = 4.75;
/** The literature recommends Blasius for smooth plastic pipe under 125 mm (inner diameter, m). */
export const BLASIUS_MAX_DIAMETER = 0.125;

/** Blasius hydraulic gradient J = 7.89e-4 · Q^1.75 · D^-4.75 (m per m; Q in m3/s, D in m). */
export function blasiusGradient(flow: number, diameter: number): number {
  return (
    BLASIUS_COEFFICIENT *
    Math.pow(flow, BLASIUS_FLOW_EXPONENT) *
    Math.pow(diameter, -BLASIUS_DIAMETER_EXPONENT)
  );
}

/** Blasius head loss over a length L (m). */
export function blasiusLoss(flow: number, diameter: number, length: number): number {
  return blasiusGradient(flow, diameter) * length;
}

/** The flow exponent m of a formula (the m of Christiansen's factor): 1.852 or 1.75. */
export function frictionFlowExponent(formula: FrictionFormula): number {
  return formula === 'darcy-weisbach-blasius' ? BLASIUS_FLOW_EXPONENT : HW_FLOW_EXPONENT;
}

/**
 * Christiansen's multiple-outlet reduction factor for n equally spaced outlets, the first one a
 * full spacing from the inlet (J. E. Christiansen, "Irrigation by Sprinkling", University of
 * California Agricultural Experiment Station Bulletin 670, 1942):
 *   F = 1/(m+1) + 1/(2n) + sqrt(m-1)/(6 n^2)
 */
export function christiansenF(n: number, m: number): number {
  return 1 / (m + 1) + 1 / (2 * n) + Math.sqrt(m - 1) / (6 * n * n);
}

/** Mean velocity in a full circular pipe (continuity): v = Q / (π D² / 4), m/s. */
export function pipeVelocity(flow: number, diameter: number): number {
  return flow / ((Math.PI * diameter * diameter) / 4);
}

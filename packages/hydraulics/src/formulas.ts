/**
 * The hydraulic formulas of the package, each written once.
 *
 * Units: flow in m3/s, diameter and length in m, head loss in m of water column.
 */

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
 * Coefficient and diameter exponent of the lateral-line calculator (issue 4: 10.643 and 4.87).
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
  return (
    HW_COEFFICIENT *
    Math.pow(flow / c, HW_FLOW_EXPONENT) *
    Math.pow(diameter, -HW_DIAMETER_EXPONENT) *
    length
  );
}

/**
 * Unit head loss of the lateral-line calculator (Hazen-Williams, issue 4):
 *   J = 10.643 · (Q / C)^m · D^-4.87   (m per m)
 * with m = 1.852 by default.
 */
export function lateralUnitLoss(flow: number, c: number, diameter: number, m: number): number {
  return (
    LATERAL_HW_COEFFICIENT *
    Math.pow(flow / c, m) *
    Math.pow(diameter, -LATERAL_HW_DIAMETER_EXPONENT)
  );
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

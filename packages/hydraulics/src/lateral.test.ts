import { describe, expect, it } from 'vitest';
import { HydraulicsInputError } from './errors';
import { designLateral, lateralRow, LATERAL_DEFAULTS, LATERAL_MAX_EMITTERS } from './lateral';
import { expectRelative } from './test-helpers';

// Golden rows worked by hand with bc -l (scale 30) from the formulas and the defaults
// (Po 10, lossEmitter 0.35, qEmitter 1.1 L/h, spaceEmitter 0.2, C 140, D 0.0139, m 1.852):
//   qa = n·1.1/3600000; hfUnit = 10.643·(qa/140)^1.852·0.0139^-4.87; F = Christiansen(n);
//   hf = hfUnit·F·n·0.55.
const GOLDEN = {
  1: {
    leReal: 0.2,
    leEquiv: 0.55,
    qa: 3.05555555555555555555555555555e-7,
    hfUnit: 1.072358217965852702856774e-6,
    F: 1.004470879501071801861804014716,
    hf: 5.92433931287199166517292e-7,
  },
  100: {
    leReal: 20,
    leEquiv: 55,
    qa: 3.0555555555555555555555555555e-5,
    hfUnit: 0.00542425233148844372057728953,
    F: 0.355646520019226404515389546459,
    hf: 0.106101405597002216442684890555,
  },
  281: {
    leReal: 56.2,
    leEquiv: 154.55,
    qa: 8.5861111111111111111111111111e-5,
    hfUnit: 0.036757332663134201572464254906,
    F: 0.352412443775829686656338528088,
    hf: 2.002000738083195421329244114275,
  },
} as const;

describe('lateral-line calculator with the defaults', () => {
  const result = designLateral();

  it('has 281 rows, maxEmitters 280 and maxLength 56 m', () => {
    expect(result.rows).toHaveLength(281);
    expect(result.maxEmitters).toBe(280);
    expectRelative(result.maxLength, 56, 1e-15);
    expect(result.limit).toBe(2);
    // row 280 stays below the limit 2 m, row 281 reaches it (bc: 1.98178..., 2.00200...)
    expectRelative(result.rows[279]!.hfSlope, 1.981784205226170072229935581918, 1e-12);
    expect(result.rows[279]!.hfSlope).toBeLessThan(2);
    expect(result.rows[280]!.hfSlope).toBeGreaterThanOrEqual(2);
  });

  it.each([1, 100, 281] as const)('row %i matches the hand computation', (n) => {
    const row = result.rows[n - 1]!;
    const golden = GOLDEN[n];
    expect(row.n).toBe(n);
    expectRelative(row.leReal, golden.leReal, 1e-14);
    expectRelative(row.leEquiv, golden.leEquiv, 1e-14);
    expectRelative(row.qa, golden.qa, 1e-14);
    expectRelative(row.hfUnit, golden.hfUnit, 1e-12);
    expectRelative(row.F, golden.F, 1e-14);
    expectRelative(row.hf, golden.hf, 1e-12);
    expect(row.slope).toBe(0);
    expect(row.hfSlope).toBe(row.hf);
  });

  it('keeps the numbers unrounded', () => {
    expect(result.rows[0]!.hf).toBe(lateralRow(1, LATERAL_DEFAULTS).hf);
    expect(String(result.rows[99]!.hfUnit).length).toBeGreaterThan(10);
  });
});

describe('lateral-line calculator rules', () => {
  it('adds the slope head leReal × slope (positive uphill)', () => {
    const uphill = designLateral({ slope: 0.01 });
    const row = uphill.rows[9]!;
    expectRelative(row.slope, 2 * 0.01, 1e-15);
    expectRelative(row.hfSlope, row.hf + 0.02, 1e-15);
    expect(uphill.maxEmitters).toBeLessThan(280);
    expect(designLateral({ slope: -0.01 }).maxEmitters).toBeGreaterThan(280);
  });

  it('stops at 499 rows when the limit is never reached', () => {
    const result = designLateral({ Po: 1000 });
    expect(result.rows).toHaveLength(LATERAL_MAX_EMITTERS);
    expect(result.maxEmitters).toBe(499);
    expectRelative(result.maxLength, 99.8, 1e-15);
  });

  it('reports 0 emitters when the first row already reaches the limit', () => {
    const result = designLateral({ slope: 0.9, Po: 0.1, hfAdminPerc: 0.1 });
    expect(result.rows).toHaveLength(1);
    expect(result.maxEmitters).toBe(0);
    expect(result.maxLength).toBe(0);
  });

  it('ignores inputs given as undefined and keeps the defaults', () => {
    expect(designLateral({ D: undefined, C: 140 }).rows).toHaveLength(281);
  });

  it('uses m in the Christiansen factor and the flow exponent', () => {
    const row = lateralRow(10, { ...LATERAL_DEFAULTS, m: 2 });
    expectRelative(row.F, 1 / 3 + 1 / 20 + 1 / 600, 1e-15);
  });

  it.each([
    ['D', 0, 'D must be greater than 0'],
    ['C', -1, 'C must be greater than 0'],
    ['Po', Number.NaN, 'Po must be a finite number'],
    ['lossEmitter', -0.1, 'lossEmitter must not be negative'],
    ['m', 1, 'm must be greater than 1'],
    ['slope', Infinity, 'slope must be a finite number'],
  ] as const)('rejects %s = %s', (field, value, message) => {
    try {
      designLateral({ [field]: value });
      expect.fail('should throw');
    } catch (error) {
      expect(error).toBeInstanceOf(HydraulicsInputError);
      expect((error as HydraulicsInputError).field).toBe(field);
      expect((error as Error).message).toBe(message);
    }
  });
});

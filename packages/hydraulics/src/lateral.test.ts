import { describe, expect, it } from 'vitest';
import { HydraulicsInputError } from './errors';
import { christiansenF } from './formulas';
import { designLateral, lateralRow, LATERAL_DEFAULTS, LATERAL_MAX_EMITTERS } from './lateral';
import { expectRelative } from './test-helpers';

// Golden rows worked by hand with bc -l (scale 30) from the issue's formulas and the defaults
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
    expect(result.limitReached).toBe(false);
  });

  it('says whether the limit was reached or the table ended first', () => {
    expect(designLateral().limitReached).toBe(true);
    expect(designLateral({ slope: 0.9, Po: 0.1, hfAdminPerc: 0.1 }).limitReached).toBe(true);
    // D_LL = 0.02 m: the table ends at 499 emitters, but the loss reaches the limit only after 523.
    const wide = designLateral({ D: 0.02 });
    expect(wide.maxEmitters).toBe(LATERAL_MAX_EMITTERS);
    expect(wide.limitReached).toBe(false);
    const full = { ...LATERAL_DEFAULTS, D: 0.02 };
    expect(lateralRow(523, full).hfSlope).toBeLessThan(wide.limit);
    expect(lateralRow(524, full).hfSlope).toBeGreaterThanOrEqual(wide.limit);
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

// Engineering checks (README.md). The lateral of the hand values in formulas.test.ts: 2 L/h emitters every 0.5 m on
// 13.6 mm pipe, C = 150, flat, no connection loss; Po 10 and Hf_admin_perc 0.2 give 2.0 m.
const ISSUE_20 = { qEmitter: 2, spaceEmitter: 0.5, lossEmitter: 0, C: 150, D: 0.0136 } as const;

describe('engineering checks: the friction formula of the lateral table', () => {
  it('keeps Hazen-Williams as the default, with the specification results', () => {
    const result = designLateral();
    expect(result.formula).toBe('hazen-williams');
    expect(result.m).toBe(1.852);
    expect(designLateral({}, { formula: 'hazen-williams' }).rows).toEqual(result.rows);
  });

  // bc -l, scale 40, HF(n) = J(n·2 L/h)·n·0.5·F(n):
  //   Hazen-Williams (10.643): HF(198) = 1.99010003..., HF(199) = 2.01882699...
  //   Blasius (m = 1.75):       HF(183) = 1.99836200..., HF(184) = 2.02845334...
  it('finds the longest lateral within 2.0 m: 198 emitters (Hazen-Williams), 183 (Blasius)', () => {
    const hw = designLateral(ISSUE_20);
    expect(hw.maxEmitters).toBe(198);
    expectRelative(hw.rows[197]!.hf, 1.99010003231185978065690798956, 1e-12);
    expectRelative(hw.rows[198]!.hf, 2.01882699990063367422456186314, 1e-12);
    expectRelative(hw.rows[99]!.hf, 0.285648833586588178351484950301, 1e-12);

    const blasius = designLateral(ISSUE_20, { formula: 'darcy-weisbach-blasius' });
    expect(blasius.m).toBe(1.75);
    expect(blasius.maxEmitters).toBe(183);
    expectRelative(blasius.rows[99]!.hf, 0.38161504345736468699470361183, 1e-12);
    expectRelative(blasius.rows[99]!.F, christiansenF(100, 1.75), 1e-15);
    expectRelative(blasius.rows[182]!.hf, 1.99836200774443510191692223795, 1e-12);
    expectRelative(blasius.rows[183]!.hf, 2.02845334476144644191658823919, 1e-12);
    expect(blasius.blasiusOutOfRange).toBe(false);
    expect(
      designLateral({ D: 0.125 }, { formula: 'darcy-weisbach-blasius' }).blasiusOutOfRange,
    ).toBe(true);
  });
});

describe('engineering checks: the designed lateral', () => {
  // Worked by hand (bc -l, scale 40): 3 emitters of 8 L/h every 1 m, D 4 mm, C 150, flat,
  // x = 0.5, Po = 10, J(q) = 10.643·(q/3.6e6/150)^1.852·0.004^-4.87 per metre. Upstream from the
  // last emitter (which, on a flat lateral, is the least watered and gets Po):
  //   h3 = 10, q3 = 8; h2 = h3 + J(8) = 10.01603841, q2 = 8·√(h2/10) = 8.00641279;
  //   h1 = h2 + J(q2 + q3) = 10.07398010, q1 = 8.02953751; h0 = h1 + J(q1 + q2 + q3) = 10.19700522.
  //   qavg = 8.01198344; variation (q1 − q3)/q1 = 0.00367861;
  //   EU = 100·(1 − 1.27·0.05)·q3/qavg = 93.5099287 (n = 1), 95.3670189 (n = 2 per plant).
  const small = { qEmitter: 8, spaceEmitter: 1, lossEmitter: 0, C: 150, D: 0.004 };

  it('walks emitter by emitter and matches the hand computation', () => {
    const d = designLateral(small, { emitters: 3 }).design!;
    expect(d.source).toBe('emitters');
    expect(d.emitters).toBe(3);
    expect(d.points.map((p) => p.distance)).toEqual([1, 2, 3]);
    const h = [10.0739801021772223495611215957, 10.0160384102095658283469849532, 10];
    const q = [8.02953751183305843563031533707, 8.00641279383852536703184565053, 8];
    d.points.forEach((p, i) => {
      expectRelative(p.pressure, h[i]!, 1e-12);
      expectRelative(p.flow, q[i]!, 1e-12);
    });
    expectRelative(d.inletPressure, 10.1970052184169221131912350601, 1e-12);
    expectRelative(d.frictionLoss, 0.1970052184169221131912350601, 1e-10);
    expectRelative(d.qAvg, 8.01198343522386126755405366253, 1e-12);
    expectRelative(d.flowVariation, 0.00367860686739793737891934191, 1e-9);
    expectRelative(d.eu, 93.509928728287085983721387424, 1e-12);
    expect(d.k).toBeCloseTo(8 / Math.sqrt(10), 14);
    expect(d.status).toBe('ok');
    const two = designLateral(small, { emitters: 3, emittersPerPlant: 2 }).design!;
    expectRelative(two.eu, 95.3670188778135440605286775842, 1e-12);
  });

  it('designs the table’s longest lateral by default, or a fixed length', () => {
    const result = designLateral();
    expect(result.design!.source).toBe('table');
    expect(result.design!.emitters).toBe(result.maxEmitters);
    expect(result.design!.points).toHaveLength(280);
    const fixed = designLateral({}, { length: 30 }).design!;
    expect(fixed.source).toBe('length');
    expect(fixed.emitters).toBe(150);
    expectRelative(fixed.length, 30, 1e-15);
    // 56 / 0.2 is 279.99999999999997 in binary: the floor still means 280 emitters.
    expect(designLateral({}, { length: 56 }).design!.emitters).toBe(280);
  });

  it('with pressure-compensating emitters (x = 0) sums the exact outlet series Christiansen approximates', () => {
    const d = designLateral(ISSUE_20, { x: 0, emitters: 100 }).design!;
    const m = 1.852;
    let series = 0;
    for (let i = 1; i <= 100; i++) series += Math.pow(i / 100, m);
    const j = (Math.pow((100 * 2) / 3.6e6 / 150, m) * 10.643) / Math.pow(0.0136, 4.87);
    expectRelative(d.frictionLoss, j * 0.5 * series, 1e-12);
    // ... which is Christiansen's F within 1e-6 here (0.2856 m from the table).
    expectRelative(d.frictionLoss, designLateral(ISSUE_20).rows[99]!.hf, 1e-6);
    expect(d.flowVariation).toBe(0);
    expectRelative(d.eu, 100 * (1 - 1.27 * 0.05), 1e-15);
    expectRelative(d.inletPressure, 10 + d.frictionLoss, 1e-15);
  });

  it('adds the slope: uphill the inlet needs friction plus rise, downhill the least pressure is inside', () => {
    const up = designLateral({ slope: 0.01 }, { emitters: 100 }).design!;
    expectRelative(up.elevationChange, 100 * 0.2 * 0.01, 1e-12);
    expectRelative(up.inletPressure, 10 + up.frictionLoss + up.elevationChange, 1e-12);
    expect(up.points.at(-1)!.pressure).toBeCloseTo(10, 9);
    expect(up.minPressure).toBeCloseTo(10, 9);

    const down = designLateral({ slope: -0.02 }, { length: 60 }).design!;
    expect(down.minPressure).toBeCloseTo(10, 9);
    expect(down.points.at(-1)!.pressure).toBeGreaterThan(10.1);
    const lowest = down.points.reduce((a, b) => (b.pressure < a.pressure ? b : a));
    expect(lowest.emitter).toBeGreaterThan(1);
    expect(lowest.emitter).toBeLessThan(300);
    // Every step: h(i−1) = h(i) + friction + rise.
    for (let i = 1; i < down.points.length; i++) {
      expect(down.points[i - 1]!.pressure - down.points[i]!.pressure).toBeGreaterThan(0.2 * -0.02);
    }
  });

  it('flags a flow variation over 10 % and an EU under 90 %', () => {
    const d = designLateral({ slope: 0.01 }, { emitters: 400 }).design!;
    expect(d.flowVariation).toBeGreaterThan(0.1);
    expect(d.eu).toBeLessThan(90);
    expect(d.flowVariationOk).toBe(false);
    expect(d.euOk).toBe(false);
    expect(d.status).toBe('warning');
  });

  it('has no design when not one emitter fits and none is fixed', () => {
    const result = designLateral({ slope: 0.9, Po: 0.1, hfAdminPerc: 0.1 });
    expect(result.design).toBeNull();
    expect(
      designLateral({ slope: 0.9, Po: 0.1, hfAdminPerc: 0.1 }, { emitters: 2 }).design,
    ).not.toBeNull();
  });

  it.each([
    [{ emitters: 0 }, 'emitters', 'emitters must be a whole number from 1 to 5000'],
    [{ emitters: 2.5 }, 'emitters', 'emitters must be a whole number from 1 to 5000'],
    [{ length: 0.1 }, 'length', 'length must hold 1 to 5000 emitters at the spacing given'],
    [{ length: 10, emitters: 3 }, 'length', 'give emitters or length, not both'],
    [{ x: 1.5 }, 'x', 'x must be between 0 and 1'],
    [{ cv: -0.1 }, 'cv', 'cv must be at least 0 and below √n / 1.27'],
    [
      { emittersPerPlant: 0 },
      'emittersPerPlant',
      'emittersPerPlant must be a whole number of at least 1',
    ],
    [{ formula: 'manning' }, 'formula', 'formula must be hazen-williams or darcy-weisbach-blasius'],
  ] as const)('rejects %o', (options, field, message) => {
    try {
      designLateral({}, options as never);
      expect.fail('should throw');
    } catch (error) {
      expect(error).toBeInstanceOf(HydraulicsInputError);
      expect((error as HydraulicsInputError).field).toBe(field);
      expect((error as Error).message).toBe(message);
    }
  });
});

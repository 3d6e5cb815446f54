import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  blasiusGradient,
  blasiusLoss,
  christiansenF,
  frictionFlowExponent,
  hazenWilliamsGradient,
  hazenWilliamsLoss,
  lateralUnitLoss,
  pipeVelocity,
  BLASIUS_COEFFICIENT,
  HW_COEFFICIENT,
  HW_DIAMETER_EXPONENT,
  HW_FLOW_EXPONENT,
} from './formulas';
import { expectRelative } from './test-helpers';

describe('Christiansen factor F = 1/(m+1) + 1/(2n) + sqrt(m-1)/(6n^2), m = 1.852', () => {
  // Worked by hand with bc -l (scale 30): 1/2.852 = 0.350631136044880785..., sqrt(0.852) =
  // 0.923038460737146...; F(n) = 0.3506311360448807854 + 1/(2n) + 0.1538397434561910/n^2.
  it.each([
    [1, 1.004470879501071801861804014716],
    [2, 0.639091071908928539525759559078],
    [5, 0.456784725783128426071667111499],
    [10, 0.402169533479442695578225333273],
    [20, 0.376015735403521262954864888718],
    [50, 0.360692671942263261820323964243],
    [100, 0.355646520019226404515389546459],
  ])('n = %i', (n, expected) => {
    expectRelative(christiansenF(n, 1.852), expected, 1e-14);
  });

  it("gives the engineering checks' four-decimal values (README.md) for N = 1, 2, 5, 10, 20, 50, 100", () => {
    const four = [1, 2, 5, 10, 20, 50, 100].map((n) => christiansenF(n, 1.852).toFixed(4));
    expect(four).toEqual(['1.0045', '0.6391', '0.4568', '0.4022', '0.3760', '0.3607', '0.3556']);
  });

  it('tends to 1/(m+1) for many outlets', () => {
    expectRelative(christiansenF(1e9, 1.852), 1 / 2.852, 1e-8);
  });
});

describe('Hazen-Williams loss 10.648 (Q/C)^1.852 D^-4.871 L', () => {
  it('uses the specification constants', () => {
    expect([HW_COEFFICIENT, HW_FLOW_EXPONENT, HW_DIAMETER_EXPONENT]).toEqual([
      10.648, 1.852, 4.871,
    ]);
  });

  it('matches a hand computation: RD26 105 mm, 10 L/s, 200 m, C 145', () => {
    // bc: 10.648*200*e(1.852*l(0.01/145))/e(4.871*l(0.105)) = 2.450368620369367070564549...
    expectRelative(hazenWilliamsLoss(0.01, 145, 0.105, 200), 2.450368620369367070564549, 1e-13);
  });

  const flow = fc.double({ min: 1e-6, max: 1, noNaN: true });
  const c = fc.double({ min: 80, max: 160, noNaN: true });
  const diameter = fc.double({ min: 0.005, max: 1, noNaN: true });
  const length = fc.double({ min: 0.01, max: 10_000, noNaN: true });
  const factor = fc.double({ min: 1.001, max: 10, noNaN: true });

  it('grows with length', () => {
    fc.assert(
      fc.property(flow, c, diameter, length, factor, (q, cc, d, l, k) => {
        expect(hazenWilliamsLoss(q, cc, d, l * k)).toBeGreaterThan(hazenWilliamsLoss(q, cc, d, l));
      }),
      { numRuns: 100 },
    );
  });

  it('grows with flow', () => {
    fc.assert(
      fc.property(flow, c, diameter, length, factor, (q, cc, d, l, k) => {
        expect(hazenWilliamsLoss(q * k, cc, d, l)).toBeGreaterThan(hazenWilliamsLoss(q, cc, d, l));
      }),
      { numRuns: 100 },
    );
  });

  it('falls with diameter', () => {
    fc.assert(
      fc.property(flow, c, diameter, length, factor, (q, cc, d, l, k) => {
        expect(hazenWilliamsLoss(q, cc, d * k, l)).toBeLessThan(hazenWilliamsLoss(q, cc, d, l));
      }),
      { numRuns: 100 },
    );
  });

  it('lateral unit loss grows with flow and falls with diameter', () => {
    fc.assert(
      fc.property(flow, c, diameter, factor, (q, cc, d, k) => {
        expect(lateralUnitLoss(q * k, cc, d, 1.852)).toBeGreaterThan(
          lateralUnitLoss(q, cc, d, 1.852),
        );
        expect(lateralUnitLoss(q, cc, d * k, 1.852)).toBeLessThan(lateralUnitLoss(q, cc, d, 1.852));
      }),
      { numRuns: 100 },
    );
  });
});

describe('pipe velocity', () => {
  it('is Q / (pi D^2 / 4)', () => {
    // bc: 0.01/(a(1)*0.105^2) = 1.154865800213299488572399...
    expectRelative(pipeVelocity(0.01, 0.105), 1.154865800213299488572399, 1e-14);
  });
});

// Engineering checks (README.md), worked by hand with bc -l (scale 40; p(x, y) = e(y·l(x))): 100 emitters of 2 L/h every
// 0.5 m on 13.6 mm pipe, C = 150, flat, no emitter connection loss. Inlet flow
// Q = 100·2/3.6e6 = 5.5556e-5 m3/s (0.05556 L/s), length L = 50 m.
//   Hazen-Williams, textbook K = 10.67, D^-4.87: 10.67·(Q/150)^1.852·0.0136^-4.87·50 = 0.80521943...
//     × F(100, 1.852) = 0.355646520... → 0.28637349...
//   with the lateral's constant 10.643: 0.28564883...
//   Blasius (Keller & Bliesner): J = 7.89e7·0.05556^1.75·13.6^-4.75 = 2.0703 m/100 m, × 0.5 (50 m)
//     = 1.03516674...; F(100, 1.75) = 1/2.75 + 1/200 + sqrt(0.75)/60000 = 0.36865080... → 0.38161504...
describe('engineering checks, hand values: 100 emitters of 2 L/h every 0.5 m, 13.6 mm, C = 150', () => {
  const Q = (100 * 2) / 3.6e6;
  const F100 = christiansenF(100, 1.852);

  it('Hazen-Williams with K = 10.67: 0.8052 m before F, 0.2864 m after it', () => {
    const before = hazenWilliamsGradient(Q, 150, 0.0136, 10.67, 4.87) * 50;
    expectRelative(before, 0.805219435333156988283901442809, 1e-13);
    expectRelative(before * F100, 0.286373490028083798084219150587, 1e-13);
    expect(before.toFixed(4)).toBe('0.8052');
    expect((before * F100).toFixed(4)).toBe('0.2864');
  });

  it("0.2856 m with the lateral's constant 10.643", () => {
    const after = lateralUnitLoss(Q, 150, 0.0136, 1.852) * 50 * F100;
    expectRelative(after, 0.285648833586588178351484950301, 1e-13);
    expect(after.toFixed(4)).toBe('0.2856');
  });

  it('0.3816 m with Darcy-Weisbach and Blasius (m = 1.75)', () => {
    const before = blasiusLoss(Q, 0.0136, 50);
    expectRelative(before, 1.035166738159656001300949490319, 1e-13);
    expectRelative(christiansenF(100, 1.75), 0.368650797393093377007749092355, 1e-14);
    const after = before * christiansenF(100, frictionFlowExponent('darcy-weisbach-blasius'));
    expectRelative(after, 0.38161504345736468699470361183, 1e-13);
    expect(after.toFixed(4)).toBe('0.3816');
  });
});

describe('Blasius gradient', () => {
  it("is Keller and Bliesner's 7.89e7·Q^1.75·D^-4.75 (m/100 m, L/s, mm) in SI units", () => {
    expect(BLASIUS_COEFFICIENT).toBe(7.89e-4);
    fc.assert(
      fc.property(
        fc.double({ min: 1e-6, max: 0.1, noNaN: true }),
        fc.double({ min: 0.005, max: 0.125, noNaN: true }),
        (q, d) => {
          const kellerBliesner =
            (7.89e7 * Math.pow(q * 1000, 1.75) * Math.pow(d * 1000, -4.75)) / 100;
          expectRelative(blasiusGradient(q, d), kellerBliesner, 1e-12);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('is Darcy-Weisbach with f = 0.316·Re^-0.25 within 1.5 % (water at 20 °C)', () => {
    // ν = 1.004e-6 m2/s, g = 9.81 m/s2; Keller and Bliesner rounded the constant to 7.89e7.
    const q = 0.5e-3;
    const d = 0.02;
    const v = pipeVelocity(q, d);
    const f = 0.316 * Math.pow((v * d) / 1.004e-6, -0.25);
    const darcy = ((f / d) * v * v) / (2 * 9.81);
    expect(Math.abs(blasiusGradient(q, d) / darcy - 1)).toBeLessThan(0.015);
  });

  it('uses m = 1.75 for the multiple-outlet factor; Hazen-Williams keeps 1.852', () => {
    expect(frictionFlowExponent('darcy-weisbach-blasius')).toBe(1.75);
    expect(frictionFlowExponent('hazen-williams')).toBe(HW_FLOW_EXPONENT);
  });

  it('leaves the Hazen-Williams losses bit for bit as before', () => {
    expect(hazenWilliamsLoss(0.01, 145, 0.105, 200)).toBe(
      HW_COEFFICIENT *
        Math.pow(0.01 / 145, HW_FLOW_EXPONENT) *
        Math.pow(0.105, -HW_DIAMETER_EXPONENT) *
        200,
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  christiansenF,
  hazenWilliamsLoss,
  lateralUnitLoss,
  pipeVelocity,
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
    [100, 0.355646520019226404515389546459],
  ])('n = %i', (n, expected) => {
    expectRelative(christiansenF(n, 1.852), expected, 1e-14);
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

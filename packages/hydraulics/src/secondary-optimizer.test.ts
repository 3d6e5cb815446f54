import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  SECONDARY_CATALOGUES,
  SECONDARY_PIPE_TYPES,
  type SecondaryPipeType,
} from './data/secondary-catalogues';
import { hazenWilliamsLoss } from './formulas';
import { millimetresToMetres } from './numbers';
import { countOutlets, designSecondarySection, type SecondarySectionInput } from './secondary';
import { optimiseStretches } from './secondary-optimizer';

/**
 * Brute force: every sequence of 1..nd strictly decreasing catalogue diameters and every choice of
 * boundaries between outlets; the cheapest design (Σ stretch length × D²) with Σ loss <= hfp.
 * Stretch losses come from prefix sums of the outlet-by-outlet losses, independently of the engine.
 */
function bruteForce(input: SecondarySectionInput): { cost: number; hf: number } | null {
  const catalogue = SECONDARY_CATALOGUES[input.pipeType];
  const diameters = catalogue.diameters.map((d) => millimetresToMetres(d.inner));
  const n = countOutlets(input.length, input.s0, input.se);
  // prefix[d][i] = loss of segments 0 .. i − 1 with diameter d
  const prefix = diameters.map((d) => {
    const sums = new Float64Array(n + 1);
    for (let i = 0; i < n; i++) {
      const q = ((n - i) * input.qs * 0.001) / 3600;
      sums[i + 1] = sums[i]! + hazenWilliamsLoss(q, catalogue.c, d, i === 0 ? input.s0 : input.se);
    }
    return sums;
  });
  // distance from the inlet of the boundary after segment b − 1 (at outlet b)
  const at = (b: number) => (b === 0 ? 0 : input.s0 + (b - 1) * input.se);
  let best: { cost: number; hf: number } | null = null;

  const search = (start: number, above: number, left: number, hf: number, cost: number) => {
    for (let d = above - 1; d >= 0; d--) {
      const area = diameters[d]! * diameters[d]!;
      const p = prefix[d]!;
      // this stretch runs to the end of the pipe
      const lastHf = hf + (p[n]! - p[start]!);
      const lastCost = cost + (input.length - at(start)) * area;
      if (
        lastHf <= input.hfp &&
        (!best ||
          lastCost < best.cost * (1 - 1e-12) ||
          (Math.abs(lastCost - best.cost) <= 1e-12 * best.cost && lastHf < best.hf))
      ) {
        best = { cost: lastCost, hf: lastHf };
      }
      if (left > 1) {
        for (let end = start + 1; end < n; end++) {
          search(end, d, left - 1, hf + (p[end]! - p[start]!), cost + (at(end) - at(start)) * area);
        }
      }
    }
  };
  search(0, diameters.length, input.nd, 0, 0);
  return best;
}

/** HFp between the loss of the largest and of the smallest diameter, so that nd matters. */
function interestingHfp(input: SecondarySectionInput, t: number): number {
  const largest = designSecondarySection({ ...input, nd: 1, hfp: 1e9 });
  const catalogue = SECONDARY_CATALOGUES[input.pipeType];
  const n = largest.outlets;
  let small = 0;
  let big = 0;
  const dMin = millimetresToMetres(catalogue.diameters[0]!.inner);
  const dMax = millimetresToMetres(catalogue.diameters[catalogue.diameters.length - 1]!.inner);
  for (let i = 0; i < n; i++) {
    const q = ((n - i) * input.qs * 0.001) / 3600;
    const l = i === 0 ? input.s0 : input.se;
    small += hazenWilliamsLoss(q, catalogue.c, dMin, l);
    big += hazenWilliamsLoss(q, catalogue.c, dMax, l);
  }
  return big * Math.pow(small / big, t);
}

const sectionArbitrary = (maxOutlets: number, maxNd: number) =>
  fc
    .record({
      pipeType: fc.constantFrom<SecondaryPipeType>(...SECONDARY_PIPE_TYPES),
      nd: fc.integer({ min: 2, max: maxNd }),
      outlets: fc.integer({ min: 2, max: maxOutlets }),
      qs: fc.double({ min: 200, max: 40_000, noNaN: true }),
      s0: fc.double({ min: 0.5, max: 10, noNaN: true }),
      se: fc.double({ min: 0.5, max: 10, noNaN: true }),
      tail: fc.double({ min: 0, max: 0.9, noNaN: true }),
      t: fc.double({ min: 0.02, max: 0.98, noNaN: true }),
    })
    .map(({ outlets, tail, t, ...rest }) => {
      const input: SecondarySectionInput = {
        ...rest,
        length: rest.s0 + (outlets - 1) * rest.se + tail * rest.se,
        hfp: 1,
      };
      return { ...input, hfp: interestingHfp(input, t) };
    });

function expectSameOptimum(input: SecondarySectionInput): void {
  const expected = bruteForce(input);
  const result = designSecondarySection(input, 1);
  if (expected === null) {
    expect(result.status).toBe('error');
    return;
  }
  expect(result.status).toBe('ok');
  expect(result.hf).toBeLessThanOrEqual(input.hfp);
  expect(Math.abs(result.cost - expected.cost)).toBeLessThanOrEqual(1e-9 * expected.cost);
  expect(result.stretches.length).toBeLessThanOrEqual(input.nd);
}

describe('stretch optimiser against brute force (N <= 40, nd <= 3)', () => {
  it('agrees on random sections with nd = 2, N <= 40', () => {
    fc.assert(fc.property(sectionArbitrary(40, 2), expectSameOptimum), { numRuns: 60 });
  });

  it('agrees on random sections with nd = 3, N <= 40', () => {
    fc.assert(fc.property(sectionArbitrary(40, 3), expectSameOptimum), { numRuns: 60 });
  });

  it.each(SECONDARY_PIPE_TYPES)('agrees on a 40-outlet, nd = 3 section of %s', (pipeType) => {
    const input: SecondarySectionInput = {
      pipeType,
      nd: 3,
      length: 80,
      qs: 4000,
      s0: 2,
      se: 2,
      hfp: 1,
    };
    for (const t of [0.2, 0.5, 0.8]) expectSameOptimum({ ...input, hfp: interestingHfp(input, t) });
  });

  it('agrees on a case that once broke the greedy upper bound (pair moves on a short stretch)', () => {
    expectSameOptimum({
      pipeType: 'PVC_CED40',
      nd: 3,
      qs: 200,
      s0: 0.5,
      se: 0.5,
      length: 2,
      hfp: 4.15577227045034e-8,
    });
  });

  it('agrees on evenly spaced aluminium sizes, where costs tie', () => {
    const input: SecondarySectionInput = {
      pipeType: 'Aluminum',
      nd: 3,
      length: 30,
      qs: 3000,
      s0: 1,
      se: 1,
      hfp: 1,
    };
    for (const t of [0.1, 0.3, 0.6, 0.9])
      expectSameOptimum({ ...input, hfp: interestingHfp(input, t) });
  });
});

describe('large sections', () => {
  it('designs N = 1000 outlets with nd = 5 within HFp and cheaper than any single diameter', () => {
    const input: SecondarySectionInput = {
      pipeType: 'PVC_RD26',
      nd: 5,
      length: 1000,
      qs: 200,
      s0: 1,
      se: 1,
      hfp: 5,
    };
    const result = designSecondarySection(input);
    expect(result.outlets).toBe(1000);
    expect(result.status).toBe('ok');
    expect(result.hf).toBeLessThanOrEqual(5);
    expect(result.stretches.length).toBeLessThanOrEqual(5);
    const single = designSecondarySection({ ...input, nd: 1 });
    expect(result.cost).toBeLessThan(single.cost);
    // more stretches allowed never costs more
    const three = designSecondarySection({ ...input, nd: 3 });
    expect(result.cost).toBeLessThanOrEqual(three.cost * (1 + 1e-12));
    expect(three.cost).toBeLessThanOrEqual(single.cost);
  });
});

describe('optimiseStretches on its own', () => {
  // Two diameters, three unit segments: loss 4/2/1 on the small one, 1/0.5/0.25 on the large one.
  const problem = (hfp: number, maxStretches = 2) => ({
    diameters: 2,
    segments: 3,
    maxStretches,
    hfp,
    segmentLoss: Float64Array.from([4, 1, 2, 0.5, 1, 0.25]),
    segmentCost: Float64Array.from([1, 3, 1, 3, 1, 3]),
    tailCost: Float64Array.from([0, 0]),
  });

  it('returns null when the largest diameter is not enough', () => {
    expect(optimiseStretches(problem(1.7))).toBeNull();
  });

  it('finds the cheapest split', () => {
    // large, small, small: loss 1 + 2 + 1 = 4, cost 5
    expect(optimiseStretches(problem(4))).toEqual({
      stretches: [
        { diameterIndex: 1, firstSegment: 0, lastSegment: 0 },
        { diameterIndex: 0, firstSegment: 1, lastSegment: 2 },
      ],
      cost: 5,
      hf: 4,
    });
    // large, large, small: loss 1 + 0.5 + 1 = 2.5, cost 7
    expect(optimiseStretches(problem(2.5))?.cost).toBe(7);
    // one stretch only: all large, cost 9
    expect(optimiseStretches(problem(2.5, 1))?.cost).toBe(9);
    // enough with the small diameter: cost 3
    expect(optimiseStretches(problem(7))?.cost).toBe(3);
  });
});

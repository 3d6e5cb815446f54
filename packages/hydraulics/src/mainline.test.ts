import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  MAINLINE_CATALOGUE,
  MAINLINE_NOMINAL_DIAMETERS,
  MAINLINE_PIPE_TYPES,
} from './data/mainline-catalogue';
import { SECONDARY_CATALOGUES } from './data/secondary-catalogues';
import { HydraulicsInputError } from './errors';
import {
  availableNominalDiameters,
  designMainline,
  designMainlineSection,
  mainlineInnerDiameterMm,
  mainlineTotals,
  resolveMainlinePipeType,
  validateInitialPressure,
  validateMainlineSection,
  type MainlineSectionInput,
  type MainlineSectionRaw,
} from './mainline';
import { expectRelative } from './test-helpers';

// Hand-worked section (bc -l, scale 30): PVC_RD26 100 mm → 105 mm inner, C 145, 10 L/s, 200 m,
// slope 0.01. Q = 0.01 m3/s; v = 0.01 / (π·0.105²/4) = 1.154865800213299488572399 m/s;
// hf = 10.648·200·(0.01/145)^1.852/0.105^4.871 + 200·0.01 = 2.450368620369367 + 2
//    = 4.450368620369367070564549 m.
const HAND: MainlineSectionInput = {
  pipeType: 'PVC_RD26',
  nominalDiameter: 100,
  flow: 10,
  length: 200,
  slope: 0.01,
};

describe('main-line section worked by hand', () => {
  it('computes velocity and hf', () => {
    const result = designMainlineSection(HAND, 1);
    expect(result).toMatchObject({ section: 1, status: 'ok', message: "This section it's OK!" });
    expect(result.innerDiameter).toBe(0.105);
    expectRelative(result.velocity, 1.154865800213299488572399, 1e-14);
    expectRelative(result.hf, 4.450368620369367070564549, 1e-13);
  });

  it('uses C = 150 for aluminium', () => {
    const aluminum = designMainlineSection({ ...HAND, pipeType: 'Aluminum', slope: 0 });
    // 90 mm inner; bc: 10.648·200·(0.01/150)^1.852/0.09^4.871
    const expected = (10.648 * 200 * Math.pow(0.01 / 150, 1.852)) / Math.pow(0.09, 4.871);
    expectRelative(aluminum.hf, expected, 1e-12);
  });
});

describe('main-line statuses', () => {
  it('reports an unavailable diameter first', () => {
    const result = designMainlineSection(
      { ...HAND, pipeType: 'Aluminum', nominalDiameter: 650 },
      4,
    );
    expect(result).toEqual({
      section: 4,
      status: 'error',
      message:
        'Section 4 Select another nominal diameter, because it is not available in the current catalog!',
      innerDiameter: null,
      velocity: null,
      hf: null,
    });
  });

  it.each([
    ['too slow', { flow: 1 }],
    ['too fast', { flow: 30 }],
  ])('flags a velocity %s', (_case, change) => {
    const result = designMainlineSection({ ...HAND, ...change });
    expect(result.status).toBe('error');
    expect(result.message).toBe('Verify yours data input, the velocity in pipe is dangerous!');
    expect(result.velocity).not.toBeNull();
  });

  it('accepts the velocity limits 0.5 and 2.5 m/s themselves', () => {
    const area = (Math.PI * 0.105 * 0.105) / 4;
    const atLimit = (v: number) => designMainlineSection({ ...HAND, flow: v * area * 1000 });
    expect(atLimit(0.5).velocity).toBeGreaterThanOrEqual(0.5 - 1e-12);
    expect(atLimit(2.6).status).toBe('error');
    expect(atLimit(2.49).status).toBe('ok');
    expect(atLimit(0.51).status).toBe('ok');
  });

  it('flags a negative hf', () => {
    const result = designMainlineSection({ ...HAND, slope: -0.5 });
    expect(result.status).toBe('error');
    expect(result.message).toBe('the hf is negative!');
    expect(result.hf).toBeLessThan(0);
  });

  it('hf grows with flow and length and falls with diameter', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.1, max: 100, noNaN: true }),
        fc.double({ min: 1, max: 5000, noNaN: true }),
        fc.double({ min: 1.01, max: 3, noNaN: true }),
        (flow, length, k) => {
          const base = designMainlineSection({ ...HAND, slope: 0, flow, length }).hf!;
          expect(
            designMainlineSection({ ...HAND, slope: 0, flow: flow * k, length }).hf!,
          ).toBeGreaterThan(base);
          expect(
            designMainlineSection({ ...HAND, slope: 0, flow, length: length * k }).hf!,
          ).toBeGreaterThan(base);
          expect(
            designMainlineSection({ ...HAND, slope: 0, flow, length, nominalDiameter: 150 }).hf!,
          ).toBeLessThan(base);
        },
      ),
      { numRuns: 50 },
    );
  });
});

describe('main-line totals', () => {
  const sections: MainlineSectionInput[] = [
    HAND,
    { pipeType: 'PVC_CED40', nominalDiameter: 75, flow: 6, length: 150.5, slope: -0.005 },
    { pipeType: 'Aluminum', nominalDiameter: 300, flow: 5, length: 10, slope: 0 },
    { pipeType: 'PVC_CLASS_10', nominalDiameter: 50, flow: 0.2, length: 10, slope: 0 },
  ];

  it('sums over the OK sections only and counts the others', () => {
    const design = designMainline({ initialPressure: 30, sections });
    const [a, b, c, d] = design.sections;
    expect([a!.status, b!.status, c!.status, d!.status]).toEqual(['ok', 'ok', 'error', 'error']);
    const hfTotal = a!.hf! + b!.hf!;
    expect(design.totals).toEqual({
      initialPressure: 30,
      hfTotal,
      endPressure: 30 - hfTotal,
      maxFlow: 10,
      maxVelocity: Math.max(a!.velocity!, b!.velocity!),
      sectionsWithErrors: 2,
      message: 'There are 2 sections with errors, check this please.',
    });
  });

  it('has no message without errors, and zeros without OK sections', () => {
    expect(designMainline({ initialPressure: 10, sections: [HAND] }).totals.message).toBeNull();
    const none = designMainline({ initialPressure: 10, sections: [sections[2]!] }).totals;
    expect(none).toMatchObject({ hfTotal: 0, endPressure: 10, maxFlow: 0, maxVelocity: 0 });
  });

  it('needs an initial pressure of at least 0.1 m', () => {
    const message = "Please enter some initial pressure in decimal unit, it's should be > 0 meters";
    expect(() => designMainline({ initialPressure: 0.09, sections: [HAND] })).toThrow(message);
    expect(() => mainlineTotals(Number.NaN, [], [])).toThrow(HydraulicsInputError);
    expect(mainlineTotals(0.1, [], []).endPressure).toBe(0.1);
  });
});

describe('main-line form validation (specification §5, §8)', () => {
  const valid: MainlineSectionRaw = {
    pipeType: '1',
    nominalDiameter: '100',
    flow: '10',
    length: '200',
    slope: '0.01',
  };

  it('parses valid strings: pipe type by code or id, decimal comma, three decimals', () => {
    expect(validateMainlineSection(valid, 1)).toEqual({ ok: true, value: HAND });
    expect(
      validateMainlineSection(
        { ...valid, pipeType: 'PVC_CLASS_7', flow: '12,5', length: '0,125', slope: '-0,999' },
        1,
      ),
    ).toEqual({
      ok: true,
      value: {
        pipeType: 'PVC_CLASS_7',
        nominalDiameter: 100,
        flow: 12.5,
        length: 0.125,
        slope: -0.999,
      },
    });
  });

  const numeric = 'Please only enter numeric characters, float type with three decimals...';
  const slope = "Please only enter slope in decimal unit, it's should be -1.0 < slope < 1.0...";
  it.each([
    ['no pipe type', { pipeType: '' }, 'pipeType', 'Please select type pipe in this section 5'],
    ['pipe type 7', { pipeType: '7' }, 'pipeType', 'Please select type pipe in this section 5'],
    [
      'no nominal diameter',
      { nominalDiameter: '' },
      'nominalDiameter',
      'Please select nominal diameter in this section 5',
    ],
    [
      'nominal diameter 60',
      { nominalDiameter: '60' },
      'nominalDiameter',
      'Please select nominal diameter in this section 5',
    ],
    ['four decimals in flow', { flow: '1.2345' }, 'flow', numeric],
    ['letters in flow', { flow: '1a' }, 'flow', numeric],
    ['a comma that groups thousands in es-MX', { length: '2,500' }, 'length', numeric],
    ['a negative flow', { flow: '-1' }, 'flow', numeric],
    ['an empty length', { length: '' }, 'length', numeric],
    ['an exponent in length', { length: '1e3' }, 'length', numeric],
    ['slope 1', { slope: '1' }, 'slope', slope],
    ['slope -1', { slope: '-1.0' }, 'slope', slope],
    ['slope text', { slope: 'flat' }, 'slope', slope],
    ['no slope', { slope: '' }, 'slope', slope],
  ] as const)('rejects %s', (_case, change, field, message) => {
    expect(validateMainlineSection({ ...valid, ...change }, 5)).toEqual({
      ok: false,
      field,
      message,
    });
  });

  it('validates the initial pressure', () => {
    const message = "Please enter some initial pressure in decimal unit, it's should be > 0 meters";
    expect(validateInitialPressure('0,1')).toEqual({ ok: true, value: 0.1 });
    expect(validateInitialPressure('25')).toEqual({ ok: true, value: 25 });
    for (const raw of ['', '0', '0.05', '-3', 'abc']) {
      expect(validateInitialPressure(raw)).toEqual({
        ok: false,
        field: 'initialPressure',
        message,
      });
    }
  });

  it('the engine rejects values the form rejects', () => {
    const cases: [Partial<MainlineSectionInput>, string][] = [
      [{ pipeType: 'PVC' as never }, 'pipeType'],
      [{ nominalDiameter: 60 }, 'nominalDiameter'],
      [{ flow: -1 }, 'flow'],
      [{ length: Number.NaN }, 'length'],
      [{ slope: 1 }, 'slope'],
    ];
    for (const [change, field] of cases) {
      try {
        designMainlineSection({ ...HAND, ...change });
        expect.fail(`should reject ${field}`);
      } catch (error) {
        expect((error as HydraulicsInputError).field).toBe(field);
      }
    }
  });
});

describe('main-line catalogue', () => {
  it('has one row per pipe type and nominal diameter, each with a source', () => {
    expect(MAINLINE_PIPE_TYPES.map((t) => [t.code, t.id, t.c])).toEqual([
      [1, 'PVC_RD26', 145],
      [2, 'PVC_CED40', 145],
      [3, 'Aluminum', 150],
      [4, 'PVC_CLASS_5', 145],
      [5, 'PVC_CLASS_7', 145],
      [6, 'PVC_CLASS_10', 145],
    ]);
    expect(MAINLINE_CATALOGUE).toHaveLength(6 * 12);
    for (const type of MAINLINE_PIPE_TYPES) {
      const rows = MAINLINE_CATALOGUE.filter((r) => r.pipeType === type.id);
      expect(rows.map((r) => r.nominal)).toEqual([...MAINLINE_NOMINAL_DIAMETERS]);
      for (const row of rows) {
        expect(row.source.length).toBeGreaterThan(10);
        if (row.inner === null) expect(row.source).toMatch(/^Unavailable/);
        if (row.derived) expect(row.source).toMatch(/^Derived/);
      }
      const inner = rows.flatMap((r) => (r.inner === null ? [] : [r.inner]));
      expect(inner).toEqual([...inner].sort((a, b) => a - b));
    }
  });

  it('agrees with the secondary catalogues where they have the size', () => {
    for (const pipeType of ['PVC_RD26', 'PVC_CED40', 'Aluminum'] as const) {
      for (const row of MAINLINE_CATALOGUE.filter((r) => r.pipeType === pipeType && !r.derived)) {
        const secondary = SECONDARY_CATALOGUES[pipeType].diameters.find(
          (d) => d.nominal === row.nominal,
        );
        expect(secondary?.inner ?? null).toBe(row.inner);
      }
    }
    expect(mainlineInnerDiameterMm('PVC_RD26', 50)).toBe(55.4);
    expect(mainlineInnerDiameterMm('PVC_CLASS_10', 150)).toBe(144.6);
  });

  it('lists available diameters and resolves pipe types', () => {
    expect(availableNominalDiameters('Aluminum')).toEqual([50, 75, 100, 150, 200]);
    expect(availableNominalDiameters('PVC_CLASS_5')).not.toContain(50);
    expect(resolveMainlinePipeType(3)).toBe('Aluminum');
    expect(resolveMainlinePipeType(' 6 ')).toBe('PVC_CLASS_10');
    expect(resolveMainlinePipeType('PVC_CED40')).toBe('PVC_CED40');
    expect(resolveMainlinePipeType('0')).toBeNull();
  });
});

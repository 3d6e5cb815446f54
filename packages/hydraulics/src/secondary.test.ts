import { describe, expect, it } from 'vitest';
import { SECONDARY_CATALOGUES } from './data/secondary-catalogues';
import { HydraulicsInputError } from './errors';
import {
  addSectionAlert,
  adjustedPipeCount,
  countOutlets,
  designSecondary,
  designSecondarySection,
  sectionCountAlert,
  summarizePipes,
  validateSecondarySection,
  type SecondarySectionInput,
  type SecondarySectionRaw,
} from './secondary';
import { expectRelative } from './test-helpers';

// Hand-worked section (bc -l, scale 30): PVC_RD26 (C 145), length 10 m, qs 3600 L/h
// (= 0.001 m3/s per outlet), S0 2 m, Se 4 m → N = floor((10 − 2)/4) + 1 = 3 outlets, no tail.
// Segments: 2 m carrying 0.003 m3/s, 4 m carrying 0.002, 4 m carrying 0.001;
// loss_i = 10.648·(Q_i/145)^1.852·D^-4.871·L_i.
//   D 38.7 mm: 0.340669263123018 + 0.321545129043498 + 0.089070601069649 = 0.751284993236165
//   D 44.3 mm: 0.176376415140536 + 0.166475180785868 + 0.046114971356851 = 0.388966567283255
//   D 55.4 mm: 0.130890691045773...
// F = hf / (10.648·(0.003/145)^1.852·D^-4.871·10) = 0.441064149051140436 (independent of D).
const HAND: SecondarySectionInput = {
  pipeType: 'PVC_RD26',
  nd: 1,
  length: 10,
  qs: 3600,
  s0: 2,
  se: 4,
  hfp: 0.5,
};

/** HAND as the form's strings. */
const HAND_RAW: SecondarySectionRaw = {
  pipeType: 'PVC_RD26',
  nd: '1',
  length: '10',
  qs: '3600',
  s0: '2',
  se: '4',
  hfp: '0.5',
};

describe('secondary section worked by hand', () => {
  it('picks the smallest diameter within HFp (nd = 1)', () => {
    const result = designSecondarySection(HAND, 1);
    expect(result.outlets).toBe(3);
    expect(result.status).toBe('ok');
    expect(result.stretches).toHaveLength(1);
    const [stretch] = result.stretches;
    expect(stretch).toMatchObject({ pipeType: 'PVC_RD26', nominalDiameter: 38, outlets: 3 });
    expect(stretch!.innerDiameter).toBe(0.0443);
    expect(stretch!.length).toBe(10);
    expectRelative(result.hf, 0.38896656728325491037835719, 1e-12);
    expectRelative(stretch!.hf, 0.38896656728325491037835719, 1e-12);
    expectRelative(result.F, 0.441064149051140436372329074835, 1e-12);
    expect(result.message).toBe("This section it's OK! HF:0.389 < HFp:0.5");
    expect(result.statusText).toBe(result.message);
    expect(result.alert).toBeNull();
    expectRelative(result.cost, 10 * 0.0443 * 0.0443, 1e-12);
  });

  it('takes the smallest diameter when it is enough', () => {
    const result = designSecondarySection({ ...HAND, hfp: 0.76 }, 2);
    expect(result.stretches[0]!.nominalDiameter).toBe(32);
    expectRelative(result.hf, 0.751284993236165383628251236178, 1e-12);
    expect(result.message).toBe("This section it's OK! HF:0.751 < HFp:0.76");
  });

  it("answers 'Verify your data, you can use one diameter...' when nd > 1 and one diameter is enough", () => {
    const result = designSecondarySection({ ...HAND, nd: 3, hfp: 1 }, 4);
    expect(result.status).toBe('ok');
    expect(result.message).toBe(
      'Verify your data, you can use one diameter to design, it is because the last diameter available satisfy your hydraulic necessity!!! Check section:4',
    );
    expect(result.alert).toBe(result.message);
    expect(result.statusText).toBe("This section it's OK! HF:0.751 < HFp:1");
    expect(result.stretches.map((s) => s.nominalDiameter)).toEqual([32]);
  });

  it("answers 'There is no diameter...' when even the largest diameter exceeds HFp", () => {
    for (const nd of [1, 3]) {
      const result = designSecondarySection({ ...HAND, nd, qs: 3_600_000, hfp: 0.01 }, 7);
      expect(result.status).toBe('error');
      expect(result.message).toBe(
        'There is no diameter that meets your hydraulic need in this catalog.!!! Check section:7',
      );
      expect(result.alert).toBe(result.message);
      expect(result.stretches).toEqual([]);
      expect(result.cost).toBe(0);
      expect(result.hf).toBeGreaterThan(0.01);
      expect(result.statusText).toMatch(
        /^Section 7 Verify yours data input, loss pressure is bigger than HFp! HF:[\d.]+ > HFp:0\.01$/,
      );
      expectRelative(result.F, 0.441064149051140436372329074835, 1e-12);
    }
  });

  it('formats message numbers with the given formatter and keeps tiny values', () => {
    const comma = (x: number) => x.toFixed(2).replace('.', ',');
    const result = designSecondarySection(HAND, 1, { formatNumber: comma });
    expect(result.message).toBe("This section it's OK! HF:0,39 < HFp:0,50");
    const tiny = designSecondarySection({ ...HAND, qs: 3.6, hfp: 0.0001234 });
    expect(tiny.message).toMatch(/HFp:0\.000123$/);
  });
});

describe('multi-diameter design (nd > 1)', () => {
  const input: SecondarySectionInput = {
    pipeType: 'PVC_CED40',
    nd: 3,
    length: 121.5,
    qs: 1500,
    s0: 1.5,
    se: 2,
    hfp: 3,
  };
  const result = designSecondarySection(input, 2);

  it('returns at most nd stretches of decreasing diameter covering the whole pipe', () => {
    expect(result.status).toBe('ok');
    expect(result.outlets).toBe(61);
    expect(result.stretches.length).toBeGreaterThan(1);
    expect(result.stretches.length).toBeLessThanOrEqual(3);
    const inner = result.stretches.map((s) => s.innerDiameter);
    for (let i = 1; i < inner.length; i++) expect(inner[i]).toBeLessThan(inner[i - 1]!);
    expectRelative(
      result.stretches.reduce((sum, s) => sum + s.length, 0),
      input.length,
      1e-12,
    );
    expect(result.stretches.reduce((sum, s) => sum + s.outlets, 0)).toBe(61);
    expectRelative(
      result.stretches.reduce((sum, s) => sum + s.hf, 0),
      result.hf,
      1e-12,
    );
    expect(result.hf).toBeLessThanOrEqual(input.hfp);
    expect(result.F).toBeNull();
    expect(result.message).toMatch(/^This section it's OK! HF:[\d.]+ < HFp:3$/);
  });

  it('is cheaper than the single-diameter design', () => {
    const single = designSecondarySection({ ...input, nd: 1 }, 2);
    expect(result.cost).toBeLessThan(single.cost);
  });

  it('puts the pipe beyond the last outlet in the last stretch', () => {
    const last = result.stretches[result.stretches.length - 1]!;
    // outlets at 1.5, 3.5, ..., 121.5: no tail here; with a 1 m longer pipe the tail is 1 m.
    const longer = designSecondarySection({ ...input, length: 122.5 }, 2);
    const longerLast = longer.stretches[longer.stretches.length - 1]!;
    expect(longer.outlets).toBe(61);
    expect(longerLast.length - last.length).toBeCloseTo(1, 9);
  });
});

describe('outlets and pipe accounting', () => {
  it('counts outlets as floor((length − S0)/Se) + 1, exact for decimal multiples', () => {
    expect(countOutlets(10, 2, 4)).toBe(3);
    expect(countOutlets(10, 2, 3)).toBe(3);
    expect(countOutlets(10, 10, 3)).toBe(1);
    // (100 − 0.2)/0.2 is 498.99999999999994 in binary floating point; the rule means 499.
    expect(countOutlets(100, 0.2, 0.2)).toBe(500);
  });

  it('adjusts six-metre pipes as ceil(1.2 × total / 6)', () => {
    expect(adjustedPipeCount(30)).toBe(6);
    expect(adjustedPipeCount(31)).toBe(7);
    expect(adjustedPipeCount(25)).toBe(5);
    expect(adjustedPipeCount(5)).toBe(1);
    expect(adjustedPipeCount(0.1)).toBe(1);
  });

  it('sums lengths per pipe type and nominal diameter over the sections', () => {
    const design = designSecondary([
      HAND,
      { ...HAND, length: 20, s0: 2, se: 4, hfp: 100 },
      { ...HAND, pipeType: 'Aluminum', hfp: 100 },
      { ...HAND, qs: 3_600_000, hfp: 0.01 },
    ]);
    expect(design.sections.map((s) => s.section)).toEqual([1, 2, 3, 4]);
    expect(design.summary).toEqual([
      { pipeType: 'PVC_RD26', nominalDiameter: 38, totalLength: 10, adjustedLength: 2 },
      { pipeType: 'PVC_RD26', nominalDiameter: 32, totalLength: 20, adjustedLength: 4 },
      { pipeType: 'Aluminum', nominalDiameter: 50, totalLength: 10, adjustedLength: 2 },
    ]);
    expect(summarizePipes([])).toEqual([]);
  });

  it('orders the summary by pipe type, then nominal diameter from largest', () => {
    const design = designSecondary([
      { ...HAND, pipeType: 'Aluminum', hfp: 100 },
      { pipeType: 'PVC_CED40', nd: 3, length: 121.5, qs: 1500, s0: 1.5, se: 2, hfp: 3 },
    ]);
    const keys = design.summary.map((r) => `${r.pipeType}:${r.nominalDiameter}`);
    expect(keys[keys.length - 1]).toBe('Aluminum:50');
    const ced = design.summary
      .filter((r) => r.pipeType === 'PVC_CED40')
      .map((r) => r.nominalDiameter);
    expect(ced).toEqual([...ced].sort((a, b) => b - a));
  });
});

describe('section limits', () => {
  it("alerts 'Only 20 sections are allowed, restart process!!' when adding a 21st", () => {
    expect(addSectionAlert(19)).toBeNull();
    expect(addSectionAlert(20)).toBe('Only 20 sections are allowed, restart process!!');
  });

  it('needs 1 to 20 sections for the pipe accounting', () => {
    const message = 'There must be at least one section or less than 21 sections!';
    expect(sectionCountAlert(0)).toBe(message);
    expect(sectionCountAlert(21)).toBe(message);
    expect(sectionCountAlert(1)).toBeNull();
    expect(sectionCountAlert(20)).toBeNull();
    expect(() => designSecondary([])).toThrow(message);
    expect(() => designSecondary(Array.from({ length: 21 }, () => HAND))).toThrow(message);
  });
});

describe('validateSecondarySection (form alerts, specification §5 and §8)', () => {
  const valid = HAND_RAW;

  it('parses valid strings, with decimal comma and blanks around', () => {
    expect(validateSecondarySection(valid, 1)).toEqual({ ok: true, value: HAND });
    const comma = validateSecondarySection({ ...valid, hfp: ' 0,5 ', nd: ' 1 ' }, 1);
    expect(comma).toEqual({ ok: true, value: HAND });
  });

  it.each([
    [
      'no pipe type',
      { pipeType: '' },
      'pipeType',
      'Please select valid value in selector Pipe type of section or form 3',
    ],
    [
      'an unknown pipe type',
      { pipeType: 'Steel' },
      'pipeType',
      'Please select valid value in selector Pipe type of section or form 3',
    ],
    [
      'empty ND',
      { nd: '' },
      'nd',
      'Please enter something, Numeric characters. Check input: ND in this section or form: 3',
    ],
    [
      'empty length',
      { length: '  ' },
      'length',
      'Please enter something, Numeric characters. Check input: Length in this section or form: 3',
    ],
    [
      'empty qs',
      { qs: '' },
      'qs',
      'Please enter something, Numeric characters. Check input: qs in this section or form: 3',
    ],
    [
      'empty S0',
      { s0: '' },
      's0',
      'Please enter something, Numeric characters. Check input: S0 in this section or form: 3',
    ],
    [
      'empty Se',
      { se: '' },
      'se',
      'Please enter something, Numeric characters. Check input: Se in this section or form: 3',
    ],
    [
      'empty HFp',
      { hfp: '' },
      'hfp',
      'Please enter something, Numeric characters. Check input: HFp in this section or form: 3',
    ],
    [
      'ND 2.5',
      { nd: '2.5' },
      'nd',
      'Please only enter numeric characters, integer type (Allowed input:1-5)...',
    ],
    [
      'ND 0',
      { nd: '0' },
      'nd',
      'Please only enter numeric characters, integer type (Allowed input:1-5)...',
    ],
    [
      'ND 6',
      { nd: '6' },
      'nd',
      'Please only enter numeric characters, integer type (Allowed input:1-5)...',
    ],
    [
      'ND abc',
      { nd: 'abc' },
      'nd',
      'Please only enter numeric characters, integer type (Allowed input:1-5)...',
    ],
    ['negative length', { length: '-10' }, 'length', 'No negative values!...'],
    ['negative qs', { qs: '-1' }, 'qs', 'No negative values!...'],
    ['negative HFp', { hfp: '-0.5' }, 'hfp', 'No negative values!...'],
    ['text in Se', { se: 'abc' }, 'se', 'Float type (Allowed input:more than 0)...'],
    ['zero S0', { s0: '0' }, 's0', 'Float type (Allowed input:more than 0)...'],
    ['zero HFp', { hfp: '0.0' }, 'hfp', 'Float type (Allowed input:more than 0)...'],
    [
      'S0 beyond the length',
      { s0: '12' },
      's0',
      'Section 3: S0 must not be greater than the pipe length',
    ],
    [
      'too many outlets',
      { length: '100000', s0: '1', se: '1' },
      'se',
      'Section 3: too many outlets (more than 10000); check the pipe length, S0 and Se',
    ],
  ] as const)('rejects %s', (_case, change, field, message) => {
    expect(validateSecondarySection({ ...valid, ...change }, 3)).toEqual({
      ok: false,
      field,
      message,
    });
  });

  it('checks in the specification order: pipe type, emptiness, ND, numbers', () => {
    const all = { pipeType: '', nd: '9', length: '', qs: '-1', s0: '', se: '', hfp: '' };
    expect(validateSecondarySection(all, 1)).toMatchObject({ field: 'pipeType' });
    expect(validateSecondarySection({ ...all, pipeType: 'Aluminum' }, 1)).toMatchObject({
      field: 'length',
    });
    expect(validateSecondarySection({ ...valid, nd: '9', qs: '-1' }, 1)).toMatchObject({
      field: 'nd',
    });
  });

  it('the engine rejects the same values with the same messages', () => {
    const cases: [Partial<SecondarySectionInput>, string][] = [
      [{ pipeType: 'Steel' as never }, 'pipeType'],
      [{ nd: 0 }, 'nd'],
      [{ nd: 1.5 }, 'nd'],
      [{ qs: -1 }, 'qs'],
      [{ se: Number.NaN }, 'se'],
      [{ hfp: Infinity }, 'hfp'],
      [{ s0: 20 }, 's0'],
    ];
    for (const [change, field] of cases) {
      try {
        designSecondarySection({ ...HAND, ...change }, 1);
        expect.fail(`should reject ${field}`);
      } catch (error) {
        expect(error).toBeInstanceOf(HydraulicsInputError);
        expect((error as HydraulicsInputError).field).toBe(field);
      }
    }
  });
});

describe('catalogues', () => {
  it('holds the specification catalogues, sorted by inner diameter', () => {
    expect(SECONDARY_CATALOGUES.PVC_CED40.diameters).toHaveLength(15);
    expect(SECONDARY_CATALOGUES.PVC_RD26.diameters).toHaveLength(10);
    expect(SECONDARY_CATALOGUES.Aluminum.diameters).toHaveLength(19);
    expect(SECONDARY_CATALOGUES.PVC_CED40.c).toBe(145);
    expect(SECONDARY_CATALOGUES.PVC_RD26.c).toBe(145);
    expect(SECONDARY_CATALOGUES.Aluminum.c).toBe(150);
    for (const catalogue of Object.values(SECONDARY_CATALOGUES)) {
      const inner = catalogue.diameters.map((d) => d.inner);
      expect(inner).toEqual([...inner].sort((a, b) => a - b));
    }
    expect(SECONDARY_CATALOGUES.PVC_RD26.diameters[0]).toEqual({ nominal: 32, inner: 38.7 });
    expect(SECONDARY_CATALOGUES.PVC_CED40.diameters[14]).toEqual({ nominal: 400, inner: 381 });
    const aluminum = SECONDARY_CATALOGUES.Aluminum.diameters;
    expect(aluminum.every((d) => d.inner === d.nominal - 10)).toBe(true);
    expect(aluminum.map((d) => d.nominal)).toEqual([
      50, 55, 60, 65, 70, 75, 80, 90, 100, 110, 120, 130, 140, 150, 160, 170, 180, 190, 200,
    ]);
  });
});

// Engineering checks (README.md), the hand-worked section above with HFp 0.76 (both formulas choose RD26 32 mm, inner
// 38.7 mm) and laterals that need 10 m at their inlet. bc -l, scale 40:
//   Hazen-Williams: segment losses 0.340669263 (2 m, 3 L/s), 0.321545129 (4 m, 2 L/s),
//     0.089070601 (4 m, 1 L/s); from the farthest outlet: p3 = 10, p2 = 10 + 0.089070601 =
//     10.089070601, p1 = p2 + 0.321545129 = 10.410615730, inlet = p1 + 0.340669263 =
//     10.751284993 (= 10 + hf).
//   Blasius, J = 7.89e7·Q^1.75·38.7^-4.75 m/100 m (Q in L/s): segment losses 0.310057407,
//     0.304968823, 0.090679666 → p2 = 10.090679666, p1 = 10.395688489, inlet = 10.705745896;
//     F = 0.705745896 / (7.89e7·3^1.75·38.7^-4.75·10/100) = 0.455235631.
describe('engineering checks: pressures and the friction formula of a section', () => {
  const WITH_PRESSURE: SecondarySectionInput = { ...HAND, hfp: 0.76, pressure: 10 };

  it('gives the pressure at every outlet and at the inlet (Hazen-Williams, the default)', () => {
    const result = designSecondarySection(WITH_PRESSURE, 1);
    expect(result.formula).toBe('hazen-williams');
    expect(result.stretches[0]!.nominalDiameter).toBe(32);
    const [p1, p2, p3] = result.outletPressures!;
    expectRelative(p1!, 10 + 0.321545129043498 + 0.089070601069649, 1e-12);
    expectRelative(p2!, 10 + 0.089070601069649, 1e-12);
    expect(p3).toBe(10);
    expectRelative(result.inletPressure!, 10.751284993236165383628251236178, 1e-12);
    expect(result.blasiusOutOfRange).toBe(false);
    // The specification's results do not move.
    const { formula, inletPressure, outletPressures, ...spec } = result;
    const {
      formula: f0,
      inletPressure: i0,
      outletPressures: o0,
      ...before
    } = designSecondarySection({ ...HAND, hfp: 0.76 }, 1);
    expect(spec).toEqual(before);
    expect([formula, f0, inletPressure, outletPressures, i0, o0]).toEqual([
      'hazen-williams',
      'hazen-williams',
      result.inletPressure,
      result.outletPressures,
      null,
      null,
    ]);
  });

  it('uses Darcy-Weisbach with Blasius when chosen (multiple-outlet factor for m = 1.75)', () => {
    const result = designSecondarySection(
      { ...WITH_PRESSURE, formula: 'darcy-weisbach-blasius' },
      1,
    );
    expect(result.formula).toBe('darcy-weisbach-blasius');
    expect(result.stretches[0]!.nominalDiameter).toBe(32);
    expectRelative(result.hf, 0.7057458963290182369266573083121767505868, 1e-12);
    expectRelative(result.F!, 0.4552356307446123924646391109137033621944, 1e-12);
    const [p1, p2, p3] = result.outletPressures!;
    expectRelative(p1!, 10.3956884892782321204711787508366878072346, 1e-12);
    expectRelative(p2!, 10.090679665765105003260997863558096598, 1e-12);
    expect(p3).toBe(10);
    expectRelative(result.inletPressure!, 10.7057458963290182369266573083121767505868, 1e-12);
    expect(result.blasiusOutOfRange).toBe(false);
  });

  it('flags Blasius outside smooth plastic under 125 mm', () => {
    const big = { ...HAND, qs: 100_000, hfp: 0.5, formula: 'darcy-weisbach-blasius' } as const;
    expect(designSecondarySection(big, 1).stretches[0]!.innerDiameter).toBeGreaterThan(0.125);
    expect(designSecondarySection(big, 1).blasiusOutOfRange).toBe(true);
    const aluminium = { ...HAND, pipeType: 'Aluminum', formula: 'darcy-weisbach-blasius' } as const;
    expect(designSecondarySection(aluminium, 1).blasiusOutOfRange).toBe(true);
  });

  it('walks pressures across several stretches', () => {
    const input: SecondarySectionInput = {
      pipeType: 'PVC_CED40',
      nd: 3,
      length: 150,
      qs: 2000,
      s0: 1,
      se: 1.5,
      hfp: 3,
      pressure: 12,
    };
    const result = designSecondarySection(input, 1);
    expect(result.stretches.length).toBeGreaterThan(1);
    const p = result.outletPressures!;
    expect(p).toHaveLength(result.outlets);
    expect(p.at(-1)).toBe(12);
    for (let i = 1; i < p.length; i++) expect(p[i]!).toBeLessThan(p[i - 1]!);
    expectRelative(result.inletPressure!, 12 + result.hf, 1e-12);
  });

  it('sums up the pressure the main line must deliver', () => {
    const design = designSecondary([
      WITH_PRESSURE,
      { ...WITH_PRESSURE, pressure: 12, formula: 'darcy-weisbach-blasius' },
      { ...HAND, hfp: 0.76 },
    ]);
    expect(design.pressures.sections.map((s) => s.section)).toEqual([1, 2]);
    expectRelative(design.pressures.required!.inletPressure, 12.705745896329018, 1e-12);
    expect(design.pressures.required!.section).toBe(2);
    expect(designSecondary([HAND]).pressures).toEqual({ sections: [], required: null });
    // No design, no pressure.
    const none = designSecondarySection({ ...WITH_PRESSURE, qs: 1e6, hfp: 0.001 }, 1);
    expect(none.status).toBe('error');
    expect([none.inletPressure, none.outletPressures]).toEqual([null, null]);
  });

  it('validates the two new fields after the specification fields', () => {
    const raw: SecondarySectionRaw = { ...HAND_RAW, hfp: '0,76' };
    expect(validateSecondarySection({ ...raw, formula: '', pressure: ' ' }, 1)).toEqual({
      ok: true,
      value: { ...HAND, hfp: 0.76 },
    });
    expect(
      validateSecondarySection({ ...raw, formula: 'darcy-weisbach-blasius', pressure: '10,5' }, 1),
    ).toEqual({
      ok: true,
      value: { ...HAND, hfp: 0.76, formula: 'darcy-weisbach-blasius', pressure: 10.5 },
    });
    expect(validateSecondarySection({ ...raw, formula: 'manning' }, 2)).toEqual({
      ok: false,
      field: 'formula',
      message: 'Please select valid value in selector Friction formula of section or form 2',
    });
    expect(validateSecondarySection({ ...raw, pressure: '-1' }, 1)).toMatchObject({
      field: 'pressure',
      message: 'No negative values!...',
    });
    expect(validateSecondarySection({ ...raw, pressure: 'diez' }, 1)).toMatchObject({
      field: 'pressure',
      message: 'Float type (Allowed input:more than 0)...',
    });
    // A specification field still fails first.
    expect(validateSecondarySection({ ...raw, qs: '', pressure: '-1' }, 1)).toMatchObject({
      field: 'qs',
    });
  });
});

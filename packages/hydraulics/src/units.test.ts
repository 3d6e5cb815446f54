import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HydraulicsInputError } from './errors';
import {
  convert,
  equivalents,
  isMeasure,
  isUnitOf,
  CONVERTER_DEFAULTS,
  MEASURES,
  UNIT_CATALOGUE,
  type Measure,
} from './units';
import { expectRelative } from './test-helpers';

/** The specification's coefficient table (§9), rounded to about 5 significant digits. */
const SPEC_TABLE: Record<Measure, Record<string, number>> = {
  flow: {
    'L/s': 1000,
    'L/h': 3600000,
    'm3/h': 3600,
    'ft3/h': 127133,
    'gal/min': 15850.3,
    'gal/h': 951019,
    'cm3/s': 1, // the deviation: the true factor is 1,000,000 (see README)
  },
  area: {
    cm2: 10000,
    km2: 0.000001,
    in2: 1550,
    ft2: 10.7639,
    yd2: 1.19599,
    acre: 0.0002471,
    ha: 0.0001,
    m2: 1,
  },
  length: {
    mm: 1000,
    cm: 100,
    m: 1,
    km: 0.001,
    in: 39.3701,
    ft: 3.28084,
    yd: 1.09361,
    mi: 0.000621371,
  },
  pressure: {
    atm: 0.9869,
    mmHg: 750.062,
    mbar: 1000,
    bar: 1,
    Pa: 100000,
    inH2O: 401.463,
    inHg: 29.53,
    psi: 14.504,
  },
  mass: {
    kg: 1000,
    t: 1,
    lb: 2204.62,
    cwt_uk: 19.6841,
    ton_uk: 0.984207,
    cwt_us: 22.0462,
    ton_us: 1.10231,
  },
};

const unitIds = (measure: Measure) => UNIT_CATALOGUE[measure].units.map((u) => u.id as string);

describe('unit catalogue', () => {
  it("lists the issue's unit ids per measure, in order", () => {
    expect(MEASURES).toEqual(['flow', 'area', 'length', 'pressure', 'mass']);
    expect(unitIds('flow')).toEqual(['L/s', 'L/h', 'm3/h', 'ft3/h', 'gal/min', 'gal/h', 'cm3/s']);
    expect(unitIds('area')).toEqual(['cm2', 'km2', 'in2', 'ft2', 'yd2', 'acre', 'ha', 'm2']);
    expect(unitIds('length')).toEqual(['mm', 'cm', 'm', 'km', 'in', 'ft', 'yd', 'mi']);
    expect(unitIds('pressure')).toEqual([
      'atm',
      'mmHg',
      'mbar',
      'bar',
      'Pa',
      'inH2O',
      'inHg',
      'psi',
    ]);
    expect(unitIds('mass')).toEqual(['kg', 't', 'lb', 'cwt_uk', 'ton_uk', 'cwt_us', 'ton_us']);
  });

  it('has Spanish and English labels for every measure and unit', () => {
    for (const measure of MEASURES) {
      const info = UNIT_CATALOGUE[measure];
      expect(info.id).toBe(measure);
      expect(info.label.es).not.toBe('');
      expect(info.label.en).not.toBe('');
      for (const unit of info.units) {
        expect(unit.label.es.length).toBeGreaterThan(0);
        expect(unit.label.en.length).toBeGreaterThan(0);
      }
    }
    const gpm = UNIT_CATALOGUE.flow.units.find((u) => u.id === 'gal/min');
    expect(gpm?.label).toEqual({ es: 'gal/min (EE. UU.)', en: 'gal/min (US)' });
  });

  it('agrees with the specification table to 5 significant digits, except cm3/s', () => {
    for (const measure of MEASURES) {
      for (const unit of UNIT_CATALOGUE[measure].units) {
        const spec = SPEC_TABLE[measure][unit.id]!;
        if (unit.id === 'cm3/s') {
          expect(unit.factor).toBe(1_000_000);
          expect(spec).toBe(1);
          continue;
        }
        expectRelative(unit.factor, spec, 5e-5);
      }
    }
  });

  it('uses the exact SI definitions', () => {
    expect(convert('length', 'ft', 'm', 1)).toBe(0.3048);
    expect(convert('length', 'in', 'mm', 1)).toBe(25.4);
    expectRelative(convert('length', 'mi', 'm', 1), 1609.344, 1e-15);
    expectRelative(convert('flow', 'gal/min', 'L/s', 60), 3.785411784, 1e-15);
    expectRelative(convert('mass', 'lb', 'kg', 1), 0.45359237, 1e-15);
    expectRelative(convert('mass', 'ton_uk', 'lb', 1), 2240, 1e-15);
    expectRelative(convert('mass', 'cwt_us', 'lb', 1), 100, 1e-15);
    expectRelative(convert('mass', 'cwt_uk', 'lb', 1), 112, 1e-15);
    expectRelative(convert('mass', 'ton_us', 'lb', 1), 2000, 1e-15);
    expectRelative(convert('area', 'acre', 'm2', 1), 4046.8564224, 1e-15);
    expectRelative(convert('area', 'ha', 'acre', 1), 10000 / 4046.8564224, 1e-15);
    expectRelative(convert('pressure', 'atm', 'Pa', 1), 101325, 1e-15);
    expectRelative(convert('pressure', 'psi', 'Pa', 1), 6894.757293168, 1e-15);
    expectRelative(convert('pressure', 'mmHg', 'Pa', 1), 133.322387415, 1e-15);
    // The conventional inch of mercury is exactly 25.4 conventional mm of mercury.
    expectRelative(convert('pressure', 'inHg', 'Pa', 1), 3386.388640341, 1e-15);
    expectRelative(convert('pressure', 'inHg', 'mmHg', 1), 25.4, 1e-15);
    expectRelative(convert('pressure', 'mmHg', 'inHg', 25.4), 1, 1e-15);
    // The conventional inch of water: 1000 kg/m³ × 9.80665 m/s² × 0.0254 m.
    expectRelative(convert('pressure', 'inH2O', 'Pa', 1), 1000 * 9.80665 * 0.0254, 1e-15);
    expectRelative(convert('flow', 'cm3/s', 'L/s', 1000), 1, 1e-15);
  });

  it('converts the screen default: 1 m3/h = 0.2777... L/s', () => {
    expect(CONVERTER_DEFAULTS).toEqual({ measure: 'flow', from: 'm3/h', to: 'L/s', value: 1 });
    expectRelative(convert('flow', 'm3/h', 'L/s', 1), 1 / 3.6, 1e-15);
  });

  it('rejects unknown measures and units', () => {
    expect(isMeasure('flow')).toBe(true);
    expect(isMeasure('speed')).toBe(false);
    expect(isUnitOf('flow', 'L/s')).toBe(true);
    expect(isUnitOf('flow', 'mm')).toBe(false);
    expect(() => convert('flow', 'mm' as never, 'L/s', 1)).toThrow(HydraulicsInputError);
    expect(() => convert('flow', 'L/s', 'x' as never, 1)).toThrow(/Unknown flow unit 'x'/);
    expect(() => convert('speed' as never, 'm' as never, 'm' as never, 1)).toThrow(
      /Unknown measure/,
    );
    expect(() => equivalents('mass', 'lbs' as never, 1)).toThrow(HydraulicsInputError);
  });
});

describe('conversion properties', () => {
  // Normal magnitudes (subnormal values lose relative precision in any float arithmetic).
  const value = fc
    .double({ min: -1e12, max: 1e12, noNaN: true })
    .filter((v) => v === 0 || Math.abs(v) > 1e-250);
  const measureAndUnits = fc
    .constantFrom(...MEASURES)
    .chain((measure) =>
      fc.tuple(
        fc.constant(measure),
        fc.constantFrom(...unitIds(measure)),
        fc.constantFrom(...unitIds(measure)),
      ),
    );

  it('a -> b -> a returns the value within 1e-12 relative', () => {
    fc.assert(
      fc.property(measureAndUnits, value, ([measure, a, b], v) => {
        const there = convert(measure, a as never, b as never, v);
        const back = convert(measure, b as never, a as never, there);
        expect(Math.abs(back - v)).toBeLessThanOrEqual(1e-12 * Math.abs(v));
      }),
      { numRuns: 300 },
    );
  });

  it('every equivalent agrees with the pairwise conversion', () => {
    fc.assert(
      fc.property(measureAndUnits, value, ([measure, from, via], v) => {
        const all = equivalents(measure, from as never, v) as Record<string, number>;
        expect(Object.keys(all)).toEqual(unitIds(measure));
        for (const to of unitIds(measure)) {
          expect(all[to]).toBe(convert(measure, from as never, to as never, v));
          // and with going through any third unit
          const twoSteps = convert(measure, via as never, to as never, all[via]!);
          expect(Math.abs(twoSteps - all[to]!)).toBeLessThanOrEqual(1e-12 * Math.abs(all[to]!));
        }
        expect(all[from]).toBe(v);
      }),
      { numRuns: 200 },
    );
  });
});

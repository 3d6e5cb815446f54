/**
 * Unit converter (specification §2 "Unit converter", §3 "Converter measure types and units",
 * §9 "Converter coefficients").
 *
 * Every unit has a `factor`: how many of that unit make one base unit of its measure. As in the
 * specification, converted = value / factor(from) × factor(to). The factors come from the exact
 * SI definitions below, not from the rounded table of the specification (which agrees to about
 * 5 significant digits, except cm3/s: see the README).
 */
import { HydraulicsInputError } from './errors';

/** International foot, inch, yard and mile (1959 agreement), in metres. */
const FOOT = 0.3048;
const INCH = 0.0254;
const YARD = 0.9144;
const MILE = 1609.344;
/** US liquid gallon = 231 in³ = 3.785411784 L, in m³. */
const US_GALLON = 3.785411784e-3;
/** International avoirdupois pound, in kg. */
const POUND = 0.45359237;
/** International acre, in m². */
const ACRE = 4046.8564224;
/**
 * Pressures in Pa: standard atmosphere; conventional millimetre and inch of mercury (the inch is
 * exactly 25.4 mm of mercury); conventional inch of water (1000 kg/m³ × standard gravity
 * 9.80665 m/s² × 0.0254 m); psi.
 */
const ATMOSPHERE = 101325;
const MM_HG = 133.322387415;
const IN_HG = 25.4 * MM_HG;
const IN_H2O = 249.08891;
const PSI = 6894.757293168;
const BAR = 100000;

export type Measure = 'flow' | 'area' | 'length' | 'pressure' | 'mass';
export type FlowUnit = 'L/s' | 'L/h' | 'm3/h' | 'ft3/h' | 'gal/min' | 'gal/h' | 'cm3/s';
export type AreaUnit = 'cm2' | 'km2' | 'in2' | 'ft2' | 'yd2' | 'acre' | 'ha' | 'm2';
export type LengthUnit = 'mm' | 'cm' | 'm' | 'km' | 'in' | 'ft' | 'yd' | 'mi';
export type PressureUnit = 'atm' | 'mmHg' | 'mbar' | 'bar' | 'Pa' | 'inH2O' | 'inHg' | 'psi';
export type MassUnit = 'kg' | 't' | 'lb' | 'cwt_uk' | 'ton_uk' | 'cwt_us' | 'ton_us';

export interface UnitIdByMeasure {
  flow: FlowUnit;
  area: AreaUnit;
  length: LengthUnit;
  pressure: PressureUnit;
  mass: MassUnit;
}
export type UnitId = UnitIdByMeasure[Measure];

export interface LocalisedLabel {
  es: string;
  en: string;
}

export interface UnitInfo<U extends string = string> {
  id: U;
  label: LocalisedLabel;
  /** How many of this unit make one base unit of the measure. */
  factor: number;
}

export interface MeasureInfo<M extends Measure = Measure> {
  id: M;
  label: LocalisedLabel;
  /** Id of the base unit (factor 1); for flow the base m3/s is not one of the selectable units. */
  base: string;
  units: readonly UnitInfo<UnitIdByMeasure[M]>[];
}

const same = (text: string): LocalisedLabel => ({ es: text, en: text });

/** The measures in the order of the converter's selector. */
export const MEASURES: readonly Measure[] = ['flow', 'area', 'length', 'pressure', 'mass'];

/** Measures and their units, in the order of the specification's selectors. */
export const UNIT_CATALOGUE: { readonly [M in Measure]: MeasureInfo<M> } = {
  flow: {
    id: 'flow',
    label: { es: 'Caudal', en: 'Flow rate' },
    base: 'm3/s',
    units: [
      { id: 'L/s', label: same('L/s (LPS)'), factor: 1000 },
      { id: 'L/h', label: same('L/h'), factor: 3_600_000 },
      { id: 'm3/h', label: same('m³/h'), factor: 3600 },
      { id: 'ft3/h', label: { es: 'pie³/h', en: 'ft³/h' }, factor: 3600 / FOOT ** 3 },
      {
        id: 'gal/min',
        label: { es: 'gal/min (EE. UU.)', en: 'gal/min (US)' },
        factor: 60 / US_GALLON,
      },
      { id: 'gal/h', label: { es: 'gal/h (EE. UU.)', en: 'gal/h (US)' }, factor: 3600 / US_GALLON },
      { id: 'cm3/s', label: same('cm³/s'), factor: 1_000_000 },
    ],
  },
  area: {
    id: 'area',
    label: { es: 'Área', en: 'Area' },
    base: 'm2',
    units: [
      { id: 'cm2', label: same('cm²'), factor: 10_000 },
      { id: 'km2', label: same('km²'), factor: 1e-6 },
      { id: 'in2', label: { es: 'pulg²', en: 'in²' }, factor: 1 / INCH ** 2 },
      { id: 'ft2', label: { es: 'pie²', en: 'ft²' }, factor: 1 / FOOT ** 2 },
      { id: 'yd2', label: same('yd²'), factor: 1 / YARD ** 2 },
      { id: 'acre', label: same('acre'), factor: 1 / ACRE },
      { id: 'ha', label: { es: 'hectárea (ha)', en: 'hectare (ha)' }, factor: 1e-4 },
      { id: 'm2', label: same('m²'), factor: 1 },
    ],
  },
  length: {
    id: 'length',
    label: { es: 'Longitud', en: 'Length' },
    base: 'm',
    units: [
      { id: 'mm', label: { es: 'milímetro (mm)', en: 'millimetre (mm)' }, factor: 1000 },
      { id: 'cm', label: { es: 'centímetro (cm)', en: 'centimetre (cm)' }, factor: 100 },
      { id: 'm', label: { es: 'metro (m)', en: 'metre (m)' }, factor: 1 },
      { id: 'km', label: { es: 'kilómetro (km)', en: 'kilometre (km)' }, factor: 0.001 },
      { id: 'in', label: { es: 'pulgada (in)', en: 'inch (in)' }, factor: 1 / INCH },
      { id: 'ft', label: { es: 'pie (ft)', en: 'foot (ft)' }, factor: 1 / FOOT },
      { id: 'yd', label: { es: 'yarda (yd)', en: 'yard (yd)' }, factor: 1 / YARD },
      { id: 'mi', label: { es: 'milla (mi)', en: 'mile (mi)' }, factor: 1 / MILE },
    ],
  },
  pressure: {
    id: 'pressure',
    label: { es: 'Presión', en: 'Pressure' },
    base: 'bar',
    units: [
      {
        id: 'atm',
        label: { es: 'atmósfera (atm)', en: 'atmosphere (atm)' },
        factor: BAR / ATMOSPHERE,
      },
      { id: 'mmHg', label: same('mm Hg'), factor: BAR / MM_HG },
      { id: 'mbar', label: same('mbar'), factor: 1000 },
      { id: 'bar', label: same('bar'), factor: 1 },
      { id: 'Pa', label: same('pascal (Pa)'), factor: BAR },
      { id: 'inH2O', label: { es: 'pulg H₂O', en: 'in H₂O' }, factor: BAR / IN_H2O },
      { id: 'inHg', label: { es: 'pulg Hg', en: 'in Hg' }, factor: BAR / IN_HG },
      { id: 'psi', label: same('psi'), factor: BAR / PSI },
    ],
  },
  mass: {
    id: 'mass',
    label: { es: 'Masa', en: 'Mass' },
    base: 't',
    units: [
      { id: 'kg', label: { es: 'kilogramo (kg)', en: 'kilogram (kg)' }, factor: 1000 },
      { id: 't', label: { es: 'tonelada métrica (t)', en: 'metric ton (t)' }, factor: 1 },
      { id: 'lb', label: { es: 'libra (lb)', en: 'pound (lb)' }, factor: 1000 / POUND },
      {
        id: 'cwt_uk',
        label: { es: 'quintal largo (UK cwt)', en: 'long hundredweight (UK cwt)' },
        factor: 1000 / (112 * POUND),
      },
      {
        id: 'ton_uk',
        label: { es: 'tonelada larga (UK ton)', en: 'long ton (UK ton)' },
        factor: 1000 / (2240 * POUND),
      },
      {
        id: 'cwt_us',
        label: { es: 'quintal corto (US cwt)', en: 'short hundredweight (US cwt)' },
        factor: 1000 / (100 * POUND),
      },
      {
        id: 'ton_us',
        label: { es: 'tonelada corta (US ton)', en: 'short ton (US ton)' },
        factor: 1000 / (2000 * POUND),
      },
    ],
  },
};

/** The converter screen's initial state (specification §3): flow, 1 m3/h to L/s. */
export const CONVERTER_DEFAULTS = { measure: 'flow', from: 'm3/h', to: 'L/s', value: 1 } as const;

/** True when `measure` is one of the converter's measures. */
export function isMeasure(measure: string): measure is Measure {
  return (MEASURES as readonly string[]).includes(measure);
}

/** True when `unit` is a unit id of `measure`. */
export function isUnitOf<M extends Measure>(measure: M, unit: string): unit is UnitIdByMeasure[M] {
  return UNIT_CATALOGUE[measure].units.some((u) => u.id === unit);
}

function unitInfo(measure: Measure, unit: string, field: string): UnitInfo {
  if (!isMeasure(measure)) {
    throw new HydraulicsInputError('measure', `Unknown measure '${String(measure)}'`);
  }
  const info = UNIT_CATALOGUE[measure].units.find((u) => u.id === unit);
  if (!info) {
    throw new HydraulicsInputError(field, `Unknown ${measure} unit '${unit}'`);
  }
  return info;
}

/** Converts `value` of `measure` from one unit to another: value / factor(from) × factor(to). */
export function convert<M extends Measure>(
  measure: M,
  from: UnitIdByMeasure[M],
  to: UnitIdByMeasure[M],
  value: number,
): number {
  const fromInfo = unitInfo(measure, from, 'from');
  const toInfo = unitInfo(measure, to, 'to');
  if (fromInfo === toInfo) return value;
  return (value / fromInfo.factor) * toInfo.factor;
}

/** `value` in `from` expressed in every unit of the measure (the 'equivalents' list). */
export function equivalents<M extends Measure>(
  measure: M,
  from: UnitIdByMeasure[M],
  value: number,
): Record<UnitIdByMeasure[M], number> {
  unitInfo(measure, from, 'from');
  const result = {} as Record<UnitIdByMeasure[M], number>;
  for (const unit of UNIT_CATALOGUE[measure].units) {
    result[unit.id] = convert(measure, from, unit.id, value);
  }
  return result;
}

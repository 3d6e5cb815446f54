import { describe, expect, it } from 'vitest';
import {
  ambiguousCommaReadings,
  isAmbiguousComma,
  isBlank,
  millimetresToMetres,
  parseDecimal,
  parseInteger,
  parseThreeDecimals,
} from './numbers';

describe('raw input parsing', () => {
  it('parses decimals with point or comma', () => {
    expect(parseDecimal('1.5')).toBe(1.5);
    expect(parseDecimal(' 1,5 ')).toBe(1.5);
    expect(parseDecimal('-.25')).toBe(-0.25);
    expect(parseDecimal('1e3')).toBe(1000);
    expect(parseDecimal('1e999')).toBeNull();
    for (const bad of ['', 'abc', '1.2.3', '1,2,3', '1 000', '0x10', 'Infinity']) {
      expect(parseDecimal(bad)).toBeNull();
    }
  });

  it('refuses a comma that reads as a thousands group as well as a decimal comma', () => {
    // es-MX (the screens' default locale) writes a thousand "1,000"; es-ES writes one "1,000".
    for (const ambiguous of ['1,000', ' 2,500 ', '-1,000', '+12,345', '999,999']) {
      expect(isAmbiguousComma(ambiguous)).toBe(true);
      expect(parseDecimal(ambiguous)).toBeNull();
      expect(parseThreeDecimals(ambiguous)).toBeNull();
    }
    // a leading zero, or not three digits after the comma, is not a thousands group
    expect(parseDecimal('0,125')).toBe(0.125);
    expect(parseThreeDecimals('0,125')).toBe(0.125);
    expect(parseDecimal('1,25')).toBe(1.25);
    expect(parseDecimal('1,2500')).toBe(1.25);
    expect(parseDecimal('1000')).toBe(1000);
    expect(parseDecimal('1.000')).toBe(1);
    for (const plain of ['0,125', '1,25', '1000', '1.000', '1234,567', '', 'abc']) {
      expect(isAmbiguousComma(plain)).toBe(false);
    }
    expect(isAmbiguousComma(undefined)).toBe(false);
    expect(ambiguousCommaReadings(' 2,500')).toEqual({ thousands: 2500, decimal: 2.5 });
    expect(ambiguousCommaReadings('-1,000')).toEqual({ thousands: -1000, decimal: -1 });
    expect(ambiguousCommaReadings('1,25')).toBeNull();
  });

  it('parses integers', () => {
    expect(parseInteger(' 3 ')).toBe(3);
    expect(parseInteger('-1')).toBe(-1);
    expect(parseInteger('2.0')).toBeNull();
    expect(parseInteger('99999999999999999999')).toBeNull();
  });

  it('parses non-negative numbers with at most three decimals', () => {
    expect(parseThreeDecimals('12')).toBe(12);
    expect(parseThreeDecimals('0,125')).toBe(0.125);
    expect(parseThreeDecimals('.5')).toBe(0.5);
    expect(parseThreeDecimals('3.')).toBe(3);
    for (const bad of ['1.2345', '-1', '', '1e2', 'x']) expect(parseThreeDecimals(bad)).toBeNull();
  });

  it('knows blanks and converts mm to m without binary noise', () => {
    expect(isBlank(undefined)).toBe(true);
    expect(isBlank('  ')).toBe(true);
    expect(isBlank('0')).toBe(false);
    expect(millimetresToMetres(81.6)).toBe(0.0816);
    expect(millimetresToMetres(55.4)).toBe(0.0554);
  });
});

import { describe, expect, it } from 'vitest';
import {
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

import { describe, expect, it } from 'vitest';
import { messageNumber } from './useNumberFormat.ts';

describe('messageNumber', () => {
  it('keeps at most three decimals without grouping, and small values significant', () => {
    const f = messageNumber('es');
    expect(f(2.99071)).toBe('2.991');
    expect(f(3)).toBe('3');
    expect(f(3976.7981)).toBe('3976.798');
    expect(f(0.000123456)).toBe('0.000123');
    expect(messageNumber('en')(1.5)).toBe('1.5');
  });
});

import { describe, expect, it } from 'vitest';
import { toCsv, toCsvFile } from './csv.ts';

describe('toCsvFile', () => {
  it('is toCsv after a UTF-8 byte-order mark, so spreadsheets read the accents', () => {
    const rows = [
      ['Lámina', 'mm'],
      ['riego, día 1', 5.75],
    ];
    const text = toCsvFile(rows);
    expect(text).toBe(`\uFEFF${toCsv(rows)}`);
    expect([...new TextEncoder().encode(text).subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(toCsv(rows).startsWith('Lámina,mm\r\n')).toBe(true);
  });
});

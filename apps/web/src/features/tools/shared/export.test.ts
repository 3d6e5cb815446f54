import { describe, expect, it } from 'vitest';
import {
  autosave,
  clearAutosave,
  designFile,
  fileStem,
  loadAutosave,
  parseCsv,
  readDesignFile,
  toCsv,
  toCsvFile,
} from './export.ts';

describe('toCsv / parseCsv', () => {
  it('quotes commas, quotes and line breaks and keeps full precision', () => {
    const rows = [
      ['name', 'value'],
      ['a, b', 0.1 + 0.2],
      ['say "hi"', -3],
      ['two\nlines', null],
    ];
    const text = toCsv(rows);
    expect(text).toBe(
      'name,value\r\n"a, b",0.30000000000000004\r\n"say ""hi""",-3\r\n"two\nlines",\r\n',
    );
    expect(parseCsv(text)).toEqual([
      ['name', 'value'],
      ['a, b', '0.30000000000000004'],
      ['say "hi"', '-3'],
      ['two\nlines', ''],
    ]);
  });

  it('reads a file with its byte-order mark (toCsvFile) back to the same rows', () => {
    const rows = [
      ['Lámina', 'mm'],
      ['a, b', 1.5],
    ];
    const text = toCsvFile(rows);
    expect(text.charCodeAt(0)).toBe(0xfeff);
    expect(parseCsv(text)).toEqual([
      ['Lámina', 'mm'],
      ['a, b', '1.5'],
    ]);
  });

  it('writes non-finite numbers as empty cells', () => {
    expect(toCsv([[Number.NaN, Infinity, 1]])).toBe(',,1\r\n');
  });
});

describe('design files', () => {
  it('reads back only files of the same tool and version', () => {
    const text = JSON.stringify(designFile('lateral', { a: 1 }));
    expect(readDesignFile(text, 'lateral')).toEqual({ a: 1 });
    expect(readDesignFile(text, 'mainline')).toBeNull();
    expect(readDesignFile('not json', 'lateral')).toBeNull();
    expect(readDesignFile('[1,2]', 'lateral')).toBeNull();
    expect(readDesignFile('{"kind":"lateral","version":2,"data":{}}', 'lateral')).toBeNull();
  });

  it('autosaves to localStorage and clears', () => {
    expect(loadAutosave('secondary')).toBeNull();
    autosave('secondary', { units: [] });
    expect(loadAutosave('secondary')).toEqual({ units: [] });
    clearAutosave('secondary');
    expect(loadAutosave('secondary')).toBeNull();
  });

  it('names files with the tool and the date', () => {
    expect(fileStem('mainline', new Date('2026-03-04T10:00:00Z'))).toBe(
      'diagrodl-mainline-2026-03-04',
    );
  });
});

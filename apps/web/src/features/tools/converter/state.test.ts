import { describe, expect, it } from 'vitest';
import { UNIT_CATALOGUE, convert } from '@diagrodl/hydraulics';
import { reportCsvRows, reportPdfBlocks } from '../shared/report.ts';
import { check, converterReport, init, parseSaved, reducer, toSaved } from './state.ts';

describe('converter state', () => {
  it('runs only with valid inputs; a change hides the results', () => {
    let s = reducer(init(null), { type: 'update', patch: { value: 'x' } });
    s = reducer(s, { type: 'run', patch: { executed: true } });
    expect(s.alert).toEqual({ field: 'value', key: 'converter.notANumber' });
    expect(s.executed).toBe(false);
    s = reducer(s, { type: 'update', patch: { value: '2,5' } });
    expect(s.alert).toBeNull();
    s = reducer(s, { type: 'run', patch: { executed: true, showAll: true } });
    expect(s).toMatchObject({ executed: true, showAll: true, alert: null });
    expect(reducer(s, { type: 'update', patch: {} })).toMatchObject({
      executed: false,
      showAll: false,
    });
    expect(init(parseSaved(toSaved(s)))).toEqual(s);
    expect(parseSaved({ measure: 'length' })).toBeNull();
  });

  it('the report: the converted value in CSV at full precision, every equivalent', () => {
    const s = { ...init(null), measure: 'length', from: 'km', to: 'mi', value: '42.195' };
    const c = check(s);
    if (!c.ok) throw new Error('invalid');
    const t = ((key: string) => key) as never;
    const rows = reportCsvRows(converterReport(c, t, 'es'));
    expect(rows.find((r) => r[0] === 'converter.converted')![1]).toBe(
      convert('length', 'km', 'mi', 42.195),
    );
    expect(rows.filter((r) => r.length === 2 && typeof r[1] === 'number')).toHaveLength(
      UNIT_CATALOGUE.length.units.length + 2,
    );
    const pdf = reportPdfBlocks(converterReport(c, t, 'es'), (v) => String(v));
    expect(pdf.map((b) => b.kind)).toEqual(['pairs', 'pairs', 'table']);
  });
});

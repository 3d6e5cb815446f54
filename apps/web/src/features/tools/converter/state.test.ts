import { describe, expect, it } from 'vitest';
import { UNIT_CATALOGUE, convert } from '@diagrodl/hydraulics';
import { reportCsvRows, reportPdfBlocks } from '../shared/report.ts';
import {
  check,
  converterReport,
  formatConverted,
  init,
  parseSaved,
  reducer,
  roundConverted,
  toSaved,
} from './state.ts';

describe('converter state', () => {
  it('runs only with valid inputs; a change hides the results', () => {
    let s = reducer(init(null), { type: 'update', patch: { value: 'x' } });
    s = reducer(s, { type: 'run', patch: { executed: true } });
    expect(s.errors).toEqual({ value: { key: 'numberInput.notANumber' } });
    expect(s.attempt).toBe(1);
    expect(s.executed).toBe(false);
    s = reducer(s, { type: 'update', patch: { value: '2,5' } });
    expect(s.errors).toEqual({});
    s = reducer(s, { type: 'run', patch: { executed: true, showAll: true } });
    expect(s).toMatchObject({ executed: true, showAll: true, errors: {} });
    expect(reducer(s, { type: 'update', patch: {} })).toMatchObject({
      executed: false,
      showAll: false,
    });
    expect(init(parseSaved(toSaved(s)))).toEqual({ ...s, attempt: 0 });
    expect(parseSaved({ measure: 'length' })).toBeNull();
  });

  it('each input gets its own message, all at once', () => {
    const errorsOf = (patch: Partial<ReturnType<typeof init>>) =>
      reducer({ ...init(null), ...patch }, { type: 'run', patch: { executed: true } }).errors;
    const selectUnit = { key: 'converter.selectUnit' };
    expect(errorsOf({ measure: '', value: '' })).toEqual({
      measure: { key: 'converter.selectMeasure' },
      from: selectUnit,
      to: selectUnit,
      value: { key: 'numberInput.required' },
    });
    expect(errorsOf({ measure: 'speed' }).measure).toEqual({ key: 'converter.selectMeasure' });
    // A unit of another measure is no unit of this one.
    expect(errorsOf({ measure: 'length', from: 'kg', to: 'm' })).toEqual({ from: selectUnit });
    expect(errorsOf({ measure: 'length', from: 'm', to: '' })).toEqual({ to: selectUnit });
    expect(errorsOf({ measure: 'length', from: 'm', to: 'cm', value: '1e3' })).toEqual({});
    // "1,000" reads as a thousand in es-MX and as one with a decimal comma: refused
    expect(errorsOf({ measure: 'length', from: 'm', to: 'cm', value: '1,000' })).toEqual({
      value: { key: 'numberInput.notANumber' },
    });
    // Beyond 10¹² either way (where a conversion could overflow to Infinity): out of range.
    const range = {
      key: 'numberInput.rangeNoUnit',
      values: { min: '-1e12', max: '1e12', unit: '' },
    };
    expect(errorsOf({ measure: 'length', from: 'km', to: 'm', value: '1e15' })).toEqual({
      value: range,
    });
    expect(errorsOf({ measure: 'length', from: 'km', to: 'm', value: '-1e306' })).toEqual({
      value: range,
    });
    expect(errorsOf({ measure: 'length', from: 'km', to: 'm', value: '1e12' })).toEqual({});
  });

  it('shows seven significant digits below 1, six decimals above, scientific at the ends', () => {
    expect(formatConverted(convert('flow', 'L/h', 'L/s', 1), 'es')).toBe('0.0002777778');
    expect(formatConverted(0.5, 'es')).toBe('0.5');
    expect(formatConverted(1234.56789012, 'es')).toBe('1,234.56789');
    expect(formatConverted(1 / 3, 'en')).toBe('0.3333333');
    expect(formatConverted(2.5e-5, 'es')).toBe('2.5E-5');
    expect(formatConverted(0, 'es')).toBe('0');
  });

  it('a hand-checked report: 2,5 km in m (CSV as shown, PDF as Mexico writes numbers)', () => {
    const s = { ...init(null), measure: 'length', from: 'km', to: 'm', value: '2,5' };
    const c = check(s);
    if (!c.ok) throw new Error('invalid');
    const t = ((key: string) => key) as never;
    const report = converterReport(c, t, 'es');
    const rows = reportCsvRows(report);
    expect(rows.slice(0, 6)).toEqual([
      ['converter.csv.field', 'converter.csv.value'],
      ['converter.measure', 'Longitud'],
      ['converter.from', 'kilómetro (km)'],
      ['converter.value', 2.5],
      ['converter.to', 'metro (m)'],
      ['converter.converted', 2500],
    ]);
    const eq = Object.fromEntries(rows.filter((r) => r.length === 2).slice(6));
    expect(eq['milímetro (mm)']).toBe(2_500_000);
    expect(eq['centímetro (cm)']).toBe(250_000);
    expect(eq['kilómetro (km)']).toBe(2.5);
    // 2500 m / 0.3048 m per foot = 8202.0997... ft; / 1609.344 m per mile = 1.5534... mi.
    expect(eq['pie (ft)']).toBe(8202.099738);
    expect(eq['milla (mi)']).toBe(1.553428);
    const pdf = reportPdfBlocks(report, (v) => String(v)) as unknown as {
      rows: [string, string][];
    }[];
    expect(pdf[0]!.rows[2]).toEqual(['converter.value', '2.5']);
    expect(pdf[1]!.rows[0]).toEqual(['converter.converted', '2,500 metro (m)']);
  });

  it('the report: the converted value in CSV with the digits shown, every equivalent', () => {
    const s = { ...init(null), measure: 'length', from: 'km', to: 'mi', value: '42.195' };
    const c = check(s);
    if (!c.ok) throw new Error('invalid');
    const t = ((key: string) => key) as never;
    const rows = reportCsvRows(converterReport(c, t, 'es'));
    const converted = convert('length', 'km', 'mi', 42.195);
    expect(rows.find((r) => r[0] === 'converter.converted')![1]).toBe(Number(converted.toFixed(6)));
    expect(roundConverted(converted)).toBe(26.218757);
    expect(roundConverted(1 / 3600)).toBe(0.0002777778);
    expect(roundConverted(2.5e13 / 3)).toBe(8.333333e12);
    expect(rows.filter((r) => r.length === 2 && typeof r[1] === 'number')).toHaveLength(
      UNIT_CATALOGUE.length.units.length + 2,
    );
    const pdf = reportPdfBlocks(converterReport(c, t, 'es'), (v) => String(v));
    expect(pdf.map((b) => b.kind)).toEqual(['pairs', 'pairs', 'table']);
  });
});

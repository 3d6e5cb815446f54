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
  toSaved,
} from './state.ts';

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

  it('each input gets its own alert, checked in the order of the form', () => {
    const alertOf = (patch: Partial<ReturnType<typeof init>>) =>
      reducer({ ...init(null), ...patch }, { type: 'run', patch: { executed: true } }).alert;
    expect(alertOf({ measure: '' })).toEqual({ field: 'measure', key: 'converter.selectMeasure' });
    expect(alertOf({ measure: 'speed' })).toEqual({
      field: 'measure',
      key: 'converter.selectMeasure',
    });
    // A unit of another measure is no unit of this one.
    expect(alertOf({ measure: 'length', from: 'kg', to: 'm' })).toEqual({
      field: 'from',
      key: 'converter.selectUnit',
    });
    expect(alertOf({ measure: 'length', from: 'm', to: '' })).toEqual({
      field: 'to',
      key: 'converter.selectUnit',
    });
    expect(alertOf({ measure: 'length', from: 'm', to: 'cm', value: '' })).toEqual({
      field: 'value',
      key: 'converter.notANumber',
    });
    expect(alertOf({ measure: 'length', from: 'm', to: 'cm', value: '1e3' })).toBeNull();
    // "1,000" reads as a thousand in es-MX and as one with a decimal comma: refused
    expect(alertOf({ measure: 'length', from: 'm', to: 'cm', value: '1,000' })).toEqual({
      field: 'value',
      key: 'converter.notANumber',
    });
    // a finite value whose conversion (or one of its equivalents) overflows
    expect(alertOf({ measure: 'length', from: 'km', to: 'm', value: '1e306' })).toEqual({
      field: 'value',
      key: 'converter.outOfRange',
    });
    expect(alertOf({ measure: 'length', from: 'km', to: 'm', value: '1e300' })).toBeNull();
  });

  it('shows seven significant digits below 1, six decimals above, scientific at the ends', () => {
    expect(formatConverted(convert('flow', 'L/h', 'L/s', 1), 'es')).toBe('0.0002777778');
    expect(formatConverted(0.5, 'es')).toBe('0.5');
    expect(formatConverted(1234.56789012, 'es')).toBe('1,234.56789');
    expect(formatConverted(1 / 3, 'en')).toBe('0.3333333');
    expect(formatConverted(2.5e-5, 'es')).toBe('2.5E-5');
    expect(formatConverted(0, 'es')).toBe('0');
  });

  it('a hand-checked report: 2,5 km in m (CSV exact, PDF as Mexico writes numbers)', () => {
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
    expect(eq['pie (ft)']).toBeCloseTo(8202.0997375, 6);
    expect(eq['milla (mi)']).toBeCloseTo(1.5534279805, 9);
    const pdf = reportPdfBlocks(report, (v) => String(v)) as unknown as {
      rows: [string, string][];
    }[];
    expect(pdf[0]!.rows[2]).toEqual(['converter.value', '2.5']);
    expect(pdf[1]!.rows[0]).toEqual(['converter.converted', '2,500 metro (m)']);
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

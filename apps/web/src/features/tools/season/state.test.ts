import {
  SAMPLE_DAILY_CSV,
  SAMPLE_HOURLY_CSV,
  diseaseRisk,
  parseWeatherCsv,
  waterBalance,
} from '@diagrodl/hydraulics';
import { describe, expect, it } from 'vitest';
import { checkField as checkSpec } from '../shared/fieldCheck.ts';
import { csvNumber, reportCsvRows, reportPdfBlocks } from '../shared/report.ts';
import { riskAlerts, seasonReport } from './report.ts';
import {
  FIELDS,
  compute,
  init,
  parseSaved,
  reducer,
  toSaved,
  type Action,
  type State,
} from './state.ts';

const apply = (s: State, ...actions: Action[]) => actions.reduce(reducer, s);
const withSamples = () =>
  apply(
    init(null),
    { type: 'file', which: 'daily', file: { name: 'daily.csv', text: SAMPLE_DAILY_CSV } },
    { type: 'file', which: 'hourly', file: { name: 'hourly.csv', text: SAMPLE_HOURLY_CSV } },
  );
/** A t() that shows its key and values, so a test reads which message was chosen. */
const t = ((key: string, values?: Record<string, unknown>) =>
  values ? `${key} ${JSON.stringify(values)}` : key) as never;
const fmt = (v: number, d = 2) => v.toFixed(d);
/** The message (or number) of what is typed in a field of this screen. */
const checkField = (key: keyof typeof FIELDS, text: string) => checkSpec(FIELDS[key], text);

describe('season calendar state', () => {
  it('calculates the water balance of the sample with the defaults', () => {
    const s = apply(withSamples(), { type: 'calculate', section: 'balance' });
    expect(s.errors).toEqual({});
    expect(s.balanceInput).not.toBeNull();
    const { balance } = compute(s);
    const parsed = parseWeatherCsv(SAMPLE_DAILY_CSV, 'daily');
    expect(parsed.ok).toBe(true);
    // The screen's result is the engine's on the same file and fields.
    expect(balance).toEqual(waterBalance(s.balanceInput!));
    expect(balance!.taw).toBeCloseTo(105, 10);
    expect(balance!.days[0]!.grossIrrigation === null).toBe(false);
  });

  it('calculates the disease risk of the hourly sample and finds its alerts', () => {
    const s = apply(withSamples(), { type: 'calculate', section: 'risk' });
    expect(s.errors).toEqual({});
    const { risk } = compute(s);
    expect(risk).toEqual(diseaseRisk(s.riskInput!));
    expect(riskAlerts(risk!).length).toBeGreaterThan(0);
  });

  it('gives every field its message at once, and no result', () => {
    const s = apply(
      withSamples(),
      { type: 'raw', key: 'fieldCapacity', value: '' },
      { type: 'raw', key: 'rootDepth', value: '70' },
      { type: 'raw', key: 'emitterFlow', value: '1e15' },
      { type: 'raw', key: 'eu', value: 'abc' },
      { type: 'calculate', section: 'balance' },
    );
    expect(s.balanceInput).toBeNull();
    expect(s.attempt).toBe(1);
    expect(s.errors.fieldCapacity).toMatchObject({ key: 'numberInput.required' });
    expect(s.errors.rootDepth).toEqual({
      key: 'numberInput.otherUnit',
      values: { typed: '70', other: 'cm', converted: '0.7', unit: 'm' },
    });
    expect(s.errors.emitterFlow).toMatchObject({ key: 'numberInput.range' });
    expect(s.errors.eu).toMatchObject({ key: 'numberInput.notANumber' });
  });

  it('refuses a wilting point at or above field capacity, and a start beyond TAW', () => {
    let s = apply(
      withSamples(),
      { type: 'raw', key: 'wiltingPoint', value: '0.30' },
      { type: 'calculate', section: 'balance' },
    );
    expect(s.errors.wiltingPoint).toMatchObject({ key: 'irrigation.season.errors.wiltingPoint' });
    s = apply(
      s,
      { type: 'raw', key: 'wiltingPoint', value: '0.15' },
      { type: 'raw', key: 'initialDepletion', value: '106' },
      { type: 'calculate', section: 'balance' },
    );
    expect(s.errors).toEqual({
      initialDepletion: {
        key: 'irrigation.season.errors.initialDepletion',
        values: { taw: '105' },
      },
    });
  });

  it('every field refuses a value 1000 times beyond its range', () => {
    const keys = [
      'fieldCapacity',
      'wiltingPoint',
      'rootDepth',
      'p',
      'initialDepletion',
      'runoffFraction',
      'every',
      'initial',
      'kcMid',
      'kc',
      'latitude',
      'altitude',
      'emitterFlow',
      'emitterSpacing',
      'lateralSpacing',
      'eu',
      'leachingFraction',
      'hoursAvailable',
      'lateBlightThreshold',
    ] as const;
    for (const key of keys) {
      const checked = checkField(key, '1000000');
      expect('error' in checked, key).toBe(true);
    }
    expect(checkField('every', '2.5')).toEqual({
      error: {
        key: 'numberInput.integer',
        values: { min: '1', max: '60', unit: 'd' },
      },
    });
    expect(checkField('fieldCapacity', '30')).toMatchObject({
      error: { values: { converted: '0.3', other: '%' } },
    });
    expect(checkField('fieldCapacity', '0,3')).toEqual({ value: 0.3 });
  });

  it('names the rows of a file that cannot be read and shows no result', () => {
    const lines = SAMPLE_HOURLY_CSV.trim().split('\n');
    const columns = lines[0]!.split(',');
    const rh = columns.indexOf('rh');
    const bad = lines[11]!.split(',');
    bad[rh] = '150';
    lines[11] = bad.join(',');
    const s = apply(
      init(null),
      { type: 'file', which: 'hourly', file: { name: 'bad.csv', text: lines.join('\n') } },
      { type: 'calculate', section: 'risk' },
    );
    expect(s.riskInput).toBeNull();
    expect(s.errors.hourly).toMatchObject({ key: 'irrigation.season.errors.csv' });
    expect(s.csvErrors.hourly).toHaveLength(1);
    expect(s.csvErrors.hourly[0]).toMatchObject({ row: 12 });
  });

  it('asks for a file before calculating', () => {
    const s = reducer(init(null), { type: 'calculate', section: 'balance' });
    expect(s.errors.daily).toMatchObject({ key: 'irrigation.season.errors.no_daily' });
  });

  it('keeps the results of the inputs they came from through a save and a reload', () => {
    const s = apply(
      withSamples(),
      { type: 'options', patch: { strategy: 'interval' } },
      { type: 'raw', key: 'every', value: '4' },
      { type: 'calculate', section: 'balance' },
      { type: 'calculate', section: 'risk' },
      // typed after Calculate: not what the results came from
      { type: 'raw', key: 'every', value: '7' },
    );
    const loaded = init(parseSaved(JSON.parse(JSON.stringify(toSaved(s)))));
    expect(loaded.raw.every).toBe('7');
    expect(loaded.balanceInput).toEqual(s.balanceInput);
    expect(compute(loaded)).toEqual(compute(s));
    expect(parseSaved({ something: 'else' })).toBeNull();
  });

  it('takes the scheduling screen’s values and drops the results they change', () => {
    const s = apply(
      withSamples(),
      { type: 'options', patch: { drip: false } },
      { type: 'calculate', section: 'balance' },
      { type: 'fromSchedule', values: { emitterFlow: '2.2', eu: '92', latitude: '' } },
    );
    expect(s.raw.emitterFlow).toBe('2.2');
    expect(s.raw.eu).toBe('92');
    expect(s.raw.latitude).toBe('20.53');
    expect(s.options.drip).toBe(true);
    expect(s.balanceInput).toBeNull();
    expect(s.imported).toBe(true);
  });

  it('reports both sections: CSV at 3 decimals, the PDF in the language', () => {
    const s = apply(
      withSamples(),
      { type: 'calculate', section: 'balance' },
      { type: 'calculate', section: 'risk' },
    );
    const report = seasonReport(s, compute(s), t, 'es', fmt);
    const rows = reportCsvRows(report);
    const numbers = rows.flat().filter((c): c is number => typeof c === 'number');
    expect(numbers.length).toBeGreaterThan(100);
    for (const n of numbers) expect(n).toBe(csvNumber(n));
    const blocks = reportPdfBlocks(report, fmt);
    // both charts side by side; the PDF's balance table keeps 8 of its 14 columns
    expect(blocks.filter((b) => b.kind === 'charts')).toHaveLength(1);
    const table = blocks.find((b) => b.kind === 'table');
    expect(table?.kind === 'table' && table.columns).toHaveLength(8);
  });
});

/**
 * Every number field of every tool, from the tools' own field tables: a value 1000 times beyond its
 * range (the maximum × 1000; the minimum / 1000 when it is above 0, × 1000 when below, and
 * −1000 × the maximum when it is 0) gets a message on that field, and the tool shows no result.
 * A field added to a table is covered without touching this file.
 */
import { SAMPLE_DAILY_CSV, SAMPLE_HOURLY_CSV } from '@diagrodl/hydraulics';
import { describe, expect, it } from 'vitest';
import * as converter from '../converter/state.ts';
import * as lateral from '../lateral/state.ts';
import * as mainline from '../mainline/state.ts';
import * as schedule from '../schedule/state.ts';
import * as season from '../season/state.ts';
import * as secondary from '../secondary/state.ts';
import type { FieldSpec } from './fieldCheck.ts';

/** The values 1000 times beyond a field's range, as typed. */
function beyond(spec: FieldSpec): string[] {
  const low = spec.min > 0 ? spec.min / 1000 : spec.min < 0 ? spec.min * 1000 : -spec.max * 1000;
  return [String(spec.max * 1000), String(low)];
}

/** Each field of a table with each of its values beyond range. */
const cases = (specs: Record<string, FieldSpec>): [string, string][] =>
  Object.entries(specs).flatMap(([key, spec]) =>
    beyond(spec).map((value): [string, string] => [key, value]),
  );

describe('every number field refuses a value 1000 times beyond its range', () => {
  it('lateral calculator', () => {
    const fixed = (key: string) =>
      key === 'length' || key === 'emitters'
        ? lateral.reducer(lateral.init(null), {
            type: 'extra',
            patch: { fix: key as lateral.FixMode, fixValue: key === 'length' ? '20' : '40' },
          })
        : lateral.init(null);
    const calculate = (s: lateral.State) => lateral.reducer(s, { type: 'calculate' });
    for (const [key, value] of cases(lateral.LATERAL_SPECS)) {
      const start = fixed(key);
      expect(calculate(start).calculation, `${key} as it is`).not.toBeNull();
      const isInput = lateral.LATERAL_FIELDS.some((f) => f.key === key);
      const typed = lateral.reducer(
        start,
        isInput
          ? { type: 'raw', key: key as lateral.FieldKey, value }
          : { type: 'extra', patch: key in start.extra ? { [key]: value } : { fixValue: value } },
      );
      const s = calculate(typed);
      expect(s.errors[key as lateral.ErrorKey], `${key} = ${value}`).toBeDefined();
      expect(s.calculation, `${key} = ${value}`).toBeNull();
    }
  });

  it('secondary line designer', () => {
    const A = { pipeType: 'PVC_CED40', nd: '3', length: '150', qs: '2000', s0: '1', se: '1.5' };
    let start = secondary.init(null, 'es');
    const key0 = start.units[0]!.key;
    for (const [field, value] of Object.entries({ ...A, hfp: '3' })) {
      start = secondary.reducer(start, {
        type: 'raw',
        key: key0,
        field: field as secondary.Field,
        value,
      });
    }
    const calculate = (s: secondary.State) =>
      secondary.reducer(s, { type: 'calculate', key: key0, lang: 'es' }).units[0]!;
    expect(calculate(start).result).not.toBeNull();
    for (const [field, value] of cases(secondary.SECONDARY_SPECS)) {
      const typed = secondary.reducer(start, {
        type: 'raw',
        key: key0,
        field: field as secondary.Field,
        value,
      });
      const unit = calculate(typed);
      expect(unit.errors[field as secondary.Field], `${field} = ${value}`).toBeDefined();
      expect(unit.result, `${field} = ${value}`).toBeNull();
    }
  });

  it('main-line designer: the sections and the initial pressure', () => {
    let start = mainline.reducer(mainline.init(null), { type: 'pressure', value: '40' });
    const key0 = start.sections[0]!.key;
    const section = {
      pipeType: 'PVC_RD26',
      nominalDiameter: '150',
      flow: '30',
      length: '420.5',
      slope: '0.004',
    };
    for (const [field, value] of Object.entries(section)) {
      start = mainline.reducer(start, {
        type: 'raw',
        key: key0,
        field: field as mainline.Field,
        value,
      });
    }
    const calculate = (s: mainline.State) =>
      mainline.reducer(s, { type: 'calculate', key: key0 }).sections[0]!;
    expect(calculate(start).result).not.toBeNull();
    for (const [field, value] of cases(mainline.MAINLINE_SPECS)) {
      const typed = mainline.reducer(start, {
        type: 'raw',
        key: key0,
        field: field as mainline.Field,
        value,
      });
      const s = calculate(typed);
      expect(s.errors[field as mainline.Field], `${field} = ${value}`).toBeDefined();
      expect(s.result, `${field} = ${value}`).toBeNull();
    }
    const totals = (s: mainline.State) => mainline.reducer(s, { type: 'totals' });
    expect(totals(start).totals).not.toBeNull();
    for (const value of beyond(mainline.PRESSURE_SPEC)) {
      const s = totals(mainline.reducer(start, { type: 'pressure', value }));
      expect(s.pressureAlert, `initial pressure = ${value}`).not.toBeNull();
      expect(s.totals, `initial pressure = ${value}`).toBeNull();
    }
  });

  it('irrigation scheduling, each field with the choices that show it', () => {
    const choices: Partial<schedule.Options>[] = [
      {},
      { et0Source: 'typed', kcMode: 'typed' },
      { humidity: 'rhmean' },
      { humidity: 'tdew' },
      { humidity: 'ea' },
      { radiation: 'measured' },
      { period: 'month' },
    ];
    /** Values for the fields the defaults leave blank, so that every choice calculates. */
    const filled: Partial<schedule.Raw> = {
      rhmean: '70',
      tdew: '12',
      ea: '1.4',
      solarRadiation: '22',
      tPrevious: '18',
    };
    const calculate = (s: schedule.State) => schedule.reducer(s, { type: 'calculate' });
    for (const [key, value] of cases(schedule.FIELDS)) {
      const patch = choices.find((c) =>
        schedule
          .activeFields({ ...schedule.init(null).options, ...c })
          .includes(key as schedule.FieldKey),
      );
      expect(patch, `${key} is shown by a choice`).toBeDefined();
      const base = schedule.init(null);
      const start: schedule.State = {
        ...base,
        raw: { ...base.raw, ...filled },
        options: { ...base.options, ...patch },
      };
      expect(calculate(start).calculation, `${key}: the choices calculate`).not.toBeNull();
      const s = calculate(
        schedule.reducer(start, { type: 'raw', key: key as schedule.FieldKey, value }),
      );
      expect(s.errors[key], `${key} = ${value}`).toBeDefined();
      expect(s.calculation, `${key} = ${value}`).toBeNull();
    }
  });

  it('unit converter', () => {
    const run = (value: string) =>
      converter.reducer(
        { ...converter.init(null), measure: 'length', from: 'km', to: 'm', value },
        { type: 'run', patch: { executed: true } },
      );
    expect(run('1').executed).toBe(true);
    for (const value of beyond(converter.VALUE_SPEC)) {
      const s = run(value);
      expect(s.errors.value, value).toBeDefined();
      expect(s.executed).toBe(false);
    }
  });

  it('season calendar, each field in the section and with the choices that read it', () => {
    const files = [
      { type: 'file', which: 'daily', file: { name: 'd.csv', text: SAMPLE_DAILY_CSV } },
      { type: 'file', which: 'hourly', file: { name: 'h.csv', text: SAMPLE_HOURLY_CSV } },
    ] as const;
    const choices: Partial<season.Options>[] = [{}, { strategy: 'interval' }, { kcMode: 'typed' }];
    for (const [key, value] of cases(season.FIELDS)) {
      const section = key === 'lateBlightThreshold' ? 'risk' : 'balance';
      const patch = choices.find((c) =>
        season
          .sectionFields(section, { ...season.DEFAULT_OPTIONS, ...c })
          .includes(key as season.FieldKey),
      );
      expect(patch, `${key} is read by a choice`).toBeDefined();
      const start = [...files, { type: 'options', patch: patch! } as const].reduce<season.State>(
        season.reducer,
        season.init(null),
      );
      const result = (s: season.State) => (section === 'balance' ? s.balanceInput : s.riskInput);
      const calculate = (s: season.State) => season.reducer(s, { type: 'calculate', section });
      expect(result(calculate(start)), `${key}: the choices calculate`).not.toBeNull();
      const s = calculate(
        season.reducer(start, { type: 'raw', key: key as season.FieldKey, value }),
      );
      expect(s.errors[key as season.FieldKey], `${key} = ${value}`).toBeDefined();
      expect(result(s), `${key} = ${value}`).toBeNull();
    }
  });
});

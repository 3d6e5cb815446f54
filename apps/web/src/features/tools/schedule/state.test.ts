import { describe, expect, it } from 'vitest';
import { reportCsvRows, reportPdfBlocks } from '../shared/report.ts';
import { latinLetters, scheduleReport, scheduleSentence } from './report.ts';
import {
  activeFields,
  compute,
  init,
  parseSaved,
  reducer,
  toSaved,
  type Action,
  type State,
} from './state.ts';

const calculated = (s: State) => reducer(s, { type: 'calculate' });
const apply = (s: State, ...actions: Action[]) => actions.reduce(reducer, s);
/** The drip example: ET0 5.0 and Kc 1.15 typed, the default drip layout. */
const typed = () =>
  apply(
    init(null),
    { type: 'options', patch: { et0Source: 'typed', kcMode: 'typed' } },
    { type: 'raw', key: 'et0', value: '5,0' },
    { type: 'raw', key: 'kc', value: '1.15' },
  );

describe('irrigation scheduling state', () => {
  it('the defaults are FAO-56 Example 18 and tomato on day 80', () => {
    const s = calculated(init(null));
    expect(s.errors).toEqual({});
    const c = compute(s.calculation!);
    expect(c.et0!.et0.toFixed(2)).toBe('3.88');
    expect(c.et0!.Ra.toFixed(2)).toBe('41.09');
    expect(c.schedule.kc).toBe(1.15);
    expect(c.schedule.stage).toBe('midSeason');
    expect(c.schedule.etc).toBeCloseTo(1.15 * c.et0!.et0, 12);
  });

  it('gives the issue’s schedule with ET0 and Kc typed (decimal comma accepted)', () => {
    const s = calculated(typed());
    expect(s.calculation!.et0Input).toBeNull();
    const c = compute(s.calculation!);
    expect(c.schedule.etc.toFixed(2)).toBe('5.75');
    expect(c.schedule.grossDepth.toFixed(3)).toBe('6.389');
    expect(c.schedule.applicationRate.toFixed(3)).toBe('3.556');
    expect(c.schedule.hoursPerSector.toFixed(3)).toBe('1.797');
    expect(c.schedule.sectors).toBe(11);
  });

  it('only the fields of the choices made are read', () => {
    expect(activeFields(init(null).options)).not.toContain('et0');
    const hargreaves = apply(init(null), {
      type: 'options',
      patch: { et0Source: 'hargreaves' },
    });
    expect(activeFields(hargreaves.options)).not.toContain('rhmax');
    // A bad relative humidity does not matter to Hargreaves.
    const s = calculated(apply(hargreaves, { type: 'raw', key: 'rhmax', value: 'x' }));
    expect(s.errors).toEqual({});
    expect(compute(s.calculation!).et0!.method).toBe('hargreaves');
    const month = calculated(
      apply(
        init(null),
        { type: 'options', patch: { period: 'month', month: '4' } },
        { type: 'raw', key: 'tPrevious', value: '20' },
      ),
    );
    expect(month.calculation!.et0Input!.dayOfYear).toBe(105);
    expect(compute(month.calculation!).et0!.G).toBeCloseTo(0.14 * (16.9 - 20), 12);
  });

  it('gives every field its message at once, and no result (none of the values before)', () => {
    const good = calculated(init(null));
    const s = calculated(
      apply(
        good,
        { type: 'raw', key: 'tmax', value: 'abc' },
        { type: 'raw', key: 'emitterFlow', value: ' ' },
        { type: 'raw', key: 'windSpeed', value: '50' },
        { type: 'raw', key: 'eu', value: '0' },
      ),
    );
    expect(s.calculation).toBeNull();
    expect(s.attempt).toBe(1);
    expect(s.errors).toEqual({
      tmax: { key: 'numberInput.notANumber' },
      emitterFlow: { key: 'numberInput.required' },
      windSpeed: {
        key: 'numberInput.otherUnit',
        values: { typed: '50', other: 'km/h', converted: '13.889', unit: 'm/s' },
      },
      eu: { key: 'numberInput.range', values: { min: '50', max: '100', unit: '%' } },
    });
  });

  it('names the field the engine refuses once every field is in its range', () => {
    const good = calculated(init(null));
    const refused = calculated(apply(good, { type: 'raw', key: 'rhmin', value: '90' }));
    expect(refused.errors).toEqual({
      rhmin: { key: 'irrigation.schedule.invalid.rhmin', fallback: expect.any(String) },
    });
    expect(refused.calculation).toBeNull();
    const stage = calculated(apply(good, { type: 'raw', key: 'late', value: '0' }));
    expect(stage.errors).toEqual({
      late: { key: 'numberInput.range', values: { min: '1', max: '365', unit: 'd' } },
    });
    const pump = calculated(apply(good, { type: 'raw', key: 'systemFlow', value: '10' }));
    expect(pump.errors).toEqual({
      area: { key: 'irrigation.schedule.invalid.area', fallback: expect.any(String) },
    });
    // Optional fields may stay blank.
    const optional = calculated(apply(good, { type: 'raw', key: 'effectiveRain', value: '' }));
    expect(optional.errors).toEqual({});
    expect(optional.calculation!.schedule.effectiveRain).toBe(0);
  });

  it('takes the lateral design’s EU, mean flow and spacing', () => {
    const before = calculated(init(null));
    expect(before.calculation).not.toBeNull();
    const s = apply(before, {
      type: 'fromLateral',
      values: { eu: 93.456789, emitterFlow: 1.123456789, emitterSpacing: 0.2 },
    });
    expect(s.imported).toBe(true);
    // the results of the values before go with them
    expect(s.calculation).toBeNull();
    expect([s.raw.eu, s.raw.emitterFlow, s.raw.emitterSpacing]).toEqual(['93.46', '1.1235', '0.2']);
    expect(init(parseSaved(JSON.parse(JSON.stringify(toSaved(s))))).imported).toBe(false);
  });

  it('reset and a saved design', () => {
    const s = calculated(typed());
    expect(reducer(s, { type: 'reset' })).toEqual(init(null));
    const back = init(parseSaved(JSON.parse(JSON.stringify(toSaved(s)))));
    expect(back.calculation).toEqual(s.calculation);
    expect(back.options).toEqual(s.options);
    expect(parseSaved({ raw: { et0: 1 }, options: {} })).toBeNull();
    const bad = parseSaved({ ...toSaved(s), options: { et0Source: 'x', month: '13' } })!;
    expect(bad.options.et0Source).toBe('penman-monteith');
    expect(bad.options.month).toBe('7');
  });
});

describe('irrigation scheduling saved design', () => {
  const t = ((key: string, values?: Record<string, unknown>) =>
    values && 'count' in values ? `${key}:${String(values.count)}` : key) as never;
  const fmt = (v: number, d = 2) => v.toFixed(d);
  /** Saved as JSON (the design file and the autosave), then opened. */
  const reopened = (s: State) => init(parseSaved(JSON.parse(JSON.stringify(toSaved(s)))));
  /** What the screen, the CSV and the PDF show. */
  const shown = (s: State) => {
    const computed = compute(s.calculation!);
    const report = scheduleReport(s.calculation!, computed, t, 'es', fmt);
    return {
      computed,
      csv: reportCsvRows(report),
      pdf: reportPdfBlocks(report, fmt, [null]),
    };
  };

  it('brings back the fields and choices as they were and the results shown, not those of the fields changed since', () => {
    const s = calculated(init(null));
    const edited = apply(
      s,
      { type: 'raw', key: 'tmax', value: '35' },
      { type: 'raw', key: 'hoursAvailable', value: '10' },
      { type: 'options', patch: { et0Source: 'typed', kcMode: 'typed' } },
    );
    const back = reopened(edited);
    expect(back.raw).toEqual(edited.raw);
    expect(back.options).toEqual(edited.options);
    expect(back.calculation).toEqual(s.calculation);
    expect(back.errors).toEqual({});
    expect(shown(back)).toEqual(shown(s));
    expect(shown(back).computed.schedule.sectors).toBe(compute(s.calculation!).schedule.sectors);
    expect(toSaved(back)).toEqual(JSON.parse(JSON.stringify(toSaved(edited))));
  });

  it('every way of calculating comes back as it was', () => {
    const cases: Action[][] = [
      [{ type: 'options', patch: { et0Source: 'typed', kcMode: 'typed' } }],
      [{ type: 'options', patch: { et0Source: 'hargreaves' } }],
      [
        { type: 'options', patch: { period: 'month', month: '3', humidity: 'rhmean' } },
        { type: 'raw', key: 'rhmean', value: '70' },
        { type: 'raw', key: 'tPrevious', value: '10' },
        { type: 'raw', key: 'area', value: '2,5' },
        { type: 'raw', key: 'systemFlow', value: '40' },
        { type: 'raw', key: 'effectiveRain', value: '' },
      ],
    ];
    for (const actions of cases) {
      const s = calculated(apply(init(null), ...actions));
      expect(s.errors).toEqual({});
      const edited = apply(
        s,
        { type: 'raw', key: 'emitterFlow', value: '2' },
        { type: 'options', patch: { et0Source: 'penman-monteith', period: 'day' } },
      );
      const back = reopened(edited);
      expect(back.calculation).toEqual(s.calculation);
      expect(shown(back)).toEqual(shown(s));
    }
  });

  it('a saved calculation out of range or refused by the engine gets the message Calculate gives', () => {
    const s = calculated(init(null));
    const saved = JSON.parse(JSON.stringify(toSaved(s))) as ReturnType<typeof toSaved>;
    saved.calculation!.values.eu = 0;
    const back = init(parseSaved(saved));
    const typed = calculated(apply(init(null), { type: 'raw', key: 'eu', value: '0' }));
    expect(Object.keys(typed.errors)).toEqual(['eu']);
    expect(back.calculation).toBeNull();
    expect(back.errors).toEqual(typed.errors);
    expect(back.attempt).toBe(0);
    saved.calculation!.values.eu = 90;
    saved.calculation!.values.rhmin = 95;
    const refused = init(parseSaved(saved));
    expect(refused.calculation).toBeNull();
    expect(refused.errors.rhmin).toMatchObject({ key: 'irrigation.schedule.invalid.rhmin' });
  });

  it('older files (and calculations that cannot be read) are calculated again from the fields', () => {
    const s = calculated(init(null));
    const edited = apply(s, { type: 'raw', key: 'hoursAvailable', value: '10' });
    const { raw, options, calculated: done } = toSaved(edited);
    const again = calculated(edited).calculation;
    expect(init(parseSaved({ raw, options, calculated: done })).calculation).toEqual(again);
    const broken = { raw, options, calculated: done, calculation: { options, values: {} } };
    expect(init(parseSaved(broken)).calculation).toEqual(again);
    expect(init(parseSaved({ raw, options, calculated: false })).calculation).toBeNull();
  });
});

describe('irrigation scheduling report', () => {
  const t = ((key: string, values?: Record<string, unknown>) =>
    values && 'count' in values ? `${key}:${String(values.count)}` : key) as never;
  const fmt = (v: number, d = 2) => v.toFixed(d);

  it('CSV: the choices and inputs, ET0 and its terms, the results and the season', () => {
    const s = calculated(init(null));
    const c = compute(s.calculation!);
    const rows = reportCsvRows(scheduleReport(s.calculation!, c, t, 'es', fmt));
    expect(rows[0]).toEqual([
      'irrigation.csv.input',
      'irrigation.csv.value',
      'irrigation.csv.unit',
    ]);
    expect(rows[1]).toEqual([
      'irrigation.schedule.et0Source',
      'irrigation.schedule.et0Sources.penman-monteith',
    ]);
    expect(rows).toContainEqual(['irrigation.schedule.fields.tmax', 21.5, '°C']);
    // Numbers with the decimals shown (at least 3): 41.09 MJ/m²/d on the screen, 41.091 here.
    expect(rows).toContainEqual([
      'irrigation.schedule.et0Figures.Ra',
      Number(c.et0!.Ra.toFixed(3)),
      'MJ/m²/d',
    ]);
    for (const n of rows.flat().filter((x): x is number => typeof x === 'number')) {
      expect(n, String(n)).toBe(Number(n.toFixed(4)));
    }
    expect(rows).toContainEqual(['irrigation.schedule.figures.sectors', c.schedule.sectors, '']);
    const season = rows.findIndex((r) => r[0] === 'irrigation.schedule.cols.day');
    expect(rows.slice(season + 1)).toHaveLength(135);
    expect(rows[season + 80]).toEqual([
      80,
      'irrigation.schedule.stages.midSeason',
      1.15,
      Number((1.15 * c.et0!.et0).toFixed(3)),
    ]);
  });

  it('describes the results shown, not the choices made since without calculating', () => {
    // Calculated with Penman-Monteith, then ET0 switched to typed: still Penman-Monteith's report.
    const pm = calculated(init(null));
    const switched = apply(pm, { type: 'options', patch: { et0Source: 'typed' } });
    const pmRows = reportCsvRows(
      scheduleReport(switched.calculation!, compute(switched.calculation!), t, 'es', fmt),
    );
    expect(pmRows[1]).toEqual([
      'irrigation.schedule.et0Source',
      'irrigation.schedule.et0Sources.penman-monteith',
    ]);
    expect(pmRows).toContainEqual(['irrigation.schedule.fields.tmax', 21.5, '°C']);
    expect(pmRows.some((r) => r[0] === 'irrigation.schedule.fields.et0')).toBe(false);

    // Calculated with ET0 typed, then Penman-Monteith and a monthly period chosen: the typed ET0.
    const typedOnly = calculated(typed());
    const monthly = apply(typedOnly, {
      type: 'options',
      patch: { et0Source: 'penman-monteith', period: 'month' },
    });
    const report = scheduleReport(
      monthly.calculation!,
      compute(monthly.calculation!),
      t,
      'es',
      fmt,
    );
    const rows = reportCsvRows(report);
    expect(rows[1]).toEqual([
      'irrigation.schedule.et0Source',
      'irrigation.schedule.et0Sources.typed',
    ]);
    expect(rows.some((r) => r[0] === 'irrigation.schedule.period')).toBe(false);
    expect(rows).toContainEqual(['irrigation.schedule.fields.et0', 5, 'mm/d']);
    expect(rows).toContainEqual(['irrigation.schedule.fields.kc', 1.15, '']);
    expect(reportPdfBlocks(report, fmt, [null])[0]).toMatchObject({
      rows: expect.arrayContaining([['irrigation.schedule.fields.et0', '5 mm/d']]) as unknown,
    });
  });

  it('PDF: figures, the sentence and the chart; no ET0 terms when ET0 is typed', () => {
    const s = calculated(typed());
    const c = compute(s.calculation!);
    const blocks = reportPdfBlocks(scheduleReport(s.calculation!, c, t, 'es', fmt), fmt, [null]);
    expect(blocks.map((b) => b.kind)).toEqual(['pairs', 'pairs', 'text', 'chart']);
    expect(blocks[2]).toMatchObject({ text: 'irrigation.schedule.sentence.sectors:11' });
    expect(scheduleSentence(c.schedule, 20, t, fmt)).toBe(
      'irrigation.schedule.sentence.sectors:11',
    );
    expect(latinLetters('Constante psicrométrica (γ), Δ, δ, ωs')).toBe(
      'Constante psicrométrica (gamma), Delta, delta, omegas',
    );
  });
});

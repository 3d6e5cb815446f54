import { describe, expect, it } from 'vitest';
import { LATERAL_DEFAULTS, designLateral } from '@diagrodl/hydraulics';
import { reportCsvRows, reportPdfBlocks } from '../shared/report.ts';
import { lateralChartSummary, lateralReport, lateralSentence } from './report.ts';
import {
  LATERAL_EXTRA_FIELDS,
  LATERAL_FIELDS,
  init,
  parseSaved,
  reducer,
  toSaved,
  type State,
} from './state.ts';

const calculated = (s: State) => reducer(s, { type: 'calculate' });

describe('lateral state', () => {
  it('calculates with the inputs typed in', () => {
    const s = calculated(reducer(init(null), { type: 'raw', key: 'Po', value: '15' }));
    expect(s.alert).toBeNull();
    expect(s.calculation?.input.Po).toBe(15);
    expect(designLateral(s.calculation!.input, s.calculation!.options).rows).toEqual(
      designLateral({ ...LATERAL_DEFAULTS, Po: 15 }).rows,
    );
  });

  it('a field that is not a number, or that the engine refuses, gets its alert', () => {
    const nan = calculated(reducer(init(null), { type: 'raw', key: 'D', value: 'abc' }));
    expect(nan.alert).toEqual({ field: 'D', key: 'irrigation.notANumber' });
    expect(nan.calculation).toBeNull();
    const refused = calculated(reducer(init(null), { type: 'raw', key: 'Po', value: '-1' }));
    expect(refused.alert).toMatchObject({ field: 'Po', key: 'irrigation.lateral.invalid.Po' });
    const fixed = calculated(
      reducer(init(null), { type: 'extra', patch: { fix: 'length', fixValue: '' } }),
    );
    expect(fixed.alert).toEqual({ field: 'length', key: 'irrigation.notANumber' });
  });

  it('every input that is not a number is named by its own alert; the last good calculation stays', () => {
    const good = calculated(init(null));
    for (const { key } of LATERAL_FIELDS) {
      const s = calculated(reducer(good, { type: 'raw', key, value: 'x' }));
      expect(s.alert).toEqual({ field: key, key: 'irrigation.notANumber' });
      expect(s.calculation).toBe(good.calculation);
    }
    for (const { key } of LATERAL_EXTRA_FIELDS) {
      const s = calculated(reducer(good, { type: 'extra', patch: { [key]: '' } }));
      expect(s.alert).toEqual({ field: key, key: 'irrigation.notANumber' });
    }
    // The fixed length or emitter count is read only when the lateral is fixed.
    expect(calculated(reducer(good, { type: 'extra', patch: { fixValue: 'x' } })).alert).toBeNull();
    const emitters = reducer(good, { type: 'extra', patch: { fix: 'emitters', fixValue: '40' } });
    expect(calculated(emitters).calculation?.options.emitters).toBe(40);
    // A good calculation clears the alert.
    const fixedAgain = calculated(reducer(good, { type: 'raw', key: 'D', value: 'x' }));
    expect(
      calculated(reducer(fixedAgain, { type: 'raw', key: 'D', value: '0,016' })).alert,
    ).toBeNull();
  });

  it('reset and a saved design', () => {
    const s = calculated(reducer(init(null), { type: 'raw', key: 'Po', value: '15' }));
    expect(reducer(s, { type: 'reset' })).toEqual(init(null));
    const back = init(parseSaved(JSON.parse(JSON.stringify(toSaved(s)))));
    expect(back.calculation).toEqual(s.calculation);
    expect(parseSaved({ raw: { Po: 1 } })).toBeNull();
  });
});

describe('lateral saved design', () => {
  const t = ((key: string) => key) as never;
  const fmt = (v: number, d = 2) => v.toFixed(d);
  /** Saved as JSON (the design file and the autosave), then opened. */
  const reopened = (s: State) => init(parseSaved(JSON.parse(JSON.stringify(toSaved(s)))));
  /** The screen's results, its CSV and its PDF. */
  const shown = (s: State) => {
    const result = designLateral(s.calculation!.input, s.calculation!.options);
    const report = lateralReport(result, s.calculation!.input, t, 'es', fmt);
    return {
      rows: result.rows,
      design: result.design,
      csv: reportCsvRows(report),
      pdf: reportPdfBlocks(report, fmt, [null, null]),
    };
  };

  it('brings back the fields as typed and the results shown, not results of the fields edited since', () => {
    const s = calculated(init(null));
    expect(shown(s).rows.filter((r) => r.hfSlope < designLateral().limit)).toHaveLength(280);
    const edited = [
      { type: 'raw', key: 'Po', value: '20' },
      { type: 'extra', patch: { formula: 'darcy-weisbach-blasius', cv: '0,07' } },
    ].reduce((state, action) => reducer(state, action as never), s);
    const back = reopened(edited);
    expect(back.raw).toEqual(edited.raw);
    expect(back.extra).toEqual(edited.extra);
    expect(back.calculation).toEqual(s.calculation);
    expect(back.calculation!.input.Po).toBe(10);
    expect(back.alert).toBeNull();
    expect(shown(back)).toEqual(shown(s));
    // Saved again, it is the same design.
    expect(toSaved(back)).toEqual(JSON.parse(JSON.stringify(toSaved(edited))));
  });

  it('keeps the results when a field is left at a value the engine refuses (Po = 0)', () => {
    const s = calculated(init(null));
    const back = reopened(reducer(s, { type: 'raw', key: 'Po', value: '0' }));
    expect(back.raw.Po).toBe('0');
    expect(back.calculation).toEqual(s.calculation);
    expect(back.alert).toBeNull();
    expect(shown(back)).toEqual(shown(s));
  });

  it('a fixed lateral keeps its own options', () => {
    const fixed = calculated(
      reducer(init(null), { type: 'extra', patch: { fix: 'emitters', fixValue: '40' } }),
    );
    const back = reopened(
      reducer(fixed, { type: 'extra', patch: { fix: 'length', fixValue: '12' } }),
    );
    expect(back.calculation).toEqual(fixed.calculation);
    expect(back.calculation!.options).toMatchObject({ emitters: 40 });
    expect(back.extra).toMatchObject({ fix: 'length', fixValue: '12' });
    expect(shown(back)).toEqual(shown(fixed));
  });

  it('a saved calculation the engine refuses gets the alert Calculate gives', () => {
    const saved = JSON.parse(JSON.stringify(toSaved(calculated(init(null))))) as {
      input: Record<string, number>;
    };
    saved.input.Po = -1;
    const back = init(parseSaved(saved));
    expect(back.calculation).toBeNull();
    const typed = calculated(reducer(init(null), { type: 'raw', key: 'Po', value: '-1' }));
    expect(typed.alert).toMatchObject({ field: 'Po', key: 'irrigation.lateral.invalid.Po' });
    expect(back.alert).toEqual(typed.alert);
  });

  it('older files: the saved input with the design inputs as typed; without an input, no results', () => {
    const s = calculated(init(null));
    const { raw, extra, input } = toSaved(reducer(s, { type: 'raw', key: 'Po', value: '20' }));
    // Saved before the options were kept: the input of the results, the options of the fields.
    const old = init(parseSaved(JSON.parse(JSON.stringify({ raw, extra, input }))));
    expect(old.raw.Po).toBe('20');
    expect(old.calculation).toEqual(s.calculation);
    // Saved before the design inputs existed: their defaults.
    expect(init(parseSaved({ raw, input })).calculation).toEqual(s.calculation);
    expect(init(parseSaved({ raw, extra, input: null })).calculation).toBeNull();
    // An input that cannot be read: calculated again from the fields, with Calculate's alert.
    const broken = init(parseSaved({ raw, extra: { ...extra, cv: 'x' }, input }));
    expect(broken.calculation).toBeNull();
    expect(broken.alert).toEqual({ field: 'cv', key: 'irrigation.notANumber' });
    const again = init(parseSaved({ raw, extra, input: { Po: '10' } }));
    expect(again.calculation?.input).toEqual({ ...LATERAL_DEFAULTS, Po: 20 });
  });
});

describe('lateral report', () => {
  const t = ((key: string) => key) as never;
  const fmt = (v: number, d = 2) => v.toFixed(d);
  const s = calculated(init(null));
  const result = designLateral(s.calculation!.input, s.calculation!.options);
  const report = lateralReport(result, s.calculation!.input, t, 'es', fmt);

  it('CSV: inputs, the results, the designed lateral and the whole table', () => {
    const rows = reportCsvRows(report);
    expect(rows[0]).toEqual([
      'irrigation.csv.input',
      'irrigation.csv.value',
      'irrigation.csv.unit',
    ]);
    expect(rows[1]).toEqual(['Po', LATERAL_DEFAULTS.Po, 'mca']);
    const header = rows.findIndex((r) => r[0] === 'N_emitter');
    expect(rows.slice(header + 1)).toHaveLength(result.rows.length);
    expect(rows.find((r) => r[0] === 'x')).toEqual(['x', result.design!.x]);
  });

  it('the sentence gives the maximum, or "at least" when the table ends below the limit', () => {
    const tWith = ((key: string, o: Record<string, unknown>) =>
      `${key} ${Object.values(o).join(' ')}`) as never;
    expect(lateralSentence(result, tWith, fmt)).toBe('irrigation.lateral.sentence 280 56.00');
    expect(lateralChartSummary(result, tWith, fmt)).toBe(
      'irrigation.lateral.chartSummary 281 2.00 56.00',
    );
    // D_LL = 0.02 m: the loss stays below the limit up to the table's 499 emitters (the hydraulic
    // maximum is 523), so 499 is not "the maximum".
    const capped = designLateral({ D: 0.02 });
    expect(lateralSentence(capped, tWith, fmt)).toBe(
      'irrigation.lateral.sentenceNoLimit 499 99.80',
    );
    expect(lateralChartSummary(capped, tWith, fmt)).toBe(
      'irrigation.lateral.chartSummaryNoLimit 499 2.00 99.80',
    );
    const pdf = reportPdfBlocks(lateralReport(capped, s.calculation!.input, t, 'es', fmt), fmt, [
      null,
      null,
    ]);
    expect(pdf.some((b) => JSON.stringify(b).includes('irrigation.lateral.sentenceNoLimit'))).toBe(
      true,
    );
    const csv = reportCsvRows(lateralReport(capped, s.calculation!.input, t, 'es', fmt));
    expect(csv.find((r) => r[1] === 499)?.[0]).toBe('irrigation.lateral.maxEmittersNoLimit');
    expect(reportCsvRows(report).find((r) => r[1] === 280)?.[0]).toBe(
      'irrigation.lateral.maxEmitters',
    );
  });

  it('PDF: a sample of the table fits the page', () => {
    const blocks = reportPdfBlocks(report, fmt, [null, null]);
    const table = blocks.find((b) => b.kind === 'table') as unknown as { rows: string[][] };
    expect(table.rows.length).toBeLessThanOrEqual(26);
    expect(table.rows[0]![0]).toBe('1');
    expect(blocks.some((b) => b.kind === 'charts')).toBe(true);
  });
});

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
  type Action,
  type State,
} from './state.ts';

const calculated = (s: State) => reducer(s, { type: 'calculate' });

describe('lateral state', () => {
  it('calculates with the inputs typed in', () => {
    const s = calculated(reducer(init(null), { type: 'raw', key: 'Po', value: '15' }));
    expect(s.errors).toEqual({});
    expect(s.calculation?.input.Po).toBe(15);
    expect(designLateral(s.calculation!.input, s.calculation!.options).rows).toEqual(
      designLateral({ ...LATERAL_DEFAULTS, Po: 15 }).rows,
    );
  });

  it('every field gets its message at once: not a number, out of range, another unit', () => {
    const s = [
      { type: 'raw', key: 'D', value: '16' },
      { type: 'raw', key: 'qEmitter', value: '1e15' },
      { type: 'raw', key: 'Po', value: 'diez' },
      { type: 'raw', key: 'spaceEmitter', value: '' },
      { type: 'extra', patch: { emittersPerPlant: '1.5' } },
    ].reduce((state, action) => reducer(state, action as Action), init(null));
    const after = calculated(s);
    expect(after.calculation).toBeNull();
    expect(after.attempt).toBe(1);
    expect(after.errors).toEqual({
      D: {
        key: 'numberInput.otherUnit',
        values: { typed: '16', other: 'mm', converted: '0.016', unit: 'm' },
      },
      qEmitter: { key: 'numberInput.range', values: { min: '0.1', max: '100', unit: 'L/h' } },
      Po: { key: 'numberInput.notANumber' },
      spaceEmitter: { key: 'numberInput.required' },
      emittersPerPlant: { key: 'numberInput.integer', values: { min: '1', max: '20', unit: '' } },
    });
  });

  it('a value the engine refuses gets its message on its field, in words', () => {
    // 0.1 m of lateral holds no emitter 0.2 m apart: the range lets it by, the engine does not.
    const fixed = calculated(
      reducer(init(null), { type: 'extra', patch: { fix: 'length', fixValue: '0.1' } }),
    );
    expect(fixed.calculation).toBeNull();
    expect(fixed.errors).toEqual({
      length: { key: 'irrigation.lateral.invalid.length', fallback: expect.any(String) },
    });
    const blank = calculated(
      reducer(init(null), { type: 'extra', patch: { fix: 'length', fixValue: '' } }),
    );
    expect(blank.errors).toEqual({ length: { key: 'numberInput.required' } });
  });

  it('a Calculate with errors leaves no result of the values before', () => {
    const good = calculated(init(null));
    expect(good.calculation).not.toBeNull();
    for (const { key } of LATERAL_FIELDS.filter((f) => f.key !== 'm')) {
      const s = calculated(reducer(good, { type: 'raw', key, value: 'x' }));
      expect(s.errors, key).toEqual({ [key]: { key: 'numberInput.notANumber' } });
      expect(s.calculation).toBeNull();
    }
    for (const { key } of LATERAL_EXTRA_FIELDS) {
      const s = calculated(reducer(good, { type: 'extra', patch: { [key]: '' } }));
      expect(s.errors).toEqual({ [key]: { key: 'numberInput.required' } });
    }
    // The fixed length or emitter count is read only when the lateral is fixed.
    expect(calculated(reducer(good, { type: 'extra', patch: { fixValue: 'x' } })).errors).toEqual(
      {},
    );
    const emitters = reducer(good, { type: 'extra', patch: { fix: 'emitters', fixValue: '40' } });
    expect(calculated(emitters).calculation?.options.emitters).toBe(40);
    // A good calculation clears the messages.
    const fixedAgain = calculated(reducer(good, { type: 'raw', key: 'D', value: 'x' }));
    expect(
      calculated(reducer(fixedAgain, { type: 'raw', key: 'D', value: '0,016' })).errors,
    ).toEqual({});
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
    expect(back.errors).toEqual({});
    expect(shown(back)).toEqual(shown(s));
    // Saved again, it is the same design.
    expect(toSaved(back)).toEqual(JSON.parse(JSON.stringify(toSaved(edited))));
  });

  it('keeps the results when a field is left at a value the engine refuses (Po = 0)', () => {
    const s = calculated(init(null));
    const back = reopened(reducer(s, { type: 'raw', key: 'Po', value: '0' }));
    expect(back.raw.Po).toBe('0');
    expect(back.calculation).toEqual(s.calculation);
    expect(back.errors).toEqual({});
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

  it('a saved calculation out of range or refused by the engine gets the message Calculate gives', () => {
    const saved = JSON.parse(JSON.stringify(toSaved(calculated(init(null))))) as {
      input: Record<string, number>;
      options: Record<string, number>;
    };
    saved.input.Po = -1;
    const back = init(parseSaved(saved));
    expect(back.calculation).toBeNull();
    expect(back.attempt).toBe(0);
    const typed = calculated(reducer(init(null), { type: 'raw', key: 'Po', value: '-1' }));
    expect(typed.errors).toEqual({
      Po: { key: 'numberInput.range', values: { min: '0.5', max: '150', unit: 'mca' } },
    });
    expect(back.errors).toEqual(typed.errors);
    // A lateral fixed at 0.1 m: no emitter fits, the engine refuses it.
    saved.input.Po = 10;
    saved.options.length = 0.1;
    const refused = init(parseSaved(saved));
    expect(refused.calculation).toBeNull();
    expect(refused.errors.length).toMatchObject({ key: 'irrigation.lateral.invalid.length' });
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
    expect(broken.errors).toEqual({ cv: { key: 'numberInput.notANumber' } });
    expect(broken.attempt).toBe(0);
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
    expect(rows[1]).toEqual(['irrigation.lateral.fields.Po (Po)', LATERAL_DEFAULTS.Po, 'mca']);
    const header = rows.findIndex((r) => r[0] === 'irrigation.lateral.cols.n (N_emitter)');
    expect(rows.slice(header + 1)).toHaveLength(result.rows.length);
    const x = 'irrigation.lateral.design.fields.x (x)';
    expect(rows.find((r) => r[0] === x)).toEqual([x, result.design!.x]);
    // Numbers with the decimals shown (at least 3), no binary noise: the design file keeps all.
    const numbers = rows.flat().filter((c): c is number => typeof c === 'number');
    for (const n of numbers) {
      expect(n === Number(n.toFixed(6)) || n === Number(n.toPrecision(5)), String(n)).toBe(true);
    }
    const last = rows.at(-1)!;
    expect(last[8]).toBe(Number(result.rows.at(-1)!.hfSlope.toFixed(6)));
    expect(last[3]).toBe(Number(result.rows.at(-1)!.qa.toPrecision(5)));
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

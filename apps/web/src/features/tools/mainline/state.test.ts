import { describe, expect, it } from 'vitest';
import {
  MAINLINE_MESSAGES,
  STATUS_HERE_ES,
  localizeToolMessage,
  designMainline,
  mainlineTotals,
} from '@diagrodl/hydraulics';
import { reportCsvRows, reportPdfBlocks } from '../shared/report.ts';
import { mainlineReport, negativeEndWarning } from './report.ts';
import {
  epanetDesign,
  init,
  parseSaved,
  pressureProfile,
  reducer,
  toSaved,
  type Action,
  type State,
} from './state.ts';

const SECTIONS = [
  { pipeType: 'PVC_RD26', nominalDiameter: '150', flow: '30', length: '420.5', slope: '0.004' },
  { pipeType: 'PVC_CED40', nominalDiameter: '100', flow: '12.5', length: '250', slope: '-0.01' },
];

/** A state with the pressure and the sections typed in (not calculated). */
function typed(pressure = '40'): State {
  let s = reducer(init(null), { type: 'pressure', value: pressure });
  s = reducer(s, { type: 'add' });
  SECTIONS.forEach((raw, i) => {
    const key = s.sections[i]!.key;
    for (const [field, value] of Object.entries(raw)) {
      s = reducer(s, { type: 'raw', key, field: field as keyof typeof raw, value });
    }
  });
  return s;
}

const run = (s: State, ...actions: Action[]) => actions.reduce(reducer, s);

describe('main-line state', () => {
  it('starts with one empty section and no totals', () => {
    const s = init(null);
    expect(s.sections).toHaveLength(1);
    expect(s.sections[0]!.result).toBeNull();
    expect(s.totals).toBeNull();
  });

  it('calculates a section and the totals like the engine', () => {
    const s = run(typed(), { type: 'totals' });
    const design = designMainline({
      initialPressure: 40,
      sections: SECTIONS.map((r) => ({
        pipeType: r.pipeType as 'PVC_RD26',
        nominalDiameter: Number(r.nominalDiameter),
        flow: Number(r.flow),
        length: Number(r.length),
        slope: Number(r.slope),
      })),
    });
    expect(s.sections.map((x) => x.result?.hf)).toEqual(design.sections.map((x) => x.hf));
    expect(s.totals?.endPressure).toBeCloseTo(design.totals.endPressure, 12);
    const profile = pressureProfile(s);
    expect(profile).toHaveLength(3);
    expect(profile.at(-1)!.x).toBeCloseTo(670.5, 9);
    expect(mainlineTotals).toBeTypeOf('function');
  });

  it('a section calculated again after the totals moves them, and the profile with them', () => {
    let s = run(typed(), { type: 'totals' });
    const key = s.sections[1]!.key;
    const before = s.totals!.hfTotal;
    s = run(s, { type: 'raw', key, field: 'flow', value: '11' }, { type: 'calculate', key });
    expect(s.sections.map((x) => x.result!.status)).toEqual(['ok', 'ok']);
    const hf = s.sections.map((x) => x.result!.hf!);
    expect(s.totals?.hfTotal).toBeCloseTo(hf[0]! + hf[1]!, 12);
    expect(s.totals?.hfTotal).not.toBeCloseTo(before, 6);
    expect(pressureProfile(s).at(-1)!.y).toBeCloseTo(s.totals!.endPressure, 12);
    expect(run(typed(), { type: 'calculate', key: typed().sections[0]!.key }).totals).toBeNull();
  });

  it('the EPANET export calculates the sections again, and the totals follow them', () => {
    let s = run(typed(), { type: 'totals' });
    const key = s.sections[1]!.key;
    const before = s.totals!.hfTotal;
    s = run(s, { type: 'raw', key, field: 'flow', value: '11' }, { type: 'epanet' });
    expect(s.exportMessage).toBeNull();
    expect(s.sections[1]!.input!.flow).toBe(11);
    const hf = s.sections.map((x) => x.result!.hf!);
    expect(s.totals?.hfTotal).toBeCloseTo(hf[0]! + hf[1]!, 12);
    expect(s.totals?.hfTotal).not.toBeCloseTo(before, 6);
    expect(s.totals?.initialPressure).toBe(40);
    expect(pressureProfile(s).at(-1)!.y).toBeCloseTo(s.totals!.endPressure, 12);
    // Without totals there are none to follow.
    expect(run(typed(), { type: 'epanet' }).totals).toBeNull();
  });

  it('an invalid initial pressure clears the field, shows its alert and no totals', () => {
    const s = run(typed('0.01'), { type: 'totals' });
    expect(s.initialPressure).toBe('');
    expect(s.pressureAlert).toBeTruthy();
    expect(s.totals).toBeNull();
    expect(run(s, { type: 'pressure', value: '5' }).pressureAlert).toBeNull();
  });

  it('a new pipe type keeps the diameter only if its catalogue has it', () => {
    let s = typed();
    const key = s.sections[0]!.key;
    s = run(s, { type: 'raw', key, field: 'pipeType', value: 'PVC_CED40' });
    expect(s.sections[0]!.raw.nominalDiameter).toBe('150');
    s = run(s, { type: 'raw', key, field: 'nominalDiameter', value: '100' });
    s = run(s, { type: 'raw', key, field: 'pipeType', value: 'Aluminum' });
    expect(['', '100']).toContain(s.sections[0]!.raw.nominalDiameter);
  });

  it('clear empties a section and the totals; delete renumbers the sections after it', () => {
    let s = run(typed(), { type: 'totals' });
    s = run(s, { type: 'clear', key: s.sections[1]!.key });
    expect(s.totals).toBeNull();
    expect(s.sections[1]!.raw.flow).toBe('');
    expect(s.sections[1]!.result).toBeNull();
    s = run(typed(), { type: 'totals' });
    s = run(s, { type: 'remove', key: s.sections[0]!.key });
    expect(s.sections).toHaveLength(1);
    expect(s.sections[0]!.result?.section).toBe(1);
    expect(s.totals).toBeNull();
    expect(run(s, { type: 'reset' }).sections).toHaveLength(0);
  });

  it('every field out of its range gets its message at once; the specification’s alert comes first', () => {
    const s = typed();
    const key = s.sections[0]!.key;
    const after = run(
      s,
      { type: 'raw', key, field: 'flow', value: '1e7' },
      { type: 'raw', key, field: 'length', value: '99999' },
      { type: 'raw', key, field: 'slope', value: '5' },
      { type: 'calculate', key },
    );
    const section = after.sections[0]!;
    expect(section.result).toBeNull();
    expect(section.attempt).toBe(1);
    expect(section.errors).toEqual({
      // 1e7 is not digits with three decimals: the specification's alert
      flow: { text: MAINLINE_MESSAGES.threeDecimals },
      length: { key: 'numberInput.range', values: { min: '0', max: '10000', unit: 'm' } },
      // −1 < slope < 1: the specification's alert too
      slope: { text: MAINLINE_MESSAGES.slope },
    });
    // An initial pressure above its range: a message, the field kept and no totals.
    const high = run(typed('5000'), { type: 'totals' });
    expect(high.pressureAlert).toEqual({
      key: 'numberInput.range',
      values: { min: '0.1', max: '300', unit: 'm' },
    });
    expect(high.initialPressure).toBe('5000');
    expect(high.totals).toBeNull();
    expect(high.attempt).toBe(1);
    expect(epanetDesign(typed('5000'))).toBeNull();
  });

  it('EPANET needs a pressure and every section designed', () => {
    expect(epanetDesign(typed(''))).toBeNull();
    expect(run(typed(''), { type: 'epanet' }).exportMessage).toBe(
      'irrigation.mainline.epanetNeedsPressure',
    );
    const incomplete = run(typed(), { type: 'add' });
    expect(epanetDesign(incomplete)).toBeNull();
    expect(run(incomplete, { type: 'epanet' }).exportMessage).toBe(
      'irrigation.mainline.epanetNeedsSections',
    );
    expect(epanetDesign(typed())?.sections).toHaveLength(2);
    expect(run(typed(), { type: 'epanet' }).exportMessage).toBeNull();
  });

  it('a section of length 0 is designed, but EPANET export refuses it with its own message', () => {
    const s = typed();
    const zero = run(s, { type: 'raw', key: s.sections[1]!.key, field: 'length', value: '0' });
    const totals = run(zero, { type: 'totals' });
    expect(totals.sections[1]!.errors).toEqual({});
    expect(totals.sections[1]!.result?.innerDiameter).not.toBeNull();
    expect(totals.totals?.sectionsWithErrors).toBe(0);
    expect(epanetDesign(zero)).toBeNull();
    expect(run(zero, { type: 'epanet' }).exportMessage).toBe(
      'irrigation.mainline.epanetNeedsLength',
    );
    // An invalid section is still reported first.
    expect(run(zero, { type: 'add' }, { type: 'epanet' }).exportMessage).toBe(
      'irrigation.mainline.epanetNeedsSections',
    );
  });

  it('a saved design comes back recalculated; other data is refused', () => {
    const s = run(typed(), { type: 'totals' });
    const saved = JSON.parse(JSON.stringify(toSaved(s)));
    const back = init(parseSaved(saved));
    expect(back.sections.map((x) => x.result)).toEqual(s.sections.map((x) => x.result));
    expect(back.totals).toEqual(s.totals);
    expect(parseSaved({ initialPressure: 1 })).toBeNull();
    expect(parseSaved({ initialPressure: '1', sections: [{ raw: { pipeType: 2 } }] })).toBeNull();
  });
});

describe('main-line saved design', () => {
  const t = ((key: string) => key) as never;
  const fmt = (v: number, d = 2) => v.toFixed(d);
  /** Saved as JSON (the design file and the autosave), then opened. */
  const reopened = (s: State) => init(parseSaved(JSON.parse(JSON.stringify(toSaved(s)))));
  /** What the screen, the CSV and the PDF show. */
  const shown = (s: State) => {
    const report = mainlineReport(s, t, 'es');
    return {
      sections: s.sections.map(({ raw, input, calculatedRaw, result, errors }) => ({
        raw,
        input,
        calculatedRaw,
        result,
        errors,
      })),
      totals: s.totals,
      profile: pressureProfile(s),
      csv: reportCsvRows(report),
      pdf: reportPdfBlocks(report, fmt, [null]),
    };
  };

  it('brings back the fields as typed and the results and totals shown, with their own pressure', () => {
    const s = run(typed('30'), { type: 'totals' });
    const key = s.sections[0]!.key;
    const edited = run(
      s,
      { type: 'pressure', value: '50' },
      { type: 'raw', key, field: 'flow', value: '10' },
      { type: 'raw', key, field: 'length', value: '100' },
    );
    const back = reopened(edited);
    expect(back.initialPressure).toBe('50');
    expect(back.sections[0]!.raw).toEqual(edited.sections[0]!.raw);
    expect(back.totals).toEqual(s.totals);
    expect(back.totals!.initialPressure).toBe(30);
    expect(back.totals!.endPressure).toBeCloseTo(30 - s.totals!.hfTotal, 12);
    expect(back.pressureAlert).toBeNull();
    expect(shown(back)).toEqual(shown(edited));
    expect(toSaved(back)).toEqual(JSON.parse(JSON.stringify(toSaved(edited))));
  });

  it('a saved calculation the engine refuses gets the alert Calculate gives', () => {
    const s = run(typed('30'), { type: 'totals' });
    const saved = JSON.parse(JSON.stringify(toSaved(s))) as ReturnType<typeof toSaved>;
    saved.totalsPressure = 0.01;
    saved.sections[0]!.calculatedRaw!.slope = '2';
    const back = init(parseSaved(saved));
    const refused = run(typed('0.01'), { type: 'totals' });
    expect(refused.pressureAlert).toEqual({ text: expect.any(String) });
    expect(back.totals).toBeNull();
    expect(back.pressureAlert).toEqual(refused.pressureAlert);
    const key = s.sections[0]!.key;
    const slope = run(
      s,
      { type: 'raw', key, field: 'slope', value: '2' },
      { type: 'calculate', key },
    );
    expect(Object.keys(slope.sections[0]!.errors)).toEqual(['slope']);
    expect(back.sections[0]!.errors).toEqual(slope.sections[0]!.errors);
    expect(back.sections[0]!.attempt).toBe(0);
    expect(back.sections[0]!.result).toBeNull();
    expect(back.sections[0]!.raw).toEqual(s.sections[0]!.raw);
  });

  it('older files: sections calculated again from their fields, totals with the field’s pressure', () => {
    const s = run(typed('30'), { type: 'totals' });
    const edited = run(s, { type: 'pressure', value: '50' });
    const { initialPressure, sections, totals } = toSaved(edited);
    const old = {
      initialPressure,
      sections: sections.map(({ raw, calculated }) => ({ raw, calculated })),
      totals,
    };
    const back = init(parseSaved(JSON.parse(JSON.stringify(old))));
    expect(back.totals!.initialPressure).toBe(50);
    expect(back.sections.map((x) => x.result)).toEqual(s.sections.map((x) => x.result));
    // A field's pressure the engine refuses: the alert, not silently no totals.
    const low = init(parseSaved({ ...old, initialPressure: '0' }));
    expect(low.totals).toBeNull();
    expect(low.pressureAlert).toEqual(run(typed('0'), { type: 'totals' }).pressureAlert);
  });
});

describe('main-line report', () => {
  const t = ((key: string) => key) as never;
  const fmt = (v: number, d = 2) => v.toFixed(d);

  it('CSV: the pressure, the sections table, then the totals', () => {
    const s = run(typed(), { type: 'add' }, { type: 'totals' });
    const rows = reportCsvRows(mainlineReport(s, t, 'es'));
    expect(rows[0]).toEqual(['irrigation.mainline.initialPressure', 40, 'm']);
    expect(rows[1]).toEqual([]);
    const sections = rows.filter((r) => r.length === 9 && typeof r[0] === 'number');
    expect(sections).toHaveLength(3);
    // Hf with the 3 decimals shown; the design file keeps all of them.
    expect(sections[0]![7]).toBe(Number(s.sections[0]!.result!.hf!.toFixed(3)));
    // The empty section is in error (not calculated): the totals say so.
    expect(sections[2]![8]).toBe(STATUS_HERE_ES);
    const end = rows.find((r) => r[0] === 'irrigation.mainline.totals.endPressure');
    expect(end).toEqual([
      'irrigation.mainline.totals.endPressure',
      Number(s.totals!.endPressure.toFixed(3)),
      'm',
    ]);
    // The totals' message follows them without a blank row.
    expect(rows.at(-1)).toEqual([localizeToolMessage(s.totals!.message!, 'es')]);
    expect(rows.at(-2)![0]).toBe('irrigation.mainline.totals.maxVelocity');
  });

  it('PDF: the same description, numbers formatted and the chart', () => {
    const s = run(typed(), { type: 'totals' });
    const blocks = reportPdfBlocks(mainlineReport(s, t, 'es'), fmt, [null]);
    expect(blocks.map((b) => b.kind)).toEqual(['pairs', 'table', 'pairs', 'chart']);
    const table = blocks[1] as unknown as { columns: string[]; rows: string[][] };
    expect(table.columns[0]).toBe('#');
    expect(table.rows[0]![1]).toMatch(/RD26/);
    expect(table.rows[0]![7]).toBe(s.sections[0]!.result!.hf!.toFixed(3));
    const totals = blocks[2] as unknown as { rows: [string, string][] };
    expect(totals.rows[0]).toEqual(['irrigation.mainline.totals.initialPressure', '40.000 m']);
  });

  it('gives each calculated section’s inputs and the pressure of its results, not later edits', () => {
    const calculated = run(typed(), { type: 'totals' });
    const key = calculated.sections[0]!.key;
    // Edited after the totals, not calculated again: the report still describes the results.
    const s = run(
      calculated,
      { type: 'pressure', value: '55' },
      { type: 'raw', key, field: 'pipeType', value: 'PVC_CED40' },
      { type: 'raw', key, field: 'nominalDiameter', value: '100' },
      { type: 'raw', key, field: 'flow', value: '99' },
      { type: 'raw', key, field: 'length', value: '1' },
      { type: 'raw', key, field: 'slope', value: '0.5' },
    );
    expect(s.sections[0]!.result).toBe(calculated.sections[0]!.result);
    const report = mainlineReport(s, t, 'es');
    const rows = reportCsvRows(report);
    expect(rows[0]).toEqual(['irrigation.mainline.initialPressure', 40, 'm']);
    const first = rows.find((r) => r.length === 9 && r[0] === 1)!;
    expect(first.slice(1, 6)).toEqual(['PVC_RD26', '150', 30, 420.5, 0.004]);
    expect(first[7]).toBe(Number(calculated.sections[0]!.result!.hf!.toFixed(3)));

    const blocks = reportPdfBlocks(report, fmt, [null]);
    expect(blocks[0]).toMatchObject({ rows: [['irrigation.mainline.initialPressure', '40 m']] });
    const table = blocks[1] as unknown as { rows: string[][] };
    expect(table.rows[0]![1]).toMatch(/RD26/);
    expect(table.rows[0]!.slice(2, 6)).toEqual(['150', '30', '420.5', '0.004']);
    // A section not calculated yet gives its fields as typed.
    const fresh = run(s, { type: 'add' });
    const last = fresh.sections.at(-1)!.key;
    const typedRows = reportCsvRows(
      mainlineReport(run(fresh, { type: 'raw', key: last, field: 'flow', value: '7' }), t, 'es'),
    );
    expect(typedRows.find((r) => r.length === 9 && r[0] === 3)![3]).toBe('7');
  });

  it('warns when the line ends below 0 m of pressure, on the screen and in the report', () => {
    const tWith = ((key: string, o?: { end: string }) => (o ? `${key} ${o.end}` : key)) as never;
    const ok = run(typed(), { type: 'totals' });
    expect(ok.totals!.endPressure).toBeGreaterThan(0);
    expect(negativeEndWarning(ok, tWith, String)).toBeNull();

    const low = run(typed('1'), { type: 'totals' });
    const end = low.totals!.endPressure;
    expect(end).toBeLessThan(0);
    const warning = negativeEndWarning(low, tWith, (v) => v.toFixed(3));
    expect(warning).toBe(`irrigation.mainline.totals.negativeEnd ${end.toFixed(3)}`);
    const rows = reportCsvRows(mainlineReport(low, tWith, 'es'));
    expect(rows.at(-1)).toEqual([warning]);
    expect(rows.at(-2)![0]).toBe('irrigation.mainline.totals.maxVelocity');
  });
});

import { describe, expect, it } from 'vitest';
import {
  SECONDARY_MESSAGES,
  STATUS_HERE_ES,
  designSecondarySection,
  summarizePipes,
  summarizePressures,
  validateSecondarySection,
} from '@diagrodl/hydraulics';
import { CHART, pageTexts } from '../shared/pdf-content.test-helper.ts';
import { buildPdfReport } from '../shared/pdf.ts';
import { reportCsvRows, reportPdfBlocks } from '../shared/report.ts';
import { messageNumber } from '../shared/useNumberFormat.ts';
import { secondaryReport, sectionPressures } from './report.ts';
import {
  init,
  parseSaved,
  pressureProfiles,
  reducer,
  stretchRows,
  toSaved,
  type Action,
  type State,
} from './state.ts';

const A = {
  pipeType: 'PVC_CED40',
  nd: '3',
  length: '150',
  qs: '2000',
  s0: '1',
  se: '1.5',
  hfp: '3',
};
const B = { pipeType: 'PVC_RD26', nd: '2', length: '100', qs: '400', s0: '2', se: '2', hfp: '2' };
const run = (s: State, ...actions: Action[]) => actions.reduce(reducer, s);

/** A state with sections typed in and calculated. */
function designed(...raws: (typeof A)[]): State {
  let s = init(null, 'es');
  raws.forEach((raw, i) => {
    if (i > 0) s = reducer(s, { type: 'add' });
    const key = s.units[i]!.key;
    for (const [field, value] of Object.entries(raw)) {
      s = reducer(s, { type: 'raw', key, field: field as keyof typeof A, value });
    }
    s = reducer(s, { type: 'calculate', key, lang: 'es' });
  });
  return s;
}

const engine = (raw: typeof A, section: number) => {
  const check = validateSecondarySection(
    { ...raw, formula: 'hazen-williams', pressure: '10' },
    section,
  );
  if (!check.ok) throw new Error(check.message);
  return designSecondarySection(check.value, section, { formatNumber: messageNumber('es') });
};

describe('secondary-line state', () => {
  it('designs each section like the engine, numbered by position', () => {
    const s = designed(A, B);
    expect(s.units.map((u) => u.result)).toEqual([engine(A, 1), engine(B, 2)]);
    expect(stretchRows(s).length).toBe(
      engine(A, 1).stretches.length + engine(B, 2).stretches.length,
    );
    expect(pressureProfiles(s).map((p) => p.section)).toEqual([1, 2]);
  });

  it('the summary needs a section, and clear or delete drops it', () => {
    const none = run(designed(A), { type: 'reset' }, { type: 'accounting' });
    expect(none.summary).toBeNull();
    expect(none.pageAlert?.place).toBe('summary');
    const two = run(designed(A, B), { type: 'accounting' });
    expect(two.pageAlert).toBeNull();
    expect(two.summary).toEqual(summarizePipes([engine(A, 1), engine(B, 2)]));
    const cleared = run(two, { type: 'clear', key: two.units[1]!.key });
    expect(cleared.summary).toBeNull();
    expect(cleared.units[1]!.raw.length).toBe('');
    expect(cleared.units[1]!.result).toBeNull();
    const removed = run(two, { type: 'remove', key: two.units[0]!.key, lang: 'es' });
    expect(removed.summary).toBeNull();
    expect(removed.units[0]!.result).toEqual(engine(B, 1));
  });

  it("the pressure profile keeps its result's outlet positions while the fields are edited", () => {
    const s = designed(B);
    const key = s.units[0]!.key;
    const before = pressureProfiles(s)[0]!;
    expect(before.outlets).toHaveLength(50);
    expect(before.outlets.map((o) => o.distance)).toEqual(
      Array.from({ length: 50 }, (_, i) => 2 + 2 * i),
    );
    // S0 2 → 50 and Se 2 → 10, not calculated: the result (50 outlets) keeps its own geometry.
    const edited = run(
      s,
      { type: 'raw', key, field: 's0', value: '50' },
      { type: 'raw', key, field: 'se', value: '10' },
    );
    expect(edited.units[0]!.result).toBe(s.units[0]!.result);
    expect(pressureProfiles(edited)).toEqual(pressureProfiles(s));
    expect(pressureProfiles(edited)[0]!.outlets.at(-1)!.distance).toBe(100);
    // Calculated, the profile follows the new fields: outlets at 50, 60, ... 100 m.
    const again = run(edited, { type: 'calculate', key, lang: 'es' });
    expect(pressureProfiles(again)[0]!.outlets.map((o) => o.distance)).toEqual([
      50, 60, 70, 80, 90, 100,
    ]);
  });

  it('the summary and its pressures total the same calculated sections', () => {
    const s = run(designed(A, B), { type: 'accounting' });
    const totals = { summary: s.summary, pressures: sectionPressures(s) };
    expect(totals.pressures).toEqual(summarizePressures([engine(A, 1), engine(B, 2)]));
    // Section 1 edited and calculated again after the accounting: the totals stay those of the
    // results they were made from, pipes and pressures alike, until the accounting is asked again.
    const key = s.units[0]!.key;
    const recalculated = run(
      s,
      { type: 'raw', key, field: 'length', value: '60' },
      { type: 'calculate', key, lang: 'es' },
    );
    const shorter = engine({ ...A, length: '60' }, 1);
    expect(recalculated.units[0]!.result).toEqual(shorter);
    expect(shorter.inletPressure).not.toBe(engine(A, 1).inletPressure);
    expect({ summary: recalculated.summary, pressures: sectionPressures(recalculated) }).toEqual(
      totals,
    );
    const again = run(recalculated, { type: 'accounting' });
    expect(again.summary).toEqual(summarizePipes([shorter, engine(B, 2)]));
    expect(sectionPressures(again)).toEqual(summarizePressures([shorter, engine(B, 2)]));
  });

  it('every field out of its range gets its message at once; the specification’s alert comes first', () => {
    const good = designed(A);
    const key = good.units[0]!.key;
    const s = run(
      good,
      { type: 'raw', key, field: 'length', value: '-50' },
      { type: 'raw', key, field: 'qs', value: '1e9' },
      { type: 'raw', key, field: 'se', value: '150' },
      { type: 'calculate', key, lang: 'es' },
    );
    const unit = s.units[0]!;
    expect(unit.result).toBeNull();
    expect(unit.attempt).toBe(1);
    expect(unit.errors).toEqual({
      // the specification's 'No negative values!...', not the range's message
      length: { text: SECONDARY_MESSAGES.noNegative },
      qs: { key: 'numberInput.range', values: { min: '0.5', max: '100000', unit: 'L/h' } },
      se: {
        key: 'numberInput.otherUnit',
        values: { typed: '150', other: 'cm', converted: '1.5', unit: 'm' },
      },
    });
    // Fixed, the section is designed again and its messages go.
    const fixed = run(
      s,
      { type: 'raw', key, field: 'length', value: '150' },
      { type: 'raw', key, field: 'qs', value: '2000' },
      { type: 'raw', key, field: 'se', value: '1.5' },
      { type: 'calculate', key, lang: 'es' },
    );
    expect(fixed.units[0]!.errors).toEqual({});
    expect(fixed.units[0]!.result).toEqual(engine(A, 1));
  });

  it('an empty section: the specification’s alert on every field at once', () => {
    const s = init(null, 'es');
    const unit = run(s, { type: 'calculate', key: s.units[0]!.key, lang: 'es' }).units[0]!;
    expect(unit.errors).toEqual({
      pipeType: { text: SECONDARY_MESSAGES.selectValue('Pipe type', 1) },
      nd: { text: SECONDARY_MESSAGES.empty('ND', 1) },
      length: { text: SECONDARY_MESSAGES.empty('Length', 1) },
      qs: { text: SECONDARY_MESSAGES.empty('qs', 1) },
      s0: { text: SECONDARY_MESSAGES.empty('S0', 1) },
      se: { text: SECONDARY_MESSAGES.empty('Se', 1) },
      hfp: { text: SECONDARY_MESSAGES.empty('HFp', 1) },
    });
  });

  it('refuses a section beyond the limit with the engine alert', () => {
    let s = init(null, 'es');
    for (let i = 0; i < 30 && !s.pageAlert; i++) s = reducer(s, { type: 'add' });
    expect(s.pageAlert?.place).toBe('add');
    expect(run(s, { type: 'reset' })).toMatchObject({ units: [], summary: null, pageAlert: null });
  });

  it('a saved design comes back recalculated with its summary', () => {
    const s = run(designed(A, B), { type: 'accounting' });
    const back = init(parseSaved(JSON.parse(JSON.stringify(toSaved(s)))), 'es');
    expect(back.units.map((u) => u.result)).toEqual(s.units.map((u) => u.result));
    expect(back.summary).toEqual(s.summary);
    // Files saved before the design checks existed get the formula and pressure of a new section.
    const old = parseSaved({ units: [{ raw: A, calculated: false }], summary: false });
    expect(old?.units[0]!.raw.pressure).toBe('10');
    expect(parseSaved({ units: [{ raw: { pipeType: 1 } }] })).toBeNull();
  });
});

describe('secondary-line saved design', () => {
  const t = ((key: string, o?: { n?: number }) => (o?.n ? `${key} ${o.n}` : key)) as never;
  const fmt = (v: number, d = 2) => v.toFixed(d);
  /** Saved as JSON (the design file and the autosave), then opened. */
  const reopened = (s: State) => init(parseSaved(JSON.parse(JSON.stringify(toSaved(s)))), 'es');
  /** What the screen, the CSV and the PDF show. */
  const shown = (s: State) => {
    const report = secondaryReport(s, t, 'es', fmt);
    return {
      units: s.units.map(({ raw, input, calculatedRaw, result, errors }) => ({
        raw,
        input,
        calculatedRaw,
        result,
        errors,
      })),
      summary: s.summary,
      pressures: sectionPressures(s),
      stretches: stretchRows(s),
      profiles: pressureProfiles(s),
      csv: reportCsvRows(report),
      pdf: reportPdfBlocks(report, fmt, [null, null]),
    };
  };

  it('brings back the fields as typed and the results and totals shown, not a redesign of the fields edited since', () => {
    const s = run(designed(A, B), { type: 'accounting' });
    // Section 2 (100 m) edited to 150 m, not calculated.
    const edited = run(s, { type: 'raw', key: s.units[1]!.key, field: 'length', value: '150' });
    const back = reopened(edited);
    expect(back.units[1]!.raw.length).toBe('150');
    expect(back.units[1]!.calculatedRaw?.length).toBe('100');
    expect(back.units.map((u) => u.result)).toEqual([engine(A, 1), engine(B, 2)]);
    expect(back.summary).toEqual(summarizePipes([engine(A, 1), engine(B, 2)]));
    expect(shown(back)).toEqual(shown(edited));
    expect(toSaved(back)).toEqual(JSON.parse(JSON.stringify(toSaved(edited))));
  });

  it('the totals stay those of the results they were made from', () => {
    const s = run(designed(A, B), { type: 'accounting' });
    const key = s.units[0]!.key;
    // Calculated again after the accounting: the totals shown are still the earlier results'.
    const recalculated = run(
      s,
      { type: 'raw', key, field: 'length', value: '60' },
      { type: 'calculate', key, lang: 'es' },
    );
    expect(recalculated.summary).toEqual(s.summary);
    const back = reopened(recalculated);
    expect(back.units[0]!.result).toEqual(engine({ ...A, length: '60' }, 1));
    expect(back.summary).toEqual(s.summary);
    expect(sectionPressures(back)).toEqual(sectionPressures(s));
    expect(shown(back)).toEqual(shown(recalculated));
  });

  it('a saved section the engine refuses gets the alert Calculate gives', () => {
    const s = designed(A);
    const saved = JSON.parse(JSON.stringify(toSaved(s))) as ReturnType<typeof toSaved>;
    saved.units[0]!.calculatedRaw!.nd = '9';
    const back = init(parseSaved(saved), 'es');
    const typed = run(
      s,
      { type: 'raw', key: s.units[0]!.key, field: 'nd', value: '9' },
      { type: 'calculate', key: s.units[0]!.key, lang: 'es' },
    );
    expect(typed.units[0]!.errors).toEqual({ nd: { text: SECONDARY_MESSAGES.ndInteger } });
    expect(back.units[0]!.errors).toEqual(typed.units[0]!.errors);
    expect(back.units[0]!.attempt).toBe(0);
    expect(back.units[0]!.result).toBeNull();
    expect(back.units[0]!.raw).toEqual(s.units[0]!.raw);
  });

  it('older files: sections calculated again from their fields, totals made again', () => {
    const s = run(designed(A, B), { type: 'accounting' });
    const edited = run(s, { type: 'raw', key: s.units[1]!.key, field: 'length', value: '150' });
    const old = {
      units: edited.units.map((u) => ({ raw: u.raw, calculated: u.result !== null })),
      summary: true,
    };
    const back = init(parseSaved(JSON.parse(JSON.stringify(old))), 'es');
    const longer = engine({ ...B, length: '150' }, 2);
    expect(back.units.map((u) => u.result)).toEqual([engine(A, 1), longer]);
    expect(back.summary).toEqual(summarizePipes([engine(A, 1), longer]));
    // Totals that cannot be read are made again too.
    const broken = init(parseSaved({ ...toSaved(s), totals: { summary: [{}] } }), 'es');
    expect(broken.summary).toEqual(s.summary);
    expect(broken.pressures).toEqual(s.pressures);
  });
});

describe('secondary-line report', () => {
  const t = ((key: string, o?: { n?: number }) => (o?.n ? `${key} ${o.n}` : key)) as never;
  const fmt = (v: number, d = 2) => v.toFixed(d);

  it('CSV: inputs with status, stretches (6 columns), pressures, summary (4 columns)', () => {
    const s = run(designed(A, B), { type: 'add' }, { type: 'accounting' });
    const rows = reportCsvRows(secondaryReport(s, t, 'es', fmt));
    expect(rows[0]).toHaveLength(11);
    expect(rows[3]![8]).toBe(STATUS_HERE_ES);
    const stretches = rows.filter((r) => r.length === 6 && typeof r[0] === 'number');
    expect(stretches).toHaveLength(stretchRows(s).length);
    // the head loss with the 4 decimals the screen shows; the design file keeps all of them
    expect(stretches[0]![5]).toBe(Number(engine(A, 1).stretches[0]!.hf.toFixed(4)));
    const summary = rows.filter((r) => r.length === 4 && /^(PVC|Al)/.test(String(r[0])));
    expect(summary.map((r) => r[3])).toEqual(s.summary!.map((x) => x.adjustedLength));
    expect(rows.at(-1)).toEqual([
      expect.stringContaining('mainlinePressure'),
      expect.any(Number),
      'm',
    ]);
  });

  it('a calculated section reports the inputs its result came from, not the fields edited since', () => {
    let s = designed(A);
    const key = s.units[0]!.key;
    s = run(s, { type: 'raw', key, field: 'length', value: '999' });
    const inputs = reportCsvRows(secondaryReport(s, t, 'es', fmt)).find((r) => r[0] === 1)!;
    expect(inputs.slice(1, 8)).toEqual(Object.values(A));
    s = run(s, { type: 'calculate', key, lang: 'es' });
    const again = reportCsvRows(secondaryReport(s, t, 'es', fmt)).find((r) => r[0] === 1)!;
    expect(again[3]).toBe('999');
  });

  it('PDF: inputs without status, formatted stretches, one text pair per section, charts', () => {
    const s = run(designed(A, B), { type: 'accounting' });
    const blocks = reportPdfBlocks(secondaryReport(s, t, 'es', fmt), fmt, [null, null]);
    expect(blocks.map((b) => b.kind)).toEqual([
      'table',
      'table',
      'text',
      'text',
      'text',
      'text',
      'table',
      'text',
      'charts',
    ]);
    const inputs = blocks[0] as unknown as { columns: string[]; rows: string[][] };
    expect(inputs.columns).toHaveLength(10);
    const results = blocks[1] as unknown as { rows: string[][] };
    expect(results.rows[0]![5]).toBe(engine(A, 1).stretches[0]!.hf.toFixed(4));
  });

  it('PDF of 16 sections: what does not fit on the page is counted in a note', async () => {
    const s = run(designed(...Array.from({ length: 16 }, (_, i) => (i % 2 ? B : A))), {
      type: 'accounting',
    });
    const bytes = await buildPdfReport({
      title: 'irrigation.secondary.title',
      rowsLeftOut: '{n} rows left out',
      blocksLeftOut: '{n} blocks left out',
      blocks: reportPdfBlocks(secondaryReport(s, t, 'es', fmt), fmt, [CHART, CHART]),
    });
    const texts = await pageTexts(bytes);
    // The pipe accounting and the charts do not fit after 16 sections' texts: the note says so.
    expect(texts).not.toContain('irrigation.secondary.summaryTitle');
    expect(texts.at(-1)).toMatch(/^\d+ blocks left out$/);
    expect(Number(texts.at(-1)!.split(' ')[0])).toBeGreaterThanOrEqual(3);
  });
});

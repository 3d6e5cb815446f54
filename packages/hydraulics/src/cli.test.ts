import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DRIP_EXAMPLE, FAO56_EXAMPLE_18 } from './worked-examples';

const CLI = fileURLToPath(new URL('./cli.ts', import.meta.url));
const PACKAGE = fileURLToPath(new URL('..', import.meta.url));

function hydro(args: string[], stdin = '') {
  const result = spawnSync(process.execPath, ['--import', 'tsx', CLI, ...args], {
    cwd: PACKAGE,
    input: stdin,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('hydro CLI (spawned)', { timeout: 120_000 }, () => {
  it('reads stdin and writes one JSON object', () => {
    const run = hydro(
      ['convert'],
      JSON.stringify({ measure: 'length', from: 'ft', to: 'm', value: 10 }),
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const output = JSON.parse(run.stdout) as { value: number; equivalents: Record<string, number> };
    expect(output.value).toBeCloseTo(3.048, 14);
    expect(output.equivalents.in).toBeCloseTo(120, 12);
  });

  it('reads --input FILE and writes --epanet FILE', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hydro-'));
    const input = join(dir, 'line.json');
    const inp = join(dir, 'line.inp');
    writeFileSync(
      input,
      JSON.stringify({
        initialPressure: 25,
        sections: [{ pipeType: 2, nominalDiameter: 100, flow: 9.5, length: 300, slope: 0 }],
      }),
    );
    const run = hydro(['mainline', '--input', input, `--epanet=${inp}`]);
    expect(run.code).toBe(0);
    const output = JSON.parse(run.stdout) as { totals: { endPressure: number } };
    expect(output.totals.endPressure).toBeLessThan(25);
    expect(readFileSync(inp, 'utf8')).toContain(' P1\tR0\tJ1\t300\t101.5\t145\t0\tOpen');
  });

  it('exits 2 with the field and the specification message on invalid input', () => {
    const run = hydro(
      ['secondary'],
      JSON.stringify({
        sections: [{ pipeType: 'PVC_RD26', nd: 7, length: 60, qs: 2000, s0: 3, se: 3, hfp: 2 }],
      }),
    );
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'sections[0].nd: Please only enter numeric characters, integer type (Allowed input:1-5)...\n',
    );
  });

  it('et0 and schedule: FAO-56 Example 18 and the drip example; exit 2 naming the field', () => {
    const et0 = hydro(['et0'], JSON.stringify(FAO56_EXAMPLE_18));
    expect(et0.stderr).toBe('');
    expect(et0.code).toBe(0);
    expect((JSON.parse(et0.stdout) as { et0: number }).et0.toFixed(2)).toBe('3.88');
    const input = DRIP_EXAMPLE;
    const schedule = hydro(['schedule'], JSON.stringify(input));
    expect(schedule.code).toBe(0);
    expect((JSON.parse(schedule.stdout) as { sectors: number }).sectors).toBe(11);
    const bad = hydro(['schedule'], JSON.stringify({ ...input, hoursAvailable: 30 }));
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toBe('hoursAvailable: hoursAvailable must be above 0 and at most 24 h\n');
  });

  it('exits 2 on bad JSON, bad usage and unreadable files', () => {
    const badJson = hydro(['lateral'], '{ nope');
    expect(badJson.code).toBe(2);
    expect(badJson.stderr).toMatch(/^input: not valid JSON/);
    const usage = hydro([]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(
      /^usage: hydro <convert\|lateral\|secondary\|mainline\|et0\|schedule>/,
    );
    const missing = hydro(['lateral', '--input', '/nonexistent/file.json']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^--input: cannot read \/nonexistent\/file.json/);
    const option = hydro(['lateral', '--fast']);
    expect(option.code).toBe(2);
    expect(option.stderr).toMatch(/^--fast: unknown option/);
  });
});

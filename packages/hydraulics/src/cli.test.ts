import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SAMPLE_DAILY_CSV, SAMPLE_DAILY_SITE, SAMPLE_HOURLY_CSV } from './weather-csv';
import { DRIP_EXAMPLE, FAO56_EXAMPLE_18 } from './worked-examples';

const CLI = fileURLToPath(new URL('./cli.ts', import.meta.url));
const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

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
      /^usage: hydro <convert\|lateral\|secondary\|mainline\|et0\|schedule\|balance\|effective-rain\|risk>/,
    );
    const missing = hydro(['lateral', '--input', '/nonexistent/file.json']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^--input: cannot read \/nonexistent\/file.json/);
    const option = hydro(['lateral', '--fast']);
    expect(option.code).toBe(2);
    expect(option.stderr).toMatch(/^--fast: unknown option/);
  });

  it('balance, effective-rain and risk read JSON on stdin', () => {
    const balance = hydro(
      ['balance'],
      JSON.stringify({
        fieldCapacity: 0.3,
        wiltingPoint: 0.15,
        rootDepth: 0.7,
        p: 0.5,
        kc: 1,
        initialDepletion: 50,
        strategy: 'none',
        days: [
          { date: '2026-06-01', et0: 5 },
          { date: '2026-06-02', et0: 5 },
        ],
      }),
    );
    expect(balance.stderr).toBe('');
    expect(balance.code).toBe(0);
    const output = JSON.parse(balance.stdout) as { taw: number; days: { ks: number }[] };
    expect(output.taw).toBeCloseTo(105, 12);
    expect(output.days[1]!.ks).toBeCloseTo(50 / 52.5, 12);
    const rain = hydro(['effective-rain'], JSON.stringify({ method: 'usda-scs', rain: 100 }));
    expect(JSON.parse(rain.stdout)).toEqual({ effectiveRain: 84 });
    const hours = Array.from({ length: 24 }, (_, h) => ({
      time: `2026-06-01T${String(h).padStart(2, '0')}:00`,
      temperature: 22,
      rh: h < 16 ? 95 : 60,
    }));
    const risk = hydro(['risk'], JSON.stringify({ hours, tomcastThreshold: 15 }));
    expect(risk.code).toBe(0);
    expect((JSON.parse(risk.stdout) as { days: { dsv: number }[] }).days[0]!.dsv).toBe(3);
  });

  it('reads a weather CSV with --input FILE.csv and --params FILE.json', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hydro-'));
    const hourly = join(dir, 'hourly.csv');
    const daily = join(dir, 'daily.CSV');
    const params = join(dir, 'params.json');
    writeFileSync(hourly, SAMPLE_HOURLY_CSV);
    writeFileSync(daily, SAMPLE_DAILY_CSV);
    writeFileSync(
      params,
      JSON.stringify({
        fieldCapacity: 0.3,
        wiltingPoint: 0.15,
        rootDepth: 0.7,
        p: 0.4,
        strategy: 'interval',
        every: 3,
        latitude: SAMPLE_DAILY_SITE.latitude,
        altitude: SAMPLE_DAILY_SITE.altitude,
      }),
    );
    // The root script `npm run -s risk` is the same command.
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const risk = spawnSync(npm, ['run', '-s', 'risk', '--', '--input', hourly], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(risk.status).toBe(0);
    const alerts = JSON.parse(risk.stdout) as {
      tomcastAlerts: string[];
      lateBlightAlerts: string[];
    };
    expect(alerts.tomcastAlerts).toEqual(['2026-06-06']);
    expect(alerts.lateBlightAlerts).toEqual(['2026-06-08']);
    const balance = hydro(['balance', '--input', daily, `--params=${params}`]);
    expect(balance.stderr).toBe('');
    expect(balance.code).toBe(0);
    const output = JSON.parse(balance.stdout) as {
      days: unknown[];
      totals: { irrigations: number };
    };
    expect(output.days).toHaveLength(60);
    expect(output.totals.irrigations).toBe(20);
    const noParams = hydro(['balance', '--input', daily]);
    expect(noParams.code).toBe(2);
    expect(noParams.stderr).toMatch(/^fieldCapacity: required/);
    const jsonParams = hydro(['risk', '--params', params], '{}');
    expect(jsonParams.code).toBe(2);
    expect(jsonParams.stderr).toBe('--params: only with --input FILE.csv\n');
    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, 'time;temperature;rh\n2026-06-01 00:00;20,5;150\n2026-06-01 00:00;20;50\n');
    const errors = hydro(['risk', '--input', bad]);
    expect(errors.code).toBe(2);
    expect(errors.stdout).toBe('');
    expect(errors.stderr).toBe(
      'row 2: humidity 150 % outside 0-100\n' +
        'row 3: time 2026-06-01 00:00 out of order: expected 2026-06-01T01:00\n',
    );
  });

  it('exits 2 naming the field: θWP ≥ θFC, RH 150, hours out of order', () => {
    const soil = { fieldCapacity: 0.2, wiltingPoint: 0.2, rootDepth: 0.5, p: 0.5, kc: 1 };
    const wp = hydro(
      ['balance'],
      JSON.stringify({ ...soil, strategy: 'none', days: [{ date: '2026-06-01', et0: 5 }] }),
    );
    expect(wp.code).toBe(2);
    expect(wp.stderr).toBe('wiltingPoint: wiltingPoint must be below fieldCapacity\n');
    const hour = (time: string, rh = 80) => ({ time, temperature: 20, rh });
    const rh = hydro(['risk'], JSON.stringify({ hours: [hour('2026-06-01T00:00', 150)] }));
    expect(rh.code).toBe(2);
    expect(rh.stderr).toBe('hours[0].rh: rh must be between 0 and 100 %\n');
    const order = hydro(
      ['risk'],
      JSON.stringify({ hours: [hour('2026-06-01T05:00'), hour('2026-06-01T04:00')] }),
    );
    expect(order.code).toBe(2);
    expect(order.stderr).toBe(
      'hours[1].time: expected 2026-06-01T06:00, one hour after 2026-06-01T05:00\n',
    );
  });
});

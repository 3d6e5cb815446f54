import { describe, expect, it } from 'vitest';
import { CliInputError, csvCommandInput, isCommand, runCommand } from './cli-commands';
import { SAMPLE_DAILY_CSV, SAMPLE_DAILY_SITE, SAMPLE_HOURLY_CSV } from './weather-csv';
import { DRIP_EXAMPLE, FAO56_EXAMPLE_18 } from './worked-examples';

function fails(command: string, input: unknown, message: unknown, options = {}) {
  try {
    runCommand(command, input, options);
    expect.fail('should throw');
  } catch (error) {
    expect(error).toBeInstanceOf(CliInputError);
    expect((error as Error).message).toEqual(message);
  }
}

describe('convert', () => {
  it('returns the value and every equivalent', () => {
    const { output } = runCommand('convert', {
      measure: 'flow',
      from: 'm3/h',
      to: 'L/s',
      value: 1,
    });
    const result = output as { value: number; equivalents: Record<string, number> };
    expect(result.value).toBeCloseTo(1 / 3.6, 15);
    expect(Object.keys(result.equivalents)).toEqual([
      'L/s',
      'L/h',
      'm3/h',
      'ft3/h',
      'gal/min',
      'gal/h',
      'cm3/s',
    ]);
    expect(result.equivalents['m3/h']).toBe(1);
  });

  it('names the bad field', () => {
    fails(
      'convert',
      { measure: 'speed', from: 'm', to: 'm', value: 1 },
      expect.stringMatching(/^measure: Invalid option/),
    );
    fails(
      'convert',
      { measure: 'flow', from: 'mm', to: 'L/s', value: 1 },
      "from: unknown flow unit 'mm'",
    );
    fails(
      'convert',
      { measure: 'flow', from: 'L/s', to: 'm', value: 1 },
      "to: unknown flow unit 'm'",
    );
    fails(
      'convert',
      { measure: 'flow', from: 'L/s', to: 'L/h', value: '1' },
      'value: Invalid input: expected number, received string',
    );
    fails(
      'convert',
      { measure: 'flow', from: 'L/s', to: 'L/h', value: 1, extra: true },
      'input: Unrecognized key: "extra"',
    );
  });
});

describe('lateral', () => {
  it('designs with the defaults', () => {
    const output = runCommand('lateral', {}).output as {
      rows: Record<string, number>[];
      maxEmitters: number;
      maxLength: number;
      limitReached: boolean;
    };
    expect(output.rows).toHaveLength(281);
    expect(Object.keys(output.rows[0]!)).toEqual([
      'n',
      'leReal',
      'leEquiv',
      'qa',
      'hfUnit',
      'F',
      'hf',
      'slope',
      'hfSlope',
    ]);
    // The specification's keys first and unchanged; the engineering checks' after them (README.md).
    expect(Object.keys(output)).toEqual([
      'rows',
      'maxEmitters',
      'maxLength',
      'limitReached',
      'formula',
      'formulaName',
      'm',
      'design',
      'notes',
    ]);
    expect(output.maxEmitters).toBe(280);
    expect(output.limitReached).toBe(true);
    // The table ends at 499 emitters before the loss reaches the limit.
    const capped = runCommand('lateral', { D: 0.02 }).output as typeof output;
    expect(capped.maxEmitters).toBe(499);
    expect(capped.limitReached).toBe(false);
  });

  it('takes the engineering-check inputs and returns the designed lateral', () => {
    const input = {
      qEmitter: 2,
      spaceEmitter: 0.5,
      lossEmitter: 0,
      C: 150,
      D: 0.0136,
      formula: 'darcy-weisbach-blasius',
    };
    const output = runCommand('lateral', input).output as {
      maxEmitters: number;
      formula: string;
      formulaName: string;
      m: number;
      design: { emitters: number; points: unknown[]; message: string; status: string };
      notes: string[];
    };
    expect(output.maxEmitters).toBe(183);
    expect(output.formulaName).toBe('Darcy-Weisbach con factor de fricción de Blasius');
    expect(output.m).toBe(1.75);
    expect(output.design.emitters).toBe(183);
    expect(output.design.points).toHaveLength(183);
    expect(output.design.message).toMatch(/^La lateral cumple: variación de caudal de \d+\.\d %/);
    expect(output.notes).toEqual([]);

    const fixed = runCommand('lateral', { slope: 0.01, emitters: 400, x: 0.5, cv: 0.05 })
      .output as {
      design: { source: string; status: string; message: string; eu: number };
    };
    expect(fixed.design.source).toBe('emitters');
    expect(fixed.design.status).toBe('warning');
    expect(fixed.design.message).toContain('mayor que el 10 % admisible');
    expect(fixed.design.message).toContain(`(EU) es de ${fixed.design.eu.toFixed(1)} %`);

    const none = runCommand('lateral', { slope: 0.9, Po: 0.1, hfAdminPerc: 0.1 }).output as {
      design: null;
      notes: string[];
    };
    expect(none.design).toBeNull();
    expect(none.notes[0]).toMatch(/^Ningún emisor cabe/);
    const wide = runCommand('lateral', { D: 0.15, formula: 'darcy-weisbach-blasius' }).output as {
      notes: string[];
    };
    expect(wide.notes[0]).toMatch(/^Blasius se recomienda para tubo de plástico liso/);
  });

  it('names the bad field', () => {
    fails('lateral', { D: 'big' }, 'D: Invalid input: expected number, received string');
    fails('lateral', { D: -1 }, 'D: D must be greater than 0');
    fails('lateral', [], 'input: Invalid input: expected object, received array');
    fails('lateral', { formula: 'manning' }, expect.stringMatching(/^formula: Invalid option/));
    fails('lateral', { emitters: 2, length: 3 }, 'length: give emitters or length, not both');
    fails('lateral', { x: 2 }, 'x: x must be between 0 and 1');
  });
});

describe('secondary', () => {
  const section = { pipeType: 'PVC_RD26', nd: 2, length: 60, qs: 2000, s0: 3, se: 3, hfp: 2 };

  it('returns sections and summary in the issue shape', () => {
    const output = runCommand('secondary', { sections: [section, { ...section, nd: '1' }] })
      .output as {
      sections: Record<string, unknown>[];
      summary: Record<string, unknown>[];
    };
    // The specification's keys first and unchanged; the engineering checks' after them (README.md).
    expect(Object.keys(output)).toEqual(['sections', 'summary', 'pressures']);
    expect(Object.keys(output.sections[0]!)).toEqual([
      'status',
      'message',
      'outlets',
      'hf',
      'F',
      'formula',
      'formulaName',
      'inletPressure',
      'outletPressures',
      'notes',
      'stretches',
    ]);
    const stretches = output.sections[0]!.stretches as Record<string, unknown>[];
    expect(Object.keys(stretches[0]!)).toEqual([
      'pipeType',
      'nominalDiameter',
      'innerDiameter',
      'length',
      'outlets',
      'hf',
    ]);
    expect(Object.keys(output.summary[0]!)).toEqual([
      'pipeType',
      'nominalDiameter',
      'totalLength',
      'adjustedLength',
    ]);
    expect(output.sections[0]!.status).toBe('ok');
  });

  it('gives the outlet and inlet pressures and what the main line must deliver', () => {
    const output = runCommand('secondary', {
      sections: [
        { ...section, pressure: 10, formula: 'darcy-weisbach-blasius' },
        { ...section, pressure: '12,5' },
      ],
    }).output as {
      sections: {
        hf: number;
        formulaName: string;
        inletPressure: number;
        outletPressures: number[];
      }[];
      pressures: { sections: unknown[]; required: { section: number; inletPressure: number } };
    };
    const [a, b] = output.sections;
    expect(a!.formulaName).toBe('Darcy-Weisbach con factor de fricción de Blasius');
    expect(b!.formulaName).toBe('Hazen-Williams');
    expect(a!.outletPressures).toHaveLength(20);
    expect(a!.outletPressures.at(-1)).toBe(10);
    expect(a!.inletPressure).toBeCloseTo(10 + a!.hf, 12);
    expect(output.pressures.sections).toHaveLength(2);
    expect(output.pressures.required.section).toBe(2);
    expect(output.pressures.required.inletPressure).toBeCloseTo(12.5 + b!.hf, 12);
    fails(
      'secondary',
      { sections: [{ ...section, pressure: -1 }] },
      'sections[0].pressure: No negative values!...',
    );
  });

  it('reports the specification messages with the field', () => {
    fails(
      'secondary',
      { sections: [section, { ...section, qs: -3 }] },
      'sections[1].qs: No negative values!...',
    );
    fails(
      'secondary',
      { sections: [{ ...section, pipeType: '' }] },
      'sections[0].pipeType: Please select valid value in selector Pipe type of section or form 1',
    );
    fails(
      'secondary',
      { sections: [] },
      'sections: There must be at least one section or less than 21 sections!',
    );
    fails(
      'secondary',
      { sections: Array.from({ length: 21 }, () => section) },
      'sections: There must be at least one section or less than 21 sections!',
    );
    fails('secondary', { sections: [{ ...section, nd: null }] }, 'sections[0].nd: Invalid input');
  });
});

describe('mainline', () => {
  const input = {
    initialPressure: 30,
    sections: [
      { pipeType: 1, nominalDiameter: 100, flow: 10, length: 200, slope: 0.01 },
      { pipeType: 'Aluminum', nominalDiameter: 650, flow: 5, length: 100, slope: 0 },
    ],
  };

  it('returns sections and totals in the issue shape', () => {
    const output = runCommand('mainline', input).output as {
      sections: Record<string, unknown>[];
      totals: Record<string, unknown>;
    };
    expect(Object.keys(output.sections[0]!)).toEqual([
      'status',
      'message',
      'innerDiameter',
      'velocity',
      'hf',
    ]);
    expect(output.sections[1]).toEqual({
      status: 'error',
      message:
        'Section 2 Select another nominal diameter, because it is not available in the current catalog!',
      innerDiameter: null,
      velocity: null,
      hf: null,
    });
    expect(Object.keys(output.totals)).toEqual([
      'initialPressure',
      'hfTotal',
      'endPressure',
      'maxFlow',
      'maxVelocity',
      'sectionsWithErrors',
    ]);
    expect(output.totals.sectionsWithErrors).toBe(1);
  });

  it('writes the EPANET file on request', () => {
    const ok = { ...input, sections: [input.sections[0]!] };
    const result = runCommand('mainline', ok, { epanet: true });
    expect(result.epanetInp).toContain('[PIPES]');
    fails(
      'mainline',
      input,
      '--epanet: sections[1].nominalDiameter: Section 2 Select another nominal diameter, because it is not available in the current catalog!',
      { epanet: true },
    );
    fails('lateral', {}, '--epanet: only the mainline command writes an EPANET file', {
      epanet: true,
    });
  });

  it('designs a section of length 0 but refuses to write it to EPANET', () => {
    const zero = { ...input, sections: [{ ...input.sections[0]!, length: 0 }] };
    const { output } = runCommand('mainline', zero) as { output: { sections: { hf: number }[] } };
    expect(output.sections[0]!.hf).toBe(0);
    fails(
      'mainline',
      zero,
      '--epanet: sections[0].length: Section 1: EPANET does not accept a pipe of length 0; the length must be greater than 0 m',
      { epanet: true },
    );
  });

  it('reports the specification messages with the field', () => {
    fails(
      'mainline',
      { ...input, initialPressure: 0 },
      "initialPressure: Please enter some initial pressure in decimal unit, it's should be > 0 meters",
    );
    fails(
      'mainline',
      { ...input, sections: [{ ...input.sections[0]!, flow: 1.2345 }] },
      'sections[0].flow: Please only enter numeric characters, float type with three decimals...',
    );
    fails(
      'mainline',
      { ...input, sections: [{ ...input.sections[0]!, slope: 1 }] },
      "sections[0].slope: Please only enter slope in decimal unit, it's should be -1.0 < slope < 1.0...",
    );
    fails(
      'mainline',
      { ...input, sections: [{ ...input.sections[0]!, pipeType: 9 }] },
      'sections[0].pipeType: Please select type pipe in this section 1',
    );
    fails('mainline', { ...input, sections: [] }, expect.stringMatching(/^sections: Too small/));
  });
});

describe('commands', () => {
  it('rejects an unknown command', () => {
    expect(isCommand('convert')).toBe(true);
    fails(
      'pump',
      {},
      "command: expected one of convert, lateral, secondary, mainline, et0, schedule, balance, effective-rain, risk, got 'pump'",
    );
  });
});

/** FAO-56 Example 18 as the CLI takes it (wind 10 km/h at 10 m). */
const BRUSSELS = FAO56_EXAMPLE_18;

describe('et0', () => {
  it("gives FAO-56 Example 18 with the issue's keys first", () => {
    const output = runCommand('et0', BRUSSELS).output as Record<string, number>;
    expect(Object.keys(output).slice(0, 9)).toEqual([
      'et0',
      'es',
      'ea',
      'Ra',
      'N',
      'Rs',
      'Rso',
      'Rn',
      'u2',
    ]);
    expect(output.et0!.toFixed(2)).toBe('3.88');
    expect(output.Ra!.toFixed(2)).toBe('41.09');
    expect(output.Rso!.toFixed(2)).toBe('30.90');
    expect(output.Rn!.toFixed(2)).toBe('13.28');
    expect(output.u2!.toFixed(3)).toBe('2.078');
    expect(output.method).toBe('penman-monteith');
    expect(output.period).toBe('day');
    expect(output.G).toBe(0);
  });

  it('Hargreaves needs only the temperatures', () => {
    const { latitude, dayOfYear, tmax, tmin } = BRUSSELS;
    const output = runCommand('et0', { method: 'hargreaves', latitude, dayOfYear, tmax, tmin })
      .output as Record<string, number | null>;
    expect(output.et0).toBeCloseTo(4.0582, 4);
    expect(output.Rn).toBeNull();
  });

  it('names the bad field', () => {
    fails('et0', { ...BRUSSELS, rhmax: 120 }, 'rhmax: rhmax must be between 0 and 100 %');
    fails(
      'et0',
      { ...BRUSSELS, tmax: '21.5' },
      'tmax: Invalid input: expected number, received string',
    );
    fails(
      'et0',
      { ...BRUSSELS, method: 'blaney' },
      expect.stringMatching(/^method: Invalid option/),
    );
    fails('et0', { ...BRUSSELS, wind: 3 }, 'input: Unrecognized key: "wind"');
    fails(
      'et0',
      { ...BRUSSELS, sunshineHours: undefined },
      'sunshineHours: sunshineHours (or solarRadiation) is required with penman-monteith',
    );
  });
});

describe('schedule', () => {
  const EXAMPLE = DRIP_EXAMPLE;

  it("gives the issue's example with its keys first", () => {
    const output = runCommand('schedule', EXAMPLE).output as Record<string, number>;
    expect(Object.keys(output).slice(0, 7)).toEqual([
      'kc',
      'etc',
      'netDepth',
      'grossDepth',
      'applicationRate',
      'hoursPerSector',
      'sectors',
    ]);
    expect(output.etc!.toFixed(2)).toBe('5.75');
    expect(output.grossDepth!.toFixed(3)).toBe('6.389');
    expect(output.applicationRate!.toFixed(3)).toBe('3.556');
    expect(output.hoursPerSector!.toFixed(3)).toBe('1.797');
    expect(output.sectors).toBe(11);
  });

  it('takes Kc from the stages and a day of the season', () => {
    const { kc: _kc, ...rest } = EXAMPLE;
    const output = runCommand('schedule', { ...rest, day: 50, stages: { kcIni: 0.5 } })
      .output as Record<string, unknown>;
    expect(output.kc).toBeCloseTo(0.825, 12);
    expect(output.stage).toBe('development');
  });

  it('names the bad field', () => {
    fails('schedule', { ...EXAMPLE, eu: 0 }, 'eu: eu must be above 0 and at most 100 %');
    fails(
      'schedule',
      { ...EXAMPLE, kc: undefined, day: 5, stages: { late: 0 } },
      'stages.late: late must be a whole number of days from 1 to 365',
    );
    fails('schedule', { ...EXAMPLE, emitterFlow: undefined }, 'emitterFlow: required (number)');
    fails('schedule', { ...EXAMPLE, stages: { kcMax: 1 } }, 'stages: Unrecognized key: "kcMax"');
  });
});

/** θFC 0.30, θWP 0.15, Zr 0.7 m (TAW 105 mm), Kc 1, ET0 5 mm/day: RAW 52.5 mm. */
const BALANCE = {
  fieldCapacity: 0.3,
  wiltingPoint: 0.15,
  rootDepth: 0.7,
  p: 0.5,
  kc: 1,
  initialDepletion: 50,
  strategy: 'depletion',
  days: [
    { date: '2026-06-01', et0: 5, rain: 0 },
    { date: '2026-06-02', et0: 5 },
    { date: '2026-06-03', et0: 5, rain: 30 },
  ],
};

describe('balance', () => {
  it("gives the water balance with the issue's keys first", () => {
    const output = runCommand('balance', BALANCE).output as {
      taw: number;
      days: Record<string, unknown>[];
      totals: Record<string, number>;
      outsideSeason: number;
    };
    expect(Object.keys(output)).toEqual(['taw', 'days', 'totals', 'outsideSeason']);
    expect(output.taw).toBeCloseTo(105, 12);
    expect(Object.keys(output.days[0]!)).toEqual([
      'date',
      'etc',
      'p',
      'raw',
      'effectiveRain',
      'irrigation',
      'ks',
      'eta',
      'deepPercolation',
      'depletion',
      'day',
      'et0',
      'et0Method',
      'kc',
      'rain',
      'runoff',
      'grossIrrigation',
      'hoursPerSector',
    ]);
    expect(Object.keys(output.totals)).toEqual([
      'etc',
      'eta',
      'effectiveRain',
      'irrigation',
      'deepPercolation',
      'irrigations',
      'rain',
      'grossIrrigation',
      'stressDays',
    ]);
    // Day 2 starts at 55 ≥ RAW 52.5: 55 mm refill it.
    expect(output.days.map((d) => d.irrigation)).toEqual([0, 55, 0]);
    expect(output.totals.irrigations).toBe(1);
    expect(output.totals.effectiveRain).toBe(30);
  });

  it('names the bad field', () => {
    fails(
      'balance',
      { ...BALANCE, wiltingPoint: 0.3 },
      'wiltingPoint: wiltingPoint must be below fieldCapacity',
    );
    fails(
      'balance',
      { ...BALANCE, days: [BALANCE.days[0], BALANCE.days[2]] },
      'days[1].date: expected 2026-06-02, the day after 2026-06-01',
    );
    fails(
      'balance',
      { ...BALANCE, strategy: 'weekly' },
      expect.stringMatching(/^strategy: Invalid option/),
    );
    fails('balance', { ...BALANCE, fieldCapacity: undefined }, 'fieldCapacity: required (number)');
  });
});

describe('effective-rain', () => {
  it('gives the USDA-SCS monthly effective rain', () => {
    expect(runCommand('effective-rain', { method: 'usda-scs', rain: 100 }).output).toEqual({
      effectiveRain: 84,
    });
    expect(runCommand('effective-rain', { rain: 300 }).output).toEqual({ effectiveRain: 155 });
    fails('effective-rain', { rain: -5 }, 'rain: rain must be a monthly depth of at least 0 mm');
    fails(
      'effective-rain',
      { method: 'fao', rain: 5 },
      expect.stringMatching(/^method: Invalid input: expected "usda-scs"/),
    );
  });
});

describe('risk', () => {
  const hours = Array.from({ length: 24 }, (_, h) => ({
    time: `2026-06-01T${String(h).padStart(2, '0')}:00`,
    temperature: 22,
    rh: h < 16 ? 95 : 60,
  }));

  it("gives each day's sums and alerts with the issue's keys first", () => {
    const output = runCommand('risk', { hours, tomcastThreshold: 15, lateBlightThreshold: 18 })
      .output as { days: Record<string, unknown>[]; tomcastAlerts: string[] };
    expect(Object.keys(output.days[0]!)).toEqual([
      'date',
      'wetHours',
      'meanWetTemperature',
      'dsv',
      'tomcastSum',
      'tomcastAlert',
      'severityValue',
      'lateBlightSum',
      'lateBlightAlert',
      'hours',
      'rain',
    ]);
    expect(output.days[0]).toMatchObject({ wetHours: 16, dsv: 3, severityValue: 3 });
    expect(output.tomcastAlerts).toEqual([]);
  });

  it('names the bad field', () => {
    const bad = hours.map((h, i) => (i === 5 ? { ...h, rh: 150 } : h));
    fails('risk', { hours: bad }, 'hours[5].rh: rh must be between 0 and 100 %');
    const swapped = [hours[0], hours[2], hours[1]];
    fails(
      'risk',
      { hours: swapped },
      'hours[1].time: expected 2026-06-01T01:00, one hour after 2026-06-01T00:00',
    );
    fails(
      'risk',
      { hours, tomcastThreshold: 25 },
      'tomcastThreshold: tomcastThreshold must be a whole number from 15 to 20',
    );
  });
});

describe('csvCommandInput (--input FILE.csv)', () => {
  it('gives risk its hours and balance its days, with the other parameters', () => {
    const risk = csvCommandInput('risk', SAMPLE_HOURLY_CSV) as { hours: unknown[] };
    expect(risk.hours).toHaveLength(240);
    const output = runCommand('risk', risk).output as { tomcastAlerts: string[] };
    expect(output.tomcastAlerts).toEqual(['2026-06-06']);
    const withThreshold = csvCommandInput('risk', SAMPLE_HOURLY_CSV, { tomcastThreshold: 20 });
    expect(withThreshold).toMatchObject({ tomcastThreshold: 20 });
    const { days: _days, kc: _kc, ...params } = BALANCE;
    const balance = csvCommandInput('balance', SAMPLE_DAILY_CSV, {
      ...params,
      latitude: SAMPLE_DAILY_SITE.latitude,
      altitude: SAMPLE_DAILY_SITE.altitude,
    });
    const result = runCommand('balance', balance).output as { days: { et0Method: string }[] };
    expect(result.days).toHaveLength(60);
    expect(result.days[0]!.et0Method).toBe('penman-monteith');
  });

  it('refuses what it cannot use, and gives the CSV errors in English, one per line', () => {
    const throws = (run: () => unknown, message: string) => {
      expect(run).toThrow(CliInputError);
      expect(run).toThrow(message);
    };
    throws(
      () => csvCommandInput('balance', SAMPLE_DAILY_CSV),
      'fieldCapacity: required (number): give the balance parameters with --params FILE.json',
    );
    throws(
      () => csvCommandInput('schedule', SAMPLE_DAILY_CSV),
      '--input: only balance and risk read a CSV file',
    );
    throws(
      () => csvCommandInput('risk', SAMPLE_HOURLY_CSV, [1]),
      '--params: expected a JSON object',
    );
    throws(
      () => csvCommandInput('risk', SAMPLE_HOURLY_CSV, { hours: [] }),
      '--params: hours come from the CSV file; leave them out',
    );
    throws(
      () =>
        csvCommandInput(
          'risk',
          'time,temperature,rh\n2026-06-01T00:00,20,150\n2026-06-01T02:00,20,50\n',
        ),
      'row 2: humidity 150 % outside 0-100\nrow 3: time 2026-06-01T02:00 out of order: expected 2026-06-01T01:00',
    );
    throws(() => csvCommandInput('balance', SAMPLE_HOURLY_CSV, {}), 'row 1: no date column');
  });
});

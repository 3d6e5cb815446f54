/**
 * The commands of the hydraulics CLI as pure functions: JSON in, JSON out (no Node APIs here; the
 * process handling is in cli.ts). Every input is parsed with a zod schema and then with the same
 * validation rules as the screens, so a bad value is reported with the specification's words.
 */
import { z } from 'zod';
import { HydraulicsInputError } from './errors';
import { toEpanetInp } from './epanet';
import { FRICTION_FORMULAS, FRICTION_FORMULA_LABELS, type FrictionFormula } from './formulas';
import { designLateral, LATERAL_DEFAULTS, type LateralInput } from './lateral';
import { DESIGN_MESSAGES, uniformityStatusText } from './messages';
import {
  designMainline,
  validateInitialPressure,
  validateMainlineSection,
  type MainlineSectionInput,
} from './mainline';
import {
  designSecondarySection,
  sectionCountAlert,
  summarizePipes,
  summarizePressures,
  validateSecondarySection,
  type SecondarySectionInput,
} from './secondary';
import { convert, equivalents, isUnitOf, MEASURES, type Measure } from './units';
import { et0InputSchema, referenceEvapotranspiration } from './evapotranspiration';
import { irrigationSchedule, scheduleInputSchema } from './schedule';
import { usdaScsEffectiveRain, waterBalance, waterBalanceInputSchema } from './water-balance';
import { diseaseRisk, riskInputSchema } from './disease-risk';
import { parseWeatherCsv, weatherCsvErrorText } from './weather-csv';

export const COMMANDS = [
  'convert',
  'lateral',
  'secondary',
  'mainline',
  'et0',
  'schedule',
  'balance',
  'effective-rain',
  'risk',
] as const;
export type Command = (typeof COMMANDS)[number];

/** Invalid command-line input: the CLI prints the message (it names the field) and exits 2. */
export class CliInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliInputError';
  }
}

export interface CommandOptions {
  /** mainline only: also produce the EPANET input file text. */
  epanet?: boolean;
}

export interface CommandResult {
  output: unknown;
  /** EPANET .inp text when requested with mainline. */
  epanetInp?: string;
}

const numeric = z.union([z.number(), z.string()]);

const convertSchema = z.strictObject({
  measure: z.enum(MEASURES as [Measure, ...Measure[]]),
  from: z.string(),
  to: z.string(),
  value: z.number(),
});

const formulaSchema = z.enum(
  FRICTION_FORMULAS as unknown as [FrictionFormula, ...FrictionFormula[]],
);

const lateralSchema = z.strictObject({
  ...(Object.fromEntries(
    Object.keys(LATERAL_DEFAULTS).map((key) => [key, z.number().optional()]),
  ) as { [K in keyof LateralInput]: z.ZodOptional<z.ZodNumber> }),
  // Engineering checks (README.md): friction formula, emitter law and uniformity inputs, a fixed lateral.
  formula: formulaSchema.optional(),
  x: z.number().optional(),
  cv: z.number().optional(),
  emittersPerPlant: z.number().optional(),
  emitters: z.number().optional(),
  length: z.number().optional(),
});

const secondarySchema = z.strictObject({
  sections: z.array(
    z.strictObject({
      pipeType: z.string(),
      nd: numeric,
      length: numeric,
      qs: numeric,
      s0: numeric,
      se: numeric,
      hfp: numeric,
      formula: formulaSchema.optional(),
      pressure: numeric.optional(),
    }),
  ),
});

const mainlineSchema = z.strictObject({
  initialPressure: numeric,
  sections: z
    .array(
      z.strictObject({
        pipeType: z.union([z.string(), z.number()]),
        nominalDiameter: numeric,
        flow: numeric,
        length: numeric,
        slope: numeric,
      }),
    )
    .min(1),
});

function pathText(path: readonly PropertyKey[]): string {
  let text = '';
  for (const part of path) {
    text += typeof part === 'number' ? `[${part}]` : `${text ? '.' : ''}${String(part)}`;
  }
  return text || 'input';
}

function parse<T>(schema: z.ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    // a field left out reads as such, not as zod's "expected number, received undefined"
    const missing = issue.code === 'invalid_type' && /received undefined$/.test(issue.message);
    const message = missing ? `required (${issue.expected})` : issue.message;
    throw new CliInputError(`${pathText(issue.path)}: ${message}`);
  }
  return result.data;
}

function engine<T>(run: () => T, prefix = ''): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof HydraulicsInputError) {
      throw new CliInputError(`${prefix}${error.field}: ${error.message}`);
    }
    throw error;
  }
}

function stringify<T extends object>(values: T): { [K in keyof T]: string } {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)])) as {
    [K in keyof T]: string;
  };
}

function runConvert(input: unknown) {
  const { measure, from, to, value } = parse(convertSchema, input);
  if (!isUnitOf(measure, from)) throw new CliInputError(`from: unknown ${measure} unit '${from}'`);
  if (!isUnitOf(measure, to)) throw new CliInputError(`to: unknown ${measure} unit '${to}'`);
  return {
    value: convert(measure, from as never, to as never, value),
    equivalents: equivalents(measure, from as never, value) as Record<string, number>,
  };
}

function runLateral(input: unknown) {
  const { formula, x, cv, emittersPerPlant, emitters, length, ...spec } = parse(
    lateralSchema,
    input,
  );
  const result = engine(() =>
    designLateral(spec, { formula, x, cv, emittersPerPlant, emitters, length }),
  );
  const { design } = result;
  const notes = [
    ...(result.blasiusOutOfRange ? [DESIGN_MESSAGES.es.blasiusRange] : []),
    ...(design ? [] : [DESIGN_MESSAGES.es.noDesign]),
  ];
  return {
    rows: result.rows,
    maxEmitters: result.maxEmitters,
    maxLength: result.maxLength,
    limitReached: result.limitReached,
    formula: result.formula,
    formulaName: FRICTION_FORMULA_LABELS[result.formula].es,
    m: result.m,
    design: design && { ...design, message: uniformityStatusText(design) },
    notes,
  };
}

function runSecondary(input: unknown) {
  const { sections } = parse(secondarySchema, input);
  const countAlert = sectionCountAlert(sections.length);
  if (countAlert) throw new CliInputError(`sections: ${countAlert}`);
  const values: SecondarySectionInput[] = sections.map((raw, index) => {
    const checked = validateSecondarySection(stringify(raw), index + 1);
    if (!checked.ok)
      throw new CliInputError(`sections[${index}].${checked.field}: ${checked.message}`);
    return checked.value;
  });
  const results = values.map((value, index) => designSecondarySection(value, index + 1));
  return {
    sections: results.map((r) => ({
      status: r.status,
      message: r.message,
      outlets: r.outlets,
      hf: r.hf,
      F: r.F,
      formula: r.formula,
      formulaName: FRICTION_FORMULA_LABELS[r.formula].es,
      inletPressure: r.inletPressure,
      outletPressures: r.outletPressures,
      notes: r.blasiusOutOfRange ? [DESIGN_MESSAGES.es.blasiusRange] : [],
      stretches: r.stretches.map((s) => ({
        pipeType: s.pipeType,
        nominalDiameter: s.nominalDiameter,
        innerDiameter: s.innerDiameter,
        length: s.length,
        outlets: s.outlets,
        hf: s.hf,
      })),
    })),
    summary: summarizePipes(results).map((row) => ({
      pipeType: row.pipeType,
      nominalDiameter: row.nominalDiameter,
      totalLength: row.totalLength,
      adjustedLength: row.adjustedLength,
    })),
    pressures: summarizePressures(results),
  };
}

function runMainline(input: unknown, options: CommandOptions): CommandResult {
  const parsed = parse(mainlineSchema, input);
  const pressure = validateInitialPressure(String(parsed.initialPressure));
  if (!pressure.ok) throw new CliInputError(`initialPressure: ${pressure.message}`);
  const sections: MainlineSectionInput[] = parsed.sections.map((raw, index) => {
    const checked = validateMainlineSection(stringify(raw), index + 1);
    if (!checked.ok)
      throw new CliInputError(`sections[${index}].${checked.field}: ${checked.message}`);
    return checked.value;
  });
  const design = designMainline({ initialPressure: pressure.value, sections });
  const { totals } = design;
  const output = {
    sections: design.sections.map((s) => ({
      status: s.status,
      message: s.message,
      innerDiameter: s.innerDiameter,
      velocity: s.velocity,
      hf: s.hf,
    })),
    totals: {
      initialPressure: totals.initialPressure,
      hfTotal: totals.hfTotal,
      endPressure: totals.endPressure,
      maxFlow: totals.maxFlow,
      maxVelocity: totals.maxVelocity,
      sectionsWithErrors: totals.sectionsWithErrors,
    },
  };
  if (!options.epanet) return { output };
  return { output, epanetInp: engine(() => toEpanetInp(design), '--epanet: ') };
}

/**
 * FAO-56 ET0 (README.md, "Irrigation scheduling"): the documented keys first (et0, es, ea, Ra, N,
 * Rs, Rso, Rn, u2), then the other intermediates.
 */
function runEt0(input: unknown) {
  const r = engine(() => referenceEvapotranspiration(parse(et0InputSchema, input)));
  return {
    et0: r.et0,
    es: r.es,
    ea: r.ea,
    Ra: r.Ra,
    N: r.N,
    Rs: r.Rs,
    Rso: r.Rso,
    Rn: r.Rn,
    u2: r.u2,
    method: r.method,
    period: r.period,
    tmean: r.tmean,
    pressure: r.pressure,
    gamma: r.gamma,
    delta: r.delta,
    humidity: r.humidity,
    dr: r.dr,
    declination: r.declination,
    sunsetAngle: r.sunsetAngle,
    Rns: r.Rns,
    Rnl: r.Rnl,
    G: r.G,
  };
}

/** The drip schedule: the documented keys first, then the stage and the system flow check. */
function runSchedule(input: unknown) {
  const r = engine(() => irrigationSchedule(parse(scheduleInputSchema, input)));
  return {
    kc: r.kc,
    etc: r.etc,
    netDepth: r.netDepth,
    grossDepth: r.grossDepth,
    applicationRate: r.applicationRate,
    hoursPerSector: r.hoursPerSector,
    sectors: r.sectors,
    stage: r.stage,
    day: r.day,
    flowPerSector: r.flowPerSector,
    sectorsForPump: r.sectorsForPump,
    pumpOk: r.pumpOk,
  };
}

/**
 * The daily water balance (FAO-56 ch. 8): `taw`, then each day's documented keys (date, etc, p,
 * raw, effectiveRain, irrigation, ks, eta, deepPercolation, depletion) before the others, and the
 * totals likewise.
 */
function runBalance(input: unknown) {
  const r = engine(() => waterBalance(parse(waterBalanceInputSchema, input)));
  return {
    taw: r.taw,
    days: r.days.map((d) => ({
      date: d.date,
      etc: d.etc,
      p: d.p,
      raw: d.raw,
      effectiveRain: d.effectiveRain,
      irrigation: d.irrigation,
      ks: d.ks,
      eta: d.eta,
      deepPercolation: d.deepPercolation,
      depletion: d.depletion,
      day: d.day,
      et0: d.et0,
      et0Method: d.et0Method,
      kc: d.kc,
      rain: d.rain,
      runoff: d.runoff,
      grossIrrigation: d.grossIrrigation,
      hoursPerSector: d.hoursPerSector,
    })),
    totals: {
      etc: r.totals.etc,
      eta: r.totals.eta,
      effectiveRain: r.totals.effectiveRain,
      irrigation: r.totals.irrigation,
      deepPercolation: r.totals.deepPercolation,
      irrigations: r.totals.irrigations,
      rain: r.totals.rain,
      grossIrrigation: r.totals.grossIrrigation,
      stressDays: r.totals.stressDays,
    },
    outsideSeason: r.outsideSeason,
  };
}

const effectiveRainSchema = z.strictObject({
  method: z.enum(['usda-scs']).default('usda-scs'),
  rain: z.number().refine(Number.isFinite, 'expected a finite number'),
});

/** CROPWAT's monthly effective rain (USDA-SCS). */
function runEffectiveRain(input: unknown) {
  const { rain } = parse(effectiveRainSchema, input);
  return { effectiveRain: engine(() => usdaScsEffectiveRain(rain)) };
}

/** TOMCAST and late blight: each day's documented keys first, then the hours and rain. */
function runRisk(input: unknown) {
  const r = engine(() => diseaseRisk(parse(riskInputSchema, input)));
  return {
    days: r.days.map((d) => ({
      date: d.date,
      wetHours: d.wetHours,
      meanWetTemperature: d.meanWetTemperature,
      dsv: d.dsv,
      tomcastSum: d.tomcastSum,
      tomcastAlert: d.tomcastAlert,
      severityValue: d.severityValue,
      lateBlightSum: d.lateBlightSum,
      lateBlightAlert: d.lateBlightAlert,
      hours: d.hours,
      rain: d.rain,
    })),
    tomcastThreshold: r.tomcastThreshold,
    lateBlightThreshold: r.lateBlightThreshold,
    tomcastAlerts: r.tomcastAlerts,
    lateBlightAlerts: r.lateBlightAlerts,
  };
}

/** Commands that read a weather CSV file (`--input FILE.csv`). */
export const CSV_COMMANDS = ['balance', 'risk'] as const;

/**
 * The JSON input of `balance` or `risk` from a weather CSV file's text and the other parameters
 * (`--params FILE.json`, already parsed; required for balance): the CSV gives `days` (daily) or
 * `hours` (hourly).
 * @throws CliInputError with the CSV's errors in English, one per line.
 */
export function csvCommandInput(command: string, csv: string, params?: unknown): unknown {
  if (!(CSV_COMMANDS as readonly string[]).includes(command)) {
    throw new CliInputError(`--input: only ${CSV_COMMANDS.join(' and ')} read a CSV file`);
  }
  const key = command === 'balance' ? 'days' : 'hours';
  if (
    params !== undefined &&
    (typeof params !== 'object' || params === null || Array.isArray(params))
  ) {
    throw new CliInputError('--params: expected a JSON object');
  }
  if (params !== undefined && key in params) {
    throw new CliInputError(`--params: ${key} come from the CSV file; leave them out`);
  }
  if (command === 'balance' && params === undefined) {
    throw new CliInputError(
      'fieldCapacity: required (number): give the balance parameters with --params FILE.json',
    );
  }
  const result = parseWeatherCsv(csv, command === 'balance' ? 'daily' : 'hourly');
  if (!result.ok) {
    throw new CliInputError(result.errors.map((e) => weatherCsvErrorText(e, 'en')).join('\n'));
  }
  return { ...params, [key]: result.kind === 'daily' ? result.days : result.hours };
}

export function isCommand(value: string): value is Command {
  return (COMMANDS as readonly string[]).includes(value);
}

/**
 * Runs one command on an already parsed JSON input.
 * @throws CliInputError for an unknown command or invalid input (message names the field).
 */
export function runCommand(
  command: string,
  input: unknown,
  options: CommandOptions = {},
): CommandResult {
  if (!isCommand(command)) {
    throw new CliInputError(`command: expected one of ${COMMANDS.join(', ')}, got '${command}'`);
  }
  if (options.epanet && command !== 'mainline') {
    throw new CliInputError('--epanet: only the mainline command writes an EPANET file');
  }
  switch (command) {
    case 'convert':
      return { output: runConvert(input) };
    case 'lateral':
      return { output: runLateral(input) };
    case 'secondary':
      return { output: runSecondary(input) };
    case 'mainline':
      return runMainline(input, options);
    case 'et0':
      return { output: runEt0(input) };
    case 'schedule':
      return { output: runSchedule(input) };
    case 'balance':
      return { output: runBalance(input) };
    case 'effective-rain':
      return { output: runEffectiveRain(input) };
    case 'risk':
      return { output: runRisk(input) };
  }
}

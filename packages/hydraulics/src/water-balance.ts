/**
 * The daily soil water balance of the root zone (README.md, "Water balance"), FAO Irrigation and
 * Drainage Paper 56 (Allen, Pereira, Raes & Smith, 1998) chapter 8, single crop coefficient, one
 * step a day:
 *
 *   TAW = 1000 (θFC − θWP) Zr                                   mm (eq. 82)
 *   ETc = Kc · ET0                                              mm/day (eq. 56)
 *   p = p_table + 0.04 (5 − ETc), kept within 0.1-0.8           (Table 22, footnote)
 *   RAW = p · TAW                                               mm (eq. 83)
 *   Ks = 1 when Dr ≤ RAW, else (TAW − Dr) / ((1 − p) TAW)       (eq. 84)
 *   ETa = Ks · ETc                                              mm/day (eq. 80)
 *   DP = max(0, P − RO + I − ETa − Dr,i−1)                      mm (eq. 88)
 *   Dr,i = Dr,i−1 − (P − RO) − I + ETa + DP, within 0-TAW       mm (eq. 85, 86)
 *
 * Rain is effective when it is at least 0.2 · ET0 (FAO-56: smaller rains evaporate from the
 * surface); the runoff RO is a fraction of the rain when one is given. The net irrigation I is
 * applied at the start of the day and refills the depletion of the day before (I = Dr,i−1): when
 * it has reached RAW ('depletion'), every N days ('interval') or never ('none', rain only). With the
 * drip fields, each irrigation's gross depth and hours per sector come from `dripApplication`
 * (schedule.ts). Kc comes from the crop's stages (crop-coefficient.ts) and ET0 from each day's
 * weather (evapotranspiration.ts) when they are not typed. Nothing is rounded here.
 *
 * CROPWAT's monthly effective rain (USDA Soil Conservation Service method), for monthly totals:
 *   Peff = P (125 − 0.2 P) / 125 for P ≤ 250 mm, else 125 + 0.1 P.
 */
import { z } from 'zod';
import {
  checkCropStages,
  cropCoefficient,
  cropStagesSchema,
  seasonLength,
  MAX_KC,
  TOMATO_STAGES,
  type CropStages,
} from './crop-coefficient';
import { dayOfYear, isoDate, isoDay } from './dates';
import { HydraulicsInputError } from './errors';
import { MAX_LATITUDE, referenceEvapotranspiration } from './evapotranspiration';
import { dripApplication, dripFieldsSchema, type DripFields } from './schedule';

export type { DripFields } from './schedule';

export const BALANCE_STRATEGIES = ['depletion', 'interval', 'none'] as const;
export type BalanceStrategy = (typeof BALANCE_STRATEGIES)[number];

/** Bounds of the inputs (FAO-56 Table 22's p limits; physical ranges for the rest). */
export const BALANCE_LIMITS = {
  maxRootDepth: 3,
  minP: 0.1,
  maxP: 0.8,
  maxEt0: 25,
  maxRain: 500,
  maxEvery: 60,
  maxDays: 731,
} as const;

/** A day's weather for ET0 (evapotranspiration.ts): Penman-Monteith, or Hargreaves with tmax/tmin only. */
export interface DailyWeather {
  tmax: number;
  tmin: number;
  rhmax?: number;
  rhmin?: number;
  rhmean?: number;
  /** m/s at 2 m. */
  windSpeed?: number;
  sunshineHours?: number;
  /** MJ m⁻² day⁻¹. */
  solarRadiation?: number;
}

export interface BalanceDayInput {
  /** ISO `YYYY-MM-DD`; the days are consecutive and in order. */
  date: string;
  /** ET0 (mm/day) typed; or left out and computed from `weather`. */
  et0?: number;
  /** Rain (mm), 0 when left out. */
  rain?: number;
  weather?: DailyWeather;
}

export interface WaterBalanceInput {
  /** Soil water content at field capacity and at the wilting point (m³/m³). */
  fieldCapacity: number;
  wiltingPoint: number;
  /** Root depth Zr (m). */
  rootDepth: number;
  /** Depletion fraction p of FAO-56 Table 22 (for ETc 5 mm/day). */
  p: number;
  /** Kc typed; or left out, from the stages (tomato by default) and the planting date. */
  kc?: number;
  /** ISO date; the first day when left out. */
  plantingDate?: string;
  stages?: Partial<CropStages>;
  /** Depletion at the end of the day before the first (mm), 0 by default (0 to TAW). */
  initialDepletion?: number;
  strategy: BalanceStrategy;
  /** 'interval': irrigate on days N, 2N, … of the balance (1 to 60). */
  every?: number;
  /** Fraction of the rain that runs off (0 to below 1), 0 by default. */
  runoffFraction?: number;
  /** Degrees and m, for ET0 from the weather (only when some day has weather and no et0). */
  latitude?: number;
  altitude?: number;
  /** 1 to 731 days. */
  days: BalanceDayInput[];
  /** With the drip system: each irrigation's gross depth and hours per sector. */
  drip?: DripFields;
}

export type BalanceEt0Method = 'given' | 'penman-monteith' | 'hargreaves';

export interface BalanceDay {
  date: string;
  /** Day of the season, null with a typed kc. */
  day: number | null;
  et0: number;
  et0Method: BalanceEt0Method;
  kc: number;
  etc: number;
  p: number;
  raw: number;
  rain: number;
  runoff: number;
  effectiveRain: number;
  /** Net irrigation (mm), applied at the start of the day. */
  irrigation: number;
  ks: number;
  eta: number;
  deepPercolation: number;
  /** Root zone depletion at the end of the day (mm). */
  depletion: number;
  /** With the drip fields: the gross depth (mm) and hours per sector of the irrigation (0 without one). */
  grossIrrigation: number | null;
  hoursPerSector: number | null;
}

export interface BalanceTotals {
  etc: number;
  eta: number;
  rain: number;
  effectiveRain: number;
  irrigation: number;
  deepPercolation: number;
  /** Days with an irrigation. */
  irrigations: number;
  grossIrrigation: number | null;
  /** Days with Ks below 1. */
  stressDays: number;
}

export interface WaterBalanceResult {
  taw: number;
  days: BalanceDay[];
  totals: BalanceTotals;
  /** Days left out: before planting or after the end of the season. */
  outsideSeason: number;
}

/** Total available water TAW (mm) of the root zone, eq. 82 (θ in m³/m³, Zr in m). */
export function totalAvailableWater(
  fieldCapacity: number,
  wiltingPoint: number,
  rootDepth: number,
): number {
  return 1000 * (fieldCapacity - wiltingPoint) * rootDepth;
}

/**
 * The depletion fraction p for the day's ETc (mm/day): p_table + 0.04 (5 − ETc), kept within
 * 0.1-0.8 (FAO-56 Table 22's footnote).
 */
export function depletionFraction(pTable: number, etc: number): number {
  return Math.min(BALANCE_LIMITS.maxP, Math.max(BALANCE_LIMITS.minP, pTable + 0.04 * (5 - etc)));
}

/**
 * The day's runoff and effective rain (mm): runoff = fraction · rain; the rain less the runoff is
 * effective when the rain is at least 0.2 · ET0, else none of it is (it evaporates).
 */
export function effectiveDailyRain(
  rain: number,
  et0: number,
  runoffFraction = 0,
): { runoff: number; effectiveRain: number } {
  const runoff = runoffFraction * rain;
  return { runoff, effectiveRain: rain >= 0.2 * et0 ? rain - runoff : 0 };
}

/**
 * CROPWAT's effective rain of a month (USDA Soil Conservation Service method), mm:
 * P (125 − 0.2 P) / 125 for P ≤ 250 mm, else 125 + 0.1 P.
 * @throws HydraulicsInputError when the rain is negative or not a number.
 */
export function usdaScsEffectiveRain(monthlyRain: number): number {
  if (!Number.isFinite(monthlyRain) || monthlyRain < 0) {
    throw new HydraulicsInputError('rain', 'rain must be a monthly depth of at least 0 mm');
  }
  return monthlyRain <= 250
    ? (monthlyRain * (125 - 0.2 * monthlyRain)) / 125
    : 125 + 0.1 * monthlyRain;
}

const finiteNumber = z.number().refine(Number.isFinite, 'expected a finite number');

/** The CLI's `weather` of a day. */
export const dailyWeatherSchema = z.strictObject({
  tmax: finiteNumber,
  tmin: finiteNumber,
  rhmax: finiteNumber.optional(),
  rhmin: finiteNumber.optional(),
  rhmean: finiteNumber.optional(),
  windSpeed: finiteNumber.optional(),
  sunshineHours: finiteNumber.optional(),
  solarRadiation: finiteNumber.optional(),
});

/** The CLI's (JSON) input of `balance`; the names are those of WaterBalanceInput. */
export const waterBalanceInputSchema = z.strictObject({
  fieldCapacity: finiteNumber,
  wiltingPoint: finiteNumber,
  rootDepth: finiteNumber,
  p: finiteNumber,
  kc: finiteNumber.optional(),
  plantingDate: z.string().optional(),
  stages: cropStagesSchema.optional(),
  initialDepletion: finiteNumber.optional(),
  strategy: z.enum(BALANCE_STRATEGIES),
  every: finiteNumber.optional(),
  runoffFraction: finiteNumber.optional(),
  latitude: finiteNumber.optional(),
  altitude: finiteNumber.optional(),
  days: z.array(
    z.strictObject({
      date: z.string(),
      et0: finiteNumber.optional(),
      rain: finiteNumber.optional(),
      weather: dailyWeatherSchema.optional(),
    }),
  ),
  drip: dripFieldsSchema.optional(),
});

function fail(field: string, message: string): never {
  throw new HydraulicsInputError(field, message);
}

/** Checks a number: `field` names it in the error, `name` in the message. */
function check(
  field: string,
  value: unknown,
  ok: (v: number) => boolean,
  message: string,
  name = field,
): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || !ok(value)) {
    fail(field, `${name} ${message}`);
  }
}

/** Weather ranges checked before ET0 (the ones Hargreaves would not look at). */
const WEATHER_RANGES: Record<
  Exclude<keyof DailyWeather, 'tmax' | 'tmin'>,
  [number, number, string]
> = {
  rhmax: [0, 100, ' %'],
  rhmin: [0, 100, ' %'],
  rhmean: [0, 100, ' %'],
  windSpeed: [0, 60, ' m/s'],
  sunshineHours: [0, 24, ' h'],
  solarRadiation: [0, 50, ' MJ/m²/day'],
};

function et0Method(weather: DailyWeather): 'penman-monteith' | 'hargreaves' {
  const humidity =
    weather.rhmax !== undefined || weather.rhmin !== undefined || weather.rhmean !== undefined;
  const radiation = weather.sunshineHours !== undefined || weather.solarRadiation !== undefined;
  return humidity && weather.windSpeed !== undefined && radiation
    ? 'penman-monteith'
    : 'hargreaves';
}

/** ET0 of day `index` from its weather (Penman-Monteith, or Hargreaves with the temperatures only). */
function weatherEt0(
  input: WaterBalanceInput,
  index: number,
  dayNumber: number,
  weather: DailyWeather,
): { et0: number; method: 'penman-monteith' | 'hargreaves' } {
  const prefix = `days[${index}].weather.`;
  for (const [key, [min, max, unit]] of Object.entries(WEATHER_RANGES)) {
    const value = weather[key as keyof DailyWeather];
    if (value !== undefined) {
      check(
        `${prefix}${key}`,
        value,
        (v) => v >= min && v <= max,
        `must be between ${min} and ${max}${unit}`,
        key,
      );
    }
  }
  const method = et0Method(weather);
  if (input.latitude === undefined) {
    fail('latitude', `latitude is required to compute ET0 from the weather (days[${index}])`);
  }
  if (method === 'penman-monteith' && input.altitude === undefined) {
    fail(
      'altitude',
      `altitude is required to compute ET0 by Penman-Monteith from the weather (days[${index}])`,
    );
  }
  try {
    const result = referenceEvapotranspiration({
      ...weather,
      method,
      period: 'day',
      latitude: input.latitude,
      altitude: input.altitude,
      dayOfYear: dayOfYear(dayNumber),
    });
    return { et0: Math.max(result.et0, 0), method };
  } catch (error) {
    if (error instanceof HydraulicsInputError) fail(`${prefix}${error.field}`, error.message);
    throw error;
  }
}

interface CheckedInput {
  taw: number;
  stages: CropStages | null;
  /** Day number (isoDay) of the planting date, null with a typed kc. */
  planting: number | null;
  dayNumbers: number[];
}

/** Checks everything but the weather of each day; throws HydraulicsInputError naming the field. */
function checkInput(input: WaterBalanceInput): CheckedInput {
  check(
    'fieldCapacity',
    input.fieldCapacity,
    (v) => v > 0 && v <= 1,
    'must be above 0 and at most 1 m³/m³',
  );
  check(
    'wiltingPoint',
    input.wiltingPoint,
    (v) => v >= 0 && v <= 1,
    'must be between 0 and 1 m³/m³',
  );
  if (input.wiltingPoint >= input.fieldCapacity) {
    fail('wiltingPoint', 'wiltingPoint must be below fieldCapacity');
  }
  check(
    'rootDepth',
    input.rootDepth,
    (v) => v > 0 && v <= BALANCE_LIMITS.maxRootDepth,
    `must be above 0 and at most ${BALANCE_LIMITS.maxRootDepth} m`,
  );
  check(
    'p',
    input.p,
    (v) => v >= BALANCE_LIMITS.minP && v <= BALANCE_LIMITS.maxP,
    `must be between ${BALANCE_LIMITS.minP} and ${BALANCE_LIMITS.maxP}`,
  );
  const taw = totalAvailableWater(input.fieldCapacity, input.wiltingPoint, input.rootDepth);
  if (input.initialDepletion !== undefined) {
    check(
      'initialDepletion',
      input.initialDepletion,
      (v) => v >= 0 && v <= taw,
      `must be between 0 and TAW = ${Number(taw.toFixed(3))} mm`,
    );
  }
  if (!(BALANCE_STRATEGIES as readonly unknown[]).includes(input.strategy)) {
    fail('strategy', `strategy must be one of ${BALANCE_STRATEGIES.join(', ')}`);
  }
  if (input.strategy === 'interval') {
    if (input.every === undefined) fail('every', 'every is required with the interval strategy');
    check(
      'every',
      input.every,
      (v) => Number.isInteger(v) && v >= 1 && v <= BALANCE_LIMITS.maxEvery,
      `must be a whole number of days from 1 to ${BALANCE_LIMITS.maxEvery}`,
    );
  }
  if (input.runoffFraction !== undefined) {
    check(
      'runoffFraction',
      input.runoffFraction,
      (v) => v >= 0 && v < 1,
      'must be at least 0 and below 1',
    );
  }
  if (input.latitude !== undefined) {
    check(
      'latitude',
      input.latitude,
      (v) => v >= -MAX_LATITUDE && v <= MAX_LATITUDE,
      `must be between ${-MAX_LATITUDE} and ${MAX_LATITUDE} degrees`,
    );
  }
  if (input.altitude !== undefined) {
    check(
      'altitude',
      input.altitude,
      (v) => v >= -500 && v <= 6000,
      'must be between -500 and 6000 m',
    );
  }

  const days = input.days;
  if (!Array.isArray(days) || days.length < 1 || days.length > BALANCE_LIMITS.maxDays) {
    fail('days', `days must hold 1 to ${BALANCE_LIMITS.maxDays} days`);
  }
  const dayNumbers: number[] = [];
  days.forEach((day, i) => {
    const field = `days[${i}]`;
    const n = isoDay(day.date);
    if (n === null) fail(`${field}.date`, `date must be a date YYYY-MM-DD, got '${day.date}'`);
    const before = dayNumbers[i - 1];
    if (before !== undefined && n !== before + 1) {
      fail(`${field}.date`, `expected ${isoDate(before + 1)}, the day after ${isoDate(before)}`);
    }
    dayNumbers.push(n);
    if (day.et0 !== undefined) {
      check(
        `${field}.et0`,
        day.et0,
        (v) => v >= 0 && v <= BALANCE_LIMITS.maxEt0,
        `must be between 0 and ${BALANCE_LIMITS.maxEt0} mm/day`,
        'et0',
      );
    } else if (day.weather === undefined) {
      fail(`${field}.et0`, 'give et0 or the weather of the day');
    }
    if (day.rain !== undefined) {
      check(
        `${field}.rain`,
        day.rain,
        (v) => v >= 0 && v <= BALANCE_LIMITS.maxRain,
        `must be between 0 and ${BALANCE_LIMITS.maxRain} mm/day`,
        'rain',
      );
    }
  });

  if (input.kc !== undefined) {
    if (input.stages !== undefined || input.plantingDate !== undefined) {
      fail(
        input.stages !== undefined ? 'stages' : 'plantingDate',
        'give kc, or stages and plantingDate, not both',
      );
    }
    check('kc', input.kc, (v) => v > 0 && v <= MAX_KC, `must be above 0 and at most ${MAX_KC}`);
    return { taw, stages: null, planting: null, dayNumbers };
  }
  const stages: CropStages = { ...TOMATO_STAGES, ...input.stages };
  checkCropStages(stages, 'stages.');
  let planting = dayNumbers[0]!;
  if (input.plantingDate !== undefined) {
    const n = isoDay(input.plantingDate);
    if (n === null) {
      fail('plantingDate', `plantingDate must be a date YYYY-MM-DD, got '${input.plantingDate}'`);
    }
    planting = n;
  }
  return { taw, stages, planting, dayNumbers };
}

/**
 * The daily water balance of the root zone.
 * @throws HydraulicsInputError naming the first field that is missing or out of range.
 */
export function waterBalance(input: WaterBalanceInput): WaterBalanceResult {
  const { taw, stages, planting, dayNumbers } = checkInput(input);
  const drip = input.drip;
  if (drip !== undefined) dripApplication(0, drip, 'drip.');
  const length = stages === null ? 0 : seasonLength(stages);

  const result: BalanceDay[] = [];
  let outsideSeason = 0;
  let depletion = input.initialDepletion ?? 0;
  input.days.forEach((dayInput, index) => {
    const dayNumber = dayNumbers[index]!;
    let day: number | null = null;
    let kc = input.kc ?? 0;
    if (stages !== null) {
      day = dayNumber - planting! + 1;
      if (day < 1 || day > length) {
        outsideSeason++;
        return;
      }
      kc = cropCoefficient(stages, day).kc;
    }
    const { et0, method } =
      dayInput.et0 !== undefined
        ? { et0: dayInput.et0, method: 'given' as const }
        : weatherEt0(input, index, dayNumber, dayInput.weather!);

    const etc = kc * et0;
    const p = depletionFraction(input.p, etc);
    const raw = p * taw;
    const rain = dayInput.rain ?? 0;
    const { runoff, effectiveRain } = effectiveDailyRain(rain, et0, input.runoffFraction ?? 0);

    const previous = depletion;
    const balanceDay = result.length + 1;
    const irrigate =
      input.strategy === 'depletion'
        ? previous >= raw
        : input.strategy === 'interval'
          ? balanceDay % input.every! === 0 && previous > 0
          : false;
    const irrigation = irrigate ? previous : 0;
    const start = previous - irrigation;
    const ks = start <= raw ? 1 : (taw - start) / ((1 - p) * taw);
    const eta = ks * etc;
    const deepPercolation = Math.max(0, effectiveRain + irrigation - eta - previous);
    depletion = Math.min(
      taw,
      Math.max(0, previous - effectiveRain - irrigation + eta + deepPercolation),
    );

    const application =
      drip === undefined ? null : irrigation > 0 ? dripApplication(irrigation, drip) : null;
    result.push({
      date: dayInput.date,
      day,
      et0,
      et0Method: method,
      kc,
      etc,
      p,
      raw,
      rain,
      runoff,
      effectiveRain,
      irrigation,
      ks,
      eta,
      deepPercolation,
      depletion,
      grossIrrigation: drip === undefined ? null : (application?.grossDepth ?? 0),
      hoursPerSector: drip === undefined ? null : (application?.hoursPerSector ?? 0),
    });
  });
  if (result.length === 0) {
    fail(
      'days',
      `no day is inside the season (${isoDate(planting!)} to ${isoDate(planting! + length - 1)})`,
    );
  }

  const sum = (key: 'etc' | 'eta' | 'rain' | 'effectiveRain' | 'irrigation' | 'deepPercolation') =>
    result.reduce((total, d) => total + d[key], 0);
  return {
    taw,
    days: result,
    totals: {
      etc: sum('etc'),
      eta: sum('eta'),
      rain: sum('rain'),
      effectiveRain: sum('effectiveRain'),
      irrigation: sum('irrigation'),
      deepPercolation: sum('deepPercolation'),
      irrigations: result.filter((d) => d.irrigation > 0).length,
      grossIrrigation:
        drip === undefined ? null : result.reduce((total, d) => total + d.grossIrrigation!, 0),
      stressDays: result.filter((d) => d.ks < 1).length,
    },
    outsideSeason,
  };
}

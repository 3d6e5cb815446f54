/**
 * Disease risk of tomato from hourly weather (README.md, "Disease risk"): two forecasting models
 * that sum daily values from the hours of leaf wetness and their mean temperature, and say when to
 * protect the crop.
 *
 * - An hour is wet when the leaf wetness sensor says so or, without a reading for that hour, when
 *   the relative humidity is at least 90 %. Days are calendar days of the (naive local) times.
 * - TOMCAST (early blight, Alternaria, and Septoria leaf spot): disease severity values DSV 0-4
 *   from the wet hours of the day and their mean temperature (Madden, Pennypacker & MacNab 1978,
 *   "FAST, a forecast system for Alternaria solani on tomato", Phytopathology 68; the TOMCAST chart
 *   of Pitblado 1992, Ridgetown College). The DSVs are summed; when the sum reaches the threshold
 *   (15 by default, 15-20) a protection is due and the sum starts again.
 * - Late blight (Phytophthora infestans): Wallin's severity values 0-4 from the same wet hours and
 *   their mean temperature in °F (Wallin 1962, "Summary of recent progress in predicting late blight
 *   epidemics in United States and Canada", American Potato Journal 39), summed the same way with
 *   a threshold of 18 by default.
 *
 * The models were made for other regions and cultivars; local conditions differ, so the alerts are
 * an aid to the decision, not the decision.
 */
import { z } from 'zod';
import { HOUR_MS, localTimeMs, localTimeText } from './dates';
import { HydraulicsInputError } from './errors';

export interface HourInput {
  /** Naive local time `YYYY-MM-DDTHH:mm` (a space instead of the T, and `:00` seconds, too). */
  time: string;
  /** °C. */
  temperature: number;
  /** Relative humidity (%). */
  rh: number;
  /** Leaf wetness sensor reading; left out: wet when rh ≥ 90 %. */
  leafWet?: boolean | 0 | 1;
  /** Rain of the hour (mm). */
  rain?: number;
}

export interface RiskInput {
  /** Hourly and in order, 1 to 24 · 366 hours. */
  hours: HourInput[];
  /** Whole number, 15-20 (15 by default). */
  tomcastThreshold?: number;
  /** Whole number, 10-30 (18 by default). */
  lateBlightThreshold?: number;
}

export interface RiskDay {
  date: string;
  /** Hours of the day in the input. */
  hours: number;
  wetHours: number;
  /** Mean temperature of the wet hours (°C, unrounded); null when no hour is wet. */
  meanWetTemperature: number | null;
  dsv: number;
  /** The DSV sum since the start or the last alert, this day included. */
  tomcastSum: number;
  tomcastAlert: boolean;
  severityValue: number;
  lateBlightSum: number;
  lateBlightAlert: boolean;
  /** mm. */
  rain: number;
}

export interface RiskResult {
  days: RiskDay[];
  tomcastThreshold: number;
  lateBlightThreshold: number;
  /** Dates of the alerts ("aplicar protección"). */
  tomcastAlerts: string[];
  lateBlightAlerts: string[];
}

export const TOMCAST_DEFAULT_THRESHOLD = 15;
export const TOMCAST_THRESHOLDS = [15, 16, 17, 18, 19, 20] as const;
export const LATE_BLIGHT_DEFAULT_THRESHOLD = 18;
export const LATE_BLIGHT_MIN_THRESHOLD = 10;
export const LATE_BLIGHT_MAX_THRESHOLD = 30;
/** Relative humidity (%) from which an hour without a leaf wetness reading is wet. */
export const WET_RH = 90;
export const MAX_RISK_HOURS = 24 * 366;

/**
 * The TOMCAST chart: [lowest °C, highest °C, wet hours from which the DSV is 1, 2, 3, 4].
 * Infinity: never (13-17 °C never reaches DSV 4).
 */
const TOMCAST_TABLE: readonly (readonly [number, number, readonly number[]])[] = [
  [13, 17, [7, 16, 21, Infinity]],
  [18, 20, [4, 9, 16, 23]],
  [21, 25, [3, 6, 13, 21]],
  [26, 29, [4, 9, 16, 23]],
];

/** Wallin's table: [lowest °F, highest °F, wet hours from which the severity value is 1-4]. */
const WALLIN_TABLE: readonly (readonly [number, number, readonly number[]])[] = [
  [45, 53, [16, 19, 22, 25]],
  [54, 59, [13, 16, 19, 22]],
  [60, 80, [10, 13, 16, 19]],
];

/**
 * Rounds to a whole number with halves up; the slack keeps a mean such as 12.499999999999998
 * (12.5 in decimal) from rounding down.
 */
function roundHalfUp(value: number): number {
  return Math.floor(value + 0.5 + 1e-9);
}

function tableValue(
  table: readonly (readonly [number, number, readonly number[]])[],
  wetHours: number,
  temperature: number,
): number {
  const row = table.find(([low, high]) => temperature >= low && temperature <= high);
  return row === undefined ? 0 : row[2].filter((from) => wetHours >= from).length;
}

/**
 * TOMCAST disease severity value (0-4) of a day from its wet hours and their mean temperature (°C,
 * rounded here to a whole degree, halves up). 0 with no wet hour or outside 13-29 °C.
 */
export function tomcastDsv(wetHours: number, meanWetTemperatureC: number | null): number {
  if (meanWetTemperatureC === null || wetHours <= 0) return 0;
  return tableValue(TOMCAST_TABLE, wetHours, roundHalfUp(meanWetTemperatureC));
}

/**
 * Wallin's late blight severity value (0-4) of a day from its wet hours and their mean temperature
 * (°C, converted to °F and rounded to a whole °F, halves up). 0 with no wet hour or outside
 * 45-80 °F.
 */
export function wallinSeverity(wetHours: number, meanWetTemperatureC: number | null): number {
  if (meanWetTemperatureC === null || wetHours <= 0) return 0;
  return tableValue(WALLIN_TABLE, wetHours, roundHalfUp((meanWetTemperatureC * 9) / 5 + 32));
}

const finiteNumber = z.number().refine(Number.isFinite, 'expected a finite number');

/** The CLI's (JSON) input of `risk`; a null leafWet is no reading. */
export const riskInputSchema = z.strictObject({
  hours: z.array(
    z.strictObject({
      time: z.string(),
      temperature: finiteNumber,
      rh: finiteNumber,
      leafWet: z
        .union([z.boolean(), z.literal(0), z.literal(1)])
        .nullish()
        .transform((v) => v ?? undefined),
      rain: finiteNumber.optional(),
    }),
  ),
  tomcastThreshold: finiteNumber.optional(),
  lateBlightThreshold: finiteNumber.optional(),
});

function fail(field: string, message: string): never {
  throw new HydraulicsInputError(field, message);
}

function check(
  field: string,
  name: string,
  value: unknown,
  ok: (v: number) => boolean,
  message: string,
): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || !ok(value)) {
    fail(field, `${name} ${message}`);
  }
}

function checkThreshold(field: string, value: number, min: number, max: number): void {
  check(
    field,
    field,
    value,
    (v) => Number.isInteger(v) && v >= min && v <= max,
    `must be a whole number from ${min} to ${max}`,
  );
}

/** A day's hours gathered. */
interface DayHours {
  date: string;
  hours: number;
  wetHours: number;
  wetTemperature: number;
  rain: number;
}

/** Checks the hours and gathers them by calendar day; throws HydraulicsInputError naming the field. */
function gatherDays(hours: HourInput[]): DayHours[] {
  if (!Array.isArray(hours) || hours.length < 1 || hours.length > MAX_RISK_HOURS) {
    fail('hours', `hours must hold 1 to ${MAX_RISK_HOURS} hours`);
  }
  const days: DayHours[] = [];
  let previous: number | null = null;
  hours.forEach((hour, i) => {
    const field = `hours[${i}]`;
    const ms = typeof hour.time === 'string' ? localTimeMs(hour.time.trim()) : null;
    if (ms === null) {
      fail(`${field}.time`, `time must be a local time YYYY-MM-DDTHH:mm, got '${hour.time}'`);
    }
    if (previous !== null && ms !== previous + HOUR_MS) {
      fail(
        `${field}.time`,
        `expected ${localTimeText(previous + HOUR_MS)}, one hour after ${localTimeText(previous)}`,
      );
    }
    previous = ms;
    check(
      `${field}.temperature`,
      'temperature',
      hour.temperature,
      (v) => v >= -40 && v <= 60,
      'must be between -40 and 60 °C',
    );
    check(`${field}.rh`, 'rh', hour.rh, (v) => v >= 0 && v <= 100, 'must be between 0 and 100 %');
    const { leafWet } = hour;
    if (
      leafWet !== undefined &&
      leafWet !== true &&
      leafWet !== false &&
      leafWet !== 0 &&
      leafWet !== 1
    ) {
      fail(`${field}.leafWet`, 'leafWet must be true or false (1 or 0)');
    }
    if (hour.rain !== undefined) {
      check(
        `${field}.rain`,
        'rain',
        hour.rain,
        (v) => v >= 0 && v <= 200,
        'must be between 0 and 200 mm',
      );
    }
    const wet = leafWet === undefined ? hour.rh >= WET_RH : Boolean(leafWet);
    const date = localTimeText(ms).slice(0, 10);
    let day = days[days.length - 1];
    if (day?.date !== date) {
      day = { date, hours: 0, wetHours: 0, wetTemperature: 0, rain: 0 };
      days.push(day);
    }
    day.hours++;
    day.rain += hour.rain ?? 0;
    if (wet) {
      day.wetHours++;
      day.wetTemperature += hour.temperature;
    }
  });
  return days;
}

/**
 * The daily TOMCAST and late blight sums and alerts of hourly weather.
 * @throws HydraulicsInputError naming the first field out of range (hours[5].rh, …).
 */
export function diseaseRisk(input: RiskInput): RiskResult {
  const tomcastThreshold = input.tomcastThreshold ?? TOMCAST_DEFAULT_THRESHOLD;
  const lateBlightThreshold = input.lateBlightThreshold ?? LATE_BLIGHT_DEFAULT_THRESHOLD;
  checkThreshold(
    'tomcastThreshold',
    tomcastThreshold,
    TOMCAST_THRESHOLDS[0],
    TOMCAST_THRESHOLDS[TOMCAST_THRESHOLDS.length - 1]!,
  );
  checkThreshold(
    'lateBlightThreshold',
    lateBlightThreshold,
    LATE_BLIGHT_MIN_THRESHOLD,
    LATE_BLIGHT_MAX_THRESHOLD,
  );
  const gathered = gatherDays(input.hours);

  let tomcastSum = 0;
  let lateBlightSum = 0;
  const days = gathered.map((d): RiskDay => {
    const meanWetTemperature = d.wetHours === 0 ? null : d.wetTemperature / d.wetHours;
    const dsv = tomcastDsv(d.wetHours, meanWetTemperature);
    const severityValue = wallinSeverity(d.wetHours, meanWetTemperature);
    // A sum that reached its threshold is reported on the alert day; the next day starts from 0.
    tomcastSum = (tomcastSum >= tomcastThreshold ? 0 : tomcastSum) + dsv;
    lateBlightSum = (lateBlightSum >= lateBlightThreshold ? 0 : lateBlightSum) + severityValue;
    return {
      date: d.date,
      hours: d.hours,
      wetHours: d.wetHours,
      meanWetTemperature,
      dsv,
      tomcastSum,
      tomcastAlert: tomcastSum >= tomcastThreshold,
      severityValue,
      lateBlightSum,
      lateBlightAlert: lateBlightSum >= lateBlightThreshold,
      rain: d.rain,
    };
  });
  return {
    days,
    tomcastThreshold,
    lateBlightThreshold,
    tomcastAlerts: days.filter((d) => d.tomcastAlert).map((d) => d.date),
    lateBlightAlerts: days.filter((d) => d.lateBlightAlert).map((d) => d.date),
  };
}

/**
 * Reference evapotranspiration ET0 (README.md, "Irrigation scheduling"), each equation written once
 * with its number in FAO Irrigation and Drainage Paper 56 (Allen, Pereira, Raes & Smith, 1998,
 * "Crop evapotranspiration: guidelines for computing crop water requirements"):
 *
 * - FAO Penman-Monteith (eq. 6) for a day or for a month, with every intermediate: P (eq. 7),
 *   γ (eq. 8), e°(T) (eq. 11), es (eq. 12), Δ (eq. 13), ea (eq. 14, 17, 18 or 19, or measured),
 *   dr, δ, ωs and Ra (eq. 21-25), N (eq. 34), Rs (eq. 35, or measured), Rso (eq. 37), Rns (eq. 38),
 *   Rnl (eq. 39), Rn (eq. 40), G (eq. 42 for a day, 43 or 44 for a month) and u2 (eq. 47);
 * - Hargreaves (eq. 52) when only the temperatures are known.
 *
 * Units as in FAO-56: temperatures in °C, pressures in kPa, radiation in MJ m⁻² day⁻¹, wind in
 * m/s, ET0 in mm/day. Nothing is rounded here.
 */
import { z } from 'zod';
import { HydraulicsInputError } from './errors';

export const ET0_METHODS = ['penman-monteith', 'hargreaves'] as const;
export type Et0Method = (typeof ET0_METHODS)[number];
export const ET0_PERIODS = ['day', 'month'] as const;
export type Et0Period = (typeof ET0_PERIODS)[number];

/** Solar constant Gsc, MJ m⁻² min⁻¹ (eq. 21). */
export const SOLAR_CONSTANT = 0.082;
/** Stefan-Boltzmann constant σ, MJ K⁻⁴ m⁻² day⁻¹ (eq. 39). */
export const STEFAN_BOLTZMANN = 4.903e-9;
/** Albedo of the hypothetical grass reference crop (eq. 38). */
export const REFERENCE_ALBEDO = 0.23;
/** Ångström coefficients as and bs where no calibration exists (eq. 35). */
export const ANGSTROM_A = 0.25;
export const ANGSTROM_B = 0.5;
/** MJ m⁻² day⁻¹ to mm/day of evaporation (1 / λ, λ = 2.45 MJ/kg; eq. 20). */
export const RADIATION_TO_EVAPORATION = 0.408;
/**
 * Latitudes where the sun rises and sets every day of the year, so that ωs (eq. 25) and N exist;
 * beyond them the polar day or night leaves eq. 25 undefined.
 */
export const MAX_LATITUDE = 66;

/** Atmospheric pressure P (kPa) at altitude z (m), eq. 7. */
export function atmosphericPressure(altitude: number): number {
  return 101.3 * Math.pow((293 - 0.0065 * altitude) / 293, 5.26);
}

/** Psychrometric constant γ (kPa/°C) for the pressure P (kPa), eq. 8. */
export function psychrometricConstant(pressure: number): number {
  return 0.000665 * pressure;
}

/** Saturation vapour pressure e°(T) (kPa) at the air temperature T (°C), eq. 11. */
export function saturationVapourPressure(t: number): number {
  return 0.6108 * Math.exp((17.27 * t) / (t + 237.3));
}

/** Mean saturation vapour pressure es (kPa) of a day or month, eq. 12. */
export function meanSaturationVapourPressure(tmax: number, tmin: number): number {
  return (saturationVapourPressure(tmax) + saturationVapourPressure(tmin)) / 2;
}

/** Slope Δ (kPa/°C) of the saturation vapour pressure curve at T (°C), eq. 13. */
export function vapourPressureSlope(t: number): number {
  return (4098 * saturationVapourPressure(t)) / Math.pow(t + 237.3, 2);
}

/** Inverse relative distance Earth-Sun dr on day J, eq. 23. */
export function inverseRelativeDistance(dayOfYear: number): number {
  return 1 + 0.033 * Math.cos(((2 * Math.PI) / 365) * dayOfYear);
}

/** Solar declination δ (rad) on day J, eq. 24. */
export function solarDeclination(dayOfYear: number): number {
  return 0.409 * Math.sin(((2 * Math.PI) / 365) * dayOfYear - 1.39);
}

/** Sunset hour angle ωs (rad) at latitude φ (rad) for the declination δ (rad), eq. 25. */
export function sunsetHourAngle(latitude: number, declination: number): number {
  return Math.acos(-Math.tan(latitude) * Math.tan(declination));
}

/** Extraterrestrial radiation Ra (MJ m⁻² day⁻¹), eq. 21, at latitude φ (rad) on day J. */
export function extraterrestrialRadiation(latitude: number, dayOfYear: number): number {
  const dr = inverseRelativeDistance(dayOfYear);
  const delta = solarDeclination(dayOfYear);
  const ws = sunsetHourAngle(latitude, delta);
  return (
    ((24 * 60) / Math.PI) *
    SOLAR_CONSTANT *
    dr *
    (ws * Math.sin(latitude) * Math.sin(delta) +
      Math.cos(latitude) * Math.cos(delta) * Math.sin(ws))
  );
}

/** Daylight hours N for the sunset hour angle ωs (rad), eq. 34. */
export function daylightHours(sunsetAngle: number): number {
  return (24 / Math.PI) * sunsetAngle;
}

/** Solar radiation Rs from n hours of sunshine of N possible, eq. 35 (Ångström). */
export function solarRadiationFromSunshine(sunshine: number, daylight: number, ra: number): number {
  return (ANGSTROM_A + (ANGSTROM_B * sunshine) / daylight) * ra;
}

/** Clear-sky solar radiation Rso at altitude z (m), eq. 37. */
export function clearSkyRadiation(altitude: number, ra: number): number {
  return (0.75 + 2e-5 * altitude) * ra;
}

/** Net shortwave radiation Rns of the grass reference, eq. 38. */
export function netShortwaveRadiation(rs: number): number {
  return (1 - REFERENCE_ALBEDO) * rs;
}

/**
 * Net outgoing longwave radiation Rnl, eq. 39; Rs/Rso is limited to 1 as FAO-56 says.
 */
export function netLongwaveRadiation(
  tmax: number,
  tmin: number,
  ea: number,
  rs: number,
  rso: number,
): number {
  const kelvin4 = (Math.pow(tmax + 273.16, 4) + Math.pow(tmin + 273.16, 4)) / 2;
  const ratio = Math.min(rs / rso, 1);
  return STEFAN_BOLTZMANN * kelvin4 * (0.34 - 0.14 * Math.sqrt(ea)) * (1.35 * ratio - 0.35);
}

/**
 * Soil heat flux G of a month (eq. 43 with the next month's mean temperature, eq. 44 without it).
 * @param tMonth mean temperature of the month (°C)
 * @param tPrevious mean temperature of the month before
 * @param tNext mean temperature of the month after, when known
 */
export function monthlySoilHeatFlux(tMonth: number, tPrevious: number, tNext?: number): number {
  return tNext === undefined ? 0.14 * (tMonth - tPrevious) : 0.07 * (tNext - tPrevious);
}

/**
 * Wind speed u2 at 2 m from uz measured at z m above the ground, eq. 47. A speed measured at 2 m is
 * u2 itself (eq. 47 would scale it by 1.0002, an artefact of its rounded constants).
 */
export function windSpeedAt2m(speed: number, height: number): number {
  return height === 2 ? speed : (speed * 4.87) / Math.log(67.8 * height - 5.42);
}

/** FAO Penman-Monteith reference evapotranspiration (mm/day), eq. 6. */
export function penmanMonteith(terms: {
  delta: number;
  gamma: number;
  rn: number;
  g: number;
  tmean: number;
  u2: number;
  es: number;
  ea: number;
}): number {
  const { delta, gamma, rn, g, tmean, u2, es, ea } = terms;
  return (
    (RADIATION_TO_EVAPORATION * delta * (rn - g) + gamma * (900 / (tmean + 273)) * u2 * (es - ea)) /
    (delta + gamma * (1 + 0.34 * u2))
  );
}

/** Hargreaves reference evapotranspiration (mm/day), eq. 52, with Ra in MJ m⁻² day⁻¹. */
export function hargreaves(tmax: number, tmin: number, ra: number): number {
  return (
    0.0023 * ((tmax + tmin) / 2 + 17.8) * Math.sqrt(tmax - tmin) * RADIATION_TO_EVAPORATION * ra
  );
}

/** Number inputs of the ET0 calculation; the optional ones depend on the method. */
export interface Et0Input {
  method: Et0Method;
  /** 'day' (G = 0, eq. 42) or 'month' (G from the neighbouring months, eq. 43/44). */
  period: Et0Period;
  /** Degrees, north positive. */
  latitude: number;
  /** m above sea level (Penman-Monteith). */
  altitude?: number;
  /** Day of the year J, 1-366 (for a month, its middle day). */
  dayOfYear: number;
  tmax: number;
  tmin: number;
  /** Humidity: RHmax and RHmin (eq. 17), RHmax alone (eq. 18), RHmean (eq. 19), dew point (eq. 14) or ea measured. */
  rhmax?: number;
  rhmin?: number;
  rhmean?: number;
  tdew?: number;
  ea?: number;
  /** Wind speed (m/s) measured at windHeight (m, 2 when left out). */
  windSpeed?: number;
  windHeight?: number;
  /** Radiation: sunshine hours n (eq. 35), or Rs measured (MJ m⁻² day⁻¹). */
  sunshineHours?: number;
  solarRadiation?: number;
  /** month: the mean temperature of the month before (required) and after (optional). */
  tPrevious?: number;
  tNext?: number;
}

/** How ea was obtained (the FAO-56 equation). */
export type HumiditySource = 'rhmax-rhmin' | 'rhmax' | 'rhmean' | 'tdew' | 'ea';

/** ET0 and every intermediate; the Penman-Monteith ones are null with Hargreaves. */
export interface Et0Result {
  method: Et0Method;
  period: Et0Period;
  et0: number;
  tmean: number;
  /** P (kPa), γ (kPa/°C), Δ (kPa/°C). */
  pressure: number | null;
  gamma: number | null;
  delta: number | null;
  es: number | null;
  ea: number | null;
  humidity: HumiditySource | null;
  dr: number;
  /** Solar declination δ and sunset hour angle ωs (rad). */
  declination: number;
  sunsetAngle: number;
  Ra: number;
  N: number;
  Rs: number | null;
  Rso: number | null;
  Rns: number | null;
  Rnl: number | null;
  Rn: number | null;
  G: number | null;
  u2: number | null;
}

const finiteNumber = z.number().refine(Number.isFinite, 'expected a finite number');

/** The CLI's (JSON) input of `et0`; the names are those of Et0Input. */
export const et0InputSchema = z.strictObject({
  method: z.enum(ET0_METHODS).default('penman-monteith'),
  period: z.enum(ET0_PERIODS).default('day'),
  latitude: finiteNumber,
  altitude: finiteNumber.optional(),
  dayOfYear: finiteNumber,
  tmax: finiteNumber,
  tmin: finiteNumber,
  rhmax: finiteNumber.optional(),
  rhmin: finiteNumber.optional(),
  rhmean: finiteNumber.optional(),
  tdew: finiteNumber.optional(),
  ea: finiteNumber.optional(),
  windSpeed: finiteNumber.optional(),
  windHeight: finiteNumber.optional(),
  sunshineHours: finiteNumber.optional(),
  solarRadiation: finiteNumber.optional(),
  tPrevious: finiteNumber.optional(),
  tNext: finiteNumber.optional(),
});

function fail(field: string, message: string): never {
  throw new HydraulicsInputError(field, message);
}

function within(input: object, field: string, min: number, max: number, unit = ''): void {
  const value = (input as Record<string, unknown>)[field];
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    fail(field, `${field} must be a number`);
  }
  if (value < min || value > max) {
    fail(field, `${field} must be between ${min} and ${max}${unit}`);
  }
}

function required(input: object, field: string, method: string): void {
  if ((input as Record<string, unknown>)[field] === undefined) {
    fail(field, `${field} is required with ${method}`);
  }
}

/** Checks the common inputs; throws HydraulicsInputError naming the field. */
function checkCommon(input: Et0Input): void {
  within(input, 'latitude', -MAX_LATITUDE, MAX_LATITUDE, ' degrees');
  within(input, 'dayOfYear', 1, 366);
  if (!Number.isInteger(input.dayOfYear)) fail('dayOfYear', 'dayOfYear must be a whole number');
  within(input, 'tmax', -50, 60, ' °C');
  within(input, 'tmin', -50, 60, ' °C');
  if (input.tmin > input.tmax) fail('tmin', 'tmin must not be greater than tmax');
}

/** ea (kPa) from the humidity given, and which equation gave it. */
function actualVapourPressure(input: Et0Input): { ea: number; humidity: HumiditySource } {
  const given = (['rhmax', 'rhmin', 'rhmean', 'tdew', 'ea'] as const).filter(
    (k) => input[k] !== undefined,
  );
  if (given.length === 0) {
    fail('rhmax', 'give the humidity: rhmax and rhmin, rhmax, rhmean, tdew or ea');
  }
  // RHmax with RHmin is one measure (eq. 17); any other second field is one too many.
  const pair = given[0] === 'rhmax' && given[1] === 'rhmin';
  const extra = given[pair ? 2 : 1];
  if (extra !== undefined) {
    fail(extra, `give one humidity measure only (${given.join(', ')} were given)`);
  }
  for (const k of ['rhmax', 'rhmin', 'rhmean'] as const) {
    if (input[k] !== undefined) within(input, k, 0, 100, ' %');
  }
  const { tmax, tmin } = input;
  if (pair) {
    if (input.rhmin! > input.rhmax!) fail('rhmin', 'rhmin must not be greater than rhmax');
    return {
      ea:
        (saturationVapourPressure(tmin) * (input.rhmax! / 100) +
          saturationVapourPressure(tmax) * (input.rhmin! / 100)) /
        2,
      humidity: 'rhmax-rhmin',
    };
  }
  switch (given[0]!) {
    case 'rhmin':
      return fail('rhmax', 'rhmin needs rhmax (eq. 17)');
    case 'rhmax':
      return { ea: saturationVapourPressure(tmin) * (input.rhmax! / 100), humidity: 'rhmax' };
    case 'rhmean':
      return {
        ea: (input.rhmean! / 100) * meanSaturationVapourPressure(tmax, tmin),
        humidity: 'rhmean',
      };
    case 'tdew':
      within(input, 'tdew', -50, tmax, ' °C (tmax)');
      return { ea: saturationVapourPressure(input.tdew!), humidity: 'tdew' };
    case 'ea':
      within(input, 'ea', 0, 20, ' kPa');
      return { ea: input.ea!, humidity: 'ea' };
  }
}

/**
 * Reference evapotranspiration ET0 (mm/day) of a day or a month with every intermediate.
 * @throws HydraulicsInputError naming the first field that is missing or out of range.
 */
export function referenceEvapotranspiration(input: Et0Input): Et0Result {
  checkCommon(input);
  const phi = (input.latitude * Math.PI) / 180;
  const J = input.dayOfYear;
  const dr = inverseRelativeDistance(J);
  const declination = solarDeclination(J);
  const sunsetAngle = sunsetHourAngle(phi, declination);
  const Ra = extraterrestrialRadiation(phi, J);
  const N = daylightHours(sunsetAngle);
  const tmean = (input.tmax + input.tmin) / 2;
  const astronomy = { dr, declination, sunsetAngle, Ra, N, tmean };

  if (input.method === 'hargreaves') {
    return {
      method: 'hargreaves',
      period: input.period,
      et0: hargreaves(input.tmax, input.tmin, Ra),
      ...astronomy,
      pressure: null,
      gamma: null,
      delta: null,
      es: null,
      ea: null,
      humidity: null,
      Rs: null,
      Rso: null,
      Rns: null,
      Rnl: null,
      Rn: null,
      G: null,
      u2: null,
    };
  }

  const pm = 'penman-monteith';
  required(input, 'altitude', pm);
  within(input, 'altitude', -500, 6000, ' m');
  const altitude = input.altitude!;
  const { ea, humidity } = actualVapourPressure(input);
  required(input, 'windSpeed', pm);
  within(input, 'windSpeed', 0, 60, ' m/s');
  if (input.windHeight !== undefined) within(input, 'windHeight', 0.5, 100, ' m');
  const u2 = windSpeedAt2m(input.windSpeed!, input.windHeight ?? 2);

  let Rs: number;
  if (input.sunshineHours !== undefined && input.solarRadiation !== undefined) {
    fail('solarRadiation', 'give sunshineHours or solarRadiation, not both');
  } else if (input.sunshineHours !== undefined) {
    if (!(input.sunshineHours >= 0 && input.sunshineHours <= N)) {
      fail('sunshineHours', `sunshineHours must be between 0 and N = ${N.toFixed(2)} h`);
    }
    Rs = solarRadiationFromSunshine(input.sunshineHours, N, Ra);
  } else if (input.solarRadiation !== undefined) {
    if (!(input.solarRadiation > 0 && input.solarRadiation <= Ra)) {
      fail('solarRadiation', `solarRadiation must be above 0 and at most Ra = ${Ra.toFixed(2)}`);
    }
    Rs = input.solarRadiation;
  } else {
    fail('sunshineHours', `sunshineHours (or solarRadiation) is required with ${pm}`);
  }

  let G = 0;
  if (input.period === 'month') {
    required(input, 'tPrevious', 'a month');
    within(input, 'tPrevious', -50, 60, ' °C');
    if (input.tNext !== undefined) within(input, 'tNext', -50, 60, ' °C');
    G = monthlySoilHeatFlux(tmean, input.tPrevious!, input.tNext);
  }

  const pressure = atmosphericPressure(altitude);
  const gamma = psychrometricConstant(pressure);
  const delta = vapourPressureSlope(tmean);
  const es = meanSaturationVapourPressure(input.tmax, input.tmin);
  const Rso = clearSkyRadiation(altitude, Ra);
  const Rns = netShortwaveRadiation(Rs);
  const Rnl = netLongwaveRadiation(input.tmax, input.tmin, ea, Rs, Rso);
  const Rn = Rns - Rnl;
  return {
    method: pm,
    period: input.period,
    et0: penmanMonteith({ delta, gamma, rn: Rn, g: G, tmean, u2, es, ea }),
    ...astronomy,
    pressure,
    gamma,
    delta,
    es,
    ea,
    humidity,
    Rs,
    Rso,
    Rns,
    Rnl,
    Rn,
    G,
    u2,
  };
}

const DAYS_BEFORE_MONTH = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];

/**
 * The day of the year J of the 15th of month M (1-12) of a common year: the day FAO-56 computes a
 * month's Ra and N on (Annex 2, Tables 2.6 and 2.7; Example 17 uses 15 April, J = 105).
 */
export function monthDayOfYear(month: number): number {
  if (!Number.isInteger(month) || month < 1 || month > 12) {
    fail('month', 'month must be a whole number from 1 to 12');
  }
  return DAYS_BEFORE_MONTH[month - 1]! + 15;
}

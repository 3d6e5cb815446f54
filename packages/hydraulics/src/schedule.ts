/**
 * The drip irrigation schedule (README.md, "Irrigation scheduling"): from the crop's water need to
 * how long each sector runs and how many sectors fit in the hours available.
 *
 *   ETc = Kc · ET0                                   (FAO-56 eq. 56)
 *   net depth = max(ETc − effective rain, 0)         mm/day
 *   gross depth = net / (EU / 100) / (1 − LR)        mm/day
 *   application rate = q / (Se · Sl)                 mm/h (L/h over m²)
 *   hours per sector = gross / rate                  h/day
 *   sectors = floor(hours available / hours per sector)
 *
 * With the irrigated area A (ha): each sector's flow = A/sectors · rate (m³/h), and with the
 * system (pump) flow Qs (m³/h), the fewest sectors it can serve = ceil(A · rate / Qs).
 *
 * Everything after the net depth is `dripApplication`, which the water balance (water-balance.ts)
 * uses too for the gross depth and hours of each irrigation.
 */
import { z } from 'zod';
import { HydraulicsInputError } from './errors';
import {
  checkCropStages,
  cropCoefficient,
  cropStagesSchema,
  seasonLength,
  TOMATO_STAGES,
  MAX_KC,
  type CropStage,
  type CropStages,
} from './crop-coefficient';

export interface ScheduleInput extends DripFields {
  /** Reference evapotranspiration (mm/day). */
  et0: number;
  /** Kc typed; or left out, with `day` of the season and `stages` (tomato by default). */
  kc?: number;
  stages?: Partial<CropStages>;
  day?: number;
  /** Effective rain (mm/day), 0 by default. */
  effectiveRain?: number;
}

export interface ScheduleResult {
  kc: number;
  /** The stage and day of the season when Kc comes from the stages; null when typed. */
  stage: CropStage | null;
  day: number | null;
  /** The stages used (null when Kc is typed). */
  stages: CropStages | null;
  etc: number;
  netDepth: number;
  grossDepth: number;
  applicationRate: number;
  hoursPerSector: number;
  /** Sectors that fit in the hours available (null: nothing to irrigate, any number fits). */
  sectors: number | null;
  area: number | null;
  /** Flow of one sector (m³/h) when the area is given and at least one sector fits. */
  flowPerSector: number | null;
  systemFlow: number | null;
  /** The fewest sectors the system flow can serve; null without the system flow. */
  sectorsForPump: number | null;
  /** Whether the system flow serves one sector of `sectors`; null without the system flow. */
  pumpOk: boolean | null;
}

const finiteNumber = z.number().refine(Number.isFinite, 'expected a finite number');

/** The CLI's (JSON) input of `schedule`. */
export const scheduleInputSchema = z.strictObject({
  et0: finiteNumber,
  kc: finiteNumber.optional(),
  stages: cropStagesSchema.optional(),
  day: finiteNumber.optional(),
  effectiveRain: finiteNumber.default(0),
  emitterFlow: finiteNumber,
  emitterSpacing: finiteNumber,
  lateralSpacing: finiteNumber,
  eu: finiteNumber,
  leachingFraction: finiteNumber.default(0),
  hoursAvailable: finiteNumber,
  area: finiteNumber.optional(),
  systemFlow: finiteNumber.optional(),
});

/** The CLI's (JSON) drip fields (`drip` of the water balance). */
export const dripFieldsSchema = z.strictObject({
  emitterFlow: finiteNumber,
  emitterSpacing: finiteNumber,
  lateralSpacing: finiteNumber,
  eu: finiteNumber,
  leachingFraction: finiteNumber.optional(),
  hoursAvailable: finiteNumber,
  area: finiteNumber.optional(),
  systemFlow: finiteNumber.optional(),
});

/** Rounding slack of the whole-number results (20 h / 2 h is 10 sectors, not 9.999…). */
const SLACK = 1e-9;

function fail(field: string, message: string): never {
  throw new HydraulicsInputError(field, message);
}

function check(
  field: string,
  value: number | undefined,
  ok: (v: number) => boolean,
  message: string,
): void {
  if (value === undefined || !Number.isFinite(value) || !ok(value))
    fail(field, `${field} ${message}`);
}

/** Kc typed, or from the stages on a day of the season (eq. 66). */
function scheduleKc(input: ScheduleInput): Pick<ScheduleResult, 'kc' | 'stage' | 'day' | 'stages'> {
  if (input.kc !== undefined) {
    if (input.day !== undefined || input.stages !== undefined) {
      fail(input.day !== undefined ? 'day' : 'stages', 'give kc, or stages and day, not both');
    }
    check('kc', input.kc, (v) => v > 0 && v <= MAX_KC, `must be above 0 and at most ${MAX_KC}`);
    return { kc: input.kc, stage: null, day: null, stages: null };
  }
  if (input.day === undefined) fail('kc', 'give kc, or the day of the season (with stages)');
  const stages: CropStages = { ...TOMATO_STAGES, ...input.stages };
  checkCropStages(stages, 'stages.');
  const length = seasonLength(stages);
  check(
    'day',
    input.day,
    (v) => Number.isInteger(v) && v >= 1 && v <= length,
    `must be a whole number from 1 to ${length} (the season's length)`,
  );
  const { kc, stage } = cropCoefficient(stages, input.day);
  return { kc, stage, day: input.day, stages };
}

/** The drip system fields of the schedule (and of the water balance's `drip`). */
export interface DripFields {
  /** Emitter flow (L/h), emitter spacing on the lateral and spacing between laterals (m). */
  emitterFlow: number;
  emitterSpacing: number;
  lateralSpacing: number;
  /** Emission uniformity (%). */
  eu: number;
  /** Leaching fraction LR (0 to below 1), 0 by default. */
  leachingFraction?: number;
  /** Hours a day the system can run. */
  hoursAvailable: number;
  /** Irrigated area (ha) and the system (pump) flow (m³/h), for the flow of each sector. */
  area?: number;
  systemFlow?: number;
}

/** The drip part of the schedule for one net depth. */
export type DripApplication = Pick<
  ScheduleResult,
  | 'netDepth'
  | 'grossDepth'
  | 'applicationRate'
  | 'hoursPerSector'
  | 'sectors'
  | 'area'
  | 'flowPerSector'
  | 'systemFlow'
  | 'sectorsForPump'
  | 'pumpOk'
>;

/**
 * The drip part of the schedule: from a net depth (mm) to the gross depth, the application rate,
 * the hours per sector and the sectors that fit, with each sector's flow and the system flow
 * check. Used by `irrigationSchedule` (the net depth of one day) and by `waterBalance` (each
 * irrigation's net depth).
 * @param prefix put before the field names of the errors ('drip.' in the water balance)
 * @throws HydraulicsInputError naming the first field out of range.
 */
export function dripApplication(netDepth: number, drip: DripFields, prefix = ''): DripApplication {
  const checkDrip = (
    field: string,
    value: number | undefined,
    ok: (v: number) => boolean,
    message: string,
  ): void => {
    if (value === undefined || !Number.isFinite(value) || !ok(value))
      fail(`${prefix}${field}`, `${field} ${message}`);
  };
  const leachingFraction = drip.leachingFraction ?? 0;
  checkDrip('netDepth', netDepth, (v) => v >= 0, 'must not be negative');
  checkDrip('emitterFlow', drip.emitterFlow, (v) => v > 0, 'must be greater than 0');
  checkDrip('emitterSpacing', drip.emitterSpacing, (v) => v > 0, 'must be greater than 0');
  checkDrip('lateralSpacing', drip.lateralSpacing, (v) => v > 0, 'must be greater than 0');
  checkDrip('eu', drip.eu, (v) => v > 0 && v <= 100, 'must be above 0 and at most 100 %');
  checkDrip(
    'leachingFraction',
    leachingFraction,
    (v) => v >= 0 && v < 1,
    'must be at least 0 and below 1',
  );
  checkDrip(
    'hoursAvailable',
    drip.hoursAvailable,
    (v) => v > 0 && v <= 24,
    'must be above 0 and at most 24 h',
  );
  if (drip.area !== undefined) checkDrip('area', drip.area, (v) => v > 0, 'must be greater than 0');
  if (drip.systemFlow !== undefined) {
    if (drip.area === undefined) fail(`${prefix}area`, 'area is required to check the system flow');
    checkDrip('systemFlow', drip.systemFlow, (v) => v > 0, 'must be greater than 0');
  }

  const grossDepth = netDepth / (drip.eu / 100) / (1 - leachingFraction);
  const applicationRate = drip.emitterFlow / (drip.emitterSpacing * drip.lateralSpacing);
  const hoursPerSector = grossDepth / applicationRate;
  const sectors =
    hoursPerSector === 0 ? null : Math.floor(drip.hoursAvailable / hoursPerSector + SLACK);

  const area = drip.area ?? null;
  // m³/h of the whole area at once: ha · 10 000 m²/ha · mm/h (L/m²/h) / 1000 L/m³.
  const areaFlow = area === null ? null : area * 10 * applicationRate;
  const flowPerSector = areaFlow !== null && sectors ? areaFlow / sectors : null;
  const systemFlow = drip.systemFlow ?? null;
  const sectorsForPump =
    systemFlow === null || areaFlow === null ? null : Math.ceil(areaFlow / systemFlow - SLACK);
  const pumpOk =
    sectorsForPump === null ? null : sectors === null || (sectors > 0 && sectorsForPump <= sectors);
  return {
    netDepth,
    grossDepth,
    applicationRate,
    hoursPerSector,
    sectors,
    area,
    flowPerSector,
    systemFlow,
    sectorsForPump,
    pumpOk,
  };
}

/**
 * The drip schedule of one day.
 * @throws HydraulicsInputError naming the first field out of range.
 */
export function irrigationSchedule(input: ScheduleInput): ScheduleResult {
  check('et0', input.et0, (v) => v >= 0 && v <= 25, 'must be between 0 and 25 mm/day');
  const crop = scheduleKc(input);
  const effectiveRain = input.effectiveRain ?? 0;
  check('effectiveRain', effectiveRain, (v) => v >= 0, 'must not be negative');
  const etc = crop.kc * input.et0;
  const netDepth = Math.max(etc - effectiveRain, 0);
  return { ...crop, etc, ...dripApplication(netDepth, input) };
}

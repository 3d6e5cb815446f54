/**
 * The crop coefficient Kc of tomato over its season (README.md, "Irrigation scheduling"), FAO-56
 * chapter 6: four stages (initial, crop development, mid-season, late season), Kc constant in the
 * initial and mid-season stages and linear between them (eq. 66):
 *
 *   Kc,i = Kc,prev + [(i − ΣL,prev) / L,stage] · (Kc,next − Kc,prev)
 *
 * with i the day of the season, L,stage the length of the stage and ΣL,prev the days before it.
 */
import { z } from 'zod';
import { HydraulicsInputError } from './errors';

export const CROP_STAGES = ['initial', 'development', 'midSeason', 'late'] as const;
export type CropStage = (typeof CROP_STAGES)[number];

/** Stage lengths (days) and the three Kc values of the curve. */
export interface CropStages {
  initial: number;
  development: number;
  midSeason: number;
  late: number;
  kcIni: number;
  kcMid: number;
  kcEnd: number;
}

/**
 * Tomato by default. Stage lengths: FAO-56 Table 11, tomato, the first row (30/40/40/25 days,
 * 135 days, planted in January, arid region). Kc: FAO-56 Table 12, tomato: Kc ini 0.6, Kc mid 1.15
 * and Kc end 0.80, the middle of its 0.70-0.90 range. Every value can be changed.
 */
export const TOMATO_STAGES: Readonly<CropStages> = {
  initial: 30,
  development: 40,
  midSeason: 40,
  late: 25,
  kcIni: 0.6,
  kcMid: 1.15,
  kcEnd: 0.8,
};

export const LENGTH_KEYS = ['initial', 'development', 'midSeason', 'late'] as const;
export const KC_KEYS = ['kcIni', 'kcMid', 'kcEnd'] as const;
/** Kc values above this are refused (FAO-56 Table 12 tops out at about 1.3 for grass-like crops). */
export const MAX_KC = 2;

const finiteNumber = z.number().refine(Number.isFinite, 'expected a finite number');

/** The CLI's `stages` object: any field left out takes the tomato default. */
export const cropStagesSchema = z.strictObject({
  initial: finiteNumber.optional(),
  development: finiteNumber.optional(),
  midSeason: finiteNumber.optional(),
  late: finiteNumber.optional(),
  kcIni: finiteNumber.optional(),
  kcMid: finiteNumber.optional(),
  kcEnd: finiteNumber.optional(),
});

/** Checks the stages; throws HydraulicsInputError naming the field (`prefix` + key). */
export function checkCropStages(stages: CropStages, prefix = ''): void {
  for (const key of LENGTH_KEYS) {
    const days = stages[key];
    if (!Number.isInteger(days) || days < 1 || days > 365) {
      throw new HydraulicsInputError(
        `${prefix}${key}`,
        `${key} must be a whole number of days from 1 to 365`,
      );
    }
  }
  for (const key of KC_KEYS) {
    const kc = stages[key];
    if (!Number.isFinite(kc) || kc <= 0 || kc > MAX_KC) {
      throw new HydraulicsInputError(
        `${prefix}${key}`,
        `${key} must be above 0 and at most ${MAX_KC}`,
      );
    }
  }
}

/** Days of the whole season. */
export function seasonLength(stages: CropStages): number {
  return stages.initial + stages.development + stages.midSeason + stages.late;
}

/** Kc on day `day` (1 … season length) of the season, and the stage that day is in (eq. 66). */
export function cropCoefficient(stages: CropStages, day: number): { kc: number; stage: CropStage } {
  const { initial, development, midSeason, late, kcIni, kcMid, kcEnd } = stages;
  if (day <= initial) return { kc: kcIni, stage: 'initial' };
  if (day <= initial + development) {
    return { kc: kcIni + ((day - initial) / development) * (kcMid - kcIni), stage: 'development' };
  }
  const beforeLate = initial + development + midSeason;
  if (day <= beforeLate) return { kc: kcMid, stage: 'midSeason' };
  return { kc: kcMid + ((day - beforeLate) / late) * (kcEnd - kcMid), stage: 'late' };
}

/** Kc on every day of the season: the crop coefficient curve of FAO-56 chapter 6 for these stages. */
export function cropCoefficientCurve(
  stages: CropStages,
): { day: number; kc: number; stage: CropStage }[] {
  const days = seasonLength(stages);
  return Array.from({ length: days }, (_, i) => ({
    day: i + 1,
    ...cropCoefficient(stages, i + 1),
  }));
}

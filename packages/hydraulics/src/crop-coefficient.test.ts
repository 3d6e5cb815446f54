import { describe, expect, it } from 'vitest';
import { HydraulicsInputError } from './errors';
import {
  checkCropStages,
  cropCoefficient,
  cropCoefficientCurve,
  seasonLength,
  TOMATO_STAGES,
} from './crop-coefficient';
import { expectRelative } from './test-helpers';

describe('tomato Kc by stage (FAO-56 tables 11 and 12, eq. 66)', () => {
  it('has the FAO-56 defaults', () => {
    expect(TOMATO_STAGES).toEqual({
      initial: 30,
      development: 40,
      midSeason: 40,
      late: 25,
      kcIni: 0.6,
      kcMid: 1.15,
      kcEnd: 0.8,
    });
    expect(seasonLength(TOMATO_STAGES)).toBe(135);
  });

  it('is constant in the initial and mid-season stages', () => {
    expect(cropCoefficient(TOMATO_STAGES, 1)).toEqual({ kc: 0.6, stage: 'initial' });
    expect(cropCoefficient(TOMATO_STAGES, 30)).toEqual({ kc: 0.6, stage: 'initial' });
    expect(cropCoefficient(TOMATO_STAGES, 71)).toEqual({ kc: 1.15, stage: 'midSeason' });
    expect(cropCoefficient(TOMATO_STAGES, 110)).toEqual({ kc: 1.15, stage: 'midSeason' });
  });

  it('is linear in between (eq. 66, by hand)', () => {
    // Day 50: 0.6 + (50 − 30)/40 · (1.15 − 0.6) = 0.6 + 0.5 · 0.55 = 0.875.
    const dev = cropCoefficient(TOMATO_STAGES, 50);
    expect(dev.stage).toBe('development');
    expectRelative(dev.kc, 0.875);
    // Day 70, the end of development: Kc mid.
    expectRelative(cropCoefficient(TOMATO_STAGES, 70).kc, 1.15);
    // Day 120: 1.15 + (120 − 110)/25 · (0.8 − 1.15) = 1.15 − 0.4 · 0.35 = 1.01.
    const late = cropCoefficient(TOMATO_STAGES, 120);
    expect(late.stage).toBe('late');
    expectRelative(late.kc, 1.01);
    // Last day: Kc end.
    expectRelative(cropCoefficient(TOMATO_STAGES, 135).kc, 0.8);
  });

  it('gives the whole curve', () => {
    const curve = cropCoefficientCurve({ ...TOMATO_STAGES, initial: 10 });
    expect(curve).toHaveLength(115);
    expect(curve[0]).toEqual({ day: 1, kc: 0.6, stage: 'initial' });
    expectRelative(curve[114]!.kc, 0.8);
  });

  it('refuses bad stages, naming the field', () => {
    const fails = (patch: object, field: string) => {
      try {
        checkCropStages({ ...TOMATO_STAGES, ...patch }, 'stages.');
        expect.fail('should throw');
      } catch (error) {
        expect(error).toBeInstanceOf(HydraulicsInputError);
        expect((error as HydraulicsInputError).field).toBe(field);
      }
    };
    fails({ initial: 0 }, 'stages.initial');
    fails({ late: 2.5 }, 'stages.late');
    fails({ kcMid: 0 }, 'stages.kcMid');
    fails({ kcEnd: 2.5 }, 'stages.kcEnd');
    expect(() => checkCropStages(TOMATO_STAGES)).not.toThrow();
  });
});

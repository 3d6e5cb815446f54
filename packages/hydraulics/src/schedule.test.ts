import { describe, expect, it } from 'vitest';
import { HydraulicsInputError } from './errors';
import { dripApplication, irrigationSchedule, type ScheduleInput } from './schedule';
import { expectRelative } from './test-helpers';
import { DRIP_EXAMPLE } from './worked-examples';

/** The example: ET0 5.0, Kc 1.15, 1.6 L/h every 0.30 m, laterals 1.5 m apart, EU 90 %, 20 h. */
const EXAMPLE = DRIP_EXAMPLE;

describe('drip schedule', () => {
  it('gives the worked example', () => {
    const r = irrigationSchedule(EXAMPLE);
    // By hand: ETc = 1.15 · 5 = 5.75; gross = 5.75 / 0.9 = 6.3889; rate = 1.6 / (0.3 · 1.5)
    // = 3.5556 mm/h; hours = 6.3889 / 3.5556 = 1.7969; sectors = floor(20 / 1.7969) = 11.
    expectRelative(r.etc, 5.75);
    expectRelative(r.netDepth, 5.75);
    expectRelative(r.grossDepth, 5.75 / 0.9);
    expectRelative(r.applicationRate, 1.6 / 0.45);
    expectRelative(r.hoursPerSector, 5.75 / 0.9 / (1.6 / 0.45));
    expect(r.etc.toFixed(2)).toBe('5.75');
    expect(r.grossDepth.toFixed(3)).toBe('6.389');
    expect(r.applicationRate.toFixed(3)).toBe('3.556');
    expect(r.hoursPerSector.toFixed(3)).toBe('1.797');
    expect(r.sectors).toBe(11);
    expect(r.kc).toBe(1.15);
    expect(r.stage).toBeNull();
    expect(r.flowPerSector).toBeNull();
    expect(r.pumpOk).toBeNull();
  });

  it('subtracts effective rain and adds the leaching fraction', () => {
    const r = irrigationSchedule({ ...EXAMPLE, effectiveRain: 1.25, leachingFraction: 0.1 });
    expectRelative(r.netDepth, 4.5);
    expectRelative(r.grossDepth, 4.5 / 0.9 / 0.9);
    const wet = irrigationSchedule({ ...EXAMPLE, effectiveRain: 8 });
    expect(wet.netDepth).toBe(0);
    expect(wet.hoursPerSector).toBe(0);
    expect(wet.sectors).toBeNull();
  });

  it('counts whole sectors without rounding errors', () => {
    // gross 4 mm/day at 2 mm/h: 2 h per sector, exactly 10 sectors in 20 h.
    const r = irrigationSchedule({ ...EXAMPLE, et0: 3.6, kc: 1, eu: 90, emitterFlow: 0.9 });
    expectRelative(r.hoursPerSector, 2, 1e-12);
    expect(r.sectors).toBe(10);
    const none = irrigationSchedule({ ...EXAMPLE, hoursAvailable: 1.5 });
    expect(none.sectors).toBe(0);
  });

  it('takes Kc from the tomato stages on a day of the season', () => {
    const r = irrigationSchedule({ ...EXAMPLE, kc: undefined, day: 80 });
    expect(r.kc).toBe(1.15);
    expect(r.stage).toBe('midSeason');
    expect(r.day).toBe(80);
    expect(r.stages?.late).toBe(25);
    const early = irrigationSchedule({
      ...EXAMPLE,
      kc: undefined,
      day: 50,
      stages: { kcIni: 0.5 },
    });
    // 0.5 + (50 − 30)/40 · (1.15 − 0.5) = 0.825.
    expectRelative(early.kc, 0.825);
    expectRelative(early.etc, 0.825 * 5);
  });

  it('gives each sector’s flow and checks the system flow', () => {
    // 2 ha at 3.5556 mm/h: 2 · 10 · 3.5556 = 71.111 m³/h in all; 11 sectors: 6.4646 m³/h each.
    const r = irrigationSchedule({ ...EXAMPLE, area: 2, systemFlow: 10 });
    expectRelative(r.flowPerSector, (2 * 10 * (1.6 / 0.45)) / 11);
    expect(r.sectorsForPump).toBe(8);
    expect(r.pumpOk).toBe(true);
    const small = irrigationSchedule({ ...EXAMPLE, area: 2, systemFlow: 6 });
    expect(small.sectorsForPump).toBe(12);
    expect(small.pumpOk).toBe(false);
    const areaOnly = irrigationSchedule({ ...EXAMPLE, area: 2 });
    expect(areaOnly.flowPerSector).not.toBeNull();
    expect(areaOnly.pumpOk).toBeNull();
  });

  it('refuses bad input, naming the field', () => {
    const fails = (patch: Partial<ScheduleInput>, field: string, message?: RegExp) => {
      try {
        irrigationSchedule({ ...EXAMPLE, ...patch });
        expect.fail('should throw');
      } catch (error) {
        expect(error).toBeInstanceOf(HydraulicsInputError);
        expect((error as HydraulicsInputError).field).toBe(field);
        if (message) expect((error as Error).message).toMatch(message);
      }
    };
    fails({ et0: -1 }, 'et0');
    fails({ kc: 0 }, 'kc');
    fails({ kc: undefined }, 'kc', /give kc, or the day/);
    fails({ day: 3 }, 'day', /not both/);
    fails({ kc: undefined, day: 136 }, 'day', /from 1 to 135/);
    fails({ kc: undefined, day: 3, stages: { midSeason: 0 } }, 'stages.midSeason');
    fails({ effectiveRain: -1 }, 'effectiveRain');
    fails({ emitterFlow: 0 }, 'emitterFlow', /greater than 0/);
    fails({ emitterSpacing: 0 }, 'emitterSpacing');
    fails({ lateralSpacing: -1 }, 'lateralSpacing');
    fails({ eu: 0 }, 'eu');
    fails({ eu: 101 }, 'eu');
    fails({ leachingFraction: 1 }, 'leachingFraction');
    fails({ hoursAvailable: 25 }, 'hoursAvailable');
    fails({ area: 0 }, 'area');
    fails({ systemFlow: 5 }, 'area', /required/);
    fails({ area: 1, systemFlow: 0 }, 'systemFlow');
  });

  it('has its drip part as one function, used by the water balance too', () => {
    const r = irrigationSchedule({ ...EXAMPLE, area: 2, systemFlow: 10 });
    const { et0: _et0, kc: _kc, ...drip } = { ...EXAMPLE, area: 2, systemFlow: 10 };
    const { kc: _k, stage: _s, day: _d, stages: _st, etc: _e, ...rest } = r;
    expect(dripApplication(r.netDepth, drip)).toEqual(rest);
    expect(dripApplication(0, drip).sectors).toBeNull();
    // The water balance names its fields under drip.; the messages are the schedule's.
    expect(() => dripApplication(1, { ...drip, eu: 0 }, 'drip.')).toThrow(
      expect.objectContaining({
        field: 'drip.eu',
        message: 'eu must be above 0 and at most 100 %',
      }),
    );
    expect(() => dripApplication(-1, drip)).toThrow(/netDepth must not be negative/);
  });
});

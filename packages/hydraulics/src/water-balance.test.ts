import { describe, expect, it } from 'vitest';
import { dayOfYear, isoDay } from './dates';
import { HydraulicsInputError } from './errors';
import { referenceEvapotranspiration } from './evapotranspiration';
import { irrigationSchedule } from './schedule';
import { expectRelative } from './test-helpers';
import {
  depletionFraction,
  effectiveDailyRain,
  totalAvailableWater,
  usdaScsEffectiveRain,
  waterBalance,
  waterBalanceInputSchema,
  type BalanceDayInput,
  type WaterBalanceInput,
} from './water-balance';
import { DRIP_EXAMPLE } from './worked-examples';

/** n consecutive days from `start` with the same ET0 and no rain, then `patch` per day. */
function days(n: number, et0 = 5, start = '2026-06-01'): BalanceDayInput[] {
  const first = isoDay(start)!;
  return Array.from({ length: n }, (_, i) => ({
    date: new Date((first + i) * 86_400_000).toISOString().slice(0, 10),
    et0,
  }));
}

/** θFC 0.30, θWP 0.15, Zr 0.7 m: TAW 105 mm; Kc 1 and ET0 5: ETc 5, p 0.5, RAW 52.5 mm. */
const SOIL: WaterBalanceInput = {
  fieldCapacity: 0.3,
  wiltingPoint: 0.15,
  rootDepth: 0.7,
  p: 0.5,
  kc: 1,
  strategy: 'none',
  days: days(3),
};

describe('water balance formulas (FAO-56 ch. 8)', () => {
  it('TAW (eq. 82): θFC 0.30, θWP 0.15, Zr 0.7 m give 105 mm', () => {
    expectRelative(totalAvailableWater(0.3, 0.15, 0.7), 105);
  });

  it('p adjusted for ETc and kept within 0.1-0.8 (Table 22)', () => {
    // 0.65 + 0.04 · (5 − 4.4) = 0.674.
    expectRelative(depletionFraction(0.65, 4.4), 0.674);
    expectRelative(depletionFraction(0.5, 5), 0.5);
    expect(depletionFraction(0.8, 0)).toBe(0.8);
    expect(depletionFraction(0.1, 10)).toBe(0.1);
  });

  it('effective rain: at least 0.2 · ET0, less the runoff', () => {
    expect(effectiveDailyRain(10, 5)).toEqual({ runoff: 0, effectiveRain: 10 });
    expect(effectiveDailyRain(1, 5)).toEqual({ runoff: 0, effectiveRain: 1 });
    expect(effectiveDailyRain(0.9, 5)).toEqual({ runoff: 0, effectiveRain: 0 });
    const withRunoff = effectiveDailyRain(20, 5, 0.2);
    expectRelative(withRunoff.runoff, 4);
    expectRelative(withRunoff.effectiveRain, 16);
    // Too small to count: none of it is effective; the runoff fraction still applies.
    const small = effectiveDailyRain(0.5, 5, 0.2);
    expectRelative(small.runoff, 0.1);
    expect(small.effectiveRain).toBe(0);
  });

  it('USDA-SCS monthly effective rain (CROPWAT): 100 mm gives 84, 300 mm gives 155', () => {
    expectRelative(usdaScsEffectiveRain(100), 84);
    expectRelative(usdaScsEffectiveRain(300), 155);
    // 250 · (125 − 50) / 125 = 150 = 125 + 25: the two branches meet.
    expectRelative(usdaScsEffectiveRain(250), 150);
    expect(usdaScsEffectiveRain(0)).toBe(0);
    expect(() => usdaScsEffectiveRain(-1)).toThrow(HydraulicsInputError);
    expect(() => usdaScsEffectiveRain(Number.NaN)).toThrow(/at least 0 mm/);
  });

  it('dates: day of the year and day numbers', () => {
    expect(dayOfYear(isoDay('2026-07-06')!)).toBe(187);
    expect(dayOfYear(isoDay('2024-12-31')!)).toBe(366);
    expect(isoDay('2026-02-29')).toBeNull();
    expect(isoDay('2026-6-1')).toBeNull();
  });
});

describe('waterBalance', () => {
  it('rain only: Ks falls below 1 past RAW and recovers after a rain (eq. 84-86)', () => {
    const input: WaterBalanceInput = {
      ...SOIL,
      initialDepletion: 50,
      days: days(4).map((d, i) => (i === 2 ? { ...d, rain: 30 } : d)),
    };
    const r = waterBalance(input);
    expectRelative(r.taw, 105);
    const [d1, d2, d3, d4] = r.days;
    // Day 1: D 50 ≤ RAW 52.5: Ks 1, ETa 5, D 55.
    expect(d1!.ks).toBe(1);
    expectRelative(d1!.raw, 52.5);
    expectRelative(d1!.depletion, 55);
    // Day 2: Ks = (105 − 55) / (0.5 · 105) = 0.952381; ETa 4.761905; D 59.761905.
    expectRelative(d2!.ks, 50 / 52.5);
    expectRelative(d2!.eta, (5 * 50) / 52.5);
    expectRelative(d2!.depletion, 55 + (5 * 50) / 52.5);
    // Day 3: 30 mm of rain; Ks from the depletion at the start, 59.7619: 0.861678.
    const start3 = 55 + (5 * 50) / 52.5;
    const ks3 = (105 - start3) / 52.5;
    expectRelative(d3!.ks, ks3);
    expectRelative(d3!.effectiveRain, 30);
    expect(d3!.deepPercolation).toBe(0);
    expectRelative(d3!.depletion, start3 - 30 + 5 * ks3);
    // Day 4: back under RAW, no stress.
    expect(d4!.ks).toBe(1);
    expect(r.totals.stressDays).toBe(2);
    expect(r.totals.irrigations).toBe(0);
    expect(r.totals.irrigation).toBe(0);
    expect(r.totals.rain).toBe(30);
    expectRelative(r.totals.eta, d1!.eta + d2!.eta + d3!.eta + d4!.eta);
    expect(r.totals.etc).toBe(20);
    expect(r.totals.grossIrrigation).toBeNull();
    expect(d1!.grossIrrigation).toBeNull();
    expect(d1!.hoursPerSector).toBeNull();
    expect(d1!.day).toBeNull();
    expect(d1!.et0Method).toBe('given');
    expect(r.outsideSeason).toBe(0);
  });

  it('deep percolation takes what the root zone cannot hold (eq. 88)', () => {
    const r = waterBalance({ ...SOIL, initialDepletion: 10, days: [{ ...days(1)[0]!, rain: 40 }] });
    // 40 − 5 − 10 = 25 mm below the roots, the root zone at field capacity.
    expectRelative(r.days[0]!.deepPercolation, 25);
    expect(r.days[0]!.depletion).toBe(0);
    expectRelative(r.totals.deepPercolation, 25);
  });

  it('keeps the depletion within TAW (eq. 86) and counts the runoff', () => {
    const dry = waterBalance({ ...SOIL, kc: 2, initialDepletion: 104, days: days(2, 25) });
    expect(dry.days[1]!.depletion).toBeLessThanOrEqual(105);
    const wet = waterBalance({
      ...SOIL,
      runoffFraction: 0.25,
      days: [{ ...days(1)[0]!, rain: 20 }],
    });
    expect(wet.days[0]!.runoff).toBe(5);
    expect(wet.days[0]!.effectiveRain).toBe(15);
    expect(wet.days[0]!.deepPercolation).toBe(10);
  });

  it('depletion strategy: irrigates exactly when the depletion reaches RAW, refilling to 0', () => {
    const r = waterBalance({ ...SOIL, strategy: 'depletion', days: days(14) });
    // D = 5, 10, …, 55 at the end of day 11; day 12 starts at 55 ≥ 52.5: I = 55.
    const irrigated = r.days.filter((d) => d.irrigation > 0).map((d) => d.date);
    expect(irrigated).toEqual(['2026-06-12']);
    const d12 = r.days[11]!;
    expectRelative(d12.irrigation, 55);
    expect(d12.ks).toBe(1);
    expectRelative(d12.depletion, 5);
    expect(r.totals.irrigations).toBe(1);
    // Day 11 starts at 50 (Ks 1) and day 12 is watered first: no stress.
    expect(r.totals.stressDays).toBe(0);
    // At exactly RAW it irrigates; just below, it does not.
    const raw = r.days[0]!.raw;
    const at = waterBalance({
      ...SOIL,
      strategy: 'depletion',
      initialDepletion: raw,
      days: days(1),
    });
    expect(at.days[0]!.irrigation).toBe(raw);
    expect(at.days[0]!.depletion).toBe(5);
    const below = waterBalance({
      ...SOIL,
      strategy: 'depletion',
      initialDepletion: raw - 1e-9,
      days: days(1),
    });
    expect(below.days[0]!.irrigation).toBe(0);
  });

  it('interval strategy: irrigates on days N, 2N, … when there is a depletion', () => {
    const r = waterBalance({ ...SOIL, strategy: 'interval', every: 3, days: days(9) });
    const irrigated = r.days.map((d) => d.irrigation);
    expect(irrigated).toEqual([0, 0, 10, 0, 0, 15, 0, 0, 15]);
    expect(r.totals.irrigations).toBe(3);
    expect(r.totals.irrigation).toBe(40);
    // Nothing to refill on day N: no irrigation.
    const wet = waterBalance({
      ...SOIL,
      strategy: 'interval',
      every: 2,
      days: days(2).map((d) => ({ ...d, rain: 30 })),
    });
    expect(wet.days[1]!.irrigation).toBe(0);
    expect(wet.totals.irrigations).toBe(0);
  });

  it('takes Kc from the stages and the planting date, leaving out the days outside the season', () => {
    const r = waterBalance({
      ...SOIL,
      kc: undefined,
      plantingDate: '2026-06-03',
      stages: {
        initial: 2,
        development: 2,
        midSeason: 2,
        late: 2,
        kcIni: 0.5,
        kcMid: 1,
        kcEnd: 0.75,
      },
      days: days(12),
    });
    expect(r.outsideSeason).toBe(4);
    expect(r.days.map((d) => d.date)).toEqual(days(8, 5, '2026-06-03').map((d) => d.date));
    expect(r.days.map((d) => d.day)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // eq. 66: 0.5 + 1/2 · 0.5 on day 3; 1 + 1/2 · (0.75 − 1) on day 7.
    expect(r.days.map((d) => d.kc)).toEqual([0.5, 0.5, 0.75, 1, 1, 1, 0.875, 0.75]);
    expectRelative(r.days[2]!.etc, 3.75);
    // Tomato by default, planted on the first day.
    const tomato = waterBalance({ ...SOIL, kc: undefined, days: days(2) });
    expect(tomato.days[0]!.day).toBe(1);
    expect(tomato.days[0]!.kc).toBe(0.6);
    expect(() =>
      waterBalance({ ...SOIL, kc: undefined, plantingDate: '2027-01-01', days: days(2) }),
    ).toThrow(/no day is inside the season \(2027-01-01 to 2027-05-15\)/);
  });

  it('computes ET0 from the weather: Penman-Monteith, or Hargreaves with the temperatures only', () => {
    // FAO-56 Example 18's weather (Brussels, 6 July) with u2 = 2.078 m/s.
    const weather = {
      tmax: 21.5,
      tmin: 12.3,
      rhmax: 84,
      rhmin: 63,
      windSpeed: 2.078,
      sunshineHours: 9.25,
    };
    const r = waterBalance({
      ...SOIL,
      latitude: 50.8,
      altitude: 100,
      days: [
        { date: '2026-07-06', weather },
        { date: '2026-07-07', weather: { tmax: 21.5, tmin: 12.3 } },
        { date: '2026-07-08', weather: { tmax: 21.5, tmin: 12.3, rhmean: 70, windSpeed: 2 } },
        { date: '2026-07-09', et0: 4, weather },
      ],
    });
    const pm = referenceEvapotranspiration({
      ...weather,
      method: 'penman-monteith',
      period: 'day',
      latitude: 50.8,
      altitude: 100,
      dayOfYear: 187,
    });
    expect(r.days[0]!.et0Method).toBe('penman-monteith');
    expect(r.days[0]!.et0).toBe(pm.et0);
    expect(r.days[0]!.et0.toFixed(1)).toBe('3.9');
    const hargreaves = (J: number) =>
      referenceEvapotranspiration({
        method: 'hargreaves',
        period: 'day',
        latitude: 50.8,
        dayOfYear: J,
        tmax: 21.5,
        tmin: 12.3,
      }).et0;
    expect(r.days[1]!.et0Method).toBe('hargreaves');
    expect(r.days[1]!.et0).toBe(hargreaves(188));
    // No radiation: Hargreaves too.
    expect(r.days[2]!.et0Method).toBe('hargreaves');
    expect(r.days[2]!.et0).toBe(hargreaves(189));
    expect(r.days[3]!.et0Method).toBe('given');
    expect(r.days[3]!.et0).toBe(4);
    // Hargreaves needs no altitude.
    const noAltitude = waterBalance({
      ...SOIL,
      latitude: 50.8,
      days: [{ date: '2026-07-07', weather: { tmax: 21.5, tmin: 12.3 } }],
    });
    expect(noAltitude.days[0]!.et0).toBe(hargreaves(188));
  });

  it('gives the gross depth and hours of each irrigation through the drip schedule', () => {
    const drip = { ...DRIP_EXAMPLE, leachingFraction: 0.1 };
    const r = waterBalance({ ...SOIL, strategy: 'interval', every: 2, days: days(4), drip });
    // Day 2 refills 5 mm, day 4 10 mm.
    expectRelative(r.days[1]!.irrigation, 5);
    const day4 = r.days[3]!;
    expectRelative(day4.irrigation, 10);
    const schedule = irrigationSchedule({ ...drip, et0: day4.irrigation, kc: 1 });
    expect(day4.grossIrrigation).toBe(schedule.grossDepth);
    expect(day4.hoursPerSector).toBe(schedule.hoursPerSector);
    expectRelative(day4.grossIrrigation!, 10 / 0.9 / 0.9);
    expect(r.days[0]!.grossIrrigation).toBe(0);
    expect(r.days[0]!.hoursPerSector).toBe(0);
    expectRelative(r.totals.grossIrrigation!, r.totals.irrigation / 0.9 / 0.9);
  });

  it('refuses bad input, naming the field', () => {
    const fails = (patch: Partial<WaterBalanceInput>, field: string, message?: RegExp) => {
      try {
        waterBalance({ ...SOIL, ...patch });
        expect.fail('should throw');
      } catch (error) {
        expect(error).toBeInstanceOf(HydraulicsInputError);
        expect((error as HydraulicsInputError).field).toBe(field);
        if (message) expect((error as Error).message).toMatch(message);
      }
    };
    fails({ fieldCapacity: 0 }, 'fieldCapacity');
    fails({ fieldCapacity: 1.1 }, 'fieldCapacity');
    fails({ wiltingPoint: -0.1 }, 'wiltingPoint');
    fails({ wiltingPoint: 0.3 }, 'wiltingPoint', /^wiltingPoint must be below fieldCapacity$/);
    fails({ wiltingPoint: 0.35 }, 'wiltingPoint', /below fieldCapacity/);
    fails({ rootDepth: 0 }, 'rootDepth');
    fails({ rootDepth: 3.1 }, 'rootDepth', /at most 3 m/);
    fails({ p: 0.05 }, 'p', /between 0.1 and 0.8/);
    fails({ p: 0.85 }, 'p');
    fails({ initialDepletion: -1 }, 'initialDepletion');
    fails({ initialDepletion: 106 }, 'initialDepletion', /TAW = 105 mm/);
    fails({ strategy: 'weekly' as never }, 'strategy');
    fails({ strategy: 'interval' }, 'every', /required/);
    fails({ strategy: 'interval', every: 0 }, 'every');
    fails({ strategy: 'interval', every: 1.5 }, 'every');
    fails({ strategy: 'interval', every: 61 }, 'every', /from 1 to 60/);
    fails({ runoffFraction: 1 }, 'runoffFraction');
    fails({ latitude: 70 }, 'latitude');
    fails({ altitude: 7000 }, 'altitude');
    fails({ kc: 0 }, 'kc');
    fails({ kc: 2.1 }, 'kc');
    fails({ plantingDate: '2026-06-01' }, 'plantingDate', /not both/);
    fails({ stages: { late: 5 } }, 'stages', /not both/);
    fails({ kc: undefined, stages: { late: 0 } }, 'stages.late');
    fails({ kc: undefined, plantingDate: '1 June' }, 'plantingDate', /YYYY-MM-DD/);
    fails({ days: [] }, 'days', /1 to 731/);
    fails({ days: days(732) }, 'days');
    fails({ days: [{ date: '2026-06-31', et0: 5 }] }, 'days[0].date', /YYYY-MM-DD/);
    fails(
      { days: [...days(4), { date: '2026-06-06', et0: 5 }] },
      'days[4].date',
      /^expected 2026-06-05, the day after 2026-06-04$/,
    );
    fails({ days: [...days(2), ...days(1)] }, 'days[2].date', /expected 2026-06-03/);
    fails(
      { days: [{ date: '2026-06-01', et0: 26 }] },
      'days[0].et0',
      /et0 must be between 0 and 25/,
    );
    fails({ days: [{ date: '2026-06-01' }] }, 'days[0].et0', /give et0 or the weather/);
    fails({ days: [{ date: '2026-06-01', et0: 5, rain: -1 }] }, 'days[0].rain');
    fails({ days: [{ date: '2026-06-01', et0: 5, rain: 501 }] }, 'days[0].rain', /0 and 500/);
    const weather = { tmax: 30, tmin: 15, rhmax: 80, rhmin: 30, windSpeed: 2, sunshineHours: 10 };
    const weatherDay = (w: object) => ({ days: [{ date: '2026-06-01', weather: w as never }] });
    fails(weatherDay(weather), 'latitude', /required to compute ET0/);
    fails({ latitude: 20, ...weatherDay(weather) }, 'altitude', /Penman-Monteith/);
    fails(
      { latitude: 20, altitude: 1000, ...weatherDay({ ...weather, rhmax: 120 }) },
      'days[0].weather.rhmax',
      /^rhmax must be between 0 and 100 %$/,
    );
    fails(
      { latitude: 20, ...weatherDay({ tmax: 30, tmin: 15, rhmin: 150 }) },
      'days[0].weather.rhmin',
    );
    fails(
      { latitude: 20, altitude: 1000, ...weatherDay({ ...weather, tmin: 31 }) },
      'days[0].weather.tmin',
      /not be greater than tmax/,
    );
    fails(
      { latitude: 20, altitude: 1000, ...weatherDay({ ...weather, sunshineHours: 14 }) },
      'days[0].weather.sunshineHours',
    );
    fails(
      { drip: { ...DRIP_EXAMPLE, eu: 0 } },
      'drip.eu',
      /^eu must be above 0 and at most 100 %$/,
    );
    fails({ drip: { ...DRIP_EXAMPLE, systemFlow: 5 } }, 'drip.area', /required/);
  });

  it('has a zod schema for the CLI', () => {
    expect(waterBalanceInputSchema.safeParse({ ...SOIL, drip: DRIP_EXAMPLE }).success).toBe(false);
    const { et0: _et0, ...drip } = DRIP_EXAMPLE;
    const { kc: _kc, ...dripFields } = drip;
    expect(waterBalanceInputSchema.safeParse({ ...SOIL, drip: dripFields }).success).toBe(true);
    expect(waterBalanceInputSchema.safeParse({ ...SOIL, strategy: 'weekly' }).success).toBe(false);
  });
});

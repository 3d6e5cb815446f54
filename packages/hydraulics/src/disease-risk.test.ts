import { describe, expect, it } from 'vitest';
import {
  diseaseRisk,
  riskInputSchema,
  tomcastDsv,
  wallinSeverity,
  LATE_BLIGHT_DEFAULT_THRESHOLD,
  TOMCAST_DEFAULT_THRESHOLD,
  TOMCAST_THRESHOLDS,
  type HourInput,
  type RiskInput,
} from './disease-risk';
import { HydraulicsInputError } from './errors';

/** °C of a temperature in °F. */
const celsius = (f: number) => ((f - 32) * 5) / 9;

/**
 * Hours from `start` (YYYY-MM-DD, midnight) for `days` days: each day `wet` hours at `wetT` °C and
 * RH 95 %, then dry hours at 25 °C and RH 60 %.
 */
function hours(days: number, wet: number, wetT: number, start = '2026-06-01'): HourInput[] {
  const first = Date.parse(`${start}T00:00Z`);
  return Array.from({ length: days * 24 }, (_, i) => {
    const isWet = i % 24 < wet;
    return {
      time: new Date(first + i * 3_600_000).toISOString().slice(0, 16),
      temperature: isWet ? wetT : 25,
      rh: isWet ? 95 : 60,
    };
  });
}

describe('TOMCAST DSV (Pitblado 1992 chart)', () => {
  it('has every wet-hour boundary of every temperature band', () => {
    // [°C, [wet hours, DSV], …]: one hour below and at each threshold.
    const bands: [number, [number, number][]][] = [
      [
        15,
        [
          [6, 0],
          [7, 1],
          [15, 1],
          [16, 2],
          [20, 2],
          [21, 3],
          [24, 3],
        ],
      ],
      [
        19,
        [
          [3, 0],
          [4, 1],
          [8, 1],
          [9, 2],
          [15, 2],
          [16, 3],
          [22, 3],
          [23, 4],
        ],
      ],
      [
        23,
        [
          [2, 0],
          [3, 1],
          [5, 1],
          [6, 2],
          [12, 2],
          [13, 3],
          [20, 3],
          [21, 4],
        ],
      ],
      [
        27,
        [
          [3, 0],
          [4, 1],
          [8, 1],
          [9, 2],
          [15, 2],
          [16, 3],
          [22, 3],
          [23, 4],
        ],
      ],
    ];
    for (const [t, cases] of bands) {
      for (const [wet, dsv] of cases) expect([t, wet, tomcastDsv(wet, t)]).toEqual([t, wet, dsv]);
    }
  });

  it('rounds the mean temperature to a whole degree, halves up, at every edge', () => {
    expect(tomcastDsv(24, 12.4)).toBe(0);
    expect(tomcastDsv(24, 12.5)).toBe(3); // 13 °C
    expect(tomcastDsv(24, 13)).toBe(3);
    expect(tomcastDsv(23, 17.4)).toBe(3); // 17 °C: never 4
    expect(tomcastDsv(23, 17.5)).toBe(4); // 18 °C
    expect(tomcastDsv(3, 20.4)).toBe(0); // 20 °C: 4 h for DSV 1
    expect(tomcastDsv(3, 20.5)).toBe(1); // 21 °C: 3 h
    expect(tomcastDsv(3, 25.4)).toBe(1); // 25 °C
    expect(tomcastDsv(3, 25.5)).toBe(0); // 26 °C: 4 h
    expect(tomcastDsv(24, 29.4)).toBe(4);
    expect(tomcastDsv(24, 29.5)).toBe(0); // 30 °C
    expect(tomcastDsv(0, 20)).toBe(0);
    expect(tomcastDsv(10, null)).toBe(0);
  });
});

describe('Wallin severity values (late blight)', () => {
  it('has every wet-hour boundary of every temperature band', () => {
    const bands: [number, [number, number][]][] = [
      [
        50,
        [
          [15, 0],
          [16, 1],
          [18, 1],
          [19, 2],
          [21, 2],
          [22, 3],
          [24, 3],
          [25, 4],
        ],
      ],
      [
        57,
        [
          [12, 0],
          [13, 1],
          [15, 1],
          [16, 2],
          [18, 2],
          [19, 3],
          [21, 3],
          [22, 4],
        ],
      ],
      [
        70,
        [
          [9, 0],
          [10, 1],
          [12, 1],
          [13, 2],
          [15, 2],
          [16, 3],
          [18, 3],
          [19, 4],
        ],
      ],
    ];
    for (const [f, cases] of bands) {
      for (const [wet, sv] of cases) {
        expect([f, wet, wallinSeverity(wet, celsius(f))]).toEqual([f, wet, sv]);
      }
    }
  });

  it('converts the mean to °F and rounds it halves up, at every edge', () => {
    expect(wallinSeverity(24, celsius(44.4))).toBe(0);
    expect(wallinSeverity(24, celsius(44.5))).toBe(3); // 45 °F
    expect(wallinSeverity(24, celsius(45))).toBe(3);
    expect(wallinSeverity(24, celsius(53))).toBe(3);
    expect(wallinSeverity(22, celsius(53.5))).toBe(4); // 54 °F
    expect(wallinSeverity(22, celsius(54))).toBe(4);
    expect(wallinSeverity(22, celsius(59))).toBe(4);
    expect(wallinSeverity(10, celsius(59))).toBe(0);
    expect(wallinSeverity(10, celsius(59.5))).toBe(1); // 60 °F
    expect(wallinSeverity(10, celsius(60))).toBe(1);
    expect(wallinSeverity(19, celsius(80))).toBe(4);
    expect(wallinSeverity(19, celsius(80.4))).toBe(4);
    expect(wallinSeverity(19, celsius(80.5))).toBe(0); // 81 °F
    expect(wallinSeverity(0, 20)).toBe(0);
    expect(wallinSeverity(10, null)).toBe(0);
  });
});

describe('diseaseRisk', () => {
  it('sums the DSVs to the threshold, alerts and starts again', () => {
    // 16 wet hours a day at 22 °C (71.6 → 72 °F): DSV 3 and severity value 3 every day.
    const r = diseaseRisk({ hours: hours(8, 16, 22) });
    expect(r.tomcastThreshold).toBe(TOMCAST_DEFAULT_THRESHOLD);
    expect(r.lateBlightThreshold).toBe(LATE_BLIGHT_DEFAULT_THRESHOLD);
    expect(r.days.map((d) => d.dsv)).toEqual([3, 3, 3, 3, 3, 3, 3, 3]);
    expect(r.days.map((d) => d.tomcastSum)).toEqual([3, 6, 9, 12, 15, 3, 6, 9]);
    expect(r.days.map((d) => d.tomcastAlert)).toEqual([
      false,
      false,
      false,
      false,
      true,
      false,
      false,
      false,
    ]);
    expect(r.tomcastAlerts).toEqual(['2026-06-05']);
    expect(r.days.map((d) => d.lateBlightSum)).toEqual([3, 6, 9, 12, 15, 18, 3, 6]);
    expect(r.lateBlightAlerts).toEqual(['2026-06-06']);
    expect(r.days[0]).toEqual({
      date: '2026-06-01',
      hours: 24,
      wetHours: 16,
      meanWetTemperature: 22,
      dsv: 3,
      tomcastSum: 3,
      tomcastAlert: false,
      severityValue: 3,
      lateBlightSum: 3,
      lateBlightAlert: false,
      rain: 0,
    });
    // A higher threshold: 18 is reached on day 6; a sum may pass the threshold.
    const late = diseaseRisk({
      hours: hours(8, 16, 22),
      tomcastThreshold: 16,
      lateBlightThreshold: 10,
    });
    expect(late.days.map((d) => d.tomcastSum)).toEqual([3, 6, 9, 12, 15, 18, 3, 6]);
    expect(late.tomcastAlerts).toEqual(['2026-06-06']);
    expect(late.days.map((d) => d.lateBlightSum)).toEqual([3, 6, 9, 12, 3, 6, 9, 12]);
    expect(late.lateBlightAlerts).toEqual(['2026-06-04', '2026-06-08']);
    expect(TOMCAST_THRESHOLDS).toEqual([15, 16, 17, 18, 19, 20]);
  });

  it('reads the leaf wetness sensor before the 90 % rule, by calendar day', () => {
    const r = diseaseRisk({
      hours: [
        { time: '2026-06-01 22:00', temperature: 18, rh: 89, leafWet: true },
        { time: '2026-06-01T23:00:00', temperature: 20, rh: 90, rain: 1.5 },
        { time: '2026-06-02T00:00', temperature: 15, rh: 95, leafWet: 0 },
        { time: '2026-06-02T01:00', temperature: 15, rh: 89.9, rain: 0.5 },
        { time: '2026-06-02T02:00', temperature: 14, rh: 50, leafWet: 1 },
      ],
    });
    expect(r.days.map((d) => [d.date, d.hours, d.wetHours, d.meanWetTemperature, d.rain])).toEqual([
      ['2026-06-01', 2, 2, 19, 1.5],
      ['2026-06-02', 3, 1, 14, 0.5],
    ]);
    const dry = diseaseRisk({ hours: [{ time: '2026-06-01T00:00', temperature: 20, rh: 40 }] });
    expect(dry.days[0]!.meanWetTemperature).toBeNull();
    expect(dry.days[0]!.dsv).toBe(0);
  });

  it('rounds a mean that is x.5 in decimal but a little less in binary up', () => {
    // (10.5 + 12.9 + 10.7 + 15.9) / 4 = 12.5, computed as 12.499999999999998: 13 °C.
    const temps = [10.5, 12.9, 10.7, 15.9, 13, 13, 13];
    const input = temps.map((temperature, h) => ({
      time: `2026-06-01T0${h}:00`,
      temperature,
      rh: h < 4 ? 95 : 50,
    }));
    const r = diseaseRisk({
      hours: [
        ...input,
        ...hours(1, 3, 15)
          .slice(7)
          .map((x) => ({ ...x, rh: 50 })),
      ],
    });
    expect(r.days[0]!.meanWetTemperature).toBeLessThan(12.5);
    expect(r.days[0]!.wetHours).toBe(4);
    expect(tomcastDsv(7, r.days[0]!.meanWetTemperature)).toBe(1);
  });

  it('refuses bad input, naming the field', () => {
    const good = hours(1, 8, 18);
    const fails = (input: Partial<RiskInput>, field: string, message?: RegExp) => {
      try {
        diseaseRisk({ hours: good, ...input });
        expect.fail('should throw');
      } catch (error) {
        expect(error).toBeInstanceOf(HydraulicsInputError);
        expect((error as HydraulicsInputError).field).toBe(field);
        if (message) expect((error as Error).message).toMatch(message);
      }
    };
    const patch = (i: number, change: Partial<HourInput>) =>
      good.map((h, j) => (j === i ? { ...h, ...change } : h));
    fails({ hours: [] }, 'hours', /1 to 8784/);
    fails({ hours: patch(3, { rh: 150 }) }, 'hours[3].rh', /^rh must be between 0 and 100 %$/);
    fails({ hours: patch(3, { rh: -1 }) }, 'hours[3].rh');
    fails({ hours: patch(2, { temperature: 61 }) }, 'hours[2].temperature', /-40 and 60/);
    fails({ hours: patch(2, { leafWet: 2 as never }) }, 'hours[2].leafWet');
    fails({ hours: patch(2, { rain: -1 }) }, 'hours[2].rain');
    fails({ hours: patch(0, { time: '2026-06-01 24:00' }) }, 'hours[0].time', /YYYY-MM-DDTHH:mm/);
    fails({ hours: patch(0, { time: '01/06/2026 00:00' }) }, 'hours[0].time');
    fails(
      { hours: patch(5, { time: '2026-06-01T06:00' }) },
      'hours[5].time',
      /^expected 2026-06-01T05:00, one hour after 2026-06-01T04:00$/,
    );
    fails({ hours: [good[1]!, good[0]!] }, 'hours[1].time', /expected 2026-06-01T02:00/);
    fails({ tomcastThreshold: 14 }, 'tomcastThreshold', /from 15 to 20/);
    fails({ tomcastThreshold: 15.5 }, 'tomcastThreshold');
    fails({ lateBlightThreshold: 31 }, 'lateBlightThreshold', /from 10 to 30/);
  });

  it('has a zod schema for the CLI (a null leafWet is no reading)', () => {
    const parsed = riskInputSchema.parse({
      hours: [{ time: '2026-06-01T00:00', temperature: 20, rh: 95, leafWet: null }],
    });
    expect(parsed.hours[0]!.leafWet).toBeUndefined();
    expect(diseaseRisk(parsed).days[0]!.wetHours).toBe(1);
    expect(
      riskInputSchema.safeParse({ hours: [{ time: 'x', temperature: 1, rh: 1, leafWet: 2 }] })
        .success,
    ).toBe(false);
  });
});

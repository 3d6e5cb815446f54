/**
 * The worked examples of FAO-56 chapters 3 and 4 (Allen et al. 1998) that the engine covers. Each
 * value is compared with the figure FAO-56 prints, to the decimals it prints (a printed 3.9 admits
 * 3.85 to 3.95): the engine is never rounded, FAO-56 rounds every intermediate.
 */
import { describe, expect, it } from 'vitest';
import { HydraulicsInputError } from './errors';
import {
  atmosphericPressure,
  clearSkyRadiation,
  daylightHours,
  extraterrestrialRadiation,
  hargreaves,
  inverseRelativeDistance,
  meanSaturationVapourPressure,
  monthDayOfYear,
  monthlySoilHeatFlux,
  netLongwaveRadiation,
  netShortwaveRadiation,
  psychrometricConstant,
  referenceEvapotranspiration,
  saturationVapourPressure,
  solarDeclination,
  solarRadiationFromSunshine,
  sunsetHourAngle,
  windSpeedAt2m,
  RADIATION_TO_EVAPORATION,
  type Et0Input,
} from './evapotranspiration';
import { expectRelative } from './test-helpers';
import { FAO56_EXAMPLE_18 } from './worked-examples';

/** |actual − printed| ≤ half a unit of the printed value's last decimal. */
function expectPrinted(actual: number | null, printed: number, decimals: number): void {
  expect(actual).not.toBeNull();
  const allowed = 0.5 * 10 ** -decimals + 1e-12;
  if (Math.abs((actual as number) - printed) > allowed) {
    expect.fail(`${String(actual)} does not round to ${printed} (${decimals} decimals)`);
  }
}

const rad = (degrees: number) => (degrees * Math.PI) / 180;

/** FAO-56 Example 18: Brussels, 6 July. Wind 10 km/h at 10 m. */
const BRUSSELS = FAO56_EXAMPLE_18;

/** FAO-56 Example 17: Bangkok, April (monthly means), ea and u2 measured, March 29.2 °C. */
const BANGKOK: Et0Input = {
  method: 'penman-monteith',
  period: 'month',
  latitude: 13 + 44 / 60,
  altitude: 2,
  dayOfYear: monthDayOfYear(4),
  tmax: 34.8,
  tmin: 25.6,
  ea: 2.85,
  windSpeed: 2,
  windHeight: 2,
  sunshineHours: 8.5,
  tPrevious: 29.2,
};

describe('FAO-56 Example 18: daily ET0, Brussels, 6 July', () => {
  const r = referenceEvapotranspiration(BRUSSELS);

  it('gives ET0 3.88 mm/day (FAO-56 prints 3.9)', () => {
    expectPrinted(r.et0, 3.88, 2);
    expectPrinted(r.et0, 3.9, 1);
  });

  it('gives the intermediates of the example', () => {
    expectPrinted(r.Ra, 41.09, 2);
    expectPrinted(r.Rso, 30.9, 2);
    expectPrinted(r.Rn, 13.28, 2);
    expectPrinted(r.u2, 2.078, 3);
    expectPrinted(r.tmean, 16.9, 1);
    expectPrinted(r.delta, 0.122, 3);
    expectPrinted(r.pressure, 100.1, 1);
    expectPrinted(r.gamma, 0.0666, 4);
    expectPrinted(r.es, 1.997, 3);
    expectPrinted(r.ea, 1.409, 3);
    expectPrinted(r.es! - r.ea!, 0.589, 3);
    expectPrinted(r.dr, 0.967, 3);
    expectPrinted(r.declination, 0.395, 3);
    expectPrinted(r.N, 16.1, 1);
    expectPrinted(r.Rs, 22.07, 2);
    expectPrinted(r.Rns, 17.0, 2);
    expectPrinted(r.Rnl, 3.71, 2);
    expect(r.G).toBe(0);
    expect(r.humidity).toBe('rhmax-rhmin');
  });
});

describe('FAO-56 Example 17: monthly ET0, Bangkok, April', () => {
  const r = referenceEvapotranspiration(BANGKOK);

  it('gives 5.72 mm/day within 0.05', () => {
    expect(Math.abs(r.et0 - 5.72)).toBeLessThanOrEqual(0.05);
    expectPrinted(r.et0, 5.72, 2);
  });

  it('gives the intermediates of the example', () => {
    expect(r.dr).toBe(inverseRelativeDistance(105));
    expectPrinted(r.delta, 0.246, 3);
    expectPrinted(r.pressure, 101.3, 1);
    // FAO-56 computes γ from P as printed: 0.000665 · 101.3 = 0.0674 (from 101.276: 0.06735).
    expectPrinted(psychrometricConstant(101.3), 0.0674, 4);
    expectPrinted(r.gamma, 0.067, 3);
    expectPrinted(r.es, 4.42, 2);
    expect(r.ea).toBe(2.85);
    expect(r.u2).toBe(2);
    expectPrinted(r.Ra, 38.06, 2);
    expectPrinted(r.N, 12.31, 2);
    expectPrinted(r.Rs, 22.65, 2);
    expectPrinted(r.Rso, 28.54, 2);
    expectPrinted(r.Rns, 17.44, 2);
    expectPrinted(r.Rnl, 3.11, 2);
    expectPrinted(r.Rn, 14.33, 2);
    expectPrinted(r.G, 0.14, 2);
  });

  it('uses eq. 43 when the next month is known', () => {
    const next = referenceEvapotranspiration({ ...BANGKOK, tNext: 29.6 });
    expectRelative(next.G, 0.07 * (29.6 - 29.2));
    expect(next.et0).toBeGreaterThan(r.et0);
  });
});

describe('FAO-56 chapter 3 examples', () => {
  it('Example 2: P and γ at 1800 m', () => {
    const p = atmosphericPressure(1800);
    expectPrinted(p, 81.8, 1);
    expectPrinted(psychrometricConstant(p), 0.054, 3);
  });

  it('Example 3: e°(Tmax), e°(Tmin) and es for 24.5 and 15 °C', () => {
    expectPrinted(saturationVapourPressure(24.5), 3.075, 3);
    expectPrinted(saturationVapourPressure(15), 1.705, 3);
    expectPrinted(meanSaturationVapourPressure(24.5, 15), 2.39, 2);
  });

  it('Examples 5 and 6: ea from RHmax and RHmin, RHmax only, RHmean; the deficit', () => {
    const day = { ...BRUSSELS, tmax: 25, tmin: 18 };
    delete day.rhmax;
    delete day.rhmin;
    const both = referenceEvapotranspiration({ ...day, rhmax: 82, rhmin: 54 });
    expectPrinted(saturationVapourPressure(18), 2.064, 3);
    expectPrinted(saturationVapourPressure(25), 3.168, 3);
    expectPrinted(both.ea, 1.7, 2);
    expectPrinted(referenceEvapotranspiration({ ...day, rhmax: 82 }).ea, 1.69, 2);
    const mean = referenceEvapotranspiration({ ...day, rhmean: 68 });
    expectPrinted(mean.ea, 1.78, 2);
    expect(mean.humidity).toBe('rhmean');
    expectPrinted(both.es! - both.ea!, 0.91, 2);
  });

  it('eq. 14: ea is e° at the dew point', () => {
    const day = { ...BRUSSELS, rhmax: undefined, rhmin: undefined, tdew: 10 };
    const r = referenceEvapotranspiration(day);
    expect(r.ea).toBe(saturationVapourPressure(10));
    expect(r.humidity).toBe('tdew');
  });

  it('Examples 8 and 9: Ra and N on 3 September at 20° S', () => {
    const J = 246;
    const phi = rad(-20);
    const delta = solarDeclination(J);
    const ws = sunsetHourAngle(phi, delta);
    expectPrinted(inverseRelativeDistance(J), 0.985, 3);
    expectPrinted(delta, 0.12, 3);
    expectPrinted(ws, 1.527, 3);
    const ra = extraterrestrialRadiation(phi, J);
    expectPrinted(ra, 32.2, 1);
    expectPrinted(RADIATION_TO_EVAPORATION * ra, 13.1, 1);
    expectPrinted(daylightHours(ws), 11.7, 1);
  });

  it('Example 10: Rs from 220 hours of sunshine in May, Rio de Janeiro', () => {
    const J = monthDayOfYear(5);
    expect(J).toBe(135);
    const phi = rad(-(22 + 54 / 60));
    const ra = extraterrestrialRadiation(phi, J);
    const n = daylightHours(sunsetHourAngle(phi, solarDeclination(J)));
    expectPrinted(ra, 25.1, 1);
    expectPrinted(n, 10.9, 1);
    expectPrinted(solarRadiationFromSunshine(220 / 31, n, ra), 14.5, 1);
    expectPrinted(clearSkyRadiation(0, ra), 18.8, 1);
  });

  it('Examples 11 and 12: Rnl and Rn, Rio de Janeiro in May', () => {
    const rnl = netLongwaveRadiation(25.1, 19.1, 2.1, 14.5, 18.8);
    expectPrinted(rnl, 3.5, 1);
    // Rs of Example 10 before rounding (14.46): Rns = 0.77 · 14.46 = 11.1, Rn = 11.1 − 3.5 = 7.6.
    const phi = rad(-(22 + 54 / 60));
    const ra = extraterrestrialRadiation(phi, 135);
    const rs = solarRadiationFromSunshine(
      220 / 31,
      daylightHours(sunsetHourAngle(phi, solarDeclination(135))),
      ra,
    );
    expectPrinted(netShortwaveRadiation(rs), 11.1, 1);
    expectPrinted(netShortwaveRadiation(rs) - rnl, 7.6, 1);
  });

  it('Rnl caps Rs/Rso at 1', () => {
    expect(netLongwaveRadiation(25, 15, 2, 30, 20)).toBe(netLongwaveRadiation(25, 15, 2, 20, 20));
  });

  it('Example 13: G of April from March, April and May', () => {
    expectPrinted(monthlySoilHeatFlux(16.1, 14.1, 18.8), 0.33, 2);
    expectPrinted(monthlySoilHeatFlux(16.1, 14.1), 0.28, 2);
  });

  it('Example 14: u2 from 3.2 m/s at 10 m; a 2 m reading is u2 itself', () => {
    expectPrinted(windSpeedAt2m(3.2, 10), 2.4, 1);
    expect(windSpeedAt2m(3.2, 2)).toBe(3.2);
  });

  it('the 15th of each month of a common year', () => {
    expect([1, 2, 3, 12].map(monthDayOfYear)).toEqual([15, 46, 74, 349]);
    expect(() => monthDayOfYear(13)).toThrow(HydraulicsInputError);
  });
});

describe('Hargreaves (eq. 52)', () => {
  // By hand (bc -l): ET0 = 0.0023 · (Tmean + 17.8) · √(Tmax − Tmin) · 0.408 · Ra.
  // Tmax 30, Tmin 15, Ra 35: 0.0023 · 40.3 · √15 · 0.408 · 35
  //   = 0.09269 · 3.872983346207417 · 14.28 = 5.126331880420307 mm/day.
  it('matches the hand computation for Tmax 30, Tmin 15, Ra 35 MJ', () => {
    expectRelative(hargreaves(30, 15, 35), 5.126331880420307, 1e-12);
  });

  // Brussels, 6 July (Example 18's day and temperatures, Ra = 41.08837556354228 from eq. 21):
  //   0.0023 · (16.9 + 17.8) · √9.2 · 0.408 · 41.08837556354228
  //   = 0.07981 · 3.03315017762062 · 16.76405722992525 = 4.058171151565929 mm/day.
  it('matches the hand computation for Example 18 temperatures', () => {
    const { Ra, tmax, tmin, latitude, dayOfYear, method } = {
      ...BRUSSELS,
      Ra: 41.08837556354228,
      method: 'hargreaves' as const,
    };
    const r = referenceEvapotranspiration({
      method,
      period: 'day',
      latitude,
      dayOfYear,
      tmax,
      tmin,
    });
    expectRelative(r.Ra, Ra, 1e-12);
    expectRelative(r.et0, 4.058171151565929, 1e-12);
    expect(r.Rn).toBeNull();
    expect(r.u2).toBeNull();
    expect(r.ea).toBeNull();
  });
});

describe('bad input names the field', () => {
  const fails = (input: Partial<Et0Input>, field: string, message?: RegExp) => {
    try {
      referenceEvapotranspiration({ ...BRUSSELS, ...input } as Et0Input);
      expect.fail('should throw');
    } catch (error) {
      expect(error).toBeInstanceOf(HydraulicsInputError);
      expect((error as HydraulicsInputError).field).toBe(field);
      if (message) expect((error as Error).message).toMatch(message);
    }
  };

  it('ranges', () => {
    fails({ latitude: 70 }, 'latitude', /between -66 and 66 degrees/);
    fails({ dayOfYear: 0 }, 'dayOfYear');
    fails({ dayOfYear: 12.5 }, 'dayOfYear', /whole number/);
    fails({ tmin: 25 }, 'tmin', /greater than tmax/);
    fails({ rhmax: 101 }, 'rhmax');
    fails({ rhmin: 90 }, 'rhmin', /greater than rhmax/);
    fails({ windSpeed: -1 }, 'windSpeed');
    fails({ windHeight: 0.1 }, 'windHeight');
    fails({ sunshineHours: 17 }, 'sunshineHours', /N = 16\.10 h/);
    fails({ altitude: Number.NaN }, 'altitude', /must be a number/);
  });

  it('what Penman-Monteith needs', () => {
    fails({ altitude: undefined }, 'altitude', /required with penman-monteith/);
    fails({ windSpeed: undefined }, 'windSpeed', /required/);
    fails({ sunshineHours: undefined }, 'sunshineHours', /required/);
    fails({ solarRadiation: 20 }, 'solarRadiation', /not both/);
    fails({ rhmax: undefined, rhmin: undefined }, 'rhmax', /give the humidity/);
    fails({ rhmax: undefined }, 'rhmax', /rhmin needs rhmax/);
    fails({ rhmean: 70 }, 'rhmean', /one humidity measure only/);
    fails({ period: 'month' }, 'tPrevious', /required with a month/);
  });

  it('measured solar radiation', () => {
    const r = referenceEvapotranspiration({
      ...BRUSSELS,
      sunshineHours: undefined,
      solarRadiation: 22.07205161436855,
    });
    expectPrinted(r.et0, 3.88, 2);
    fails({ sunshineHours: undefined, solarRadiation: 50 }, 'solarRadiation', /Ra = 41\.09/);
  });
});

/**
 * The worked examples the scheduling engine is checked against, shared by its unit, CLI and
 * browser tests: FAO-56 Example 18 and a drip schedule for tomato.
 */
import type { Et0Input } from './evapotranspiration';
import type { ScheduleInput } from './schedule';

/**
 * FAO-56 Example 18: Brussels (50°48' N, 100 m), 6 July; Tmax 21.5 °C, Tmin 12.3 °C, RHmax 84 %,
 * RHmin 63 %, wind 10 km/h measured at 10 m, 9.25 hours of sunshine. FAO-56 prints ET0 3.9
 * mm/day (3.88 unrounded), Ra 41.09, Rso 30.90, Rn 13.28 MJ/m²/day and u2 2.078 m/s.
 */
export const FAO56_EXAMPLE_18: Et0Input = {
  method: 'penman-monteith',
  period: 'day',
  latitude: 50 + 48 / 60,
  altitude: 100,
  dayOfYear: 187,
  tmax: 21.5,
  tmin: 12.3,
  rhmax: 84,
  rhmin: 63,
  windSpeed: 10 / 3.6,
  windHeight: 10,
  sunshineHours: 9.25,
};

/**
 * A drip schedule: ET0 5.0 mm/day, Kc 1.15, emitters of 1.6 L/h every 0.30 m, laterals 1.5 m
 * apart, EU 90 %, 20 hours available: ETc 5.75 mm/day, gross depth 6.389 mm/day, 3.556 mm/h,
 * 1.797 h per sector, 11 sectors.
 */
export const DRIP_EXAMPLE: ScheduleInput = {
  et0: 5,
  kc: 1.15,
  emitterFlow: 1.6,
  emitterSpacing: 0.3,
  lateralSpacing: 1.5,
  eu: 90,
  hoursAvailable: 20,
};

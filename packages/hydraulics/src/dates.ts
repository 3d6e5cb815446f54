/**
 * Calendar helpers of the water balance, the disease risk and the weather import: ISO dates
 * (`YYYY-MM-DD`) and naive local times (`YYYY-MM-DDTHH:mm`), read and written with UTC arithmetic
 * so that a daylight-saving change never adds or removes an hour or a day.
 */

const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::00)?$/;

function utc(year: number, month: number, day: number, hour = 0, minute = 0): number | null {
  const ms = Date.UTC(year, month - 1, day, hour, minute);
  const d = new Date(ms);
  // Date.UTC rolls 2026-02-30 over to 2026-03-02: a real date reads back the same.
  if (
    year < 1 ||
    d.getUTCFullYear() !== year ||
    d.getUTCMonth() !== month - 1 ||
    d.getUTCDate() !== day ||
    hour > 23 ||
    minute > 59
  ) {
    return null;
  }
  return ms;
}

/** Days since 1970-01-01 of an ISO date `YYYY-MM-DD`, or null when it is not a real date. */
export function isoDay(text: string): number | null {
  const m = ISO_DATE.exec(text);
  if (!m) return null;
  const ms = utc(Number(m[1]), Number(m[2]), Number(m[3]));
  return ms === null ? null : ms / DAY_MS;
}

/** The ISO date `YYYY-MM-DD` of a day number of `isoDay`. */
export function isoDate(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** Day of the year J (1-366) of a day number of `isoDay`. */
export function dayOfYear(day: number): number {
  const year = new Date(day * DAY_MS).getUTCFullYear();
  return day - Date.UTC(year, 0, 1) / DAY_MS + 1;
}

/**
 * Milliseconds (UTC arithmetic) of a naive local time `YYYY-MM-DDTHH:mm` (a space for the T and
 * `:00` seconds are accepted too), or null when it is not a real time.
 */
export function localTimeMs(text: string): number | null {
  const m = LOCAL_TIME.exec(text);
  if (!m) return null;
  return utc(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]));
}

/** `YYYY-MM-DDTHH:mm` of milliseconds of `localTimeMs`. */
export function localTimeText(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16);
}

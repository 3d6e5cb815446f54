/**
 * Parsing and formatting helpers for raw form strings. Inputs accept a decimal point or a decimal
 * comma ("1,5" = 1.5); thousands separators are not accepted. A lone comma followed by exactly three
 * digits ("1,000", "2,500") is refused as ambiguous: in Mexico, where the screens group thousands
 * with a comma ("3,600"), it means a thousand times more than in Spain or Argentina.
 */

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const INTEGER = /^[+-]?\d+$/;
const UNSIGNED_THREE_DECIMALS = /^(\d+(\.\d{0,3})?|\.\d{1,3})$/;
/** One to three digits, not starting with 0, a comma, three digits: a thousands group or a decimal comma. */
const AMBIGUOUS_COMMA = /^[+-]?[1-9]\d{0,2},\d{3}$/;

/**
 * The two readings of a raw string that reads both as a thousands group and as a decimal comma
 * ("2,500": 2500 in es-MX, 2.5 in es-ES), or null when it is not such a string. The parsers refuse
 * it and the screens say why, with both readings.
 */
export function ambiguousCommaReadings(
  raw: string | null | undefined,
): { thousands: number; decimal: number } | null {
  const text = typeof raw === 'string' ? raw.trim() : '';
  if (!AMBIGUOUS_COMMA.test(text)) return null;
  return { thousands: Number(text.replace(',', '')), decimal: Number(text.replace(',', '.')) };
}

/** True when the raw string is a number of the kind `ambiguousCommaReadings` describes. */
export function isAmbiguousComma(raw: string | null | undefined): boolean {
  return ambiguousCommaReadings(raw) !== null;
}

function normalise(raw: string): string {
  const trimmed = raw.trim();
  return trimmed.includes('.') ? trimmed : trimmed.replace(',', '.');
}

/** True when the raw string is empty or only blanks. */
export function isBlank(raw: string | null | undefined): boolean {
  return raw === null || raw === undefined || raw.trim() === '';
}

/** A decimal number from a raw string, or null when it is not one. */
export function parseDecimal(raw: string): number | null {
  if (isAmbiguousComma(raw)) return null;
  const text = normalise(raw);
  if (!DECIMAL.test(text)) return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/** An integer from a raw string ("3", "+3", "-1"), or null when it is not one. */
export function parseInteger(raw: string): number | null {
  const text = raw.trim();
  if (!INTEGER.test(text)) return null;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : null;
}

/**
 * A non-negative number written with digits and at most three decimals ("12", "0.125", "3,5",
 * "0,125"), or null (the main-line flow and length rule of the specification).
 */
export function parseThreeDecimals(raw: string): number | null {
  if (isAmbiguousComma(raw)) return null;
  const text = normalise(raw);
  return UNSIGNED_THREE_DECIMALS.test(text) ? Number(text) : null;
}

/**
 * Default formatting of numbers inside status messages ('HF:x < HFp:y'): at most three decimals
 * (`digits`), no trailing zeros; values under 0.001 keep three significant digits instead of becoming 0. The
 * engine's numeric results are never rounded; screens may pass their own (Intl) formatter to the
 * design functions instead.
 */
export function formatMessageNumber(value: number, digits = 3): string {
  if (value !== 0 && Math.abs(value) < 10 ** -digits) {
    return String(Number(value.toPrecision(3)));
  }
  return String(Number(value.toFixed(digits)));
}

/** mm → m as the correctly rounded decimal (81.6 mm → 0.0816, not 81.6 / 1000 = 0.08159999999999999). */
export function millimetresToMetres(mm: number): number {
  return Number(`${mm}e-3`);
}

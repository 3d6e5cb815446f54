/**
 * Every number field of the tools has a physical range (`FieldSpec`). What is typed in a field gets
 * one message on that field: required, not a number, out of range (with a hint when the value
 * fits another unit: "16" for a diameter in metres reads "¿16 mm? …: 0.016") or not whole. A form
 * with a message shows no result. Pure (no React, no browser).
 */
import { MAX_KC, MAX_LATITUDE, parseDecimal, type CropStages } from '@diagrodl/hydraulics';

/**
 * A number field: its unit, its physical range, whether it must be whole, and the unit a typed
 * value may have been meant in (`other`: the factor from that unit to the field's, and its name).
 */
export interface FieldSpec {
  unit: string;
  min: number;
  max: number;
  integer?: boolean;
  /** May stay blank (then left out of the calculation). */
  optional?: boolean;
  other?: { factor: number; unit: string };
}

/**
 * A field's message: an i18n key and its values (`fallback`: an engine's own text for a key with
 * none), or a text shown as it is (the specification's alerts, word for word).
 */
export type FieldMessage =
  { key: string; values?: Record<string, string | number>; fallback?: string } | { text: string };

/** The messages of a form, by field. */
export type FieldErrors<K extends string = string> = Partial<Record<K, FieldMessage>>;

/** Where the messages of this file are in the locales. */
const MESSAGES = 'numberInput';

/** Formats a number for a message (no grouping, at most 3 decimals; powers of ten as 1e12). */
export function plainNumber(value: number): string {
  if (Math.abs(value) >= 1e7) return value.toExponential().replace('e+', 'e');
  return String(Number(value.toFixed(3)));
}

/** The message for a number outside its field's range or not whole; null when it fits. */
export function checkValue(
  spec: FieldSpec,
  value: number,
  typed = String(value),
): FieldMessage | null {
  const range = { min: plainNumber(spec.min), max: plainNumber(spec.max), unit: spec.unit };
  if (!Number.isFinite(value)) return { key: `${MESSAGES}.notANumber` };
  if (value < spec.min || value > spec.max) {
    const other = spec.other;
    const converted = other ? value * other.factor : Number.NaN;
    if (other && converted >= spec.min && converted <= spec.max) {
      return {
        key: `${MESSAGES}.otherUnit`,
        values: {
          typed: typed.trim(),
          other: other.unit,
          converted: plainNumber(converted),
          unit: spec.unit,
        },
      };
    }
    return { key: `${MESSAGES}.${spec.unit ? 'range' : 'rangeNoUnit'}`, values: range };
  }
  if (spec.integer && !Number.isInteger(value)) {
    return { key: `${MESSAGES}.integer`, values: range };
  }
  return null;
}

/** The number typed in a field, or its message. */
export function checkField(
  spec: FieldSpec,
  text: string,
): { value: number } | { error: FieldMessage } {
  if (text.trim() === '') return { error: { key: `${MESSAGES}.required` } };
  const value = parseDecimal(text);
  if (value === null) return { error: { key: `${MESSAGES}.notANumber` } };
  const error = checkValue(spec, value, text);
  return error ? { error } : { value };
}

/**
 * The numbers of `keys` (an optional field left blank is left out), and every message at once.
 */
export function checkFields<K extends string>(
  specs: Readonly<Record<K, FieldSpec>>,
  raw: Readonly<Record<K, string>>,
  keys: readonly K[],
): { values: Partial<Record<K, number>>; errors: FieldErrors<K> } {
  const values: Partial<Record<K, number>> = {};
  const errors: FieldErrors<K> = {};
  for (const key of keys) {
    const spec = specs[key];
    if (spec.optional && raw[key].trim() === '') continue;
    const checked = checkField(spec, raw[key]);
    if ('error' in checked) errors[key] = checked.error;
    else values[key] = checked.value;
  }
  return { values, errors };
}

/** The messages for numbers already read (a saved calculation): those outside their ranges. */
export function checkValues<K extends string>(
  specs: Readonly<Partial<Record<K, FieldSpec>>>,
  values: Readonly<Partial<Record<K, number>>>,
): FieldErrors<K> {
  const errors: FieldErrors<K> = {};
  for (const [key, value] of Object.entries(values) as [K, number | undefined][]) {
    const spec = specs[key];
    if (!spec || value === undefined) continue;
    const error = checkValue(spec, value);
    if (error) errors[key] = error;
  }
  return errors;
}

/** The number of fields with a message. */
export const errorCount = (errors: FieldErrors): number =>
  Object.values(errors).filter(Boolean).length;

/** A message's text: its key's in the language (or the engine's fallback), or the text itself. */
export function messageText(
  message: FieldMessage | null | undefined,
  t: (key: string, options?: Record<string, unknown>) => string,
): string | null {
  if (!message) return null;
  if ('text' in message) return message.text;
  return t(message.key, {
    ...message.values,
    ...(message.fallback === undefined ? {} : { defaultValue: message.fallback }),
  });
}

/** Units a value may have been typed in, with the factor to the field's. */
export const PERCENT = { factor: 0.01, unit: '%' };
export const CENTIMETRES = { factor: 0.01, unit: 'cm' };
export const MILLIMETRES = { factor: 0.001, unit: 'mm' };

/** A crop stage's length and a crop coefficient (FAO-56). */
const STAGE_LENGTH: FieldSpec = { unit: 'd', min: 1, max: 365, integer: true };
export const KC: FieldSpec = { unit: '', min: 0.1, max: MAX_KC };

/** A crop's four stage lengths and its three Kc (the scheduling screen and the season calendar). */
export const STAGE_FIELDS = {
  initial: STAGE_LENGTH,
  development: STAGE_LENGTH,
  midSeason: STAGE_LENGTH,
  late: STAGE_LENGTH,
  kcIni: KC,
  kcMid: KC,
  kcEnd: KC,
} as const satisfies Record<keyof CropStages, FieldSpec>;

/**
 * The fields several tools share (the lateral, the scheduling screen and the season calendar):
 * the site and the drip layout.
 */
export const SHARED_FIELDS = {
  latitude: { unit: '°', min: -MAX_LATITUDE, max: MAX_LATITUDE },
  altitude: { unit: 'm', min: -430, max: 5000 },
  emitterFlow: { unit: 'L/h', min: 0.1, max: 100 },
  emitterSpacing: { unit: 'm', min: 0.05, max: 10, other: CENTIMETRES },
  lateralSpacing: { unit: 'm', min: 0.1, max: 20, other: CENTIMETRES },
  eu: { unit: '%', min: 50, max: 100 },
  leachingFraction: { unit: '', min: 0, max: 0.9, other: PERCENT },
  hoursAvailable: { unit: 'h', min: 0.5, max: 24 },
} as const satisfies Record<string, FieldSpec>;

/**
 * Raised by the engine when an input cannot be computed with (a missing or non-positive diameter,
 * an unknown unit, ...). `field` names the offending input, `message` says why; where the
 * specification has a message for the case, it is used word for word.
 */
export class HydraulicsInputError extends Error {
  readonly field: string;

  constructor(field: string, message: string) {
    super(message);
    this.name = 'HydraulicsInputError';
    this.field = field;
  }
}

/** Result of validating raw form strings: the parsed values, or the first failing field. */
export type ValidationResult<T> =
  { ok: true; value: T } | { ok: false; field: string; message: string };

/**
 * The type every table of server messages uses for its English twin. It imports nothing, so the
 * files that declare message tables (accounts, contact, device, diagnosis, login, registration,
 * server-messages) take it from here, and localize.ts, which imports their tables, is imported
 * by none of them: the package has no import circle.
 */

/** A table's English twin: the same keys; a function message's twin takes the same arguments. */
export type EnglishTwin<T> = {
  readonly [K in keyof T]: T[K] extends (...args: infer A) => string
    ? (...args: A) => string
    : T[K] extends string
      ? string
      : EnglishTwin<T[K]>;
};

import { expect } from 'vitest';

/** Asserts |actual − expected| <= tolerance × |expected| (relative comparison). */
export function expectRelative(
  actual: number | null | undefined,
  expected: number,
  tolerance = 1e-12,
): void {
  expect(actual).not.toBeNull();
  expect(actual).not.toBeUndefined();
  const error = Math.abs((actual as number) - expected);
  const allowed = tolerance * Math.abs(expected);
  if (error > allowed) {
    expect.fail(`expected ${String(actual)} to equal ${expected} within ${tolerance} relative`);
  }
}

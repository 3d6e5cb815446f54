import crypto from 'node:crypto';

// No look-alikes (0/O, 1/l/I) so that a password read from an e-mail can be typed.
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const LOWER = 'abcdefghijkmnopqrstuvwxyz';
const DIGITS = '23456789';
const SYMBOLS = '#%+-=?';
const ALL = UPPER + LOWER + DIGITS + SYMBOLS;

const pick = (set: string): string => set[crypto.randomInt(set.length)]!;

/**
 * A strong random password (16 characters, about 95 bits) with at least one upper-case letter,
 * lower-case letter, digit and symbol; it passes the password rule of the change form.
 */
export function generatePassword(length = 16): string {
  const chars = [pick(UPPER), pick(LOWER), pick(DIGITS), pick(SYMBOLS)];
  while (chars.length < length) chars.push(pick(ALL));
  for (let i = chars.length - 1; i > 0; i -= 1) {
    const j = crypto.randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}

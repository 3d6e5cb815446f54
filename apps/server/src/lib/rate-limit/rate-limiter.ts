import { sha256 } from '../tokens.ts';
import { HttpError } from '../errors.ts';
import type { RateLimitRepository } from './rate-limit.repository.ts';

/** At most `max` counted events per `windowSeconds` for one key. */
export interface RateRule {
  name: string;
  max: number;
  windowSeconds: number;
}

/** The limits of the account and contact flows. */
export const RATE_RULES = {
  /** Failed logins for one user name. */
  loginPerUser: { name: 'login-user', max: 5, windowSeconds: 15 * 60 },
  /** Failed logins from one IP address (any user names). */
  loginPerIp: { name: 'login-ip', max: 20, windowSeconds: 15 * 60 },
  /** Wrong current passwords when changing the password. */
  changePerUser: { name: 'pw-change', max: 5, windowSeconds: 15 * 60 },
  /** Accounts created from one IP address (each sends a mail). */
  registerPerIp: { name: 'register-ip', max: 10, windowSeconds: 60 * 60 },
  /** Reset-link requests from one IP address. */
  resetPerIp: { name: 'reset-ip', max: 5, windowSeconds: 60 * 60 },
  /** Reset mails sent to one address (beyond this, silently none). */
  resetPerEmail: { name: 'reset-email', max: 3, windowSeconds: 60 * 60 },
  /** Contact messages from one IP address. */
  contactPerIp: { name: 'contact-ip', max: 5, windowSeconds: 10 * 60 },
} as const satisfies Record<string, RateRule>;

/**
 * Fixed-window counters kept in the database, so that several server processes share them.
 * Keys are hashed: a 10 kB user name costs the table 64 characters.
 */
export class RateLimiter {
  private sweeps = 0;
  constructor(
    private readonly repo: RateLimitRepository,
    private readonly now: () => number = () => Date.now(),
  ) {}

  private bucket(rule: RateRule, key: string): string {
    return `${rule.name}:${sha256(key)}`;
  }

  /**
   * Counts one attempt for the key *before* it is checked, and says whether it may go on: 0 when
   * it is within the rule, else the seconds until the key may try again. The count is one
   * statement, so of any number of concurrent attempts at most `max` go on (a check, then a
   * count, would let them all through). The only way to check a limit: an attempt that is not to
   * count (a success, where only failures count, or the reverse) is then `reset` or `untake`n.
   */
  async take(rule: RateRule, key: string): Promise<number> {
    const now = this.now();
    const row = await this.count(rule, key);
    if (row.hits <= rule.max) return 0;
    return Math.max(1, Math.ceil((Date.parse(row.window_end) - now) / 1000));
  }

  /** Takes back one attempt counted by `take` (one that is not to count against the key). */
  async untake(rule: RateRule, key: string): Promise<void> {
    await this.repo.unhit(this.bucket(rule, key));
  }

  private async count(rule: RateRule, key: string): Promise<{ hits: number; window_end: string }> {
    const now = this.now();
    const row = await this.repo.hit(
      this.bucket(rule, key),
      new Date(now).toISOString(),
      new Date(now + rule.windowSeconds * 1000).toISOString(),
    );
    this.sweeps += 1;
    if (this.sweeps % 200 === 0) await this.repo.deleteExpired(new Date(now).toISOString());
    return row;
  }

  async reset(rule: RateRule, key: string): Promise<void> {
    await this.repo.delete(this.bucket(rule, key));
  }

  /** `take`, throwing 429 with the Spanish message and Retry-After when the key is over the rule. */
  async takeOrRefuse(
    rule: RateRule,
    key: string,
    message: (seconds: number) => string,
  ): Promise<void> {
    const seconds = await this.take(rule, key);
    if (seconds > 0) throw tooMany(seconds, message);
  }
}

export function tooMany(seconds: number, message: (seconds: number) => string): HttpError {
  return new HttpError(429, message(seconds), { 'Retry-After': String(seconds) });
}

import {
  AUTH_MESSAGES,
  type BodyOf,
  type ENDPOINTS,
  RATE_LIMIT_MESSAGES,
} from '@diagrodl/contracts';
import { HttpError } from '../../lib/errors.ts';
import { verifyPassword } from '../users/passwords.ts';
import { RATE_RULES, type RateLimiter, tooMany } from '../../lib/rate-limit/rate-limiter.ts';
import type { UserRepository, UserRow } from '../users/user.repository.ts';

/** Longer than any user name or password the forms accept: refused like a wrong password. */
const MAX_USERNAME = 200;
const MAX_PASSWORD = 1000;

/**
 * Login rules: one generic message on failure, constant-time comparison (a dummy hash is
 * verified for unknown users), and failed attempts limited per user name and per IP (each
 * attempt counted before its password is checked).
 */
export class AuthService {
  readonly messages = AUTH_MESSAGES;
  constructor(
    private readonly users: UserRepository,
    private readonly limiter: RateLimiter,
  ) {}

  /** `body` passed the login's request schema: a user name and a password, neither empty. */
  async login(body: BodyOf<typeof ENDPOINTS.login>, ip: string): Promise<UserRow> {
    const userName = body.username.trim().slice(0, MAX_USERNAME + 1);
    const userKey = userName.toLowerCase();
    // Each attempt is counted before the password is checked (so that concurrent attempts
    // cannot all be checked): the address first, then, if it may go on, the user name. A
    // refused attempt takes its count back from the address.
    const ipWait = await this.limiter.take(RATE_RULES.loginPerIp, ip);
    if (ipWait > 0) throw tooMany(ipWait, RATE_LIMIT_MESSAGES.login);
    const userWait = await this.limiter.take(RATE_RULES.loginPerUser, userKey);
    if (userWait > 0) {
      await this.limiter.untake(RATE_RULES.loginPerIp, ip);
      throw tooMany(userWait, RATE_LIMIT_MESSAGES.login);
    }

    // No account has such a name: these are answered like any unknown user (no lookup).
    const impossible =
      userName.length > MAX_USERNAME ||
      body.password.length > MAX_PASSWORD ||
      // eslint-disable-next-line no-control-regex
      /[\u0000-\u001f\u007f]/.test(userName);
    const user = impossible ? undefined : await this.users.findByUserName(userName);
    const ok = await verifyPassword(user?.password_hash, body.password.slice(0, MAX_PASSWORD));
    if (!user || !ok) throw new HttpError(401, AUTH_MESSAGES.badCredentials);
    // Only failed logins count: a success clears the user name's and gives the address its back.
    await this.limiter.reset(RATE_RULES.loginPerUser, userKey);
    await this.limiter.untake(RATE_RULES.loginPerIp, ip);
    return user;
  }
}

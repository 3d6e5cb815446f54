import {
  RATE_LIMIT_MESSAGES,
  REGISTRATION_SERVER_MESSAGES,
  parseRegistration,
} from '@diagrodl/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { HttpError } from '../../lib/errors.ts';
import { nowIso } from '../../lib/tokens.ts';
import type { MailLanguage } from '../../mail/language.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { hashPassword } from '../users/passwords.ts';
import { RATE_RULES, type RateLimiter, tooMany } from '../../lib/rate-limit/rate-limiter.ts';
import { newUserRow, type UserRepository } from '../users/user.repository.ts';
import { welcomeMail } from '../../mail/templates.ts';
import { generatePassword } from './generate-password.ts';

export interface RegisterContext {
  ip: string;
  /** Base of the links in the mail (PUBLIC_URL or the request origin). */
  base: string;
  /** Language of the page (its `Language` field or Accept-Language): the mail's language. */
  language: MailLanguage;
}

/** True for a unique-constraint violation on SQLite or PostgreSQL. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/**
 * Registration: the shared rules, uniqueness, a generated password stored only as an argon2id
 * hash, and the welcome mail. The account exists only if the mail went out.
 */
export class AccountsService {
  constructor(
    private readonly deps: {
      users: UserRepository;
      mailer: Mailer;
      limiter: RateLimiter;
      providerKey: string;
      providerName: string;
      log: FastifyBaseLogger;
    },
  ) {}

  /** `body`: any JSON object (the registration rules, parseRegistration, come after the limit). */
  async register(body: Record<string, unknown>, ctx: RegisterContext): Promise<string> {
    // Counted before the work (so that concurrent registrations cannot all pass the limit); only
    // accounts created count, so a refused or failed registration takes its count back.
    const { limiter } = this.deps;
    const rule = RATE_RULES.registerPerIp;
    const seconds = await limiter.take(rule, ctx.ip);
    if (seconds > 0) {
      await limiter.untake(rule, ctx.ip);
      throw tooMany(seconds, RATE_LIMIT_MESSAGES.other);
    }
    try {
      return await this.create(body, ctx);
    } catch (err) {
      await limiter.untake(rule, ctx.ip);
      throw err;
    }
  }

  private async create(body: Record<string, unknown>, ctx: RegisterContext): Promise<string> {
    const { users, mailer } = this.deps;
    const parsed = parseRegistration(body, this.deps.providerKey, this.deps.providerName);
    if (!parsed.ok) throw new HttpError(400, parsed.message);
    const r = parsed.value;
    const language = ctx.language;

    const taken = (await users.findByUserName(r.userName)) ?? (await users.findByEmail(r.email));
    if (taken) throw new HttpError(409, REGISTRATION_SERVER_MESSAGES.taken);

    const password = generatePassword();
    const now = nowIso();
    let id: number;
    try {
      id = await users.insert(newUserRow(r, language, await hashPassword(password), now));
    } catch (err) {
      // Two registrations raced for the same name or address.
      if (isUniqueViolation(err)) throw new HttpError(409, REGISTRATION_SERVER_MESSAGES.taken);
      throw err;
    }

    try {
      await mailer.send(
        welcomeMail(
          language,
          { email: r.email, firstName: r.firstName, userName: r.userName },
          password,
          ctx.base,
        ),
      );
    } catch (err) {
      this.deps.log.error({ err, mailer: mailer.describe }, 'welcome mail failed; account removed');
      await users.delete(id);
      throw new HttpError(503, REGISTRATION_SERVER_MESSAGES.mailFailed);
    }
    return REGISTRATION_SERVER_MESSAGES.created(r.email);
  }
}

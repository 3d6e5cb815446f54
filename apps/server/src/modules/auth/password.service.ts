import {
  ACCOUNT_MESSAGES,
  type ChangePasswordBody,
  type ResetConfirmBody,
  type ResetRequestBody,
  PASSWORD_MESSAGES,
  RATE_LIMIT_MESSAGES,
  ROUTES,
  checkNewPassword,
  emailSchema,
} from '@diagrodl/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { HttpError } from '../../lib/errors.ts';
import { nowIso, randomToken, sha256 } from '../../lib/tokens.ts';
import type { MailLanguage } from '../../mail/language.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { resetMail } from '../../mail/templates.ts';
import type { Sessions } from '../session/sessions.ts';
import { hashPassword, verifyPassword } from '../users/passwords.ts';
import type { PasswordResetRepository } from './password-reset.repository.ts';
import { RATE_RULES, type RateLimiter } from '../../lib/rate-limit/rate-limiter.ts';
import type { UserRepository } from '../users/user.repository.ts';

/** A reset link works once and for one hour. */
export const RESET_TTL_MS = 60 * 60 * 1000;

/** Password change (logged-in users) and reset by e-mailed link (anyone). */
export class PasswordService {
  constructor(
    private readonly deps: {
      users: UserRepository;
      resets: PasswordResetRepository;
      sessions: Sessions;
      mailer: Mailer;
      limiter: RateLimiter;
      log: FastifyBaseLogger;
    },
  ) {}

  /** Reset mails on their way (requestReset answers before they are sent). */
  private readonly sending = new Set<Promise<void>>();

  private checkNew(newPassword: string, confirm: string, userName: string): void {
    if (newPassword !== confirm) throw new HttpError(400, ACCOUNT_MESSAGES.mismatch);
    const problem = checkNewPassword(newPassword, userName);
    if (problem) throw new HttpError(400, PASSWORD_MESSAGES[problem]);
  }

  /** Current password + new twice; every other session of the user ends. */
  async change(
    userId: number,
    sessionId: string | null,
    body: ChangePasswordBody,
  ): Promise<string> {
    const { users, limiter } = this.deps;
    const user = await users.findById(userId);
    if (!user) throw new HttpError(401, ACCOUNT_MESSAGES.currentWrong);
    const key = String(userId);
    const current = body.current_password;
    const next = body.new_password;
    if (!current) throw new HttpError(400, ACCOUNT_MESSAGES.currentMissing);
    this.checkNew(next, body.new_password_confirm, user.user_name);
    // Counted before the check, so that concurrent tries cannot all be checked; a right one
    // takes its count back.
    const rule = RATE_RULES.changePerUser;
    await limiter.takeOrRefuse(rule, key, RATE_LIMIT_MESSAGES.currentPassword);
    if (current.length > 1000 || !(await verifyPassword(user.password_hash, current))) {
      throw new HttpError(400, ACCOUNT_MESSAGES.currentWrong);
    }
    await limiter.untake(rule, key);
    if (next === current) throw new HttpError(400, ACCOUNT_MESSAGES.sameAsCurrent);
    const now = nowIso();
    await users.setPassword(userId, await hashPassword(next), now);
    await this.deps.resets.revokeForUser(userId, now);
    await this.deps.sessions.endOthers(userId, sessionId);
    await limiter.reset(RATE_RULES.changePerUser, key);
    return ACCOUNT_MESSAGES.changed;
  }

  /**
   * Mails a one-hour, single-use link when the address belongs to an account. The answer is
   * the same either way (nobody learns which addresses have accounts).
   */
  async requestReset(
    body: ResetRequestBody,
    ctx: { ip: string; base: string; language: MailLanguage },
  ): Promise<string> {
    const { users, limiter } = this.deps;
    const email = body.email.trim();
    if (!email) throw new HttpError(400, ACCOUNT_MESSAGES.resetEmailMissing);
    if (email.length > 254 || !emailSchema.safeParse(email).success) {
      throw new HttpError(
        400,
        'El correo electrónico no tiene un formato válido (ejemplo: nombre@dominio.com).',
      );
    }
    // counted first (take), so that concurrent requests cannot all pass
    await limiter.takeOrRefuse(RATE_RULES.resetPerIp, ctx.ip, RATE_LIMIT_MESSAGES.other);
    const user = await users.findByEmail(email);
    const emailKey = email.toLowerCase();
    if (!user || (await limiter.take(RATE_RULES.resetPerEmail, emailKey)) > 0) {
      return ACCOUNT_MESSAGES.resetRequested;
    }
    const token = randomToken();
    const now = Date.now();
    await this.deps.resets.insert({
      token_hash: sha256(token),
      user_id: user.id,
      created_at: nowIso(new Date(now)),
      expires_at: nowIso(new Date(now + RESET_TTL_MS)),
    });
    const link = `${ctx.base}${ROUTES.resetPassword}?token=${encodeURIComponent(token)}`;
    const language: MailLanguage = user.language === 'en' ? 'en' : ctx.language;
    const mail = resetMail(
      language,
      { email: user.email, firstName: user.first_name, userName: user.user_name },
      link,
    );
    // Sent after the answer, not before it: an answer that waited for the mail server would
    // take longer for an address with an account than for one without, and so reveal it. A
    // failure is said to nobody but the log, for the same reason.
    const sending = this.deps.mailer
      .send(mail)
      .catch((err: unknown) => {
        this.deps.log.error({ err, mailer: this.deps.mailer.describe }, 'reset mail failed');
      })
      .finally(() => this.sending.delete(sending));
    this.sending.add(sending);
    return ACCOUNT_MESSAGES.resetRequested;
  }

  /** Resolves once the reset mails being sent are sent or have failed (the server's close). */
  async mailsSent(): Promise<void> {
    await Promise.all([...this.sending]);
  }

  /** Whether a reset token can still be used (the page asks before showing the form). */
  async resetTokenLive(token: string): Promise<boolean> {
    if (!token || token.length > 200) return false;
    return (await this.deps.resets.findLiveUserId(sha256(token), nowIso())) !== undefined;
  }

  /**
   * Sets the new password with a live token; the token and every session of the user end, and
   * the user name's failed logins are forgotten (the lockout ends with the reset).
   */
  async confirmReset(body: ResetConfirmBody): Promise<string> {
    const token = body.token;
    if (!token || token.length > 200) throw new HttpError(400, ACCOUNT_MESSAGES.resetTokenInvalid);
    const next = body.new_password;
    const hashOfToken = sha256(token);
    const owner = await this.deps.resets.findLiveUserId(hashOfToken, nowIso());
    const user = owner === undefined ? undefined : await this.deps.users.findById(owner);
    if (!user) throw new HttpError(400, ACCOUNT_MESSAGES.resetTokenInvalid);
    this.checkNew(next, body.new_password_confirm, user.user_name);
    const userId = await this.deps.resets.consumeAndSetPassword(
      hashOfToken,
      nowIso(),
      await hashPassword(next),
    );
    if (userId === undefined) throw new HttpError(400, ACCOUNT_MESSAGES.resetTokenInvalid);
    await this.deps.sessions.endOthers(userId, null);
    // The new password works at once: the failed tries that locked the account (often why the
    // link was asked for) no longer count, nor the wrong current passwords.
    await this.deps.limiter.reset(RATE_RULES.loginPerUser, user.user_name.toLowerCase());
    await this.deps.limiter.reset(RATE_RULES.changePerUser, String(userId));
    return ACCOUNT_MESSAGES.resetDone;
  }
}

import fs from 'node:fs';
import type { Readable } from 'node:stream';
import {
  type DeleteAccountBody,
  MY_DATA_MESSAGES as M,
  RATE_LIMIT_MESSAGES,
  SERVER_MESSAGES,
} from '@diagrodl/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { HttpError } from '../../lib/errors.ts';
import { RATE_RULES, type RateLimiter } from '../../lib/rate-limit/rate-limiter.ts';
import type { MailLanguage } from '../../mail/language.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { accountDeletedMail } from '../../mail/templates.ts';
import { verifyPassword } from '../users/passwords.ts';
import type { UserDataParts } from '../users/user-data.ts';
import type { UserRepository } from '../users/user.repository.ts';
import type { AccountDataRepository } from './account-data.repository.ts';
import { dataArchive } from './data-archive.ts';

/** The longest password anyone is asked to type (argon2 is not run on more). */
const MAX_PASSWORD = 1000;

/**
 * "Mis datos": the archive of everything the platform holds about a user, and the deletion of
 * the account (password and confirmation; the rows in one transaction, the files after it).
 */
export class MyDataService {
  constructor(
    private readonly deps: {
      data: AccountDataRepository;
      users: UserRepository;
      parts: UserDataParts;
      mailer: Mailer;
      limiter: RateLimiter;
      log: FastifyBaseLogger;
    },
  ) {}

  /** The user's archive (zip) as a stream, and the name to save it under. */
  async archive(userId: number): Promise<{ fileName: string; stream: Readable }> {
    const rows = await this.deps.data.read(userId);
    if (!rows) throw new HttpError(401, SERVER_MESSAGES.loginRequired);
    const now = new Date();
    const stream = await dataArchive(rows, this.deps.parts.folders(userId), now);
    stream.on('error', (err) => this.deps.log.error({ err, userId }, 'data archive failed'));
    return {
      fileName: `diagrodl-${rows.user.user_name}-${now.toISOString().slice(0, 10)}.zip`,
      stream,
    };
  }

  /**
   * Deletes the account: the password (wrong tries count like the password change's) and the
   * confirmation first; then the user's running identification is stopped, every row goes in
   * one transaction (contact messages stay, unlinked), then the files, then the mail.
   */
  async deleteAccount(
    userId: number,
    body: DeleteAccountBody,
    ctx: { base: string; language: MailLanguage },
  ): Promise<string> {
    const { users, limiter, parts } = this.deps;
    const user = await users.findById(userId);
    if (!user) throw new HttpError(401, SERVER_MESSAGES.loginRequired);
    const key = String(userId);
    if (!body.password) throw new HttpError(400, M.passwordMissing);
    // Counted before the check, so that concurrent tries cannot all be checked; a right one
    // takes its count back.
    const rule = RATE_RULES.changePerUser;
    await limiter.takeOrRefuse(rule, key, RATE_LIMIT_MESSAGES.currentPassword);
    if (
      body.password.length > MAX_PASSWORD ||
      !(await verifyPassword(user.password_hash, body.password))
    ) {
      throw new HttpError(400, M.passwordWrong);
    }
    await limiter.untake(rule, key);
    if (!body.confirm) throw new HttpError(400, M.confirmMissing);

    const release = await parts.hold(userId);
    try {
      await this.deps.data.delete(userId);
    } finally {
      release();
    }
    // After the commit: a file written by the stopped run is gone with the rest.
    for (const folder of parts.folders(userId)) {
      await fs.promises.rm(folder.dir, { recursive: true, force: true });
    }
    await limiter.reset(RATE_RULES.changePerUser, key);
    await limiter.reset(RATE_RULES.loginPerUser, user.user_name.toLowerCase());

    const language: MailLanguage = user.language === 'en' ? 'en' : ctx.language;
    try {
      await this.deps.mailer.send(
        accountDeletedMail(
          language,
          { email: user.email, firstName: user.first_name, userName: user.user_name },
          ctx.base,
        ),
      );
    } catch (err) {
      this.deps.log.error(
        { err, mailer: this.deps.mailer.describe },
        'account-deleted mail failed',
      );
      return M.deletedMailFailed;
    }
    return M.deleted;
  }
}

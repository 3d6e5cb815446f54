import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** The only code that reads and writes the password_resets table. */
export class PasswordResetRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: {
    token_hash: string;
    user_id: number;
    created_at: string;
    expires_at: string;
  }): Promise<void> {
    await this.db.insertInto('password_resets').values(row).execute();
  }

  /**
   * Uses a live token once and sets the new password in one transaction: the token is marked
   * used, the password replaced, and every other reset token of the user revoked.
   * Returns the user id, or undefined when the token is unknown, used or expired.
   */
  async consumeAndSetPassword(
    tokenHash: string,
    nowIso: string,
    passwordHash: string,
  ): Promise<number | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('password_resets')
        .select(['id', 'user_id'])
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', nowIso)
        .executeTakeFirst();
      if (!row) return undefined;
      const used = await trx
        .updateTable('password_resets')
        .set({ used_at: nowIso })
        .where('id', '=', row.id)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      if (Number(used.numUpdatedRows) !== 1) return undefined;
      await trx
        .updateTable('users')
        .set({ password_hash: passwordHash, password_changed_at: nowIso })
        .where('id', '=', row.user_id)
        .execute();
      await trx
        .updateTable('password_resets')
        .set({ used_at: nowIso })
        .where('user_id', '=', row.user_id)
        .where('used_at', 'is', null)
        .execute();
      return row.user_id;
    });
  }

  /** The user a live token belongs to (undefined: unknown, used or expired). */
  async findLiveUserId(tokenHash: string, nowIso: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('password_resets')
      .select('user_id')
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', nowIso)
      .executeTakeFirst();
    return row?.user_id;
  }

  /** After a password change: links sent earlier stop working. */
  async revokeForUser(userId: number, nowIso: string): Promise<void> {
    await this.db
      .updateTable('password_resets')
      .set({ used_at: nowIso })
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .execute();
  }

  async deleteExpired(beforeIso: string): Promise<void> {
    await this.db.deleteFrom('password_resets').where('expires_at', '<=', beforeIso).execute();
  }
}

import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export interface SessionRow {
  id: string;
  user_id: number;
  expires_at: string;
  persistent: number;
}

/** The only code that reads and writes the sessions table. */
export class SessionRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: SessionRow & { created_at: string }): Promise<void> {
    await this.db.insertInto('sessions').values(row).execute();
  }

  async findLive(id: string, nowIso: string): Promise<SessionRow | undefined> {
    return this.db
      .selectFrom('sessions')
      .select(['id', 'user_id', 'expires_at', 'persistent'])
      .where('id', '=', id)
      .where('expires_at', '>', nowIso)
      .executeTakeFirst();
  }

  async touch(id: string, expiresAt: string): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ expires_at: expiresAt })
      .where('id', '=', id)
      .execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('id', '=', id).execute();
  }

  async deleteForUser(userId: number, exceptId?: string): Promise<void> {
    let q = this.db.deleteFrom('sessions').where('user_id', '=', userId);
    if (exceptId) q = q.where('id', '!=', exceptId);
    await q.execute();
  }

  async deleteExpired(nowIso: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('expires_at', '<=', nowIso).execute();
  }
}

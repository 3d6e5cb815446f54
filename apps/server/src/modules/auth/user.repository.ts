import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, UsersTable } from '../../db/schema.ts';

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;

/** The only code that reads and writes the users table. */
export class UserRepository {
  constructor(private readonly db: Kysely<Database>) {}

  findById(id: number): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByUserName(userName: string): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('user_name_lower', '=', userName.toLowerCase())
      .executeTakeFirst();
  }

  findByEmail(email: string): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('email_lower', '=', email.toLowerCase())
      .executeTakeFirst();
  }

  async insert(user: NewUser): Promise<number> {
    const row = await this.db
      .insertInto('users')
      .values(user)
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('users').where('id', '=', id).execute();
  }

  async setPassword(id: number, hash: string, changedAt: string): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ password_hash: hash, password_changed_at: changedAt })
      .where('id', '=', id)
      .execute();
  }
}

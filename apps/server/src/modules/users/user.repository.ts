import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Registration } from '@diagrodl/contracts';
import type { Database, UsersTable } from '../../db/schema.ts';

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;

/** The users row of a checked registration (registration form and the create-user command). */
export function newUserRow(
  r: Registration,
  language: string,
  passwordHash: string,
  now: string,
): NewUser {
  return {
    user_name: r.userName,
    user_name_lower: r.userName.toLowerCase(),
    first_name: r.firstName,
    last_name: r.lastName,
    email: r.email,
    email_lower: r.email.toLowerCase(),
    country: r.country,
    code_country: r.codeCountry,
    city: r.city,
    phone_number: r.phoneNumber,
    organisation_type: r.organisationType,
    organisation_name: r.organisationName,
    purpose_use: r.purposeUse,
    accept_terms: 1,
    give_permission: r.givePermission ? 1 : 0,
    accept_data_licence: 1,
    subscribe_update: r.subscribeUpdate ? 1 : 0,
    language,
    password_hash: passwordHash,
    created_at: now,
    password_changed_at: now,
  };
}

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

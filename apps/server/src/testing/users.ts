import type { Db } from '../db/database.ts';
import { hashPassword } from '../modules/users/passwords.ts';
import { UserRepository } from '../modules/users/user.repository.ts';
import { nowIso } from '../lib/tokens.ts';

/** Creates an account straight in the database (tests and the e2e fixtures use it). */
export async function createUserDirect(
  db: Db,
  user: {
    userName: string;
    password: string;
    email?: string;
    firstName?: string;
    language?: string;
  },
): Promise<number> {
  const now = nowIso();
  return new UserRepository(db.kysely).insert({
    user_name: user.userName,
    user_name_lower: user.userName.toLowerCase(),
    first_name: user.firstName ?? 'Ana',
    last_name: 'Prueba',
    email: user.email ?? `${user.userName.toLowerCase()}@example.test`,
    email_lower: (user.email ?? `${user.userName.toLowerCase()}@example.test`).toLowerCase(),
    country: 'México',
    code_country: '+52',
    city: 'Texcoco',
    phone_number: '',
    organisation_type: 3,
    organisation_name: 'Universidad',
    purpose_use: 3,
    accept_terms: 1,
    give_permission: 0,
    accept_data_licence: 1,
    subscribe_update: 0,
    language: user.language ?? 'es',
    password_hash: await hashPassword(user.password),
    created_at: now,
    password_changed_at: now,
  });
}

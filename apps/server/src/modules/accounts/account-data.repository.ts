import type { Kysely, Selectable } from 'kysely';
import type {
  ContactMessagesTable,
  Database,
  DiagnosisHistoryTable,
  DiagnosisImagesTable,
  DiagnosisRunsTable,
  DiagnosisSettingsTable,
  PasswordResetsTable,
  SessionsTable,
  UsersTable,
} from '../../db/schema.ts';

/** Every row the platform holds about one user, read at one moment ("Mis datos"). */
export interface UserRows {
  user: Selectable<UsersTable>;
  settings: Selectable<DiagnosisSettingsTable> | undefined;
  images: Selectable<DiagnosisImagesTable>[];
  history: Selectable<DiagnosisHistoryTable>[];
  runs: Selectable<DiagnosisRunsTable>[];
  sessions: Selectable<SessionsTable>[];
  passwordResets: Selectable<PasswordResetsTable>[];
  contactMessages: Selectable<ContactMessagesTable>[];
}

/** The tables whose rows belong to one user (`user_id`), removed with the account. */
const OWNED_TABLES = [
  'diagnosis_history',
  'diagnosis_images',
  'diagnosis_runs',
  'diagnosis_settings',
  'password_resets',
  'sessions',
] as const;

/**
 * The only SQL of "Mis datos": a user's rows in every table, read in one transaction for the
 * archive, and removed in one transaction with the account (contact messages stay, unlinked).
 */
export class AccountDataRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Every row of the user, or undefined when the account no longer exists. */
  read(userId: number): Promise<UserRows | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const user = await trx
        .selectFrom('users')
        .selectAll()
        .where('id', '=', userId)
        .executeTakeFirst();
      if (!user) return undefined;
      const id = userId;
      return {
        user,
        settings: await trx
          .selectFrom('diagnosis_settings')
          .selectAll()
          .where('user_id', '=', id)
          .executeTakeFirst(),
        images: await trx
          .selectFrom('diagnosis_images')
          .selectAll()
          .where('user_id', '=', id)
          .orderBy('id')
          .execute(),
        history: await trx
          .selectFrom('diagnosis_history')
          .selectAll()
          .where('user_id', '=', id)
          .orderBy('id')
          .execute(),
        runs: await trx
          .selectFrom('diagnosis_runs')
          .selectAll()
          .where('user_id', '=', id)
          .orderBy('id')
          .execute(),
        sessions: await trx
          .selectFrom('sessions')
          .selectAll()
          .where('user_id', '=', id)
          .orderBy('created_at')
          .execute(),
        passwordResets: await trx
          .selectFrom('password_resets')
          .selectAll()
          .where('user_id', '=', id)
          .orderBy('id')
          .execute(),
        contactMessages: await trx
          .selectFrom('contact_messages')
          .selectAll()
          .where('user_id', '=', id)
          .orderBy('id')
          .execute(),
      };
    });
  }

  /**
   * Removes the account and every row of it in one transaction; the contact messages the user
   * sent keep their text and lose the link. False when the account was already gone.
   */
  delete(userId: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('contact_messages')
        .set({ user_id: null })
        .where('user_id', '=', userId)
        .execute();
      for (const table of OWNED_TABLES) {
        await trx.deleteFrom(table).where('user_id', '=', userId).execute();
      }
      const gone = await trx.deleteFrom('users').where('id', '=', userId).executeTakeFirst();
      return Number(gone.numDeletedRows) === 1;
    });
  }
}

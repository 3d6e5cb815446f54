import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';

export type Dialect = 'sqlite' | 'postgres';

/**
 * The one set of migrations, applied at start on SQLite and PostgreSQL alike.
 * Append new migrations; never edit one that has shipped.
 */
function migrations(dialect: Dialect): Record<string, Migration> {
  const id = dialect === 'postgres' ? 'serial' : 'integer';
  return {
    '0001_accounts_sessions': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('users')
          .addColumn('id', id, (c) =>
            dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
          )
          .addColumn('user_name', 'text', (c) => c.notNull())
          .addColumn('user_name_lower', 'text', (c) => c.notNull().unique())
          .addColumn('first_name', 'text', (c) => c.notNull())
          .addColumn('last_name', 'text', (c) => c.notNull())
          .addColumn('email', 'text', (c) => c.notNull())
          .addColumn('email_lower', 'text', (c) => c.notNull().unique())
          .addColumn('country', 'text', (c) => c.notNull())
          .addColumn('code_country', 'text', (c) => c.notNull())
          .addColumn('city', 'text', (c) => c.notNull())
          .addColumn('phone_number', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('organisation_type', 'integer', (c) => c.notNull())
          .addColumn('organisation_name', 'text', (c) => c.notNull())
          .addColumn('purpose_use', 'integer', (c) => c.notNull())
          .addColumn('accept_terms', 'integer', (c) => c.notNull())
          .addColumn('give_permission', 'integer', (c) => c.notNull())
          .addColumn('accept_data_licence', 'integer', (c) => c.notNull())
          .addColumn('subscribe_update', 'integer', (c) => c.notNull())
          .addColumn('language', 'text', (c) => c.notNull().defaultTo('es'))
          .addColumn('password_hash', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('password_changed_at', 'text', (c) => c.notNull())
          .execute();

        await db.schema
          .createTable('sessions')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('user_id', 'integer', (c) =>
            c.notNull().references('users.id').onDelete('cascade'),
          )
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('expires_at', 'text', (c) => c.notNull())
          .addColumn('persistent', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();
        await db.schema
          .createIndex('sessions_expires_idx')
          .on('sessions')
          .column('expires_at')
          .execute();

        await db.schema
          .createTable('password_resets')
          .addColumn('id', id, (c) =>
            dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
          )
          .addColumn('token_hash', 'text', (c) => c.notNull().unique())
          .addColumn('user_id', 'integer', (c) =>
            c.notNull().references('users.id').onDelete('cascade'),
          )
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('expires_at', 'text', (c) => c.notNull())
          .addColumn('used_at', 'text')
          .execute();

        await db.schema
          .createTable('contact_messages')
          .addColumn('id', id, (c) =>
            dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
          )
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('email', 'text', (c) => c.notNull())
          .addColumn('subject', 'text', (c) => c.notNull())
          .addColumn('message', 'text', (c) => c.notNull())
          .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('mailed', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
      },
      async down(db: Kysely<unknown>) {
        for (const t of ['contact_messages', 'password_resets', 'sessions', 'users']) {
          await db.schema.dropTable(t).ifExists().execute();
        }
      },
    },
  };
}

class InlineProvider implements MigrationProvider {
  constructor(private readonly dialect: Dialect) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations(this.dialect);
  }
}

/** Applies every pending migration; throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<unknown>, dialect: Dialect): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new InlineProvider(dialect) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${why}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

export { sql };

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
    '0002_rate_limits': {
      // Counters of failed logins and of mail-sending requests, shared by every server process.
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('rate_limits')
          .addColumn('bucket', 'text', (c) => c.primaryKey())
          .addColumn('hits', 'integer', (c) => c.notNull())
          .addColumn('window_end', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('rate_limits_window_end_idx')
          .on('rate_limits')
          .column('window_end')
          .execute();
        await db.schema
          .createIndex('password_resets_user_idx')
          .on('password_resets')
          .column('user_id')
          .execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable('rate_limits').ifExists().execute();
        await db.schema.dropIndex('password_resets_user_idx').ifExists().execute();
      },
    },
    '0003_diagnosis': {
      async up(db: Kysely<unknown>) {
        const pk = (c: import('kysely').ColumnDefinitionBuilder) =>
          dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement();
        const owner = (c: import('kysely').ColumnDefinitionBuilder) =>
          c.notNull().references('users.id').onDelete('cascade');

        // The configuration chosen on /Custom, one row per user.
        await db.schema
          .createTable('diagnosis_settings')
          .addColumn('user_id', 'integer', (c) =>
            c.primaryKey().references('users.id').onDelete('cascade'),
          )
          .addColumn('cultivo', 'text', (c) => c.notNull())
          .addColumn('nivel', 'text', (c) => c.notNull())
          .addColumn('tipo_modelo', 'text', (c) => c.notNull())
          .addColumn('modelo_version', 'text', (c) => c.notNull())
          .addColumn('model_id', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .execute();

        // One identification request of a user (progress bar).
        await db.schema
          .createTable('diagnosis_runs')
          .addColumn('id', id, pk)
          .addColumn('user_id', 'integer', owner)
          .addColumn('model_id', 'text', (c) => c.notNull())
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('detail', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('diagnosis_runs_user_idx')
          .on('diagnosis_runs')
          .columns(['user_id', 'id'])
          .execute();

        // Uploaded images: 'pending' -> 'claimed' (being identified) -> 'done' (a result row).
        await db.schema
          .createTable('diagnosis_images')
          .addColumn('id', id, pk)
          .addColumn('user_id', 'integer', owner)
          .addColumn('name_img', 'text', (c) => c.notNull())
          .addColumn('file', 'text', (c) => c.notNull())
          .addColumn('mime', 'text', (c) => c.notNull())
          .addColumn('size_bytes', 'integer', (c) => c.notNull())
          .addColumn('width', 'integer', (c) => c.notNull())
          .addColumn('height', 'integer', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('run_id', 'integer')
          .addColumn('claim_token', 'text')
          .addColumn('claimed_at', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('label', 'text')
          .addColumn('probability', 'double precision')
          .addColumn('accepted', 'integer')
          .addColumn('top3', 'text')
          .addColumn('model', 'text')
          .addColumn('heatmap_file', 'text')
          .addColumn('predicted_at', 'text')
          .execute();
        await db.schema
          .createIndex('diagnosis_images_user_status_idx')
          .on('diagnosis_images')
          .columns(['user_id', 'status'])
          .execute();
        await db.schema
          .createIndex('diagnosis_images_claim_idx')
          .on('diagnosis_images')
          .column('claim_token')
          .execute();

        // A light copy of each finished diagnosis: survives 'start anew'.
        await db.schema
          .createTable('diagnosis_history')
          .addColumn('id', id, pk)
          .addColumn('user_id', 'integer', owner)
          .addColumn('image_id', 'integer', (c) => c.notNull())
          .addColumn('name_img', 'text', (c) => c.notNull())
          .addColumn('label', 'text', (c) => c.notNull())
          .addColumn('probability', 'double precision', (c) => c.notNull())
          .addColumn('accepted', 'integer', (c) => c.notNull())
          .addColumn('top3', 'text', (c) => c.notNull())
          .addColumn('model', 'text', (c) => c.notNull())
          .addColumn('thumb_file', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('diagnosis_history_user_idx')
          .on('diagnosis_history')
          .columns(['user_id', 'id'])
          .execute();
      },
      async down(db: Kysely<unknown>) {
        for (const t of [
          'diagnosis_history',
          'diagnosis_images',
          'diagnosis_runs',
          'diagnosis_settings',
        ]) {
          await db.schema.dropTable(t).ifExists().execute();
        }
      },
    },
    '0004_diagnosis_reason': {
      // The third outcome: why a row is not a diagnosis ('not_leaf' | 'low_confidence', null when
      // accepted) and the model's leaf probability. Rows from before are derived: not accepted
      // meant 'No reconocido con confianza'.
      async up(db: Kysely<unknown>) {
        for (const table of ['diagnosis_images', 'diagnosis_history']) {
          await db.schema.alterTable(table).addColumn('reason', 'text').execute();
          await db.schema
            .alterTable(table)
            .addColumn('leaf_probability', 'double precision')
            .execute();
          await sql`update ${sql.table(table)} set reason = 'low_confidence' where accepted = 0`.execute(
            db,
          );
        }
      },
      async down(db: Kysely<unknown>) {
        for (const table of ['diagnosis_images', 'diagnosis_history']) {
          await db.schema.alterTable(table).dropColumn('leaf_probability').execute();
          await db.schema.alterTable(table).dropColumn('reason').execute();
        }
      },
    },
    // An identification run has an owner (the fencing token of the process that holds
    // its lease; updated_at is the lease's heartbeat) and counts how often it was taken over.
    '0005_diagnosis_run_lease': {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable('diagnosis_runs').addColumn('owner', 'text').execute();
        await db.schema
          .alterTable('diagnosis_runs')
          .addColumn('takeovers', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema
          .createIndex('diagnosis_runs_state_idx')
          .on('diagnosis_runs')
          .columns(['state', 'updated_at'])
          .execute();
        await db.schema
          .createIndex('diagnosis_images_run_idx')
          .on('diagnosis_images')
          .column('run_id')
          .execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropIndex('diagnosis_images_run_idx').execute();
        await db.schema.dropIndex('diagnosis_runs_state_idx').execute();
        await db.schema.alterTable('diagnosis_runs').dropColumn('takeovers').execute();
        await db.schema.alterTable('diagnosis_runs').dropColumn('owner').execute();
      },
    },
    // A diagnosis made on a device (offline) reaches the history with the id the device
    // gave it; the unique index makes a retried upload find the first copy instead of a second.
    '0006_device_diagnoses': {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable('diagnosis_history').addColumn('client_id', 'text').execute();
        await db.schema
          .createIndex('diagnosis_history_client_idx')
          .on('diagnosis_history')
          .columns(['user_id', 'client_id'])
          .unique()
          .execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropIndex('diagnosis_history_client_idx').execute();
        await db.schema.alterTable('diagnosis_history').dropColumn('client_id').execute();
      },
    },
    // How much the photo looked like the lab photos the model learned from (the graph's
    // `lab_like` output, 0..1); null for rows from before and for models without the output.
    // Below LAB_LIKE_CUT a diagnosis is shown with the field-photo caution.
    '0007_diagnosis_lab_like': {
      async up(db: Kysely<unknown>) {
        for (const table of ['diagnosis_images', 'diagnosis_history']) {
          await db.schema.alterTable(table).addColumn('lab_like', 'double precision').execute();
        }
      },
      async down(db: Kysely<unknown>) {
        for (const table of ['diagnosis_images', 'diagnosis_history']) {
          await db.schema.alterTable(table).dropColumn('lab_like').execute();
        }
      },
    },
    // When a contact message's mail was last tried: one whose mail failed (mailed = 0) is tried
    // again later by one server process at a time. Rows from before have none: tried at once.
    '0008_contact_mail_attempt': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .alterTable('contact_messages')
          .addColumn('mail_attempted_at', 'text')
          .execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.alterTable('contact_messages').dropColumn('mail_attempted_at').execute();
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
export function migrateToLatest(db: Kysely<unknown>, dialect: Dialect): Promise<string[]> {
  return migrate(db, dialect);
}

/** Applies the pending migrations up to and including `name` (tests of a later migration). */
export function migrateUpTo(
  db: Kysely<unknown>,
  dialect: Dialect,
  name: string,
): Promise<string[]> {
  return migrate(db, dialect, name);
}

async function migrate(db: Kysely<unknown>, dialect: Dialect, upTo?: string): Promise<string[]> {
  // On PostgreSQL the bookkeeping tables live in the current schema (search_path): without
  // naming it, Kysely also sees another schema's kysely_migration_lock (parallel test runs,
  // several apps in one database) and skips creating its own. The connections' dialect
  // (postgres-dialect.ts) reads only the current schema when the Migrator looks for its tables.
  const migrationTableSchema =
    dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]
          ?.schema
      : undefined;
  const migrator = new Migrator({
    db,
    provider: new InlineProvider(dialect),
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
  const run = () => (upTo ? migrator.migrateTo(upTo) : migrator.migrateToLatest());
  // PostgreSQL runs the migrations in one transaction (Kysely: transactional DDL). Kysely does not
  // on SQLite, whose DDL is transactional too: without one, a crash inside a migration of several
  // statements would leave it half applied and unrecorded, and every start after would fail on it.
  // Its one connection takes the same transaction around the whole run: all or nothing.
  let outcome: Awaited<ReturnType<typeof run>>;
  if (dialect === 'sqlite') {
    await sql`begin immediate`.execute(db);
    try {
      outcome = await run();
    } catch (err) {
      await sql`rollback`.execute(db);
      throw err;
    }
    await (outcome.error ? sql`rollback` : sql`commit`).execute(db);
  } else {
    outcome = await run();
  }
  const { error, results } = outcome;
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${why}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

export { sql };

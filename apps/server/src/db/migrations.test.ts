// Migration 0004 (the third outcome) on SQLite and PostgreSQL: rows stored before it get their
// reason derived (accepted: null, not accepted: 'low_confidence'); new rows keep theirs.
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { PG_URL, postgresOrSkip } from '../testing/harness.ts';
import { withDefaultUser } from './database.ts';
import { type Dialect, migrateToLatest, migrateUpTo } from './migrations.ts';
import { CurrentSchemaPostgresDialect } from './postgres-dialect.ts';
import type { Database } from './schema.ts';

async function open(
  dialect: Dialect,
): Promise<{ db: Kysely<Database>; close: () => Promise<void> } | null> {
  if (dialect === 'sqlite') {
    const db = new Kysely<Database>({
      dialect: new SqliteDialect({ database: new SQLite(':memory:') }),
    });
    return { db, close: () => db.destroy() };
  }
  if (!(await postgresOrSkip('the PostgreSQL migration test'))) return null;
  const schema = `m_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const pool = new pg.Pool({
    connectionString: withDefaultUser(PG_URL).toString(),
    max: 2,
    options: `-c search_path=${schema}`,
  });
  const db = new Kysely<Database>({ dialect: new CurrentSchemaPostgresDialect({ pool }) });
  await sql`create schema ${sql.id(schema)}`.execute(db);
  return {
    db,
    close: async () => {
      await sql`drop schema ${sql.id(schema)} cascade`.execute(db);
      await db.destroy();
    },
  };
}

const NOW = '2026-01-01T00:00:00.000Z';

describe.each(['sqlite', 'postgres'] as const)(
  'migration 0004_diagnosis_reason [%s]',
  (dialect) => {
    it('derives the reason of older rows and stores the new fields', async () => {
      const conn = await open(dialect);
      if (!conn) return;
      const { db, close } = conn;
      try {
        const raw = db as unknown as Kysely<unknown>;
        expect(await migrateUpTo(raw, dialect, '0003_diagnosis')).toContain('0003_diagnosis');
        const user = await db
          .insertInto('users')
          .values({
            user_name: 'Ana',
            user_name_lower: 'ana',
            first_name: 'Ana',
            last_name: 'L',
            email: 'a@x.mx',
            email_lower: 'a@x.mx',
            country: 'Mexico',
            code_country: '+52',
            city: 'Toluca',
            phone_number: '',
            language: 'es',
            organisation_type: 1,
            organisation_name: 'x',
            purpose_use: 1,
            accept_terms: 1,
            give_permission: 0,
            accept_data_licence: 1,
            subscribe_update: 0,
            password_hash: 'x',
            created_at: NOW,
            password_changed_at: NOW,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const image = (name: string, status: string, accepted: number | null) => ({
          user_id: user.id,
          name_img: name,
          file: `${name}.jpg`,
          mime: 'image/jpeg',
          size_bytes: 1,
          width: 1,
          height: 1,
          status,
          created_at: NOW,
          accepted,
          label: accepted === null ? null : 'healthy',
          probability: accepted === null ? null : 0.5,
        });
        // the tables as 0003 made them (no reason or leaf_probability columns yet)
        const old = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
        await old
          .insertInto('diagnosis_images')
          .values([
            image('ok', 'done', 1),
            image('unsure', 'done', 0),
            image('new', 'pending', null),
          ])
          .execute();
        const history = (name: string, accepted: number) => ({
          user_id: user.id,
          image_id: 1,
          name_img: name,
          label: 'healthy',
          probability: 0.5,
          accepted,
          top3: '[]',
          model: 'mobilenet',
          thumb_file: `${name}.jpg`,
          created_at: NOW,
        });
        await old
          .insertInto('diagnosis_history')
          .values([history('ok', 1), history('unsure', 0)])
          .execute();

        expect(await migrateToLatest(raw, dialect)).toEqual(
          expect.arrayContaining(['0004_diagnosis_reason', '0007_diagnosis_lab_like']),
        );
        const images = await db
          .selectFrom('diagnosis_images')
          .select(['name_img', 'reason', 'leaf_probability', 'lab_like'])
          .orderBy('id')
          .execute();
        // rows from before 0007 have no lab_like: no field-photo caution
        expect(images).toEqual([
          { name_img: 'ok', reason: null, leaf_probability: null, lab_like: null },
          { name_img: 'unsure', reason: 'low_confidence', leaf_probability: null, lab_like: null },
          { name_img: 'new', reason: null, leaf_probability: null, lab_like: null },
        ]);
        const past = await db
          .selectFrom('diagnosis_history')
          .select(['name_img', 'reason'])
          .orderBy('id')
          .execute();
        expect(past).toEqual([
          { name_img: 'ok', reason: null },
          { name_img: 'unsure', reason: 'low_confidence' },
        ]);

        // a new row keeps its reason and leaf probability
        await db
          .insertInto('diagnosis_history')
          .values({
            ...history('cat', 0),
            reason: 'not_leaf',
            leaf_probability: 0.125,
            lab_like: 0.0625,
          })
          .execute();
        const cat = await db
          .selectFrom('diagnosis_history')
          .select(['reason', 'leaf_probability', 'lab_like'])
          .where('name_img', '=', 'cat')
          .executeTakeFirstOrThrow();
        expect(cat).toEqual({ reason: 'not_leaf', leaf_probability: 0.125, lab_like: 0.0625 });
      } finally {
        await close();
      }
    });
  },
);

describe.each(['sqlite', 'postgres'] as const)('a migration that fails [%s]', (dialect) => {
  it('leaves nothing of itself: the next start applies it whole', async () => {
    const conn = await open(dialect);
    if (!conn) return;
    const { db, close } = conn;
    try {
      const raw = db as unknown as Kysely<unknown>;
      await migrateUpTo(raw, dialect, '0003_diagnosis');
      // 0004 adds two columns to each of two tables: its last statement will fail
      await sql`alter table diagnosis_history add column leaf_probability text`.execute(db);
      await expect(migrateToLatest(raw, dialect)).rejects.toThrow('0004_diagnosis_reason');
      const columns = async (table: string) =>
        (await db.introspection.getTables())
          .find((t) => t.name === table)!
          .columns.map((c) => c.name);
      expect(await columns('diagnosis_images')).not.toContain('reason');
      expect(await columns('diagnosis_history')).not.toContain('reason');
      await sql`alter table diagnosis_history drop column leaf_probability`.execute(db);
      expect(await migrateToLatest(raw, dialect)).toContain('0004_diagnosis_reason');
      expect(await columns('diagnosis_images')).toContain('reason');
    } finally {
      await close();
    }
  });
});

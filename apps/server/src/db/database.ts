import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.ts';
import { type Dialect, migrateToLatest } from './migrations.ts';
import { CurrentSchemaPostgresDialect } from './postgres-dialect.ts';
import type { Database } from './schema.ts';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /** A short description for /api/health and logs, without credentials. */
  describe: string;
  close(): Promise<void>;
}

/**
 * Opens the configured database and applies the migrations.
 * PostgreSQL URLs may carry `?schema=name` to use (and create) a schema other than public:
 * the tests use that to keep each run apart.
 */
export async function openDatabase(database: Config['database']): Promise<Db> {
  let kysely: Kysely<Database>;
  let dialect: Dialect;
  let describe: string;
  if (database.kind === 'sqlite') {
    fs.mkdirSync(path.dirname(database.file), { recursive: true });
    const sqlite = new SQLite(database.file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    // a deleted row (an account deleted from "Mis datos") is overwritten in the file, not left
    // readable in free pages until they are reused
    sqlite.pragma('secure_delete = ON');
    kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    dialect = 'sqlite';
    describe = `sqlite:${database.file}`;
  } else {
    const url = withDefaultUser(database.url);
    const schema = url.searchParams.get('schema');
    url.searchParams.delete('schema');
    if (schema && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
      throw new Error(`DATABASE_URL schema must be a plain lower-case identifier, got ${schema}`);
    }
    const pool = new pg.Pool({
      connectionString: url.toString(),
      max: 10,
      // a server that does not answer (a firewall, a partition) fails a request, not hangs it
      connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    kysely = new Kysely<Database>({ dialect: new CurrentSchemaPostgresDialect({ pool }) });
    dialect = 'postgres';
    describe = `postgres:${url.host}${url.pathname}${schema ? `#${schema}` : ''}`;
    if (schema) {
      try {
        await ensureSchema(kysely as unknown as Kysely<unknown>, schema);
      } catch (err) {
        await kysely.destroy();
        throw err;
      }
    }
  }
  try {
    await migrateToLatest(kysely as unknown as Kysely<unknown>, dialect);
  } catch (err) {
    await kysely.destroy();
    throw err;
  }
  return {
    kysely,
    dialect,
    describe,
    close: () => kysely.destroy(),
  };
}

/** How long a new PostgreSQL connection may take before the request that needs it fails. */
const PG_CONNECT_TIMEOUT_MS = 10_000;

/**
 * Creates the DATABASE_URL's schema when it is missing. An existing one is only looked up:
 * PostgreSQL checks CREATE on the database before IF NOT EXISTS, so a role that was given its
 * schema but not that right could not start otherwise; and a server starting beside another one
 * that creates it at the same moment takes the other's.
 */
async function ensureSchema(db: Kysely<unknown>, schema: string): Promise<void> {
  const found = await sql`select 1 from pg_namespace where nspname = ${schema}`.execute(db);
  if (found.rows.length > 0) return;
  try {
    await sql`create schema ${sql.id(schema)}`.execute(db);
  } catch (err) {
    // 42P06 duplicate_schema; 23505 unique_violation (pg_namespace's index, in a race)
    const code = (err as { code?: string }).code;
    if (code !== '42P06' && code !== '23505') throw err;
  }
}

/** Like libpq: a PostgreSQL URL without a user name uses PGUSER or the operating-system account. */
export function withDefaultUser(connectionString: string): URL {
  const url = new URL(connectionString);
  if (!url.username) url.username = process.env.PGUSER || os.userInfo().username;
  return url;
}

/** How long the health check waits for the database's answer. */
const PING_TIMEOUT_MS = 3_000;

/** A cheap round trip used by the health check: false when it fails or takes over 3 s. */
export async function pingDatabase(db: Db, timeoutMs = PING_TIMEOUT_MS): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const answer = sql`select 1`.execute(db.kysely).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

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
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    kysely = new Kysely<Database>({ dialect: new CurrentSchemaPostgresDialect({ pool }) });
    if (schema) await sql`create schema if not exists ${sql.id(schema)}`.execute(kysely);
    dialect = 'postgres';
    describe = `postgres:${url.host}${url.pathname}${schema ? `#${schema}` : ''}`;
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

/** Like libpq: a PostgreSQL URL without a user name uses PGUSER or the operating-system account. */
export function withDefaultUser(connectionString: string): URL {
  const url = new URL(connectionString);
  if (!url.username) url.username = process.env.PGUSER || os.userInfo().username;
  return url;
}

/** A cheap round trip used by the health check. */
export async function pingDatabase(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db.kysely);
    return true;
  } catch {
    return false;
  }
}

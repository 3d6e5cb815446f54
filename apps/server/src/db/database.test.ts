// Opening the PostgreSQL database of DATABASE_URL's ?schema=: a role given its schema but no
// right to create schemas starts, servers starting together on a new schema all start, and the
// health check's ping gives up on a database that does not answer in time.
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PG_URL, postgresOrSkip } from '../testing/harness.ts';
import { type Db, openDatabase, pingDatabase, withDefaultUser } from './database.ts';

const suffix = `${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
const role = `dg_limited_${suffix}`;
const given = `dg_given_${suffix}`;
const fresh = `dg_fresh_${suffix}`;

/** TEST_DATABASE_URL with another user and a schema. */
function urlFor(schema: string, user?: string): string {
  const url = withDefaultUser(PG_URL);
  if (user) url.username = user;
  url.searchParams.set('schema', schema);
  return url.toString();
}

describe('openDatabase and pingDatabase [postgres]', () => {
  let admin: pg.Client | undefined;
  const opened: Db[] = [];

  beforeAll(async () => {
    if (!(await postgresOrSkip('the schema and ping tests'))) return;
    admin = new pg.Client({ connectionString: withDefaultUser(PG_URL).toString() });
    await admin.connect();
    // a role that may log in but not create schemas (PUBLIC has no CREATE on a database),
    // owning the schema an administrator made for it
    await admin.query(`create role ${role} login`);
    await admin.query(`create schema ${given} authorization ${role}`);
  });

  afterAll(async () => {
    for (const db of opened) await db.close();
    if (!admin) return;
    for (const s of [given, fresh]) await admin.query(`drop schema if exists ${s} cascade`);
    await admin.query(`drop role if exists ${role}`);
    await admin.end();
  });

  it('starts as a role that owns its schema but may not create schemas', async () => {
    if (!admin) return;
    const db = await openDatabase({ kind: 'postgres', url: urlFor(given, role) });
    opened.push(db);
    // the migrations ran in that schema
    const tables = await admin.query(
      `select count(*)::int as n from pg_tables where schemaname = $1`,
      [given],
    );
    expect(tables.rows[0].n).toBeGreaterThan(3);
    expect(await pingDatabase(db)).toBe(true);
  });

  it('servers starting together on a schema that does not exist yet all start', async () => {
    if (!admin) return;
    const dbs = await Promise.all(
      [1, 2, 3].map(() => openDatabase({ kind: 'postgres', url: urlFor(fresh) })),
    );
    opened.push(...dbs);
    for (const db of dbs) expect(await pingDatabase(db)).toBe(true);
  });

  it('the ping answers false when the database takes longer than its limit', async () => {
    if (!admin) return;
    const db = opened[0]!;
    // every connection of the pool (10) busy for 3 s: the ping waits in the pool's queue
    const busy = Promise.all(
      Array.from({ length: 10 }, () => sql`select pg_sleep(3)`.execute(db.kysely)),
    );
    await expect
      .poll(async () => {
        const r = await admin!.query(
          `select count(*)::int as n from pg_stat_activity
           where query = 'select pg_sleep(3)' and state = 'active' and pid <> pg_backend_pid()`,
        );
        return r.rows[0].n;
      })
      .toBeGreaterThanOrEqual(10);
    expect(await pingDatabase(db, 200)).toBe(false);
    await busy;
    expect(await pingDatabase(db, 200)).toBe(true);
  });
});

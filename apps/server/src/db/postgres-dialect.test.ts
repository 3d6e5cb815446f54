// The current-schema introspector against the real PostgreSQL: it sees its own schema's tables
// (what Kysely's Migrator asks), and other schemas dropped while it reads do not make it fail, as
// they made the stock introspector fail in a parallel test run.
import { Kysely, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PG_URL, postgresOrSkip } from '../testing/harness.ts';
import { withDefaultUser } from './database.ts';
import { CurrentSchemaPostgresDialect } from './postgres-dialect.ts';

const url = () => withDefaultUser(PG_URL).toString();
const name = (prefix: string) =>
  `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;

describe('CurrentSchemaPostgresDialect [postgres]', () => {
  const mine = name('pd');
  const other = name('po');
  let db: Kysely<unknown> | undefined;

  beforeAll(async () => {
    if (!(await postgresOrSkip('the introspector test'))) return;
    const pool = new pg.Pool({
      connectionString: url(),
      max: 2,
      options: `-c search_path=${mine}`,
    });
    db = new Kysely<unknown>({ dialect: new CurrentSchemaPostgresDialect({ pool }) });
    for (const s of [mine, other]) await sql`create schema ${sql.id(s)}`.execute(db);
    await sql`create table ${sql.id(mine)}.plots (
      id serial primary key, name text not null, area real, tag text default 'x'
    )`.execute(db);
    await sql`comment on column ${sql.id(mine)}.plots.area is 'hectares'`.execute(db);
    await sql`create view ${sql.id(mine)}.named as select name from ${sql.id(mine)}.plots`.execute(
      db,
    );
    await sql`create table ${sql.id(mine)}.kysely_migration (name text)`.execute(db);
    await sql`create table ${sql.id(other)}.theirs (id int)`.execute(db);
  });

  afterAll(async () => {
    if (!db) return;
    for (const s of [mine, other])
      await sql`drop schema if exists ${sql.id(s)} cascade`.execute(db);
    await db.destroy();
  });

  it('reads the tables, views and columns of the current schema only', async () => {
    if (!db) return;
    expect(await db.introspection.getSchemas()).toEqual([{ name: mine }]);
    const tables = await db.introspection.getTables();
    expect(tables.map((t) => [t.name, t.schema, t.isView])).toEqual([
      ['named', mine, true],
      ['plots', mine, false],
    ]);
    const plots = tables.find((t) => t.name === 'plots')!;
    expect(plots.columns).toEqual([
      {
        name: 'id',
        dataType: 'int4',
        dataTypeSchema: 'pg_catalog',
        isNullable: false,
        hasDefaultValue: true,
        isAutoIncrementing: true,
      },
      {
        name: 'name',
        dataType: 'text',
        dataTypeSchema: 'pg_catalog',
        isNullable: false,
        hasDefaultValue: false,
        isAutoIncrementing: false,
      },
      {
        name: 'area',
        dataType: 'float4',
        dataTypeSchema: 'pg_catalog',
        isNullable: true,
        hasDefaultValue: false,
        isAutoIncrementing: false,
        comment: 'hectares',
      },
      {
        name: 'tag',
        dataType: 'text',
        dataTypeSchema: 'pg_catalog',
        isNullable: true,
        hasDefaultValue: true,
        isAutoIncrementing: false,
      },
    ]);
    const all = await db.introspection.getTables({ withInternalKyselyTables: true });
    expect(all.map((t) => t.name)).toEqual(['kysely_migration', 'named', 'plots']);
  });

  it('keeps reading while other schemas are created and dropped', async () => {
    if (!db) return;
    const churn = new pg.Client({ connectionString: url() });
    await churn.connect();
    let done = false;
    const churning = (async () => {
      try {
        for (let i = 0; i < 60; i++) {
          const s = name(`pc${i}`);
          await churn.query(
            `create schema ${s}; create table ${s}.t (id serial primary key, a int)`,
          );
          await churn.query(`drop schema ${s} cascade`);
        }
      } finally {
        done = true;
      }
    })();
    const failures: string[] = [];
    let reads = 0;
    while (!done) {
      try {
        const names = (await db.introspection.getTables()).map((t) => t.name);
        if (names.join() !== 'named,plots') failures.push(names.join());
      } catch (err) {
        failures.push(String(err));
      }
      reads += 1;
    }
    await churning;
    await churn.end();
    expect(reads).toBeGreaterThan(0);
    expect(failures).toEqual([]);
  });
});

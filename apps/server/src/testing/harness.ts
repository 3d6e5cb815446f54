import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { CSRF_COOKIE } from '@diagrodl/contracts';
import { type App, type AppOptions, buildApp } from '../app.ts';
import { type Config, loadConfig } from '../config.ts';
import { withDefaultUser } from '../db/database.ts';

export const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://127.0.0.1:5432/test';

function pgClient(connectionTimeoutMillis?: number): pg.Client {
  return new pg.Client({
    connectionString: withDefaultUser(PG_URL).toString(),
    connectionTimeoutMillis,
  });
}

let pgAvailable: Promise<boolean> | undefined;
/** Whether PostgreSQL answers at TEST_DATABASE_URL (checked once per test file). */
export function postgresAvailable(): Promise<boolean> {
  pgAvailable ??= (async () => {
    const client = pgClient(3000);
    try {
      await client.connect();
      await client.query('select 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return pgAvailable;
}

/**
 * Whether a PostgreSQL test (`what`) can run: true when PostgreSQL answers; when it does not, an
 * error that names the test, or with ALLOW_NO_POSTGRES=1 a warning that it did not run and false.
 */
export async function postgresOrSkip(what: string): Promise<boolean> {
  if (await postgresAvailable()) return true;
  const msg = `PostgreSQL did not answer at ${PG_URL}: ${what} DID NOT RUN.`;
  if (process.env.ALLOW_NO_POSTGRES === '1') {
    console.warn(`\n*** ${msg} ***\n`);
    return false;
  }
  throw new Error(`${msg} Start PostgreSQL, or set ALLOW_NO_POSTGRES=1 to skip it.`);
}

export interface TestServer {
  app: App;
  baseUrl: string;
  dataDir: string;
  config: Config;
}

/** Starts the real server on a free port with its own data folder and database. */
export async function startTestServer(
  kind: 'sqlite' | 'postgres',
  env: Record<string, string> = {},
  options: AppOptions = {},
): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'diagrodl-test-'));
  let schema: string | undefined;
  if (kind === 'postgres') {
    schema = `t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  }
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...(schema ? { DATABASE_URL: `${PG_URL}?schema=${schema}` } : {}),
    ...env,
  });
  const app = await buildApp(config, options);
  await app.server.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const stop = app.close.bind(app);
  app.close = async () => {
    await stop();
    if (schema) {
      const client = pgClient();
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { app, baseUrl: `http://127.0.0.1:${port}`, dataDir, config };
}

/**
 * Runs the same API suite against SQLite and PostgreSQL. When PostgreSQL does not answer,
 * the PostgreSQL half fails loudly unless ALLOW_NO_POSTGRES=1 (then it says it did not run).
 */
export function describeEachDatabase(
  name: string,
  suite: (ctx: () => TestServer) => void,
  env: Record<string, string> = {},
): void {
  for (const kind of ['sqlite', 'postgres'] as const) {
    describe(`${name} [${kind}]`, () => {
      let server: TestServer | undefined;
      beforeAll(async () => {
        if (kind === 'postgres' && !(await postgresOrSkip('the PostgreSQL API suite'))) return;
        server = await startTestServer(kind, env);
      });
      afterAll(async () => {
        await server?.app.close();
      });
      suite(() => {
        if (!server) throw new Error('server not started (PostgreSQL unavailable)');
        return server;
      });
    });
  }
}

/** A tiny cookie-keeping HTTP client, like a browser tab, for API tests. */
export class Browser {
  private readonly jar = new Map<string, string>();
  constructor(private readonly baseUrl: string) {}

  get csrf(): string | undefined {
    return this.jar.get(CSRF_COOKIE);
  }

  cookie(name: string): string | undefined {
    return this.jar.get(name);
  }

  setCookie(name: string, value: string): void {
    this.jar.set(name, value);
  }

  async request(
    method: string,
    url: string,
    opts: {
      json?: unknown;
      body?: RequestInit['body'];
      headers?: Record<string, string>;
      csrf?: boolean;
      /** Aborting it ends the request (a client that goes away). */
      signal?: AbortSignal;
    } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (this.jar.size) {
      headers.cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    }
    if (opts.csrf !== false && this.csrf) headers['X-CSRFToken'] = this.csrf;
    let body = opts.body;
    if (opts.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.json);
    }
    const res = await fetch(`${this.baseUrl}${url}`, {
      method,
      headers,
      body,
      redirect: 'manual',
      signal: opts.signal,
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attrs.some((a) => /expires=thu, 01 jan 1970/i.test(a.trim())) || value === '';
      if (expired) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return res;
  }

  get(url: string, opts?: Parameters<Browser['request']>[2]): Promise<Response> {
    return this.request('GET', url, opts);
  }

  post(url: string, opts?: Parameters<Browser['request']>[2]): Promise<Response> {
    return this.request('POST', url, opts);
  }
}

/** A JSON reply body, loosely typed for assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;
export async function json(res: Response): Promise<Json> {
  return res.json();
}

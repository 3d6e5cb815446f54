/**
 * Shared by the benches that drive real server processes: start one (node + tsx on the
 * sources, the same buildApp as `npm start`), create a user, log a browser in, and a retrying
 * request like the page's (a request lost with a killed process is sent again).
 */
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { repoRoot } from '../../apps/server/src/config.ts';
import { Browser } from '../../apps/server/src/testing/harness.ts';

export const PASSWORD = 'Secreta-123456';

export interface ServerProcess {
  child: ChildProcessWithoutNullStreams;
  port: number;
  /** Everything it logged so far. */
  log: () => string;
}

export function quantile(values: readonly number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  if (!s.length) return NaN;
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo]! + (s[hi]! - s[lo]!) * (pos - lo);
}

/** A TCP port free on 127.0.0.1 now (the OS picks it). */
/** The number given after `name` on the command line (`--photos 200`), or `fallback`. */
export function numberOption(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Starts apps/server/src/main.ts on `port` with the environment; resolves once it is healthy. */
export async function startServer(
  port: number,
  env: Record<string, string>,
): Promise<ServerProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(repoRoot, 'apps/server/src/main.ts')],
    {
      cwd: repoRoot,
      env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'info', ...env },
    },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server on ${port} exited:\n${out}`);
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`server on ${port} did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { child, port, log: () => out };
}

export function kill9(p: ServerProcess): Promise<void> {
  return new Promise((resolve) => {
    if (p.child.exitCode !== null || p.child.signalCode !== null) return resolve();
    p.child.on('exit', () => resolve());
    p.child.kill('SIGKILL');
  });
}

/** Creates an account with the operators' CLI on the same database. */
export function createUser(env: Record<string, string>, userName: string): void {
  execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(repoRoot, 'apps/server/src/cli/create-user.ts'),
      '--user',
      userName,
      '--password',
      PASSWORD,
      '--first-name',
      'Banco',
      '--last-name',
      'Prueba',
      '--email',
      `${userName.toLowerCase()}@example.test`,
    ],
    { cwd: repoRoot, env: { ...process.env, ...env, LOG_LEVEL: 'silent' }, stdio: 'pipe' },
  );
}

/** A logged-in browser (cookies and CSRF header like the page). */
export async function logIn(baseUrl: string, userName: string): Promise<Browser> {
  const browser = new Browser(baseUrl);
  await browser.get('/api/session/');
  const res = await browser.post('/api/login/', {
    json: { username: userName, password: PASSWORD },
  });
  if (res.status !== 200) throw new Error(`login of ${userName} failed: ${res.status}`);
  return browser;
}

/** Counts of the user's requests: failures seen, and those still failed after the retries. */
export interface RetryStats {
  requests: number;
  failedOnce: number;
  failedForGood: number;
}

/**
 * Sends a request like the page does: a network error or a 502/503/504 (the process that
 * had it was killed) is sent again, up to 4 times.
 */
export async function withRetry(
  stats: RetryStats,
  send: () => Promise<Response>,
): Promise<Response> {
  stats.requests++;
  let failed = false;
  for (let attempt = 0; ; attempt++) {
    const res = await send().catch(() => null);
    if (res && ![502, 503, 504].includes(res.status)) return res;
    if (!failed) stats.failedOnce++;
    failed = true;
    if (attempt >= 4) {
      stats.failedForGood++;
      if (res) return res;
      throw new Error('request failed 5 times');
    }
    await new Promise((r) => setTimeout(r, 250 * (attempt + 1)));
  }
}

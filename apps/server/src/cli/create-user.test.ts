// The create-user command line: usage on --help, one clear line and exit code 2 for bad input
// (an unknown option, a bad environment, a weak password), exit code 1 for a user name or e-mail
// already registered, never a stack trace.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_MESSAGES } from '@diagrodl/contracts';
import { loadConfig, repoRoot } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { verifyPassword } from '../modules/users/passwords.ts';
import { UserRepository } from '../modules/users/user.repository.ts';

const TSX = path.join(repoRoot, 'node_modules', '.bin', 'tsx');
const CLI = path.join(repoRoot, 'apps', 'server', 'src', 'cli', 'create-user.ts');
const PASSWORD = 'Clave-Segura-2026';

describe('create-user CLI', { timeout: 120_000 }, () => {
  let dataDir = '';
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'diagrodl-create-user-'));
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const run = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(TSX, [CLI, ...args], {
      cwd: repoRoot,
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  const person = (
    user: string,
    password = PASSWORD,
    email = `${user.toLowerCase()}@example.test`,
  ) => [
    '--user',
    user,
    '--password',
    password,
    '--first-name',
    'Ana',
    '--last-name',
    'Prueba',
    '--email',
    email,
  ];
  const noStack = (stderr: string) => expect(stderr).not.toMatch(/^\s+at /m);

  it('prints its usage on --help', () => {
    const r = run(['--help']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^usage: create-user --user NAME --password PASS/);
  });

  it('refuses an unknown option and a bad environment in one message, exit code 2', () => {
    const unknown = run(['--bogus', ...person('Opcion01')]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/^create-user: Unknown option '--bogus'/);
    expect(unknown.stderr).toContain('usage: create-user');
    noStack(unknown.stderr);
    const env = run(person('Entorno01'), { PORT: 'abc' });
    expect(env.status).toBe(2);
    expect(env.stderr).toMatch(/^create-user: Invalid configuration:\n {2}- PORT: /);
    noStack(env.stderr);
    const missing = run(['--user', 'Falta01']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/--password PASS are required/);
  });

  it('applies the password rules of the change and reset forms', () => {
    for (const [password, problem] of [
      ['corta-1', 'tooShort'],
      ['sin-numeros-nunca', 'needsLetterAndDigit'],
      ['Reglas01-2026', 'containsUserName'],
    ] as const) {
      const r = run(person('Reglas01', password));
      expect(r.status, password).toBe(2);
      expect(r.stderr).toBe(`create-user: ${PASSWORD_MESSAGES[problem]}\n`);
    }
  });

  it('creates the account once; a second time is one line and exit code 1', async () => {
    const ok = run(person('Creada01'));
    expect(ok.status, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ id: expect.any(Number), userName: 'Creada01' });
    const again = run(person('creada01', PASSWORD, 'otra@example.test'));
    expect(again.status).toBe(1);
    expect(again.stderr).toBe(
      'create-user failed: That user name or e-mail is already registered.\n',
    );
    const db = await openDatabase(loadConfig({ DATA_DIR: dataDir }).database);
    try {
      const user = await new UserRepository(db.kysely).findByUserName('Creada01');
      expect(await verifyPassword(user?.password_hash, PASSWORD)).toBe(true);
    } finally {
      await db.close();
    }
  });
});

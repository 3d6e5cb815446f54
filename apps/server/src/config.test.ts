import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('has the embedded defaults', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8000);
    expect(c.database.kind).toBe('sqlite');
    expect(c.mediaDir.endsWith(path.join('data', 'media'))).toBe(true);
    expect(c.outboxDir.endsWith(path.join('data', 'outbox'))).toBe(true);
    expect(c.providerKey).toBe('DiAgro');
    expect(c.maintenance).toBe(false);
  });

  it('switches to PostgreSQL with DATABASE_URL and derives the provider key', () => {
    const c = loadConfig({
      DATABASE_URL: 'postgres://u@h:5432/db',
      PROVIDER_NAME: 'Agro Lab',
      MAINTENANCE: '1',
    });
    expect(c.database).toEqual({ kind: 'postgres', url: 'postgres://u@h:5432/db' });
    expect(c.providerKey).toBe('AgroLab');
    expect(c.maintenance).toBe(true);
  });

  it('names every bad variable', () => {
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', SESSION_SECRET: 'short' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const msg = (err as Error).message;
      expect(msg).toContain('PORT');
      expect(msg).toContain('DATABASE_URL');
      expect(msg).toContain('SESSION_SECRET');
    }
  });

  it('makes the server exit with code 1 and a clear message on a bad value', () => {
    const main = path.join(import.meta.dirname, 'main.ts');
    const r = spawnSync(process.execPath, ['--import', 'tsx', main], {
      env: { ...process.env, PORT: 'not-a-port' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('Invalid configuration');
    expect(r.stderr).toContain('PORT');
  });
});

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

describe('graceful shutdown', () => {
  it('on SIGTERM finishes, closes the database and exits 0', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'diagrodl-term-'));
    const port = 19000 + Math.floor(Math.random() * 500);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, 'main.ts')],
      {
        env: {
          ...process.env,
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          LOG_LEVEL: 'info',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    // started: Fastify logs the address it listens on (the event, not a clock)
    const listening = new Promise<void>((resolve, reject) => {
      const onData = (d: Buffer) => {
        output += d.toString();
        if (output.includes('Server listening at')) resolve();
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.on('exit', (code) =>
        reject(new Error(`server exited (${code}) before listening:\n${output}`)),
      );
    });
    await listening;
    expect((await fetch(`http://127.0.0.1:${port}/api/health`)).ok).toBe(true);
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => resolve(code)),
    );
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).toContain('SIGTERM: draining in-flight requests');
    // The database was closed cleanly: no WAL left behind for SQLite to recover.
    const wal = path.join(dataDir, 'diagrodl.sqlite-wal');
    expect(!fs.existsSync(wal) || fs.statSync(wal).size === 0).toBe(true);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});

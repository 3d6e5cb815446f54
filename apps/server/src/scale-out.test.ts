// The scale-out proof's short version (bench/scale-out/run.ts --short): two server processes on
// PostgreSQL behind HAProxy under wrk load, the one holding the identification killed with
// kill -9 mid-run; the other takes the run over, every photo is identified exactly once and no
// user request fails for good (README.md, "Benchmarks": bench/scale-out). Figures are printed, not asserted.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './config.ts';
import { PG_URL, postgresOrSkip } from './testing/harness.ts';

const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

describe('scale-out: two processes, one PostgreSQL, HAProxy, kill -9 mid-run', () => {
  it(
    'takes the run over, identifies each photo once, fails no user request for good',
    {
      timeout: 300_000,
    },
    async () => {
      if (!(await postgresOrSkip('the scale-out test'))) return;
      for (const cmd of ['haproxy', 'wrk']) {
        expect(has(cmd), `${cmd} is missing: apt-get install haproxy wrk`).toBe(true);
      }
      const run = spawnSync(
        process.execPath,
        ['--import', 'tsx', path.join(repoRoot, 'bench/scale-out/run.ts'), '--short'],
        { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, TEST_DATABASE_URL: PG_URL } },
      );
      expect(run.status, run.stderr).toBe(0);
      console.info(run.stderr.trim().split('\n').slice(-6).join('\n'));
      const line = run.stdout.split('\n').find((l) => l.startsWith('RESULT '));
      const r = JSON.parse(line!.slice('RESULT '.length));
      expect(r.killedHolder).toBe(true);
      expect(r.takeovers).toBeGreaterThanOrEqual(1);
      expect(r.progress).toEqual({ state: 'done', done: r.photos, total: r.photos });
      expect(r.exactlyOnce).toBe(true);
      expect(r.user.failedForGood).toBe(0);
      // at most the requests in flight on the killed process (one per wrk connection) may fail
      expect(r.wrk.non2xx + r.wrk.socketErrors).toBeLessThanOrEqual(16);
    },
  );
});

/**
 * Scale-out, proven (README: Design in a page): two server processes on one PostgreSQL database, one MEDIA_DIR
 * and one SESSION_SECRET, behind HAProxy (Debian's, started here). A user logs in through the
 * balancer, uploads photos and identifies them while `wrk` loads the balancer with
 * GET /api/session/; in the middle of the identification the process that holds the run is
 * killed with kill -9. Prints wrk's requests per second, p99 latency and errors, the user's
 * failed requests (before and after the page-like retry), how long the takeover took, and
 * whether every photo was identified exactly once; the last line is `RESULT {json}`.
 *
 *   npx tsx bench/scale-out/run.ts            # 20 photos, wrk for 30 s
 *   npx tsx bench/scale-out/run.ts --short    # 8 photos, wrk for 8 s (run by the tests)
 *
 * Needs haproxy and wrk (apt-get install haproxy wrk) and PostgreSQL at TEST_DATABASE_URL
 * (default postgres://127.0.0.1:5432/test).
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { DIAGNOSIS_PATHS as P } from '../../packages/contracts/src/index.ts';
import { withDefaultUser } from '../../apps/server/src/db/database.ts';
import {
  configForm,
  leafPhoto,
  predictForm,
  uploadForm,
} from '../../apps/server/src/testing/diagnosis.ts';
import {
  type RetryStats,
  type ServerProcess,
  createUser,
  freePort,
  kill9,
  logIn,
  startServer,
  withRetry,
} from '../lib/servers.ts';

const short = process.argv.includes('--short');
const PHOTOS = short ? 8 : 20;
const WRK_SECONDS = short ? 8 : 30;
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://127.0.0.1:5432/test';

function haproxyConfig(lb: number, ports: number[]): string {
  return `global
  maxconn 4096
defaults
  mode http
  option forwardfor
  timeout connect 1s
  timeout client 30s
  timeout server 30s
  # a request whose process died is sent to the other one
  retries 3
  option redispatch 1
  retry-on conn-failure empty-response response-timeout
  option http-buffer-request
frontend fe
  bind 127.0.0.1:${lb}
  default_backend be
backend be
  balance roundrobin
  option httpchk GET /api/health
  default-server inter 500ms fall 1 rise 2
${ports.map((p, i) => `  server s${i + 1} 127.0.0.1:${p} check`).join('\n')}
`;
}

/** Runs wrk against a URL; resolves with its text output. */
function runWrk(url: string, seconds: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const wrk = spawn('wrk', ['-t2', '-c16', `-d${seconds}s`, '--timeout', '5s', '--latency', url]);
    let out = '';
    wrk.stdout.on('data', (d: Buffer) => (out += d.toString()));
    wrk.stderr.on('data', (d: Buffer) => (out += d.toString()));
    wrk.on('error', reject);
    wrk.on('exit', () => resolve(out));
  });
}

function parseWrk(out: string) {
  const ms = (v: string | undefined) => {
    const m = /([\d.]+)(us|ms|s)/.exec(v ?? '');
    if (!m) return NaN;
    return Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1);
  };
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  return {
    requests: Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN),
    requestsPerSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN),
    p50Ms: ms(/\s50%\s+(\S+)/.exec(out)?.[1]),
    p99Ms: ms(/\s99%\s+(\S+)/.exec(out)?.[1]),
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
    socketErrors: socket ? socket.slice(1).reduce((a, b) => a + Number(b), 0) : 0,
  };
}

async function photos(n: number): Promise<Buffer[]> {
  // 2400 x 1800 photos: each takes long enough that the kill lands mid-run
  const out: Buffer[] = [];
  for (let i = 0; i < n; i++) {
    const small = await leafPhoto({ seed: i + 1, width: 320, height: 240 });
    out.push(await sharp(small).resize(2400, 1800).jpeg({ quality: 88 }).toBuffer());
  }
  return out;
}

async function main(): Promise<void> {
  const say = (m: string) => process.stderr.write(`${m}\n`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'diagrodl-scaleout-'));
  const schema = `scaleout_${process.pid}`;
  const env = {
    DATABASE_URL: `${PG_URL}?schema=${schema}`,
    MEDIA_DIR: path.join(work, 'media'),
    DATA_DIR: path.join(work, 'data'),
    SESSION_SECRET: crypto.randomBytes(32).toString('hex'),
    TRUST_PROXY: '1',
  };
  const servers: ServerProcess[] = [];
  let haproxy: ReturnType<typeof spawn> | undefined;
  try {
    const ports = [await freePort(), await freePort()];
    const lb = await freePort();
    say(`starting 2 servers (${ports.join(', ')}) on PostgreSQL schema ${schema}…`);
    servers.push(await startServer(ports[0]!, env));
    servers.push(await startServer(ports[1]!, env));
    createUser(env, 'Scaleout01');
    fs.writeFileSync(path.join(work, 'haproxy.cfg'), haproxyConfig(lb, ports));
    haproxy = spawn('haproxy', ['-db', '-f', path.join(work, 'haproxy.cfg')], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const base = `http://127.0.0.1:${lb}`;
    for (let i = 0; ; i++) {
      if (
        await fetch(`${base}/api/health`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      if (i > 100) throw new Error('haproxy did not come up');
      await new Promise((r) => setTimeout(r, 100));
    }
    const images = await photos(PHOTOS);

    say(`wrk on ${base}/api/session/ for ${WRK_SECONDS} s; the user works through the balancer…`);
    const wrkStarted = Date.now();
    const wrk = runWrk(`${base}/api/session/`, WRK_SECONDS);
    const stats: RetryStats = { requests: 0, failedOnce: 0, failedForGood: 0 };
    const browser = await logIn(base, 'Scaleout01');
    const configured = await withRetry(stats, () =>
      browser.post(P.config, { body: configForm('tomato_leaf_cnn_mobilenet') }),
    );
    if (configured.status !== 200) {
      throw new Error(`configuration: ${configured.status} ${await configured.text()}`);
    }
    for (let i = 0; i < images.length; i++) {
      const res = await withRetry(stats, () =>
        browser.post(P.posts, { body: uploadForm(images[i]!, `scale_${i}.jpg`) }),
      );
      if (res.status !== 200) throw new Error(`upload ${i}: ${res.status} ${await res.text()}`);
    }
    const predict = await withRetry(stats, () => browser.post(P.predict, { body: predictForm() }));
    if (predict.status !== 200)
      throw new Error(`predict: ${predict.status} ${await predict.text()}`);
    const holder = servers.find((s) => s.log().includes(`"url":"${P.predict}`));
    if (!holder) throw new Error('no server logged the predict request');

    let killedAt = 0;
    let doneAtKill = 0;
    let last = { state: 'running', done: 0, total: PHOTOS };
    for (;;) {
      const res = await withRetry(stats, () => browser.get(P.progress));
      last = (await res.json()) as typeof last;
      if (!killedAt && last.done >= Math.max(2, Math.floor(PHOTOS / 4))) {
        doneAtKill = last.done;
        await kill9(holder);
        killedAt = Date.now();
        say(
          `kill -9 of the process holding the run (port ${holder.port}) at ${last.done}/${PHOTOS}`,
        );
      }
      if (last.state !== 'running') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const finishedAt = Date.now();
    const rows = (await (await withRetry(stats, () => browser.get(P.posts))).json()) as {
      name_img: string;
    }[];
    const wrkOut = await wrk;
    const w = parseWrk(wrkOut);

    const client = new pg.Client({ connectionString: withDefaultUser(PG_URL).toString() });
    await client.connect();
    const q = await client.query<{ n: string; distinct_images: string; takeovers: string }>(
      `select (select count(*) from ${schema}.diagnosis_history) as n,
              (select count(distinct image_id) from ${schema}.diagnosis_history) as distinct_images,
              (select coalesce(max(takeovers), 0) from ${schema}.diagnosis_runs) as takeovers`,
    );
    await client.end();
    const db = q.rows[0]!;
    const names = rows.map((r) => r.name_img).sort();
    const expected = images.map((_, i) => `scale_${i}.jpg`).sort();
    const result = {
      photos: PHOTOS,
      wrkSeconds: WRK_SECONDS,
      progress: last,
      killedAtDone: doneAtKill,
      killedHolder: killedAt > 0,
      takeoverToDoneMs: killedAt ? finishedAt - killedAt : null,
      identificationSeconds: (finishedAt - wrkStarted) / 1000,
      exactlyOnce:
        Number(db.n) === PHOTOS &&
        Number(db.distinct_images) === PHOTOS &&
        JSON.stringify(names) === JSON.stringify(expected),
      historyRows: Number(db.n),
      takeovers: Number(db.takeovers),
      user: stats,
      wrk: w,
    };
    say('');
    say(
      `wrk: ${w.requests} requests, ${w.requestsPerSecond} req/s, p50 ${w.p50Ms} ms, p99 ${w.p99Ms} ms,`,
    );
    say(`     ${w.non2xx} non-2xx answers, ${w.socketErrors} socket errors`);
    say(
      `user: ${stats.requests} requests, ${stats.failedOnce} failed once (retried), ${stats.failedForGood} failed for good`,
    );
    say(
      `identification: ${last.state} ${last.done}/${last.total}; kill -9 at ${doneAtKill}, all done ${result.takeoverToDoneMs} ms later; takeovers ${result.takeovers}`,
    );
    say(`exactly once: ${result.exactlyOnce} (${db.n} history rows, ${db.distinct_images} images)`);
    process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
  } finally {
    haproxy?.kill('SIGTERM');
    for (const s of servers) await kill9(s);
    const client = new pg.Client({ connectionString: withDefaultUser(PG_URL).toString() });
    await client.connect();
    await client.query(`drop schema if exists ${schema} cascade`);
    await client.end();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();

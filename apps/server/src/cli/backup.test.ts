// `npm run backup` and `npm run restore` against a real running server on SQLite: a backup taken
// while a client uploads and identifies in a loop restores into a new DATA_DIR where the server
// starts; rows deleted between the snapshot and the copy; a backup killed while it writes; bad
// input (exit code 2, a clear message, nothing left half-written).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { DIAGNOSIS_PATHS as P } from '@diagrodl/contracts';
import { buildApp } from '../app.ts';
import { type Config, loadConfig, repoRoot } from '../config.ts';
import { Browser, type TestServer, json, startTestServer } from '../testing/harness.ts';
import {
  PASSWORD,
  configForm,
  leafPhoto,
  listFiles,
  loggedIn,
  predictForm,
  uploadForm,
  waitForRun,
} from '../testing/diagnosis.ts';
import { makeModelsDir } from '../testing/tiny-model.ts';
import type { Manifest } from './backup-format.ts';
import { createBackup } from './backup-snapshot.ts';

const CLI_DIR = path.join(repoRoot, 'apps', 'server', 'src', 'cli');

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `backup.ts` or `restore.ts` as a child process (never blocking this process, which
 * serves the test server meanwhile) on the environment `env` (over a clean one: no DATA_DIR,
 * MEDIA_DIR, DATABASE_URL or SESSION_SECRET from outside). `onStderr` sees stderr as it comes and
 * gets the child to kill it.
 */
function runCli(
  cli: 'backup' | 'restore',
  args: string[],
  env: Record<string, string>,
  onStderr?: (text: string, child: ReturnType<typeof spawn>) => void,
): Promise<Run> {
  const clean = { ...process.env };
  for (const k of ['DATA_DIR', 'MEDIA_DIR', 'DATABASE_URL', 'SESSION_SECRET', 'INIT_CWD']) {
    delete clean[k];
  }
  // one process (node with tsx's loader, not the tsx wrapper): SIGKILL reaches the CLI itself
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(CLI_DIR, `${cli}.ts`), ...args],
    {
      cwd: repoRoot,
      env: { ...clean, ...env },
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    onStderr?.(stderr, child);
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Every entry of a zip archive, with its bytes. */
async function readZip(file: string): Promise<Map<string, Buffer>> {
  const zip = await yauzl.openPromise(file);
  const out = new Map<string, Buffer>();
  for await (const entry of zip.eachEntry()) {
    const chunks: Buffer[] = [];
    for await (const c of await zip.openReadStreamPromise(entry)) chunks.push(c as Buffer);
    out.set(entry.fileName, Buffer.concat(chunks));
  }
  return out;
}

/** The media files the rows of a database file name (its own SQL, not the module's). */
function namedFiles(dbFile: string): { table: string; id: number; entry: string }[] {
  const db = new SQLite(dbFile, { readonly: true });
  try {
    const images = db
      .prepare('select id, user_id, file, heatmap_file from diagnosis_images')
      .all() as { id: number; user_id: number; file: string; heatmap_file: string | null }[];
    const history = db.prepare('select id, user_id, thumb_file from diagnosis_history').all() as {
      id: number;
      user_id: number;
      thumb_file: string;
    }[];
    return [
      ...images.map((r) => ({
        table: 'diagnosis_images',
        id: r.id,
        entry: `media/post_images/${r.user_id}/${r.file}`,
      })),
      ...images
        .filter((r) => r.heatmap_file)
        .map((r) => ({
          table: 'diagnosis_images',
          id: r.id,
          entry: `media/heatmaps/${r.user_id}/${r.heatmap_file}`,
        })),
      ...history.map((r) => ({
        table: 'diagnosis_history',
        id: r.id,
        entry: `media/thumbs/${r.user_id}/${r.thumb_file}`,
      })),
    ];
  } finally {
    db.close();
  }
}

/** Checks an archive whole: every entry's checksum and every row's files; returns its parts. */
async function checkArchive(
  file: string,
  work: string,
): Promise<{ manifest: Manifest; entries: Map<string, Buffer>; dbFile: string }> {
  const entries = await readZip(file);
  const manifest = JSON.parse((entries.get('manifest.json') as Buffer).toString()) as Manifest;
  expect([...entries.keys()].sort()).toEqual(
    [...manifest.files.map((f) => f.path), 'manifest.json'].sort(),
  );
  for (const f of manifest.files) {
    const bytes = entries.get(f.path) as Buffer;
    expect(bytes.length, f.path).toBe(f.size);
    expect(sha256(bytes), f.path).toBe(f.sha256);
  }
  const dbFile = path.join(work, `check-${Math.random().toString(36).slice(2)}.sqlite`);
  fs.writeFileSync(dbFile, entries.get('diagrodl.sqlite') as Buffer);
  const named = namedFiles(dbFile);
  expect(named.filter((n) => !entries.has(n.entry))).toEqual([]);
  return { manifest, entries, dbFile };
}

describe('backup and restore', { timeout: 240_000 }, () => {
  let models = '';
  let work = '';
  let server: TestServer;
  let env: Record<string, string>;
  let user: { browser: Browser; userId: number };

  /** Uploads `n` photos as `b` and identifies them. */
  const uploadAndIdentify = async (b: Browser, n: number, seed: number) => {
    for (let i = 0; i < n; i++) {
      const res = await b.post(P.posts, {
        body: uploadForm(await leafPhoto({ seed: seed + i }), `hoja ${seed + i}.jpg`),
      });
      expect(res.status).toBe(200);
    }
    expect((await b.post(P.predict, { body: predictForm() })).status).toBe(200);
    expect((await waitForRun(b)).state).toBe('done');
  };

  beforeAll(async () => {
    models = makeModelsDir(['mobilenet'], { threshold: { mobilenet: 0 } });
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'diagrodl-backup-test-'));
    server = await startTestServer('sqlite', { MODELS_DIR: models });
    env = { DATA_DIR: server.dataDir };
    user = await loggedIn(server.app, server.baseUrl, 'Respaldo01');
    expect(
      (await user.browser.post(P.config, { body: configForm('tomato_leaf_cnn_mobilenet') })).status,
    ).toBe(200);
    for (let k = 0; k < 4; k++) await uploadAndIdentify(user.browser, 4, 100 + k * 10);
    await user.browser.get(P.makeReport); // a report PDF: a file no row names
  });
  afterAll(async () => {
    await server?.app.close();
    fs.rmSync(work, { recursive: true, force: true });
    fs.rmSync(models, { recursive: true, force: true });
  });

  it('backs up while a client uploads and identifies; the restore serves the same photos', async () => {
    const other = await loggedIn(server.app, server.baseUrl, 'Respaldo02');
    expect(
      (await other.browser.post(P.config, { body: configForm('tomato_leaf_cnn_mobilenet') }))
        .status,
    ).toBe(200);
    // the client's loop: upload and identify; the other user starts anew every other round,
    // deleting photos and heatmaps while the backup copies
    let rounds = 0;
    let stop = false;
    const loop = (async () => {
      for (let k = 0; !stop; k++) {
        await uploadAndIdentify(user.browser, 2, 1000 + k * 10);
        if (k % 2 === 0) await uploadAndIdentify(other.browser, 1, 5000 + k);
        else expect((await other.browser.post(P.deleteRows)).status).toBe(200);
        rounds++;
      }
    })();
    const out = path.join(work, 'while-running.zip');
    let roundsAtSnapshot = -1;
    const run = await runCli(
      'backup',
      ['--out', out],
      { ...env, DIAGRODL_BACKUP_DELAY_MS: '40' },
      (text) => {
        if (roundsAtSnapshot < 0 && text.includes('snapshot taken')) roundsAtSnapshot = rounds;
      },
    );
    const roundsAtEnd = rounds;
    stop = true;
    await loop;
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^backup written: .*while-running\.zip \(\d+ files/);
    // the client kept uploading and identifying while the files were copied
    expect(roundsAtSnapshot).toBeGreaterThanOrEqual(0);
    expect(roundsAtEnd).toBeGreaterThan(roundsAtSnapshot);
    // written under its final name only: no temporary file left beside it
    expect(fs.readdirSync(work).filter((f) => f.includes('while-running'))).toEqual([
      'while-running.zip',
    ]);
    // it holds the session secret and every account: readable by its owner only
    expect(fs.statSync(out).mode & 0o777).toBe(0o600);

    const { manifest, entries, dbFile } = await checkArchive(out, work);
    expect(manifest).toMatchObject({ format: 'diagrodl-backup', version: 1 });
    expect(manifest.session_secret).toBe('file');
    expect(manifest.counts.diagnosis_images).toBeGreaterThanOrEqual(16);
    expect(entries.get('session-secret')?.toString()).toBe(
      fs.readFileSync(path.join(server.dataDir, '.session-secret'), 'utf8'),
    );
    // the report PDF of the first user is in it; no media file that no row names but reports
    expect([...entries.keys()].some((k) => k.startsWith(`media/reports/${user.userId}/`))).toBe(
      true,
    );
    const named = new Set(namedFiles(dbFile).map((n) => n.entry));
    const unnamed = [...entries.keys()].filter(
      (k) => k.startsWith('media/') && !k.startsWith('media/reports/') && !named.has(k),
    );
    // (only a row dropped halfway could leave one: its other file copied before)
    expect(unnamed.length).toBeLessThanOrEqual(manifest.dropped.length);
    // every file in the archive is byte for byte the live one, where the live one is still there
    for (const [name, bytes] of entries) {
      if (!name.startsWith('media/')) continue;
      const live = path.join(server.config.mediaDir, name.slice('media/'.length));
      if (fs.existsSync(live)) expect(sha256(fs.readFileSync(live)), name).toBe(sha256(bytes));
    }

    // restore into a new DATA_DIR, through npm run as an operator types it
    const target = path.join(work, 'restored');
    const restored = await new Promise<Run>((resolve, reject) => {
      const clean = { ...process.env };
      for (const k of ['DATA_DIR', 'MEDIA_DIR', 'DATABASE_URL', 'SESSION_SECRET']) delete clean[k];
      const child = spawn('npm', ['run', '-s', 'restore', '--', out, '--data-dir', target], {
        cwd: repoRoot,
        env: clean,
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    });
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toContain(`into ${target}`);
    expect(fs.readdirSync(work).filter((f) => f.includes('.restore-'))).toEqual([]);
    const restoredMedia = listFiles(path.join(target, 'media')).map((f) => `media/${f}`);
    expect(restoredMedia.sort()).toEqual(
      manifest.files
        .map((f) => f.path)
        .filter((p) => p.startsWith('media/'))
        .sort(),
    );
    expect(fs.readFileSync(path.join(target, '.session-secret'), 'utf8')).toBe(
      entries.get('session-secret')?.toString(),
    );

    // a server starts on it, healthy, and serves the user's restored photos
    const config: Config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: target,
      LOG_LEVEL: 'silent',
      MODELS_DIR: models,
    });
    const app = await buildApp(config);
    try {
      await app.server.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.server.address();
      const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      const health = await fetch(`${baseUrl}/api/health`);
      expect(health.status).toBe(200);
      expect(await json(health)).toMatchObject({ status: 'OK', database: { ok: true } });
      const b = new Browser(baseUrl);
      await b.get('/api/session/');
      expect(
        (await b.post('/api/login/', { json: { username: 'Respaldo01', password: PASSWORD } }))
          .status,
      ).toBe(200);
      const rows = await json(await b.get(P.posts));
      expect(rows.length).toBeGreaterThanOrEqual(16);
      for (const row of rows.slice(0, 3)) {
        const photo = await b.get(row.image);
        expect(photo.status, row.image).toBe(200);
        const bytes = Buffer.from(await photo.arrayBuffer());
        const entry = `media/post_images/${user.userId}/${path.basename(row.image)}`;
        expect(sha256(bytes)).toBe(manifest.files.find((f) => f.path === entry)?.sha256);
        expect((await b.get(row.heatmap)).status, row.heatmap).toBe(200);
      }
      const history = await json(await b.get(P.history));
      expect(history.length).toBeGreaterThanOrEqual(16);
      expect((await b.get(history[0].thumbnail)).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('leaves out, and lists, rows whose files their user deleted after the snapshot', async () => {
    const c = await loggedIn(server.app, server.baseUrl, 'Respaldo03');
    expect(
      (await c.browser.post(P.config, { body: configForm('tomato_leaf_cnn_mobilenet') })).status,
    ).toBe(200);
    await uploadAndIdentify(c.browser, 2, 7000);
    const [h1] = await json(await c.browser.get(P.history));
    const out = path.join(work, 'deleted-meanwhile.zip');
    const summary = await createBackup({
      config: server.config,
      out,
      hooks: {
        // the user deletes a history entry and starts anew between the snapshot and the copy
        afterSnapshot: async () => {
          expect((await c.browser.request('DELETE', P.historyItem(h1.id))).status).toBe(200);
          expect((await c.browser.post(P.deleteRows)).status).toBe(200);
        },
      },
    });
    const { manifest, entries, dbFile } = await checkArchive(out, work);
    expect(summary.manifest).toEqual(manifest);
    const db = new SQLite(dbFile, { readonly: true });
    try {
      const images = db
        .prepare('select id from diagnosis_images where user_id = ?')
        .all(c.userId) as { id: number }[];
      const history = db
        .prepare('select id from diagnosis_history where user_id = ?')
        .all(c.userId) as { id: number }[];
      // the deleted ones are gone from the archive too; the other history entry stays
      expect(images).toEqual([]);
      expect(history.map((h) => h.id)).not.toContain(h1.id);
      expect(history).toHaveLength(1);
      expect(manifest.dropped).toEqual(
        expect.arrayContaining([
          {
            table: 'diagnosis_history',
            id: h1.id,
            missing: expect.stringMatching(/^media\/thumbs\//),
          },
          {
            table: 'diagnosis_images',
            id: expect.any(Number),
            missing: expect.stringMatching(/^media\/post_images\//),
          },
        ]),
      );
      expect(manifest.dropped.filter((d) => d.table === 'diagnosis_images')).toHaveLength(2);
      expect(manifest.counts.diagnosis_history).toBe(
        (db.prepare('select count(*) as n from diagnosis_history').get() as { n: number }).n,
      );
    } finally {
      db.close();
    }
    expect(
      [...entries.keys()].filter(
        (k) =>
          k.startsWith(`media/post_images/${c.userId}/`) ||
          k.startsWith(`media/heatmaps/${c.userId}/`),
      ),
    ).toEqual([]);
  });

  it('a backup killed while it writes leaves no file under the final name', async () => {
    const out = path.join(work, 'killed', 'backup.zip');
    fs.mkdirSync(path.dirname(out));
    const run = await runCli(
      'backup',
      ['--out', out],
      { ...env, DIAGRODL_BACKUP_DELAY_MS: '1000' },
      (text, child) => {
        // the first progress line: files are going into the archive
        if (/backup: \d+\/\d+ files/.test(text)) child.kill('SIGKILL');
      },
    );
    expect(run.signal).toBe('SIGKILL');
    expect(fs.existsSync(out)).toBe(false);
    const left = fs.readdirSync(path.dirname(out));
    // it was killed while writing its temporary file, which is all it left
    expect(left.some((f) => f.startsWith('.backup.zip.partial-') && !f.endsWith('.sqlite'))).toBe(
      true,
    );
    expect(left.every((f) => f.startsWith('.backup.zip.partial-'))).toBe(true);
    // and the next backup to that name is whole
    const again = await runCli('backup', ['--out', out], env);
    expect(again.code, again.stderr).toBe(0);
    await checkArchive(out, work);
  });

  it('refuses bad backup input with a clear message and exit code 2', async () => {
    const exists = path.join(work, 'exists.zip');
    fs.writeFileSync(exists, 'x');
    const empty = path.join(work, 'no-data');
    const cases: [string[], Record<string, string>, RegExp][] = [
      [[], env, /--out FILE is required\nusage: npm run backup -- --out FILE/],
      [
        ['--out', path.join(work, 'x.zip'), '--bogus'],
        env,
        /Unknown option '--bogus'[\s\S]*usage:/,
      ],
      [['--out', exists], env, /already exists: a backup never overwrites a file/],
      [['--out', path.join(work, 'nowhere', 'x.zip')], env, /the folder for --out does not exist/],
      [['--out', path.join(work, 'x.zip'), '--data-dir', empty], env, /no database at .*no-data/],
      [
        ['--out', path.join(work, 'x.zip')],
        { ...env, DATABASE_URL: 'postgres://127.0.0.1:5432/prod' },
        /PostgreSQL: backup and restore handle the embedded mode \(SQLite\) only\. Back up PostgreSQL with pg_dump.*README\.md, section "Operating: backup and restore"/,
      ],
    ];
    for (const [args, e, message] of cases) {
      const r = await runCli('backup', args, e);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(message);
    }
    expect(fs.readFileSync(exists, 'utf8')).toBe('x');
    expect(fs.existsSync(path.join(work, 'x.zip'))).toBe(false);
    expect(fs.existsSync(empty)).toBe(false);
  });

  it('refuses a missing, corrupt, foreign or altered archive and a non-empty target (exit 2)', async () => {
    const good = path.join(work, 'good.zip');
    const { manifest } = await createBackup({ config: server.config, out: good });
    const bytes = fs.readFileSync(good);
    const truncated = path.join(work, 'truncated.zip');
    fs.writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const foreign = path.join(work, 'foreign.zip');
    await new Promise<void>((resolve, reject) => {
      const z = new yazl.ZipFile();
      z.addBuffer(Buffer.from('hola'), 'notas.txt');
      z.end();
      z.outputStream.pipe(fs.createWriteStream(foreign)).on('close', resolve).on('error', reject);
    });
    // one byte of a stored photo changed (its zip entry is stored, so its bytes are in the file)
    const photo = manifest.files.find((f) => f.path.startsWith('media/post_images/')) as {
      path: string;
    };
    const original = fs.readFileSync(
      path.join(server.config.mediaDir, photo.path.slice('media/'.length)),
    );
    const at = bytes.indexOf(original.subarray(0, 64));
    expect(at).toBeGreaterThan(0);
    const altered = Buffer.from(bytes);
    const flip = at + Math.floor(original.length / 2);
    altered[flip] = (altered[flip] as number) ^ 0xff;
    const tampered = path.join(work, 'tampered.zip');
    fs.writeFileSync(tampered, altered);
    const full = path.join(work, 'full');
    fs.mkdirSync(full);
    fs.writeFileSync(path.join(full, 'diagrodl.sqlite'), 'do not touch');

    const target = path.join(work, 'target');
    const cases: [string[], Record<string, string>, RegExp][] = [
      [['--data-dir', target], {}, /the archive to restore is required\nusage: npm run restore/],
      [[good, '--data-dir', target, '--force'], {}, /Unknown option '--force'/],
      [[path.join(work, 'none.zip'), '--data-dir', target], {}, /no such archive: .*none\.zip/],
      [[truncated, '--data-dir', target], {}, /truncated\.zip is not a zip archive or is damaged/],
      [[foreign, '--data-dir', target], {}, /foreign\.zip is not a DiAgroDL backup/],
      [
        [tampered, '--data-dir', target],
        {},
        new RegExp(`is damaged or was altered: ${photo.path} does not match its checksum`),
      ],
      [
        [good, '--data-dir', full],
        {},
        /full is not empty: restore only into an empty or new folder/,
      ],
      [
        [good, '--data-dir', target],
        { DATABASE_URL: 'postgres://127.0.0.1:5432/prod' },
        /PostgreSQL: backup and restore handle the embedded mode \(SQLite\) only/,
      ],
    ];
    for (const [args, e, message] of cases) {
      const r = await runCli('restore', args, e);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(message);
      // nothing restored, nothing half-extracted left
      expect(fs.existsSync(target), args.join(' ')).toBe(false);
      expect(fs.readdirSync(work).filter((f) => f.includes('.restore-'))).toEqual([]);
    }
    expect(fs.readdirSync(full)).toEqual(['diagrodl.sqlite']);
    expect(fs.readFileSync(path.join(full, 'diagrodl.sqlite'), 'utf8')).toBe('do not touch');
    // the good archive restores into an empty folder that exists already
    fs.mkdirSync(target);
    const ok = await runCli('restore', [good, '--data-dir', target], {});
    expect(ok.code, ok.stderr).toBe(0);
    expect(fs.readdirSync(target).sort()).toEqual(['.session-secret', 'diagrodl.sqlite', 'media']);
    // with MEDIA_DIR elsewhere, the media go there (it must be empty too)
    const apart = path.join(work, 'media-apart');
    const target2 = path.join(work, 'target2');
    const split = await runCli('restore', [good, '--data-dir', target2], { MEDIA_DIR: apart });
    expect(split.code, split.stderr).toBe(0);
    expect(split.stdout).toContain(`into ${target2} and ${apart}`);
    expect(fs.readdirSync(target2).sort()).toEqual(['.session-secret', 'diagrodl.sqlite']);
    expect(listFiles(apart).map((f) => `media/${f}`)).toEqual(
      manifest.files
        .map((f) => f.path)
        .filter((p) => p.startsWith('media/'))
        .sort(),
    );
    const again = await runCli('restore', [good, '--data-dir', path.join(work, 'target3')], {
      MEDIA_DIR: apart,
    });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/media-apart is not empty/);
    expect(fs.existsSync(path.join(work, 'target3'))).toBe(false);
  });
});

/**
 * "Mis datos" export and operator backup/restore on a user with thousands of photos (README:
 * "Mis datos", "Operating: backup and restore"). One server process (the sources, as `npm start`
 * runs them; no model loaded: none is needed) on a fresh DATA_DIR holding one user with N photos,
 * each with its heatmap and thumbnail, and a second user with 3. Prints:
 *   - GET /api/my_data/export/ for the first user: time to the first byte, total time, archive
 *     size, the server's RSS before and its peak during the download (read from
 *     /proc/<pid>/status, outside the server), and whether the zip holds exactly N photos,
 *     heatmaps and thumbnails (yauzl); then the same download by a client that stops reading
 *     for 5 s once 8 MB are in (a slow phone): the server's peak RSS must not grow with it;
 *   - `npm run backup` of that DATA_DIR while the server runs: time, archive size, peak RSS;
 *   - `npm run restore` of it into an empty folder: time, peak RSS, the restored row counts.
 * The CLIs' "RSS at rest" is the same command with --help (node, tsx and the modules loaded).
 * The last line is `RESULT {json}`.
 *
 *   npx tsx bench/data/run.ts [--photos 2000]
 *
 * Seeding: uploading N photos through HTTP and identifying them with a real model takes hours
 * on 2 cores. The photos go in through the server's own UploadService (the upload endpoint's
 * code: checks, MediaStore's atomic write, the row) and are identified by the server's own
 * IdentificationRunner (claims, runs, chunks, heatmap and thumbnail files, the result and
 * history rows in one transaction), on the same DATA_DIR before the server starts. Only the
 * network is replaced: a fixed classification per photo variant, whose heatmap and thumbnail
 * are rendered by the server's own photoImages(). The rows and files are exactly those the
 * server writes for an upload and an identification.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import SQLite from 'better-sqlite3';
import yauzl from 'yauzl';
import { CLASS_IDS } from '../../packages/contracts/src/classes.ts';
import { ENDPOINTS, UPLOAD_LIMITS } from '../../packages/contracts/src/index.ts';
import { loadConfig, repoRoot } from '../../apps/server/src/config.ts';
import { openDatabase } from '../../apps/server/src/db/database.ts';
import { photoImages } from '../../apps/server/src/images/photo-images.ts';
import { decodeRgb } from '../../apps/server/src/inference/preprocess.ts';
import { nowIso } from '../../apps/server/src/lib/tokens.ts';
import { ARCHIVE_FOLDERS } from '../../apps/server/src/modules/accounts/data-archive.ts';
import { DiagnosisRepository } from '../../apps/server/src/modules/diagnosis/diagnosis.repository.ts';
import {
  IdentificationRunner,
  type PhotoIdentifier,
} from '../../apps/server/src/modules/diagnosis/identification-runner.ts';
import { MediaStore } from '../../apps/server/src/modules/diagnosis/media.ts';
import { UploadService } from '../../apps/server/src/modules/diagnosis/upload.service.ts';
import { UserRepository } from '../../apps/server/src/modules/users/user.repository.ts';
import { leafPhoto } from '../../apps/server/src/testing/diagnosis.ts';
import type { Identified } from '../../apps/server/src/worker/model-worker.ts';
import type { Browser } from '../../apps/server/src/testing/harness.ts';
import {
  type ServerProcess,
  createUser,
  freePort,
  kill9,
  logIn,
  numberOption,
  startServer,
} from '../lib/servers.ts';

const PHOTOS = numberOption('--photos', 2000);
const OTHER_PHOTOS = 3;
/** Distinct photos (2000 x 1500 JPEG, ~400 KB each); the N uploads cycle through them. */
const VARIANTS = 8;
const PHOTO_SIZE = { width: 2000, height: 1500 };
const MODEL_ID = 'mobilenet';
const STALL_AFTER = 8 * 1024 * 1024;
const STALL_MS = 5000;
const CLI_DIR = path.join(repoRoot, 'apps', 'server', 'src', 'cli');

if (!Number.isInteger(PHOTOS) || PHOTOS < 1) throw new Error('--photos N: a whole number >= 1');

const say = (m: string) => process.stderr.write(`${m}\n`);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const sha1 = (b: Buffer) => createHash('sha1').update(b).digest('hex');

/* ---------------- seeding ---------------- */

/** A photo and what identification makes of it (heatmap and thumbnail by the server's code). */
interface Variant {
  photo: Buffer;
  identified: Identified;
}

async function variant(i: number): Promise<Variant> {
  const photo = await leafPhoto({ ...PHOTO_SIZE, seed: i + 1 });
  const cam = { width: 7, height: 7, data: new Float32Array(49) };
  for (let k = 0; k < 49; k++) cam.data[k] = ((k * 37 + i * 11) % 49) / 49;
  const label = CLASS_IDS[i % CLASS_IDS.length]!;
  const probabilities = CLASS_IDS.map((c) => (c === label ? 0.91 : 0.09 / (CLASS_IDS.length - 1)));
  const top3 = CLASS_IDS.map((c, k) => ({ label: c, probability: probabilities[k]! }))
    .sort((a, b) => b.probability - a.probability)
    .slice(0, 3);
  return {
    photo,
    identified: {
      probabilities,
      label,
      probability: 0.91,
      top3,
      accepted: true,
      reason: null,
      leafProbability: 0.97,
      labLike: 0.2,
      threshold: 0.5,
      cam,
      ...(await photoImages(await decodeRgb(photo), cam)),
    },
  };
}

/**
 * Uploads `count` photos for the user through UploadService (at most UPLOAD_LIMITS.maxPending
 * at a time, as the page must) and identifies each batch with IdentificationRunner; see the
 * module's comment.
 */
async function seed(
  env: Record<string, string>,
  userName: string,
  count: number,
  variants: Variant[],
): Promise<number> {
  const config = loadConfig(env);
  const db = await openDatabase(config.database);
  try {
    const repo = new DiagnosisRepository(db.kysely);
    const media = new MediaStore(config.mediaDir);
    const uploads = new UploadService(repo, media);
    const byContent = new Map(variants.map((v) => [sha1(v.photo), v.identified]));
    const models: PhotoIdentifier = {
      has: (id) => id === MODEL_ID,
      identify: async (_id, images) => images.map((b) => byContent.get(sha1(b)) ?? null),
    };
    const runner = new IdentificationRunner(repo, media, models, {
      error: (o, m) => say(`runner error: ${m ?? ''} ${String(o)}`),
      warn: (o, m) => say(`runner warning: ${m ?? ''} ${String(o)}`),
    });
    const user = await new UserRepository(db.kysely).findByUserName(userName);
    if (!user) throw new Error(`no user ${userName}`);
    await repo.saveSettings({
      user_id: user.id,
      cultivo: 'tomate',
      nivel: 'hoja',
      tipo_modelo: 'DL',
      modelo_version: 'tomato_leaf_cnn_mobilenet',
      model_id: MODEL_ID,
      updated_at: nowIso(),
    });
    for (let done = 0; done < count; ) {
      const batch = Math.min(UPLOAD_LIMITS.maxPending, count - done);
      for (let i = 0; i < batch; i++, done++) {
        await uploads.upload(user.id, {
          bytes: variants[done % variants.length]!.photo,
          filename: `hoja_${String(done + 1).padStart(5, '0')}.jpg`,
          nameImg: undefined,
        });
      }
      await runner.predict(user.id, { wait: true });
      if (done % 500 < batch || done === count) say(`  ${userName}: ${done}/${count} photos`);
    }
    await runner.close();
    return user.id;
  } finally {
    await db.close();
  }
}

/* ---------------- memory, from outside the process ---------------- */

/** VmRSS and VmHWM (peak) of a process in bytes, or null once it is gone. */
function procMemory(pid: number): { rss: number; peak: number } | null {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text)?.[1]);
  const rss = kb('VmRSS') * 1024;
  const peak = kb('VmHWM') * 1024;
  // a process that has exited but is not reaped yet (a zombie) has no memory lines
  return Number.isFinite(rss) && Number.isFinite(peak) ? { rss, peak } : null;
}

/**
 * Watches a process's memory every 10 ms until stop(). With `resetPeak`, the kernel's peak
 * (VmHWM) is first reset to the current RSS (`echo 5 > /proc/<pid>/clear_refs`), so the peak
 * read at the end is the peak of the watched span alone; where that is refused, only the
 * samples count (and a peak between two samples can be missed).
 */
function watchMemory(pid: number, resetPeak: boolean) {
  const start = procMemory(pid);
  let peakResettable = false;
  if (resetPeak) {
    try {
      fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
      peakResettable = true;
    } catch {
      peakResettable = false;
    }
  }
  let peak = start?.rss ?? 0;
  let kernelPeak = 0;
  const sample = () => {
    const m = procMemory(pid);
    if (!m) return;
    peak = Math.max(peak, m.rss);
    if (peakResettable || !resetPeak) kernelPeak = Math.max(kernelPeak, m.peak);
  };
  const timer = setInterval(sample, 10);
  return {
    before: start?.rss ?? NaN,
    stop(): number {
      sample();
      clearInterval(timer);
      return Math.max(peak, kernelPeak);
    },
  };
}

/* ---------------- the export ---------------- */

interface Download {
  firstByteMs: number;
  totalMs: number;
  bytes: number;
  rssBefore: number;
  rssPeak: number;
}

/** Downloads the user's archive into `file`, optionally stopping to read for a while. */
async function download(
  browser: Browser,
  server: ServerProcess,
  file: string,
  stall?: { afterBytes: number; ms: number },
): Promise<Download> {
  // let the server settle (the login's argon2, the garbage of start-up)
  await new Promise((r) => setTimeout(r, 1000));
  const memory = watchMemory(server.child.pid!, true);
  const t0 = performance.now();
  const res = await browser.get(ENDPOINTS.myDataExport.path);
  if (res.status !== 200 || !res.body) throw new Error(`export: ${res.status}`);
  let firstByteMs = NaN;
  let bytes = 0;
  let stalled = false;
  const counter = new Transform({
    transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
      if (!bytes) firstByteMs = performance.now() - t0;
      bytes += chunk.length;
      if (stall && !stalled && bytes >= stall.afterBytes) {
        stalled = true;
        setTimeout(() => done(null, chunk), stall.ms);
      } else done(null, chunk);
    },
  });
  await pipeline(
    Readable.fromWeb(res.body as Parameters<typeof Readable.fromWeb>[0]),
    counter,
    fs.createWriteStream(file),
  );
  const totalMs = performance.now() - t0;
  const rssPeak = memory.stop();
  return { firstByteMs, totalMs, bytes, rssBefore: memory.before, rssPeak };
}

/** Entries of a zip per top folder ('' for files at the top). */
async function zipCounts(file: string): Promise<Record<string, number>> {
  const zip = await yauzl.openPromise(file);
  const counts: Record<string, number> = {};
  try {
    for await (const entry of zip.eachEntry()) {
      const top = entry.fileName.includes('/') ? entry.fileName.split('/')[0]! : '';
      counts[top] = (counts[top] ?? 0) + 1;
    }
  } finally {
    await zip.close();
  }
  return counts;
}

/* ---------------- the command lines ---------------- */

interface CliRun {
  ms: number;
  rssPeak: number;
  stdout: string;
}

/**
 * Runs backup.ts or restore.ts as `npm run backup` / `restore` do, but as one process (node with
 * tsx's loader, no npm or tsx wrapper), so that /proc/<pid> is the command itself.
 */
function runCli(cli: 'backup' | 'restore', args: string[], dataDir: string): Promise<CliRun> {
  const env: Record<string, string | undefined> = { ...process.env, DATA_DIR: dataDir };
  for (const k of ['MEDIA_DIR', 'DATABASE_URL', 'SESSION_SECRET', 'INIT_CWD']) delete env[k];
  const t0 = performance.now();
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(CLI_DIR, `${cli}.ts`), ...args],
    { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const memory = watchMemory(child.pid!, false);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    // 'exit' comes before the process is reaped; the last samples were taken while it ran
    child.on('exit', (code) => {
      const rssPeak = memory.stop();
      const ms = performance.now() - t0;
      if (code !== 0) reject(new Error(`${cli} ${args.join(' ')}: exit ${code}\n${stderr}`));
      else resolve({ ms, rssPeak, stdout });
    });
  });
}

/* ---------------- main ---------------- */

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map((r) => r.map((cell, c) => cell.padEnd(widths[c]!)).join('  ')).join('\n');
}

async function main(): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'diagrodl-data-'));
  const dataDir = path.join(work, 'data');
  const modelsDir = path.join(work, 'no-models');
  fs.mkdirSync(modelsDir);
  // '' unsets what the caller's environment may hold (loadConfig ignores empty values)
  const env = {
    DATA_DIR: dataDir,
    MODELS_DIR: modelsDir,
    MEDIA_DIR: '',
    DATABASE_URL: '',
    SESSION_SECRET: '',
  };
  let server: ServerProcess | undefined;
  try {
    say(`seeding ${PHOTOS} photos (+ ${OTHER_PHOTOS} of another user) into ${dataDir}…`);
    const t = performance.now();
    const variants: Variant[] = [];
    for (let i = 0; i < VARIANTS; i++) variants.push(await variant(i));
    createUser(env, 'Datos01');
    createUser(env, 'Datos02');
    const userId = await seed(env, 'Datos01', PHOTOS, variants);
    await seed(env, 'Datos02', OTHER_PHOTOS, variants);
    const seedMs = performance.now() - t;
    const avg = (k: 'photo' | 'heatmap' | 'thumbnail') =>
      variants.reduce(
        (n, v) => n + (k === 'photo' ? v.photo : v.identified[k]).length / variants.length,
        0,
      );
    say(
      `seeded in ${secs(seedMs)}: photo ${(avg('photo') / 1024).toFixed(0)} KB, heatmap ` +
        `${(avg('heatmap') / 1024).toFixed(0)} KB, thumbnail ${(avg('thumbnail') / 1024).toFixed(1)} KB`,
    );

    server = await startServer(await freePort(), env);
    const browser = await logIn(`http://127.0.0.1:${server.port}`, 'Datos01');

    say('export at full speed…');
    const zipFile = path.join(work, 'export.zip');
    const fast = await download(browser, server, zipFile);
    const counts = await zipCounts(zipFile);
    const folder = (k: keyof typeof ARCHIVE_FOLDERS) => counts[ARCHIVE_FOLDERS[k]] ?? 0;
    const exportOk =
      folder('post_images') === PHOTOS &&
      folder('heatmaps') === PHOTOS &&
      folder('thumbs') === PHOTOS;
    fs.rmSync(zipFile);
    say(`export with a client that stops reading for ${STALL_MS / 1000} s…`);
    const slow = await download(browser, server, zipFile, { afterBytes: STALL_AFTER, ms: STALL_MS });
    fs.rmSync(zipFile);

    say('backup (the server running)…');
    const backupFile = path.join(work, 'backup.zip');
    const backupIdle = await runCli('backup', ['--help'], dataDir);
    const backup = await runCli('backup', ['--out', backupFile], dataDir);
    const backupBytes = fs.statSync(backupFile).size;
    await kill9(server);
    server = undefined;

    say('restore into an empty folder…');
    const restoreDir = path.join(work, 'restored');
    const restoreIdle = await runCli('restore', ['--help'], restoreDir);
    const restore = await runCli('restore', [backupFile, '--data-dir', restoreDir], restoreDir);
    const restored = new SQLite(path.join(restoreDir, 'diagrodl.sqlite'), { readonly: true });
    const n = (q: string) => (restored.prepare(q).get(userId) as { n: number }).n;
    const restoredImages = n('select count(*) as n from diagnosis_images where user_id = ?');
    const restoredHistory = n('select count(*) as n from diagnosis_history where user_id = ?');
    restored.close();
    const restoredPhotos = fs.readdirSync(
      path.join(restoreDir, 'media', 'post_images', String(userId)),
    ).length;
    const restoreOk =
      restoredImages === PHOTOS && restoredHistory === PHOTOS && restoredPhotos === PHOTOS;

    const result = {
      photos: PHOTOS,
      seedSeconds: seedMs / 1000,
      export: { ...fast, entries: counts, exactlyNPhotos: exportOk },
      exportStalled: { ...slow, stallMs: STALL_MS, stallAfterBytes: STALL_AFTER },
      backup: { ms: backup.ms, bytes: backupBytes, rssPeak: backup.rssPeak, rssAtRest: backupIdle.rssPeak },
      restore: {
        ms: restore.ms,
        rssPeak: restore.rssPeak,
        rssAtRest: restoreIdle.rssPeak,
        images: restoredImages,
        history: restoredHistory,
        photoFiles: restoredPhotos,
      },
    };
    console.log(
      `\n"Mis datos" export and backup/restore: one user with ${PHOTOS} photos ` +
        `(${PHOTO_SIZE.width}x${PHOTO_SIZE.height} JPEG), their heatmaps and thumbnails; ` +
        `another with ${OTHER_PHOTOS}.\n`,
    );
    console.log(
      table([
        ['step', 'time', 'first byte', 'size', 'RSS at rest', 'peak RSS'],
        [
          'export',
          secs(fast.totalMs),
          `${fast.firstByteMs.toFixed(0)} ms`,
          mb(fast.bytes),
          mb(fast.rssBefore),
          mb(fast.rssPeak),
        ],
        [
          `export, client stalls ${STALL_MS / 1000} s`,
          secs(slow.totalMs),
          `${slow.firstByteMs.toFixed(0)} ms`,
          mb(slow.bytes),
          mb(slow.rssBefore),
          mb(slow.rssPeak),
        ],
        ['backup CLI', secs(backup.ms), '', mb(backupBytes), mb(backupIdle.rssPeak), mb(backup.rssPeak)],
        ['restore CLI', secs(restore.ms), '', '', mb(restoreIdle.rssPeak), mb(restore.rssPeak)],
      ]),
    );
    console.log(
      `\nexport: ${folder('post_images')} photos, ${folder('heatmaps')} heatmaps, ` +
        `${folder('thumbs')} thumbnails (${exportOk ? 'OK' : `WRONG: expected ${PHOTOS} each`}); ` +
        `restore: ${restoredImages} images, ${restoredHistory} history rows, ${restoredPhotos} ` +
        `photo files (${restoreOk ? 'OK' : 'WRONG'})`,
    );
    console.log('RSS at rest: the server before the download; the CLIs with --help.');
    console.log(`RESULT ${JSON.stringify(result)}`);
    if (!exportOk || !restoreOk) process.exitCode = 1;
  } finally {
    if (server) await kill9(server);
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();

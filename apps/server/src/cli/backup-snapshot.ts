/**
 * `npm run backup` (backup.ts) does its work here: a backup archive (backup-format.ts) of the
 * embedded mode, taken while the server runs.
 *
 * Consistency. The server writes a media file (temp file, rename) before a row names it, and
 * deletes a row before its file. So:
 * 1. The database is copied first with `VACUUM INTO`: one read transaction, a consistent point in
 *    time that the server's writes (WAL mode) neither block nor restart (the step-wise backup
 *    API starts again whenever another connection writes, which a busy server does all the time).
 * 2. Then the files the snapshot's rows name (photos, heatmaps, thumbnails) are copied, and the
 *    reports (PDFs no row names) of the snapshot's users. Files written after the snapshot are
 *    left out: no row of the archive names them, and ids after the snapshot are handed out again
 *    after a restore, so such a file could later be taken for another photo's.
 * 3. A row whose file is gone by the time it is copied was deleted by its user after the
 *    snapshot (the row goes first, then the file): the row is deleted from the archived database
 *    too, as in the live one, and listed in the manifest's `dropped`. Every row of the archive
 *    has its files.
 * The archive is written to `.<name>.partial-<random>` beside the final name, fsynced, and only
 * then renamed to it (and the folder fsynced): a backup that is killed leaves no file under the
 * final name.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import SQLite from 'better-sqlite3';
import yazl from 'yazl';
import type { Config } from '../config.ts';
import { SESSION_SECRET_FILE } from '../lib/secret.ts';
import { nowIso, randomToken } from '../lib/tokens.ts';
import { MediaStore } from '../modules/diagnosis/media.ts';
import {
  DB_ENTRY,
  type DroppedRow,
  type FileEntry,
  FORMAT,
  Hasher,
  MANIFEST_ENTRY,
  type Manifest,
  type MediaRef,
  POSTGRES_MESSAGE,
  SECRET_ENTRY,
  VERSION,
  fsyncPath,
  mediaEntry,
  quickCheck,
  rowsWithFiles,
} from './backup-format.ts';
import { OperatorError } from './operator.ts';

function count(db: SQLite.Database, table: string): number {
  return (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
}

/** Opens a file for reading, or null when it is gone. */
async function openIfThere(p: string): Promise<fs.promises.FileHandle | null> {
  try {
    return await fs.promises.open(p, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

export interface BackupOptions {
  config: Config;
  /** The archive to write (must not exist; its folder must). */
  out: string;
  /** Progress lines (stderr in the CLI). */
  log?: (line: string) => void;
  /** Test seams: after the database snapshot, and after each media file is in the archive. */
  hooks?: { afterSnapshot?: () => Promise<void>; afterFile?: () => Promise<void> };
}

export interface BackupSummary {
  out: string;
  manifest: Manifest;
  bytes: number;
}

/** Writes a backup archive of the embedded mode; see the module's comment. */
export async function createBackup(opts: BackupOptions): Promise<BackupSummary> {
  const { config } = opts;
  const log = opts.log ?? (() => undefined);
  if (config.database.kind !== 'sqlite') throw new OperatorError(POSTGRES_MESSAGE);
  const out = path.resolve(opts.out);
  const folder = path.dirname(out);
  if (!fs.statSync(folder, { throwIfNoEntry: false })?.isDirectory()) {
    throw new OperatorError(`the folder for --out does not exist: ${folder}`);
  }
  if (fs.existsSync(out)) {
    throw new OperatorError(`${out} already exists: a backup never overwrites a file`);
  }
  const dbFile = config.database.file;
  if (!fs.statSync(dbFile, { throwIfNoEntry: false })?.isFile()) {
    throw new OperatorError(`no database at ${dbFile}: nothing to back up (is DATA_DIR right?)`);
  }
  const partial = path.join(folder, `.${path.basename(out)}.partial-${randomToken(6)}`);
  const snapshotFile = `${partial}.sqlite`;
  try {
    // 1. the database, at one point in time
    const live = new SQLite(dbFile, { readonly: true, fileMustExist: true });
    try {
      live.pragma('busy_timeout = 10000');
      live.prepare('VACUUM INTO ?').run(snapshotFile);
    } finally {
      live.close();
    }
    const takenAt = nowIso();
    await opts.hooks?.afterSnapshot?.();
    const snapshot = new SQLite(snapshotFile);
    let manifest: Manifest;
    try {
      if (!quickCheck(snapshot)) throw new Error(`the snapshot of ${dbFile} fails SQLite's check`);
      manifest = await writeArchive(config, snapshot, snapshotFile, takenAt, partial, opts, log);
    } finally {
      if (snapshot.open) snapshot.close();
    }
    // 4. durable, then under its name
    await fsyncPath(partial);
    await fs.promises.rename(partial, out);
    await fsyncPath(folder);
    const bytes = (await fs.promises.stat(out)).size;
    return { out, manifest, bytes };
  } finally {
    await fs.promises.rm(partial, { force: true });
    for (const suffix of ['', '-journal', '-wal', '-shm']) {
      await fs.promises.rm(`${snapshotFile}${suffix}`, { force: true });
    }
  }
}

async function writeArchive(
  config: Config,
  snapshot: SQLite.Database,
  snapshotFile: string,
  takenAt: string,
  partial: string,
  opts: BackupOptions,
  log: (line: string) => void,
): Promise<Manifest> {
  const media = new MediaStore(config.mediaDir);
  const zip = new yazl.ZipFile();
  const zipFailed = new Promise<never>((_, reject) => zip.on('error', reject));
  zipFailed.catch(() => undefined); // raced below; never unhandled
  const written = pipeline(
    zip.outputStream,
    fs.createWriteStream(partial, { flags: 'wx', mode: 0o600 }),
  );
  written.catch(() => undefined);
  const files: FileEntry[] = [];

  /** Adds one entry read from `source`, hashing it on the way; resolves once it is in. */
  const add = async (
    name: string,
    source: Readable,
    options: { compress: boolean; mtime?: Date },
  ): Promise<void> => {
    const hasher = new Hasher();
    source.on('error', (err) => hasher.destroy(err));
    zip.addReadStream(source.pipe(hasher), name, options);
    await Promise.race([finished(hasher), zipFailed, written]);
    files.push({ path: name, size: hasher.size, sha256: hasher.digest() });
  };
  /** Adds a media file when it is still there; false when it is gone. */
  const addMedia = async (ref: MediaRef): Promise<boolean> => {
    const p = media.resolve(ref.kind, ref.userId, ref.file);
    const fh = p ? await openIfThere(p) : null;
    if (!fh) return false;
    try {
      const { mtime } = await fh.stat();
      // photos, heatmaps and PDFs are compressed already
      await add(mediaEntry(ref), fh.createReadStream({ autoClose: false }), {
        compress: false,
        mtime,
      });
    } finally {
      await fh.close();
    }
    await opts.hooks?.afterFile?.();
    return true;
  };

  // 2. the files the snapshot's rows name; a row whose file is gone was deleted after it
  const rows = rowsWithFiles(snapshot);
  const userIds = (
    snapshot.prepare('select id from users order by id').all() as { id: number }[]
  ).map((u) => u.id);
  const total = rows.reduce((n, r) => n + r.files.length, 0);
  log(
    `backup: snapshot taken (${userIds.length} users, ${count(snapshot, 'diagnosis_images')} ` +
      `images, ${count(snapshot, 'diagnosis_history')} history rows); copying ${total} files`,
  );
  const dropped: DroppedRow[] = [];
  let copied = 0;
  let nextReport = 1; // the first file, then every tenth
  for (const row of rows) {
    let gone: MediaRef | undefined = row.files.find((f) => {
      const p = media.resolve(f.kind, f.userId, f.file);
      return !p || !fs.existsSync(p);
    });
    for (const f of gone ? [] : row.files) {
      if (!(await addMedia(f))) {
        gone = f;
        break;
      }
      copied++;
      if (copied >= nextReport || copied === total) {
        log(`backup: ${copied}/${total} files`);
        nextReport = copied + Math.max(1, Math.ceil(total / 10));
      }
    }
    if (gone) dropped.push({ table: row.table, id: row.id, missing: mediaEntry(gone) });
  }
  // the reports no row names: those of the snapshot's users that are there now
  for (const userId of userIds) {
    const names = await fs.promises.readdir(media.dir('reports', userId)).catch(() => []);
    for (const file of names.sort()) {
      if (media.resolve('reports', userId, file)) {
        await addMedia({ kind: 'reports', userId, file });
      }
    }
  }
  if (dropped.length) {
    const del = {
      diagnosis_images: snapshot.prepare('delete from diagnosis_images where id = ?'),
      diagnosis_history: snapshot.prepare('delete from diagnosis_history where id = ?'),
    };
    snapshot.transaction(() => {
      for (const d of dropped) del[d.table].run(d.id);
    })();
    log(
      `backup: ${dropped.length} rows left out: their files were deleted after the snapshot ` +
        '(listed in the manifest under "dropped")',
    );
  }
  const counts = {
    users: userIds.length,
    diagnosis_images: count(snapshot, 'diagnosis_images'),
    diagnosis_history: count(snapshot, 'diagnosis_history'),
  };
  snapshot.close();

  // 3. the database, the session secret, the manifest
  await add(DB_ENTRY, fs.createReadStream(snapshotFile), { compress: true });
  const secretFile = path.join(config.dataDir, SESSION_SECRET_FILE);
  let sessionSecret: Manifest['session_secret'] = config.sessionSecret ? 'environment' : 'none';
  const secret = await openIfThere(secretFile);
  if (secret) {
    try {
      await add(SECRET_ENTRY, secret.createReadStream({ autoClose: false }), { compress: true });
      sessionSecret = 'file';
    } finally {
      await secret.close();
    }
  }
  const manifest: Manifest = {
    format: FORMAT,
    version: VERSION,
    created_at: takenAt,
    source: { data_dir: config.dataDir, media_dir: config.mediaDir },
    session_secret: sessionSecret,
    counts,
    dropped,
    files,
  };
  zip.addBuffer(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), MANIFEST_ENTRY);
  zip.end();
  await Promise.race([written, zipFailed]);
  return manifest;
}

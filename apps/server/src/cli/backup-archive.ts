/**
 * Backup and restore of the embedded mode (SQLite file, media folder, session secret) as one zip
 * archive, taken while the server runs. `backup.ts` and `restore.ts` are the command lines
 * (`npm run backup`, `npm run restore`); this module does the work and is what the tests call.
 *
 * The archive: `diagrodl.sqlite` (the snapshot), `media/<kind>/<userId>/<file>`, `session-secret`
 * (when DATA_DIR holds one) and `manifest.json` (format, version, counts, the rows left out and
 * the size and sha256 of every other entry).
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
 *
 * Restore checks everything before it touches the target: the archive is a zip with a manifest
 * of this format, every entry is listed there with its size and sha256 (and nothing else is in
 * it), the database passes SQLite's quick check and every file its rows name is in the archive.
 * It extracts into a temporary folder beside DATA_DIR (and beside MEDIA_DIR when that is
 * elsewhere) and renames it into place only when all of that holds; the target must be empty.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type Readable, Transform, type TransformCallback } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import SQLite from 'better-sqlite3';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { z } from 'zod';
import type { MediaKind } from '@diagrodl/contracts';
import { type Config, ConfigError, loadConfig } from '../config.ts';
import { SESSION_SECRET_FILE } from '../lib/secret.ts';
import { nowIso, randomToken } from '../lib/tokens.ts';
import { MediaStore } from '../modules/diagnosis/media.ts';

export const FORMAT = 'diagrodl-backup';
export const VERSION = 1;
export const MANIFEST_ENTRY = 'manifest.json';
export const DB_ENTRY = 'diagrodl.sqlite';
export const SECRET_ENTRY = 'session-secret';
const README_SECTION = 'README.md, section "Operating: backup and restore"';

/** Bad input (arguments, archive, target, mode): the message is for the operator, exit code 2. */
export class OperatorError extends Error {
  constructor(
    message: string,
    /** Whether the command's usage line should follow the message (a wrong command line). */
    readonly usage = false,
  ) {
    super(message);
    this.name = 'OperatorError';
  }
}

/**
 * Runs an operator command: relative paths from where it was typed (`npm run` changes to the
 * repository root; INIT_CWD is where the command was typed); bad input (an OperatorError, or an
 * option parseArgs refuses) prints its message and exits 2, anything else prints and exits 1.
 */
export async function runOperatorCli(
  name: string,
  usage: string,
  main: () => Promise<void>,
): Promise<void> {
  if (process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
  try {
    await main();
  } catch (err) {
    const parseError = String((err as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS');
    if (err instanceof OperatorError || parseError) {
      const withUsage = parseError || (err as OperatorError).usage;
      process.stderr.write(`${name}: ${(err as Error).message}\n${withUsage ? `${usage}\n` : ''}`);
      process.exitCode = 2;
      return;
    }
    process.stderr.write(`${name} failed: ${(err as Error).message}\n`);
    process.exitCode = 1;
  }
}

export const POSTGRES_MESSAGE =
  'DATABASE_URL points to PostgreSQL: backup and restore handle the embedded mode (SQLite) only. ' +
  `Back up PostgreSQL with pg_dump, the media folder and the session secret as ${README_SECTION} says.`;

const FileEntrySchema = z.object({
  path: z.string().min(1),
  size: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type FileEntry = z.infer<typeof FileEntrySchema>;

const DroppedSchema = z.object({
  table: z.enum(['diagnosis_images', 'diagnosis_history']),
  id: z.number().int(),
  missing: z.string(),
});
export type DroppedRow = z.infer<typeof DroppedSchema>;

const ManifestSchema = z.object({
  format: z.literal(FORMAT),
  version: z.literal(VERSION),
  /** When the database snapshot was taken. */
  created_at: z.string(),
  source: z.object({ data_dir: z.string(), media_dir: z.string() }),
  /** 'file': the generated secret is in the archive; 'environment': SESSION_SECRET was set. */
  session_secret: z.enum(['file', 'environment', 'none']),
  counts: z.object({
    users: z.number().int(),
    diagnosis_images: z.number().int(),
    diagnosis_history: z.number().int(),
  }),
  dropped: z.array(DroppedSchema),
  files: z.array(FileEntrySchema),
});
export type Manifest = z.infer<typeof ManifestSchema>;

/**
 * The configuration of the server these commands act on: the environment's (DATA_DIR,
 * MEDIA_DIR, DATABASE_URL), with DATA_DIR replaced by `dataDir` when given.
 */
export function operatorConfig(dataDir: string | undefined): Config {
  try {
    return loadConfig(
      dataDir === undefined ? process.env : { ...process.env, DATA_DIR: path.resolve(dataDir) },
    );
  } catch (err) {
    if (err instanceof ConfigError) throw new OperatorError(err.message);
    throw err;
  }
}

/** A pass-through stream that counts the bytes and hashes them (sha256). */
class Hasher extends Transform {
  private readonly hash = createHash('sha256');
  size = 0;

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.hash.update(chunk);
    this.size += chunk.length;
    done(null, chunk);
  }

  digest(): string {
    return this.hash.digest('hex');
  }
}

/** A media file a row names. */
interface MediaRef {
  kind: MediaKind;
  userId: number;
  file: string;
}

/** One row of the snapshot and the files it names. */
interface RowRefs {
  table: DroppedRow['table'];
  id: number;
  files: MediaRef[];
}

export function mediaEntry(ref: MediaRef): string {
  return `media/${ref.kind}/${ref.userId}/${ref.file}`;
}

/** `media/<kind>/<userId>/<file>` back to its parts, or null for any other name. */
function parseMediaEntry(name: string, media: MediaStore): MediaRef | null {
  const parts = name.split('/');
  if (parts.length !== 4 || parts[0] !== 'media' || !/^[1-9]\d{0,15}$/.test(parts[2] ?? '')) {
    return null;
  }
  const [, kind, user, file] = parts as [string, string, string, string];
  if (!media.resolve(kind, Number(user), file)) return null;
  return { kind: kind as MediaKind, userId: Number(user), file };
}

/**
 * The rows of a database that name media files: each image (its photo and heatmap) and each
 * history entry (its thumbnail). The one reading of "which files does this database need",
 * used by the backup (what to copy) and the restore and tests (is everything there).
 */
export function rowsWithFiles(db: SQLite.Database): RowRefs[] {
  const rows: RowRefs[] = [];
  const images = db
    .prepare('select id, user_id, file, heatmap_file from diagnosis_images order by id')
    .all() as { id: number; user_id: number; file: string; heatmap_file: string | null }[];
  for (const r of images) {
    const files: MediaRef[] = [{ kind: 'post_images', userId: r.user_id, file: r.file }];
    if (r.heatmap_file) files.push({ kind: 'heatmaps', userId: r.user_id, file: r.heatmap_file });
    rows.push({ table: 'diagnosis_images', id: r.id, files });
  }
  const history = db
    .prepare('select id, user_id, thumb_file from diagnosis_history order by id')
    .all() as { id: number; user_id: number; thumb_file: string }[];
  for (const r of history) {
    rows.push({
      table: 'diagnosis_history',
      id: r.id,
      files: [{ kind: 'thumbs', userId: r.user_id, file: r.thumb_file }],
    });
  }
  return rows;
}

function count(db: SQLite.Database, table: string): number {
  return (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
}

function quickCheck(db: SQLite.Database): boolean {
  return db.pragma('quick_check', { simple: true }) === 'ok';
}

/** fsync of a file or folder (a folder: so that a rename in it survives a crash). */
async function fsyncPath(p: string): Promise<void> {
  const fh = await fs.promises.open(p, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
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

/** True when `p` does not exist or is an empty folder. */
function isEmptyOrMissing(p: string): boolean {
  const stat = fs.statSync(p, { throwIfNoEntry: false });
  if (!stat) return true;
  return stat.isDirectory() && fs.readdirSync(p).length === 0;
}

/** Whether `child` is `parent` or inside it. */
function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

async function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export interface RestoreOptions {
  config: Config;
  archive: string;
  log?: (line: string) => void;
}

export interface RestoreSummary {
  manifest: Manifest;
  dataDir: string;
  /** Where the media went when MEDIA_DIR is not inside DATA_DIR; else null. */
  mediaApart: string | null;
}

/** Restores a backup archive into an empty DATA_DIR (and MEDIA_DIR); see the module's comment. */
export async function restoreBackup(opts: RestoreOptions): Promise<RestoreSummary> {
  const { config } = opts;
  const log = opts.log ?? (() => undefined);
  if (config.database.kind !== 'sqlite') throw new OperatorError(POSTGRES_MESSAGE);
  const archive = path.resolve(opts.archive);
  if (!fs.statSync(archive, { throwIfNoEntry: false })?.isFile()) {
    throw new OperatorError(`no such archive: ${archive}`);
  }
  const { dataDir, mediaDir } = config;
  const mediaApart = !isInside(mediaDir, dataDir);
  for (const target of mediaApart ? [dataDir, mediaDir] : [dataDir]) {
    if (!isEmptyOrMissing(target)) {
      throw new OperatorError(
        `${target} is not empty: restore only into an empty or new folder (choose one with ` +
          '--data-dir, or move this one away)',
      );
    }
  }

  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(archive, { autoClose: false, strictFileNames: true });
  } catch (err) {
    throw new OperatorError(
      `${archive} is not a zip archive or is damaged (${(err as Error).message})`,
    );
  }
  const temps: string[] = [];
  try {
    const entries = new Map<string, yauzl.Entry>();
    try {
      for await (const entry of zip.eachEntry()) {
        if (entries.has(entry.fileName)) {
          throw new Error(`it holds ${entry.fileName} twice`);
        }
        entries.set(entry.fileName, entry);
      }
    } catch (err) {
      throw new OperatorError(`${archive} is damaged (${(err as Error).message})`);
    }
    const manifestEntry = entries.get(MANIFEST_ENTRY);
    if (!manifestEntry) {
      throw new OperatorError(`${archive} is not a DiAgroDL backup (it has no ${MANIFEST_ENTRY})`);
    }
    const manifest = await readManifest(archive, zip, manifestEntry);

    // every entry listed, with its size; nothing else in the archive; names only where expected
    const media = new MediaStore(mediaDir);
    const listed = new Map(manifest.files.map((f) => [f.path, f]));
    const unlisted = [...entries.keys()].filter((n) => n !== MANIFEST_ENTRY && !listed.has(n));
    const missing = manifest.files.filter((f) => !entries.has(f.path)).map((f) => f.path);
    if (unlisted.length || missing.length || listed.size !== manifest.files.length) {
      throw new OperatorError(
        `${archive} does not match its manifest: the archive is damaged or was altered` +
          (missing.length ? `; missing: ${missing.slice(0, 5).join(', ')}` : '') +
          (unlisted.length ? `; not in the manifest: ${unlisted.slice(0, 5).join(', ')}` : ''),
      );
    }
    if (!listed.has(DB_ENTRY)) {
      throw new OperatorError(`${archive} is not a DiAgroDL backup (it has no ${DB_ENTRY})`);
    }
    const targets = new Map<string, { dir: 'data' | 'media'; rel: string }>();
    for (const f of manifest.files) {
      if (f.path === DB_ENTRY) {
        targets.set(f.path, { dir: 'data', rel: path.basename(config.database.file) });
      } else if (f.path === SECRET_ENTRY) {
        targets.set(f.path, { dir: 'data', rel: SESSION_SECRET_FILE });
      } else {
        const ref = parseMediaEntry(f.path, media);
        if (!ref) throw new OperatorError(`${archive} holds an unexpected entry: ${f.path}`);
        targets.set(f.path, {
          dir: 'media',
          rel: path.join(ref.kind, String(ref.userId), ref.file),
        });
      }
      if ((entries.get(f.path) as yauzl.Entry).uncompressedSize !== f.size) {
        throw new OperatorError(
          `${archive} does not match its manifest: ${f.path} has another size ` +
            '(the archive is damaged or was altered)',
        );
      }
    }

    // extract into temporary folders beside the targets, checking every checksum
    const tempBeside = (target: string): string => {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      const dir = path.join(
        path.dirname(target),
        `.${path.basename(target)}.restore-${randomToken(6)}`,
      );
      fs.mkdirSync(dir);
      temps.push(dir);
      // the folder keeps the mode of the empty one it replaces
      const existing = fs.statSync(target, { throwIfNoEntry: false });
      if (existing) fs.chmodSync(dir, existing.mode & 0o7777);
      return dir;
    };
    const dataTemp = tempBeside(dataDir);
    const mediaTemp = mediaApart
      ? tempBeside(mediaDir)
      : path.join(dataTemp, path.relative(dataDir, mediaDir));
    log(`restore: checking and extracting ${manifest.files.length} files`);
    for (const f of manifest.files) {
      const t = targets.get(f.path) as { dir: 'data' | 'media'; rel: string };
      const dest = path.join(t.dir === 'data' ? dataTemp : mediaTemp, t.rel);
      await extractChecked(archive, zip, entries.get(f.path) as yauzl.Entry, f, dest);
    }
    if (manifest.session_secret === 'file' && listed.has(SECRET_ENTRY)) {
      fs.chmodSync(path.join(dataTemp, SESSION_SECRET_FILE), 0o600);
    }

    // the database: sound, and every file its rows name is here
    const dbFile = path.join(dataTemp, path.basename(config.database.file));
    const db = new SQLite(dbFile, { readonly: true, fileMustExist: true });
    try {
      if (!quickCheck(db)) {
        throw new OperatorError(`the database in ${archive} fails SQLite's check`);
      }
      const lacking = rowsWithFiles(db)
        .flatMap((r) => r.files)
        .map(mediaEntry)
        .filter((name) => !listed.has(name));
      if (lacking.length) {
        throw new OperatorError(
          `the database in ${archive} names ${lacking.length} files the archive does not hold ` +
            `(first: ${lacking[0]})`,
        );
      }
    } catch (err) {
      if (err instanceof OperatorError) throw err;
      throw new OperatorError(
        `the database in ${archive} cannot be read (${(err as Error).message})`,
      );
    } finally {
      db.close();
    }

    // into place: a rename each (onto the empty folder, or where there was none)
    await fsyncPath(dataTemp);
    await moveInto(dataTemp, dataDir);
    if (mediaApart) {
      try {
        await moveInto(mediaTemp, mediaDir);
      } catch (err) {
        // leave the data folder as it was: empty
        fs.renameSync(dataDir, dataTemp);
        fs.mkdirSync(dataDir);
        throw err;
      }
    }
    return { manifest, dataDir, mediaApart: mediaApart ? mediaDir : null };
  } finally {
    await zip.close();
    for (const t of temps) await fs.promises.rm(t, { recursive: true, force: true });
  }
}

/** Renames a finished folder onto an empty (or missing) target; refuses one filled meanwhile. */
async function moveInto(from: string, target: string): Promise<void> {
  try {
    await fs.promises.rename(from, target);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOTDIR') {
      throw new OperatorError(`${target} is not empty any more: nothing was restored`);
    }
    throw err;
  }
  await fsyncPath(path.dirname(target));
}

async function readManifest(
  archive: string,
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
): Promise<Manifest> {
  if (entry.uncompressedSize > 256 * 1024 * 1024) {
    throw new OperatorError(`${archive} is not a DiAgroDL backup (its manifest is too large)`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse((await readEntry(zip, entry)).toString('utf8'));
  } catch (err) {
    throw new OperatorError(
      `${archive} is damaged: its manifest cannot be read (${(err as Error).message})`,
    );
  }
  const format = (raw as { format?: unknown } | null)?.format;
  const version = (raw as { version?: unknown } | null)?.version;
  if (format !== FORMAT) {
    throw new OperatorError(`${archive} is not a DiAgroDL backup (its manifest is another format)`);
  }
  if (version !== VERSION) {
    throw new OperatorError(
      `${archive} is a backup of format version ${String(version)}; this DiAgroDL reads version ${VERSION}`,
    );
  }
  const parsed = ManifestSchema.safeParse(raw);
  if (!parsed.success) {
    throw new OperatorError(
      `${archive} is damaged: its manifest is not valid (${parsed.error.issues[0]?.message ?? ''})`,
    );
  }
  return parsed.data;
}

/** Writes one entry to `dest`, fsynced; its size and sha256 must be the manifest's. */
async function extractChecked(
  archive: string,
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  expected: FileEntry,
  dest: string,
): Promise<void> {
  await fs.promises.mkdir(path.dirname(dest), { recursive: true });
  let source: Readable;
  try {
    source = await zip.openReadStreamPromise(entry);
  } catch (err) {
    throw new OperatorError(`${archive} is damaged: ${expected.path} (${(err as Error).message})`);
  }
  let readError: Error | undefined;
  source.on('error', (err) => {
    readError = err;
  });
  const hasher = new Hasher();
  try {
    await pipeline(source, hasher, fs.createWriteStream(dest, { flags: 'wx' }));
  } catch (err) {
    if (readError) {
      throw new OperatorError(`${archive} is damaged: ${expected.path} (${readError.message})`);
    }
    throw err;
  }
  if (hasher.size !== expected.size || hasher.digest() !== expected.sha256) {
    throw new OperatorError(
      `${archive} is damaged or was altered: ${expected.path} does not match its checksum ` +
        'in the manifest',
    );
  }
  await fsyncPath(dest);
}

/**
 * `npm run restore` (restore.ts) does its work here: a backup archive (backup-format.ts) back
 * into an empty data folder.
 *
 * Restore checks everything before it touches the target: the archive is a zip with a manifest
 * of this format, every entry is listed there with its size and sha256 (and nothing else is in
 * it), the database passes SQLite's quick check and every file its rows name is in the archive.
 * It extracts into a temporary folder beside DATA_DIR (and beside MEDIA_DIR when that is
 * elsewhere) and renames it into place only when all of that holds; the target must be empty.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import SQLite from 'better-sqlite3';
import yauzl from 'yauzl';
import type { Config } from '../config.ts';
import { SESSION_SECRET_FILE } from '../lib/secret.ts';
import { randomToken } from '../lib/tokens.ts';
import { MediaStore } from '../modules/diagnosis/media.ts';
import {
  DB_ENTRY,
  type FileEntry,
  Hasher,
  MANIFEST_ENTRY,
  type Manifest,
  POSTGRES_MESSAGE,
  SECRET_ENTRY,
  fsyncPath,
  mediaEntry,
  parseMediaEntry,
  quickCheck,
  readManifest,
  rowsWithFiles,
} from './backup-format.ts';
import { OperatorError } from './operator.ts';

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

/**
 * The backup archive of the embedded mode (SQLite file, media folder, session secret), one zip
 * archive: written by backup-snapshot.ts (`npm run backup`), read back by backup-restore.ts
 * (`npm run restore`). This module is what both sides agree on: the entries, the manifest and
 * its checks, which files a database's rows need, and the helpers both use.
 *
 * The archive: `diagrodl.sqlite` (the snapshot), `media/<kind>/<userId>/<file>`, `session-secret`
 * (when DATA_DIR holds one) and `manifest.json` (format, version, counts, the rows left out and
 * the size and sha256 of every other entry).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { Transform, type TransformCallback } from 'node:stream';
import type SQLite from 'better-sqlite3';
import type yauzl from 'yauzl';
import { z } from 'zod';
import type { MediaKind } from '@diagrodl/contracts';
import type { MediaStore } from '../modules/diagnosis/media.ts';
import { OperatorError } from './operator.ts';

export const FORMAT = 'diagrodl-backup';
export const VERSION = 1;
export const MANIFEST_ENTRY = 'manifest.json';
export const DB_ENTRY = 'diagrodl.sqlite';
export const SECRET_ENTRY = 'session-secret';
const README_SECTION = 'README.md, section "Operating: backup and restore"';

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

/** A pass-through stream that counts the bytes and hashes them (sha256). */
export class Hasher extends Transform {
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
export interface MediaRef {
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
export function parseMediaEntry(name: string, media: MediaStore): MediaRef | null {
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

export function quickCheck(db: SQLite.Database): boolean {
  return db.pragma('quick_check', { simple: true }) === 'ok';
}

/** fsync of a file or folder (a folder: so that a rename in it survives a crash). */
export async function fsyncPath(p: string): Promise<void> {
  const fh = await fs.promises.open(p, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

async function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The archive's manifest, when it is one of this format and version (else an OperatorError). */
export async function readManifest(
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

/**
 * The diagnosis media folder: MEDIA_DIR/<kind>/<userId>/<file>. File names are made by the
 * server (never from user input), written to a temp file and renamed into place, and served
 * only to their owner (the URL carries no user id: it resolves in the caller's own folder).
 */
import fs from 'node:fs';
import path from 'node:path';
import { MEDIA_KINDS, type MediaKind } from '@diagrodl/contracts';
import { randomToken } from '../../lib/tokens.ts';

const FILE_RE = /^[A-Za-z0-9_-]{1,80}\.(jpg|png|webp|pdf)$/;

export const MEDIA_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  pdf: 'application/pdf',
};

export class MediaStore {
  constructor(private readonly root: string) {}

  dir(kind: MediaKind, userId: number): string {
    return path.join(this.root, kind, String(userId));
  }

  /** Absolute path of a server-made file name, or null for anything else. */
  resolve(kind: string, userId: number, file: string): string | null {
    if (!(MEDIA_KINDS as readonly string[]).includes(kind) || !FILE_RE.test(file)) return null;
    return path.join(this.dir(kind as MediaKind, userId), file);
  }

  url(kind: MediaKind, file: string): string {
    return `/media/${kind}/${file}`;
  }

  /** Writes atomically: a reader never sees half a file, a crash leaves at most a temp file. */
  async write(kind: MediaKind, userId: number, file: string, bytes: Buffer): Promise<string> {
    const target = this.resolve(kind, userId, file);
    if (!target) throw new Error(`bad media file name ${file}`);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    const tmp = path.join(path.dirname(target), `.${randomToken(9)}.tmp`);
    try {
      await fs.promises.writeFile(tmp, bytes, { flag: 'wx' });
      await fs.promises.rename(tmp, target);
    } catch (err) {
      await fs.promises.rm(tmp, { force: true });
      throw err;
    }
    return target;
  }

  async read(kind: MediaKind, userId: number, file: string): Promise<Buffer> {
    const p = this.resolve(kind, userId, file);
    if (!p) throw new Error(`bad media file name ${file}`);
    return fs.promises.readFile(p);
  }

  async remove(kind: MediaKind, userId: number, file: string | null | undefined): Promise<void> {
    if (!file) return;
    const p = this.resolve(kind, userId, file);
    if (p) await fs.promises.rm(p, { force: true });
  }

  /**
   * Removes a user's files of one kind but the `keep` newest (by modification time); files being
   * written (dot-named temp files) are left alone.
   */
  async keepNewest(kind: MediaKind, userId: number, keep: number): Promise<void> {
    const dir = this.dir(kind, userId);
    const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
    const files = await Promise.all(
      names
        .filter((n) => FILE_RE.test(n))
        .map(async (n) => ({
          n,
          t: (await fs.promises.stat(path.join(dir, n)).catch(() => null))?.mtimeMs ?? 0,
        })),
    );
    files.sort((a, b) => b.t - a.t);
    for (const f of files.slice(keep)) await fs.promises.rm(path.join(dir, f.n), { force: true });
  }

  /** Every file of one kind for a user (report PDFs on 'start anew'). */
  async clear(kind: MediaKind, userId: number): Promise<void> {
    await fs.promises.rm(this.dir(kind, userId), { recursive: true, force: true });
  }
}

// The "Mis datos" archive as a stream: the rows' files and every photo, whole when read to the end,
// and no file left open after it (a download abandoned midway: my-data.api.test.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { openFilesUnder } from '../../testing/open-files.ts';
import type { UserRows } from './account-data.repository.ts';
import { ARCHIVE_FILES, dataArchive } from './data-archive.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'diagrodl-archive-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const photos = path.join(dir, 'post_images');
fs.mkdirSync(photos);
const PHOTOS = 30;
for (let i = 0; i < PHOTOS; i++) {
  // 256 kB each: the zip is read in many chunks, with the stream paused in between
  fs.writeFileSync(path.join(photos, `${i}.jpg`), Buffer.alloc(256 * 1024, i));
}

// only what the archive reads of the rows: a user with no diagnosis rows
const rows = {
  user: { id: 7, user_name: 'ana2026', language: 'es' },
  settings: undefined,
  images: [],
  history: [],
  runs: [],
  sessions: [],
  passwordResets: [],
  contactMessages: [],
} as unknown as UserRows;
const folders = [{ kind: 'post_images' as const, dir: photos }];

async function entryNames(bytes: Buffer): Promise<string[]> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(bytes, { lazyEntries: false }, (err, z) => (err ? reject(err) : resolve(z))),
  );
  const names: string[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (e: yauzl.Entry) => names.push(e.fileName));
    zip.on('end', () => resolve());
    zip.on('error', reject);
  });
  return names.sort();
}

describe('the data archive stream', () => {
  it('holds the rows and every file when read to the end', async () => {
    const stream = await dataArchive(rows, folders);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const names = await entryNames(Buffer.concat(chunks));
    expect(names.filter((n) => !n.includes('/'))).toEqual(
      Object.values(ARCHIVE_FILES).sort((a, b) => (a < b ? -1 : 1)),
    );
    expect(names.filter((n) => n.startsWith('photos/'))).toHaveLength(PHOTOS);
    expect(openFilesUnder(dir)).toEqual([]);
  });
});

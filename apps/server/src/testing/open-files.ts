import fs from 'node:fs';
import path from 'node:path';

/** The files under `dir` this process holds open (Linux: /proc/self/fd). */
export function openFilesUnder(dir: string): string[] {
  return fs
    .readdirSync('/proc/self/fd')
    .map((fd) => {
      try {
        return fs.readlinkSync(path.join('/proc/self/fd', fd));
      } catch {
        return ''; // closed while listed
      }
    })
    .filter((target) => target.startsWith(dir));
}

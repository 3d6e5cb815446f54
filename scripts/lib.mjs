// Helpers for the start, build and test scripts. Node built-ins only: these run before
// `npm ci` has installed anything.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');

export function log(msg) {
  console.log(`\x1b[32m[diagrodl]\x1b[0m ${msg}`);
}

export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
  if (r.status !== 0) {
    console.error(`[diagrodl] failed: ${cmd} ${args.join(' ')}`);
    process.exit(r.status ?? 1);
  }
}

function fileHash(file) {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** Installs the npm packages when node_modules is missing or older than the lockfile. */
export function ensureInstalled() {
  const lock = path.join(root, 'package-lock.json');
  const stamp = path.join(root, 'node_modules', '.diagrodl-lock-sha256');
  const want = fileHash(lock);
  const have = fs.existsSync(stamp) ? fs.readFileSync(stamp, 'utf8').trim() : '';
  if (have === want && fs.existsSync(path.join(root, 'node_modules', '.package-lock.json'))) return;
  log('installing npm packages (npm ci; the first time compiles better-sqlite3, a few minutes)…');
  run('npm', ['ci', '--no-audit', '--no-fund']);
  fs.writeFileSync(stamp, want);
}

/** Newest modification time of the files under the given paths. */
export function newestMtime(paths) {
  let newest = 0;
  const walk = (p) => {
    let st;
    try {
      st = fs.statSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      const base = path.basename(p);
      if (base === 'node_modules' || base === 'dist' || base.startsWith('.')) return;
      for (const e of fs.readdirSync(p)) walk(path.join(p, e));
    } else if (st.mtimeMs > newest) {
      newest = st.mtimeMs;
    }
  };
  for (const p of paths) walk(path.join(root, p));
  return newest;
}

export function mtime(file) {
  try {
    return fs.statSync(path.join(root, file)).mtimeMs;
  } catch {
    return 0;
  }
}

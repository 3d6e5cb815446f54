// Prints the gzip size of the JavaScript the landing page loads (goal: <= 250 KB) and the
// server's cold start time (process start to /api/health answering). Run after `npm run build`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'apps/web/dist');
const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const entry = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]);

// The entry chunk plus every chunk it imports statically (what the landing page loads).
const seen = new Set();
const visit = (rel) => {
  if (seen.has(rel)) return;
  seen.add(rel);
  const code = fs.readFileSync(path.join(dist, rel), 'utf8');
  for (const m of code.matchAll(
    /(?:^|[;\s])import\s*(?:[^'"]*?from\s*)?["'](\.\/[^"']+\.js)["']/g,
  )) {
    visit(path.posix.join(path.posix.dirname(rel), m[1]));
  }
};
entry.forEach(visit);
let raw = 0;
let gz = 0;
for (const rel of seen) {
  const buf = fs.readFileSync(path.join(dist, rel));
  raw += buf.length;
  gz += zlib.gzipSync(buf, { level: 9 }).length;
}
console.log(
  `landing page JavaScript: ${seen.size} files, ${(raw / 1024).toFixed(1)} KB raw, ${(gz / 1024).toFixed(1)} KB gzip (goal <= 250 KB)`,
);

const port = 18000 + Math.floor(Math.random() * 1000);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'diagrodl-bench-'));
const t0 = performance.now();
const child = spawn(process.execPath, [path.join(root, 'apps/server/dist/main.js')], {
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  },
  stdio: 'ignore',
});
for (;;) {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/api/health`);
    if (res.ok) break;
  } catch {
    // not listening yet
  }
  if (performance.now() - t0 > 30000) throw new Error('server did not start in 30 s');
  await new Promise((r) => setTimeout(r, 20));
}
console.log(
  `server cold start (fresh database, migrations included): ${(performance.now() - t0).toFixed(0)} ms`,
);
child.kill('SIGTERM');
fs.rmSync(dataDir, { recursive: true, force: true });

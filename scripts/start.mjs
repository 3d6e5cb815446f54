// `npm start`: installs what is missing, builds what is stale, then serves the whole product
// (the server migrates the database at start). Embedded default: SQLite under data/,
// media under data/media/, mail into data/outbox/.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { build } from './build.mjs';
import { log, root } from './lib.mjs';

await build();
log(`starting the server on http://localhost:${process.env.PORT ?? 8000} …`);
const child = spawn(
  process.execPath,
  ['--enable-source-maps', path.join(root, 'apps/server/dist/main.js')],
  {
    cwd: root,
    stdio: 'inherit',
    env: process.env,
  },
);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));

/**
 * npm run backup -- --out FILE [--data-dir DIR]
 *
 * A consistent backup of the embedded mode (SQLite database, media folder, session secret) while
 * the server runs, as one zip archive with a manifest of checksums; `npm run restore` puts it
 * back. How and why: backup-snapshot.ts and the README's "Operating: backup and restore". The
 * data folder is the server's (DATA_DIR, MEDIA_DIR), or DIR. PostgreSQL mode (DATABASE_URL) is
 * refused: the README gives its pg_dump procedure. Bad input: a message and exit code 2.
 *
 * Test hook: DIAGRODL_BACKUP_DELAY_MS waits that long after each media file, so a test can kill
 * the backup while it writes.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { createBackup } from './backup-snapshot.ts';
import { OperatorError, operatorConfig, runOperatorCli } from './operator.ts';

const USAGE = 'usage: npm run backup -- --out FILE [--data-dir DIR]';

await runOperatorCli('backup', USAGE, async () => {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (!values.out) throw new OperatorError('--out FILE is required', true);
  const delay = Number(process.env.DIAGRODL_BACKUP_DELAY_MS ?? 0);
  const summary = await createBackup({
    config: operatorConfig(values['data-dir']),
    out: values.out,
    log: (line) => process.stderr.write(`${line}\n`),
    ...(delay > 0 ? { hooks: { afterFile: () => sleep(delay) } } : {}),
  });
  const { manifest } = summary;
  process.stdout.write(
    `backup written: ${summary.out} (${manifest.files.length} files, ${(summary.bytes / 1e6).toFixed(1)} MB; ` +
      `${manifest.counts.users} users, ${manifest.counts.diagnosis_images} images, ` +
      `${manifest.counts.diagnosis_history} history rows)\n`,
  );
  if (manifest.session_secret === 'environment') {
    process.stdout.write(
      'note: SESSION_SECRET is set in the environment, so the archive holds no session secret: ' +
        'set the same value where you restore\n',
    );
  }
});

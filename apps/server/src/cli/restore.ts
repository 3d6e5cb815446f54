/**
 * npm run restore -- FILE [--data-dir DIR]
 *
 * Restores a backup made by `npm run backup` into an empty (or new) data folder: the server's
 * (DATA_DIR, MEDIA_DIR) or DIR. It refuses a folder that is not empty, and an archive that is
 * not a backup, is damaged, or whose files do not match the manifest's checksums; it extracts
 * into a temporary folder and moves it into place only when every check passes. How and why:
 * backup-restore.ts and the README's "Operating: backup and restore". Bad input: a message and
 * exit code 2.
 */
import { parseArgs } from 'node:util';
import { restoreBackup } from './backup-restore.ts';
import { OperatorError, operatorConfig, runOperatorCli } from './operator.ts';

const USAGE = 'usage: npm run restore -- FILE [--data-dir DIR]';

await runOperatorCli('restore', USAGE, async () => {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (positionals.length !== 1) {
    throw new OperatorError(
      positionals.length ? 'give one archive only' : 'the archive to restore is required',
      true,
    );
  }
  const summary = await restoreBackup({
    config: operatorConfig(values['data-dir']),
    archive: positionals[0] as string,
    log: (line) => process.stderr.write(`${line}\n`),
  });
  const { manifest } = summary;
  process.stdout.write(
    `restored the backup of ${manifest.created_at} into ${summary.dataDir}` +
      (summary.mediaApart ? ` and ${summary.mediaApart}` : '') +
      ` (${manifest.files.length} files; ${manifest.counts.users} users, ` +
      `${manifest.counts.diagnosis_images} images, ${manifest.counts.diagnosis_history} history rows)\n`,
  );
  if (manifest.session_secret === 'environment') {
    process.stdout.write(
      'note: the backed-up server had SESSION_SECRET in its environment: set the same value here\n',
    );
  }
});

import fs from 'node:fs';
import path from 'node:path';
import { randomToken } from './tokens.ts';

/** The generated secret's file in DATA_DIR (the backup archive carries it). */
export const SESSION_SECRET_FILE = '.session-secret';

/**
 * The secret that signs CSRF tokens. From SESSION_SECRET when set (required when several
 * processes share a database); otherwise generated once and kept in DATA_DIR so that
 * restarts of the embedded server keep working cookies.
 */
export function resolveSessionSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, SESSION_SECRET_FILE);
  try {
    const existing = fs.readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return existing;
  } catch {
    // first start: create it below
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = randomToken(48);
  fs.writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/**
 * The server's whole configuration, parsed once from the environment.
 * Every other module receives a `Config`; nothing else reads process.env.
 */
const boolish = z
  .enum(['0', '1', 'true', 'false', 'yes', 'no', 'on', 'off', ''])
  .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres://... URL (leave it unset for SQLite)')
    .optional(),
  MEDIA_DIR: z.string().min(1).optional(),
  SMTP_URL: z
    .string()
    .regex(
      /^smtps?:\/\//,
      'must be an smtp:// or smtps:// URL (leave it unset for the outbox folder)',
    )
    .optional(),
  MAIL_FROM: z.string().min(3).default('DiAgroDL <no-reply@diagrodl.local>'),
  PROVIDER_NAME: z.string().min(1).max(80).default('DiAgro'),
  PROVIDER_KEY: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9]{0,30}$/, 'letters and digits only, starting with a letter')
    .optional(),
  CONTACT_TO: z.string().email().default('contacto@diagrodl.local'),
  PUBLIC_URL: z.string().url().optional(),
  MAINTENANCE: boolish.default(false),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  WEB_DIST: z.string().min(1).optional(),
  MODELS_DIR: z.string().min(1).optional(),
  TRUST_PROXY: boolish.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Env = z.input<typeof EnvSchema>;

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };
  mediaDir: string;
  outboxDir: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  providerName: string;
  providerKey: string;
  contactTo: string;
  publicUrl: string | undefined;
  maintenance: boolean;
  sessionSecret: string | undefined;
  webDist: string;
  modelsDir: string;
  trustProxy: boolean;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * The repository's root: the nearest folder above this module whose package.json is the
 * project's (apps/server/src in development, apps/server/dist or a SERVER_DIST elsewhere when
 * bundled), so a server built into another folder still finds the models, fonts and web app.
 */
function findRepoRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        name?: unknown;
      };
      if (pkg.name === 'diagrodl') return dir;
    } catch {
      // no package.json here (or not JSON): look one folder up
    }
    if (path.dirname(dir) === dir) return path.resolve(from, '..', '..', '..');
  }
}

const repoRoot = findRepoRoot(import.meta.dirname);

/** Parses the environment; throws ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty strings mean "unset", as in most deployment tools.
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([k, v]) => k in EnvSchema.shape && v !== undefined && v !== ''),
  );
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map(
        (i) =>
          `${i.path.join('.')}: ${i.message} (got ${JSON.stringify(cleaned[String(i.path[0])])})`,
      ),
    );
  }
  const e = parsed.data;
  const dataDir = path.resolve(repoRoot, e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL }
      : { kind: 'sqlite', file: path.join(dataDir, 'diagrodl.sqlite') },
    mediaDir: e.MEDIA_DIR ? path.resolve(repoRoot, e.MEDIA_DIR) : path.join(dataDir, 'media'),
    outboxDir: path.join(dataDir, 'outbox'),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    providerName: e.PROVIDER_NAME,
    providerKey: e.PROVIDER_KEY ?? (e.PROVIDER_NAME.replace(/[^A-Za-z0-9]/g, '') || 'DiAgro'),
    contactTo: e.CONTACT_TO,
    publicUrl: e.PUBLIC_URL?.replace(/\/$/, ''),
    maintenance: e.MAINTENANCE,
    sessionSecret: e.SESSION_SECRET,
    webDist: e.WEB_DIST ? path.resolve(repoRoot, e.WEB_DIST) : path.join(repoRoot, 'apps/web/dist'),
    modelsDir: e.MODELS_DIR ? path.resolve(repoRoot, e.MODELS_DIR) : path.join(repoRoot, 'models'),
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
  };
}

export { repoRoot };

/**
 * What every module plugin is given by the composition root (app.ts): the database, the
 * configuration, the logger and the pieces several modules share (the users, the sessions, the
 * rate limiter, the mailer). A module builds its own services and routes from these.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import type { RateLimiter } from './lib/rate-limit/rate-limiter.ts';
import type { Mailer } from './mail/mailer.ts';
import type { Sessions } from './modules/session/sessions.ts';
import type { UserDataParts } from './modules/users/user-data.ts';
import type { UserRepository } from './modules/users/user.repository.ts';

export interface Platform {
  db: Db;
  config: Config;
  log: FastifyBaseLogger;
  users: UserRepository;
  sessions: Sessions;
  limiter: RateLimiter;
  mailer: Mailer;
  /** What modules keep of each user beyond the rows (files, work in progress): "Mis datos". */
  userData: UserDataParts;
}

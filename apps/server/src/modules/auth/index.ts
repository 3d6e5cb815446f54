/**
 * The auth module as a Fastify plugin: the session state (`GET /api/session/`), login and
 * logout, password change and reset.
 */
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform.ts';
import { authRoutes, sessionRoutes } from './auth.routes.ts';
import { AuthService } from './auth.service.ts';
import { PasswordResetRepository } from './password-reset.repository.ts';
import { passwordRoutes } from './password.routes.ts';
import { PasswordService } from './password.service.ts';

export async function authModule(app: FastifyInstance, p: Platform): Promise<void> {
  sessionRoutes(app, { users: p.users });
  authRoutes(app, { auth: new AuthService(p.users, p.limiter), sessions: p.sessions });
  passwordRoutes(app, {
    passwords: new PasswordService({
      users: p.users,
      resets: new PasswordResetRepository(p.db.kysely),
      sessions: p.sessions,
      mailer: p.mailer,
      limiter: p.limiter,
      log: p.log,
    }),
    publicUrl: p.config.publicUrl,
  });
}

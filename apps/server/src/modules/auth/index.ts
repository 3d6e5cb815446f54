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
  const passwords = new PasswordService({
    users: p.users,
    resets: new PasswordResetRepository(p.db.kysely),
    sessions: p.sessions,
    mailer: p.mailer,
    limiter: p.limiter,
    log: p.log,
  });
  // reset mails are sent after the answer: the server closes once they are out
  app.addHook('onClose', () => passwords.mailsSent());
  passwordRoutes(app, { passwords, publicUrl: p.config.publicUrl });
}

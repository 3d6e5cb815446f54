import type { FastifyInstance } from 'fastify';
import type { SessionReply } from '@diagrodl/contracts';
import type { Sessions } from '../session/sessions.ts';
import type { UserRepository } from '../users/user.repository.ts';
import type { AuthService } from './auth.service.ts';

export function sessionRoutes(app: FastifyInstance, deps: { users: UserRepository }): void {
  app.get('/api/session/', async (request) => {
    if (request.userId == null) return { isAuthenticated: false } satisfies SessionReply;
    const user = await deps.users.findById(request.userId);
    if (!user) return { isAuthenticated: false } satisfies SessionReply;
    return {
      isAuthenticated: true,
      user: { userName: user.user_name, firstName: user.first_name, language: user.language },
    } satisfies SessionReply;
  });
}

export function authRoutes(
  app: FastifyInstance,
  deps: { auth: AuthService; sessions: Sessions },
): void {
  app.post('/api/login/', async (request, reply) => {
    const user = await deps.auth.login(request.body, request.ip);
    const remember = Boolean((request.body as { remember?: unknown } | null)?.remember);
    await deps.sessions.start(request, reply, user.id, remember);
    return { status: 'OK', detail: deps.auth.messages.loginOk(user.first_name) };
  });

  const logout = async (
    request: import('fastify').FastifyRequest,
    reply: import('fastify').FastifyReply,
  ) => {
    await deps.sessions.end(request, reply);
    return { status: 'OK', detail: 'Sesión cerrada.' };
  };
  // The specification logs out with GET (its sidebar omits the CSRF header); POST works too.
  app.get('/api/logout/', logout);
  app.post('/api/logout/', logout);
}

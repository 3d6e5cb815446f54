import type { FastifyInstance } from 'fastify';
import { ENDPOINTS, type SessionReply } from '@diagrodl/contracts';
import { route } from '../../lib/contract-routes.ts';
import type { Sessions } from '../session/sessions.ts';
import type { UserRepository, UserRow } from '../users/user.repository.ts';
import type { AuthService } from './auth.service.ts';

/** The session state of a logged-in user (GET /api/session/ and the login's answer). */
function sessionOf(user: UserRow): SessionReply & { isAuthenticated: true } {
  return {
    isAuthenticated: true,
    user: { userName: user.user_name, firstName: user.first_name, language: user.language },
  };
}

export function sessionRoutes(app: FastifyInstance, deps: { users: UserRepository }): void {
  route(
    app,
    ENDPOINTS.session,
  )(async (request) => {
    if (request.userId == null) return { isAuthenticated: false };
    const user = await deps.users.findById(request.userId);
    return user ? sessionOf(user) : { isAuthenticated: false };
  });
}

export function authRoutes(
  app: FastifyInstance,
  deps: { auth: AuthService; sessions: Sessions },
): void {
  route(
    app,
    ENDPOINTS.login,
  )(async (request, reply) => {
    const user = await deps.auth.login(request.body, request.ip);
    await deps.sessions.start(request, reply, user.id, request.body.remember === true);
    return {
      status: 'OK',
      detail: deps.auth.messages.loginOk(user.first_name),
      session: sessionOf(user),
    };
  });

  // The specification logs out with GET (its sidebar omits the CSRF header); POST works too.
  for (const endpoint of [ENDPOINTS.logoutGet, ENDPOINTS.logout]) {
    route(
      app,
      endpoint,
    )(async (request, reply) => {
      await deps.sessions.end(request, reply);
      return { status: 'OK', detail: deps.auth.messages.loggedOut };
    });
  }
}

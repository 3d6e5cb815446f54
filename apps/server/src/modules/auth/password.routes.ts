import { ENDPOINTS } from '@diagrodl/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../lib/contract-routes.ts';
import { publicBase, requestLanguage } from '../../mail/language.ts';
import { userIdOf } from '../../plugins/auth-guard.ts';
import type { PasswordService } from './password.service.ts';

export function passwordRoutes(
  app: FastifyInstance,
  deps: { passwords: PasswordService; publicUrl: string | undefined },
): void {
  route(
    app,
    ENDPOINTS.changePassword,
  )(async (request) => {
    const detail = await deps.passwords.change(userIdOf(request), request.sessionId, request.body);
    return { status: 'OK', detail };
  });

  route(
    app,
    ENDPOINTS.resetRequest,
  )(async (request) => {
    const detail = await deps.passwords.requestReset(request.body, {
      ip: request.ip,
      base: publicBase(request, deps.publicUrl),
      language: requestLanguage(request),
    });
    return { status: 'OK', detail };
  });

  // Lets the page say at once that a link is used or expired (POST: the token stays out of logs).
  route(
    app,
    ENDPOINTS.resetCheck,
  )(async (request) => ({
    valid: await deps.passwords.resetTokenLive(request.body.token),
  }));

  route(
    app,
    ENDPOINTS.resetConfirm,
  )(async (request) => {
    const detail = await deps.passwords.confirmReset(request.body);
    return { status: 'OK', detail };
  });
}

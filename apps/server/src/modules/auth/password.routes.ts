import type { ApiReply } from '@diagrodl/contracts';
import type { FastifyInstance } from 'fastify';
import { publicBase, requestLanguage } from '../../mail/language.ts';
import { requireUser, userIdOf } from '../../plugins/auth-guard.ts';
import type { PasswordService } from './password.service.ts';

export function passwordRoutes(
  app: FastifyInstance,
  deps: { passwords: PasswordService; publicUrl: string | undefined },
): void {
  app.post('/api/change_password/', { preHandler: requireUser }, async (request) => {
    const detail = await deps.passwords.change(userIdOf(request), request.sessionId, request.body);
    return { status: 'OK', detail } satisfies ApiReply;
  });

  app.post('/api/password_reset/', async (request) => {
    const detail = await deps.passwords.requestReset(request.body, {
      ip: request.ip,
      base: publicBase(request, deps.publicUrl),
      language: requestLanguage(request),
    });
    return { status: 'OK', detail } satisfies ApiReply;
  });

  // Lets the page say at once that a link is used or expired (POST: the token stays out of logs).
  app.post('/api/password_reset/check/', async (request) => {
    const token = (request.body as { token?: unknown } | null)?.token;
    return { valid: await deps.passwords.resetTokenLive(token) };
  });

  app.post('/api/password_reset/confirm/', async (request) => {
    const detail = await deps.passwords.confirmReset(request.body);
    return { status: 'OK', detail } satisfies ApiReply;
  });
}

import type { FastifyReply, FastifyRequest } from 'fastify';
import { SERVER_MESSAGES } from '@diagrodl/contracts';
import { HttpError } from '../lib/errors.ts';

/**
 * preHandler for routes that need a logged-in user (the tools and the diagnosis flow):
 * a visitor's call gets 401 with a Spanish detail.
 */
export async function requireUser(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (request.userId == null) throw new HttpError(401, SERVER_MESSAGES.loginRequired);
}

/** The logged-in user's id inside a route guarded by requireUser. */
export function userIdOf(request: FastifyRequest): number {
  if (request.userId == null) throw new HttpError(401, SERVER_MESSAGES.loginRequired);
  return request.userId;
}

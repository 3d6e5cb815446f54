import { ENDPOINTS } from '@diagrodl/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../lib/contract-routes.ts';
import type { ContactService } from './contact.service.ts';

export function contactRoutes(app: FastifyInstance, deps: { contact: ContactService }): void {
  // Open to visitors and users alike; a logged-in sender is noted in the stored message.
  // The fields are checked by the endpoint's schema (400 with `errors` per field).
  route(
    app,
    ENDPOINTS.contact,
  )(async (request) => {
    const detail = await deps.contact.send(request.body, {
      ip: request.ip,
      userId: request.userId,
    });
    return { status: 'OK', detail };
  });
}

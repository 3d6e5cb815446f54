import { CONTACT_REPLY } from '@diagrodl/contracts';
import type { FastifyInstance } from 'fastify';
import { ContactInvalid, type ContactService } from './contact.service.ts';

export function contactRoutes(app: FastifyInstance, deps: { contact: ContactService }): void {
  // Open to visitors and users alike; a logged-in sender is noted in the stored message.
  app.post('/api/contact/', async (request, reply) => {
    try {
      const detail = await deps.contact.send(request.body, {
        ip: request.ip,
        userId: request.userId,
      });
      return { status: 'OK', detail };
    } catch (err) {
      if (!(err instanceof ContactInvalid)) throw err;
      const first = Object.values(err.errors)[0] ?? CONTACT_REPLY.invalid;
      return reply.code(400).send({ status: 'ERROR', detail: first, errors: err.errors });
    }
  });
}

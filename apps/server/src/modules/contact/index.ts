/** The contact module as a Fastify plugin: the contact form, stored and mailed. */
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform.ts';
import { ContactRepository } from './contact.repository.ts';
import { contactRoutes } from './contact.routes.ts';
import { ContactService } from './contact.service.ts';

export async function contactModule(app: FastifyInstance, p: Platform): Promise<void> {
  contactRoutes(app, {
    contact: new ContactService({
      contacts: new ContactRepository(p.db.kysely),
      users: p.users,
      mailer: p.mailer,
      limiter: p.limiter,
      contactTo: p.config.contactTo,
      log: p.log,
    }),
  });
}

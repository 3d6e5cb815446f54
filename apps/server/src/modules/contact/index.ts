/** The contact module as a Fastify plugin: the contact form, stored and mailed. */
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform.ts';
import { ContactRepository } from './contact.repository.ts';
import { contactRoutes } from './contact.routes.ts';
import { CONTACT_RETRY, type ContactRetry, ContactService } from './contact.service.ts';

export async function contactModule(
  app: FastifyInstance,
  p: Platform & { retry?: ContactRetry },
): Promise<void> {
  const contact = new ContactService({
    contacts: new ContactRepository(p.db.kysely),
    users: p.users,
    mailer: p.mailer,
    limiter: p.limiter,
    contactTo: p.config.contactTo,
    log: p.log,
  });
  contactRoutes(app, { contact });

  // Messages whose mail failed are tried again every few minutes, until they go.
  const retry = p.retry ?? CONTACT_RETRY;
  let running: Promise<unknown> | null = null;
  const look = () => {
    running ??= contact
      .resendUnmailed(retry)
      .catch((err: unknown) => p.log.error({ err }, 'contact mail retry failed'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(look, retry.everyMs);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}

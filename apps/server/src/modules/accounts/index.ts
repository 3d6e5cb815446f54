/** The accounts module as a Fastify plugin: registration (an account and its welcome mail). */
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform.ts';
import { accountsRoutes } from './accounts.routes.ts';
import { AccountsService } from './accounts.service.ts';

export async function accountsModule(app: FastifyInstance, p: Platform): Promise<void> {
  accountsRoutes(app, {
    accounts: new AccountsService({
      users: p.users,
      mailer: p.mailer,
      limiter: p.limiter,
      providerKey: p.config.providerKey,
      providerName: p.config.providerName,
      log: p.log,
    }),
    publicUrl: p.config.publicUrl,
  });
}

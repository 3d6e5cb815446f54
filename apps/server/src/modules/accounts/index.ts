/**
 * The accounts module as a Fastify plugin: registration (an account and its welcome mail) and
 * "Mis datos" (the archive of a user's data and the deletion of the account).
 */
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform.ts';
import { AccountDataRepository } from './account-data.repository.ts';
import { accountsRoutes } from './accounts.routes.ts';
import { AccountsService } from './accounts.service.ts';
import { myDataRoutes } from './my-data.routes.ts';
import { MyDataService } from './my-data.service.ts';

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
  myDataRoutes(app, {
    myData: new MyDataService({
      data: new AccountDataRepository(p.db.kysely),
      users: p.users,
      parts: p.userData,
      mailer: p.mailer,
      limiter: p.limiter,
      log: p.log,
    }),
    sessions: p.sessions,
    publicUrl: p.config.publicUrl,
  });
}

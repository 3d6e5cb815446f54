import { ENDPOINTS } from '@diagrodl/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../lib/contract-routes.ts';
import { publicBase, requestLanguage } from '../../mail/language.ts';
import type { AccountsService } from './accounts.service.ts';

export function accountsRoutes(
  app: FastifyInstance,
  deps: { accounts: AccountsService; publicUrl: string | undefined },
): void {
  // The specification's path and payload names, as spelt.
  route(
    app,
    ENDPOINTS.register,
  )(async (request) => {
    const detail = await deps.accounts.register(request.body, {
      ip: request.ip,
      base: publicBase(request, deps.publicUrl),
      language: requestLanguage(request),
    });
    return { status: 'OK', detail };
  });
}

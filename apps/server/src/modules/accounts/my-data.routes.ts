import { ENDPOINTS } from '@diagrodl/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../lib/contract-routes.ts';
import { pageLanguage, publicBase } from '../../mail/language.ts';
import { userIdOf } from '../../plugins/auth-guard.ts';
import type { Sessions } from '../session/sessions.ts';
import type { MyDataService } from './my-data.service.ts';

/** "Mis datos": the archive download and the deletion of the account. */
export function myDataRoutes(
  app: FastifyInstance,
  deps: { myData: MyDataService; sessions: Sessions; publicUrl: string | undefined },
): void {
  route(
    app,
    ENDPOINTS.myDataExport,
  )(async (request, reply) => {
    const { fileName, stream } = await deps.myData.archive(userIdOf(request));
    return reply
      .type('application/zip')
      .header('Content-Disposition', `attachment; filename="${fileName}"`)
      .header('Cache-Control', 'no-store')
      .send(stream);
  });

  route(
    app,
    ENDPOINTS.deleteAccount,
  )(async (request, reply) => {
    const detail = await deps.myData.deleteAccount(userIdOf(request), request.body, {
      base: publicBase(request, deps.publicUrl),
      language: pageLanguage(request) ?? 'es',
    });
    // the session row went with the account; the cookie goes too
    await deps.sessions.end(request, reply);
    return { status: 'OK', detail };
  });
}

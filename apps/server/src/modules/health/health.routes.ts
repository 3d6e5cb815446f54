import type { FastifyInstance } from 'fastify';
import { ENDPOINTS, type HealthReply, TOOL } from '@diagrodl/contracts';
import { type Db, pingDatabase } from '../../db/database.ts';
import { openApiRoute, route } from '../../lib/contract-routes.ts';

export interface ModelInfo {
  id: string;
  /**
   * Test accuracy from the model card (the ensemble's from models/ensemble.card.json; null for
   * refused models and for the ensemble without a matching card).
   */
  accuracy: number | null;
  /** 'refused': the file and its card do not match (or the card is invalid); see `reason`. */
  status?: 'loaded' | 'refused';
  reason?: string;
}

export function healthRoutes(
  app: FastifyInstance,
  deps: { db: Db; maintenance: boolean; models: () => ModelInfo[] },
): void {
  // The API as OpenAPI 3.1, generated from the endpoint table of packages/contracts.
  openApiRoute(app, { title: `${TOOL} API`, version: '1' });
  route(
    app,
    ENDPOINTS.health,
  )(async (_request, reply) => {
    const ok = await pingDatabase(deps.db);
    const body: HealthReply = {
      status: ok ? 'OK' : 'ERROR',
      database: { ok, kind: deps.db.dialect },
      maintenance: deps.maintenance,
      models: deps.models(),
      uptimeSeconds: Math.round(process.uptime()),
    };
    return reply.code(ok ? 200 : 503).send(body);
  });
}

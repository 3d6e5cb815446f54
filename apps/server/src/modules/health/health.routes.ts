import type { FastifyInstance } from 'fastify';
import type { HealthReply } from '@diagrodl/contracts';
import { type Db, pingDatabase } from '../../db/database.ts';

export interface ModelInfo {
  id: string;
  accuracy: number | null;
}

export function healthRoutes(
  app: FastifyInstance,
  deps: { db: Db; maintenance: boolean; models: () => ModelInfo[] },
): void {
  app.get('/api/health', async (_request, reply) => {
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

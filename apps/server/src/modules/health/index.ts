/** The health module as a Fastify plugin: `GET /api/health` (database, maintenance, models). */
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform.ts';
import { type ModelInfo, healthRoutes } from './health.routes.ts';

export async function healthModule(
  app: FastifyInstance,
  p: Platform & { models: () => ModelInfo[] },
): Promise<void> {
  healthRoutes(app, { db: p.db, maintenance: p.config.maintenance, models: p.models });
}

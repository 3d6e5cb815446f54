import type { FastifyRequest } from 'fastify';

/** Whether the request came over HTTPS (behind a proxy: with TRUST_PROXY, its X-Forwarded-Proto). */
export function isHttps(request: FastifyRequest): boolean {
  return request.protocol === 'https';
}

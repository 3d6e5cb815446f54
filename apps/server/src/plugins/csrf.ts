import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CSRF_COOKIE, SERVER_MESSAGES } from '@diagrodl/contracts';
import { HttpError } from '../lib/errors.ts';
import { isHttps } from '../lib/https.ts';
import { hmac, randomToken, safeEqual } from '../lib/tokens.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Double-submit CSRF protection as the specification's calls expect (Django style):
 * a `csrftoken` cookie the page can read, echoed in the `X-CSRFToken` header of every
 * mutating request. The token is signed with the server secret, so a cookie planted by
 * a sibling sub-domain is rejected too.
 */
export function registerCsrf(app: FastifyInstance, secret: string): void {
  const mint = (): string => {
    const nonce = randomToken(18);
    return `${nonce}.${hmac(secret, nonce)}`;
  };
  const valid = (token: string | undefined): token is string => {
    if (!token || token.length > 200) return false;
    const [nonce, sig] = token.split('.');
    return Boolean(nonce && sig && safeEqual(sig, hmac(secret, nonce)));
  };

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const cookie = request.cookies[CSRF_COOKIE];
    if (!valid(cookie)) {
      const token = mint();
      reply.setCookie(CSRF_COOKIE, token, {
        path: '/',
        httpOnly: false,
        sameSite: 'lax',
        secure: isHttps(request),
        maxAge: 365 * 24 * 60 * 60,
      });
      request.cookies[CSRF_COOKIE] = undefined;
    }
    if (SAFE_METHODS.has(request.method)) return;
    const header = request.headers['x-csrftoken'];
    const sent = Array.isArray(header) ? header[0] : header;
    const current = request.cookies[CSRF_COOKIE];
    if (!valid(current) || !sent || !safeEqual(sent, current)) {
      throw new HttpError(403, SERVER_MESSAGES.csrf);
    }
  });
}

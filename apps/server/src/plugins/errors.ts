import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SERVER_MESSAGES, acceptedLanguage, localizeDetail } from '@diagrodl/contracts';
import { HttpError } from '../lib/errors.ts';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A JSON reply in the request's language: the server writes its `detail` (and a form's `errors`
 * per field) in Spanish, and a request whose Accept-Language starts with English gets their
 * English twins (packages/contracts/src/localize.ts). Nothing else of the reply is touched.
 */
export function localizeReply(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): unknown {
  if (!isObject(payload) || !('detail' in payload || 'errors' in payload)) return payload;
  const vary = reply.getHeader('vary');
  if (
    !String(vary ?? '')
      .toLowerCase()
      .includes('accept-language')
  ) {
    reply.header('vary', vary ? `${String(vary)}, Accept-Language` : 'Accept-Language');
  }
  const lang = acceptedLanguage(request.headers['accept-language']);
  if (lang === 'es') return payload;
  const { detail, errors } = payload;
  return {
    ...payload,
    ...(typeof detail === 'string' ? { detail: localizeDetail(detail, lang) } : {}),
    ...(isObject(errors)
      ? {
          errors: Object.fromEntries(
            Object.entries(errors).map(([field, message]) => [
              field,
              typeof message === 'string' ? localizeDetail(message, lang) : message,
            ]),
          ),
        }
      : {}),
  };
}

/**
 * One error handler: JSON {status: 'ERROR', detail}, never a stack trace. Every JSON reply, the
 * handlers' and this handler's alike, passes the preSerialization hook that puts its `detail` in
 * the request's language.
 */
export function setErrorReplies(server: FastifyInstance): void {
  server.addHook('preSerialization', async (request, reply, payload) =>
    localizeReply(request, reply, payload),
  );
  server.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      return reply
        .code(error.statusCode)
        .headers(error.headers)
        .send({ status: 'ERROR', detail: error.detail, ...error.extra });
    }
    const code = error.statusCode ?? 500;
    if (code >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(code).send({ status: 'ERROR', detail: SERVER_MESSAGES.internal });
    }
    const detail =
      code === 413
        ? SERVER_MESSAGES.payloadTooLarge
        : code === 429
          ? error.message
          : code === 404
            ? SERVER_MESSAGES.notFound
            : SERVER_MESSAGES.badRequest;
    return reply.code(code).send({ status: 'ERROR', detail });
  });
}

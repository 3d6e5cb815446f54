import type { FastifyError, FastifyInstance } from 'fastify';
import { SERVER_MESSAGES } from '@diagrodl/contracts';
import { HttpError } from '../lib/errors.ts';

/** One error handler: JSON {status: 'ERROR', detail}, never a stack trace. */
export function setErrorReplies(server: FastifyInstance): void {
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

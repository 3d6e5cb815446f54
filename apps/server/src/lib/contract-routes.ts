/**
 * Routes registered from the endpoint table of packages/contracts (src/endpoints.ts): the
 * method and path come from the entry, a visitor is refused first where it says `access:
 * 'user'`, a multipart body is read into an object, then the entry's zod schemas check the body,
 * path params and query before the handler, which receives their typed output. A refused request
 * gets the entry's `invalid` status and detail (a schema's own message wins), with `errors` per
 * field where the entry asks for them: exactly what the handlers answered before the table.
 */
import {
  type BodyOf,
  type Endpoint,
  type MultipartRule,
  type ParamsOf,
  type QueryOf,
  type ReplyOf,
  SERVER_MESSAGES,
  openApiDocument,
  ENDPOINTS,
} from '@diagrodl/contracts';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  preValidationHookHandler,
} from 'fastify';
import type { z } from 'zod';
import { requireUser } from '../plugins/auth-guard.ts';
import { HttpError } from './errors.ts';

export type ContractRequest<E extends Endpoint> = FastifyRequest<{
  Body: BodyOf<E>;
  Params: ParamsOf<E>;
  Querystring: QueryOf<E>;
}>;

export type ContractHandler<E extends Endpoint> = (
  request: ContractRequest<E>,
  reply: FastifyReply,
) => Promise<ReplyOf<E> | FastifyReply>;

/** The answer to a request the schemas refused. */
function refusal(endpoint: Endpoint, error: z.ZodError): HttpError {
  const status = endpoint.invalid?.status ?? 400;
  const first = error.issues[0]?.message ?? SERVER_MESSAGES.badRequest;
  if (!endpoint.fieldErrors) return new HttpError(status, first);
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '');
    errors[field] ??= issue.message;
  }
  return new HttpError(status, first, {}, { errors });
}

/**
 * A multipart body as one object: its text fields (a field sent twice: its last value) and,
 * under `rule.file`, the first file ({bytes, filename}). Without a multipart body, a JSON or form
 * body's fields (unless the rule requires multipart): one that is not text is kept for the schema
 * to refuse (posts_predict's `ids` as a JSON array) or to read as missing, as text fields do.
 */
async function readMultipart(request: FastifyRequest, rule: MultipartRule): Promise<void> {
  if (!request.isMultipart()) {
    if (rule.required) throw new HttpError(400, rule.required);
    const fields: Record<string, unknown> = {};
    const body = request.body;
    if (body && typeof body === 'object') {
      for (const [k, v] of Object.entries(body)) if (k !== '__proto__') fields[k] = v;
    }
    request.body = fields;
    return;
  }
  const fields: Record<string, unknown> = {};
  let file: { bytes: Buffer; filename: string | undefined } | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (file) {
          await part.toBuffer().catch(() => undefined); // one file at most: the rest is drained
          continue;
        }
        const bytes = await part.toBuffer();
        if (rule.fileFromAnyField || part.fieldname === rule.file) {
          file = { bytes, filename: part.filename || undefined };
        }
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, rule.tooLarge);
    if (code === 'FST_FILES_LIMIT') throw new HttpError(400, rule.tooManyFiles ?? rule.broken);
    // anything else the multipart reader throws is a body it cannot read: the parser's own limits
    // (FST_*), or busboy's errors, which carry no code (no boundary, a body cut off mid-part)
    throw new HttpError(400, rule.broken);
  }
  if (file) fields[rule.file] = file;
  request.body = fields;
}

/**
 * Registers one endpoint of the table on `app` (or a scope of it):
 * `route(app, ENDPOINTS.login)(async (request, reply) => ...)`. (Two calls, so that the entry
 * fixes the handler's types before the handler is read: its reply is checked against the table.)
 */
export function route<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
): (handler: ContractHandler<E>) => void {
  return (handler) => register(app, endpoint, handler);
}

function register<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: ContractHandler<E>,
): void {
  const schema: FastifySchema = {};
  if (endpoint.body) schema.body = endpoint.body;
  if (endpoint.params) schema.params = endpoint.params;
  if (endpoint.query) schema.querystring = endpoint.query;
  const before: preValidationHookHandler[] = [];
  if (endpoint.access === 'user') before.push(requireUser);
  const multipart = endpoint.multipart;
  if (multipart) before.push(async (request) => readMultipart(request, multipart));
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    schema,
    preValidation: before,
    // Fastify passes null for a missing body; the schemas decide what that means.
    validatorCompiler:
      ({ schema: part }) =>
      (data) => {
        const result = (part as z.ZodType).safeParse(data, {
          error: () => endpoint.invalid?.detail ?? SERVER_MESSAGES.badRequest,
        });
        return result.success ? { value: result.data } : { error: refusal(endpoint, result.error) };
      },
    handler: handler as (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  });
}

/** GET /api/openapi.json: the table as OpenAPI 3.1 (built once). */
export function openApiRoute(app: FastifyInstance, info: { title: string; version: string }): void {
  const document = openApiDocument(info);
  route(app, ENDPOINTS.openApi)(async () => document);
}

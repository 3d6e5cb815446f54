/**
 * The OpenAPI 3.1 document of the endpoint table (served at GET /api/openapi.json). Request
 * schemas come from the zod schemas (as the client sends them); replies are named by their
 * TypeScript type in `packages/contracts` (they are not validated at run time).
 */
import { z } from 'zod';
import { ENDPOINTS, type Endpoint } from './endpoints.ts';

type JsonSchema = Record<string, unknown>;

const toJson = (schema: z.ZodType): JsonSchema => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
};

/** `/diagrodl/pending/:id/` -> `/diagrodl/pending/{id}/` */
export const openApiPath = (path: string): string => path.replace(/:([A-Za-z_]+)/g, '{$1}');

function parameters(e: Endpoint): JsonSchema[] {
  const out: JsonSchema[] = [];
  for (const [where, schema] of [
    ['path', e.params],
    ['query', e.query],
  ] as const) {
    if (!schema) continue;
    const json = toJson(schema) as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, s] of Object.entries(json.properties ?? {})) {
      out.push({
        name,
        in: where,
        required: where === 'path' || (json.required ?? []).includes(name),
        schema: s,
      });
    }
  }
  return out;
}

function requestBody(e: Endpoint): JsonSchema | undefined {
  if (e.multipart) {
    const json = e.body ? toJson(e.body) : { type: 'object' };
    // the file travels as a binary part (in a JSON body it could only be a missing file); a body
    // that takes no file (posts_predict's `ids`) describes its text fields only
    const props = { ...(json.properties as Record<string, JsonSchema> | undefined) };
    if (e.multipart.file in props) props[e.multipart.file] = { type: 'string', format: 'binary' };
    return {
      content: {
        'multipart/form-data': { schema: { ...json, properties: props } },
        ...(e.multipart.required ? {} : { 'application/json': { schema: json } }),
      },
    };
  }
  if (!e.body) return undefined;
  return { required: true, content: { 'application/json': { schema: toJson(e.body) } } };
}

const errorSchema: JsonSchema = {
  type: 'object',
  properties: {
    status: { const: 'ERROR' },
    detail: { type: 'string', description: 'Spanish, shown to the user as it is' },
    errors: { type: 'object', additionalProperties: { type: 'string' } },
  },
  required: ['status', 'detail'],
};

export function openApiDocument(info: { title: string; version: string }): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const [name, e] of Object.entries(ENDPOINTS) as [string, Endpoint][]) {
    const path = openApiPath(e.path);
    const responses: Record<string, JsonSchema> = {
      '200': e.produces
        ? {
            description: 'The file',
            content: Object.fromEntries(e.produces.split(', ').map((t) => [t, {}])),
          }
        : {
            description: `JSON: ReplyOf<typeof ENDPOINTS.${name}> in packages/contracts`,
            content: { 'application/json': {} },
          },
      default: {
        description: 'Failure: the status code and a Spanish detail',
        content: { 'application/json': { schema: errorSchema } },
      },
    };
    if (e.invalid) {
      responses[String(e.invalid.status)] = {
        description: `Refused by the request schema: "${e.invalid.detail}"${e.fieldErrors ? ' (and errors per field)' : ''}`,
        content: { 'application/json': { schema: errorSchema } },
      };
    }
    if (e.access === 'user') {
      responses['401'] = {
        description: 'Not logged in',
        content: { 'application/json': { schema: errorSchema } },
      };
    }
    const body = requestBody(e);
    const params = parameters(e);
    (paths[path] ??= {})[e.method.toLowerCase()] = {
      operationId: name,
      summary: e.summary,
      ...(params.length ? { parameters: params } : {}),
      ...(body ? { requestBody: body } : {}),
      ...(e.access === 'user' ? { security: [{ session: [] }] } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      ...info,
      description:
        'Generated from packages/contracts/src/endpoints.ts. Every mutating call needs the X-CSRFToken header echoing the csrftoken cookie.',
    },
    components: {
      securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'sessionid' } },
    },
    paths,
  };
}

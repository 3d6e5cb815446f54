import { describe, expect, it } from 'vitest';
import { CONTACT_MESSAGES, CONTACT_REPLY } from './contact.ts';
import { DIAGNOSIS_MESSAGES } from './diagnosis.ts';
import { ENDPOINTS, type Endpoint, endpointUrl } from './endpoints.ts';
import { openApiDocument, openApiPath } from './openapi.ts';

const all = Object.entries(ENDPOINTS) as [string, Endpoint][];

describe('the endpoint table', () => {
  it('declares each method and path once', () => {
    const keys = all.map(([, e]) => `${e.method} ${e.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('names every path parameter in a params schema, and only those', () => {
    for (const [name, e] of all) {
      const inPath = [...e.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]);
      const declared = e.params
        ? Object.keys((e.params as unknown as { shape: object }).shape)
        : [];
      expect(declared.sort(), name).toEqual(inPath.sort());
    }
  });

  it('fills in path parameters, URL-encoded, and a query', () => {
    expect(endpointUrl(ENDPOINTS.deletePending, { id: 7 })).toBe('/diagrodl/pending/7/');
    expect(endpointUrl(ENDPOINTS.media, { kind: 'thumbs', file: 'a b.jpg' })).toBe(
      '/media/thumbs/a%20b.jpg',
    );
    expect(endpointUrl(ENDPOINTS.predict, {}, { wait: '1' })).toBe(
      '/diagrodl/posts_predict/?wait=1',
    );
    expect(() => endpointUrl(ENDPOINTS.deletePending, {})).toThrow(/id is missing/);
  });

  it('reads text fields as the services do: missing or not a string is empty', () => {
    expect(ENDPOINTS.changePassword.body.parse({ current_password: 5 })).toEqual({
      current_password: '',
      new_password: '',
      new_password_confirm: '',
    });
    expect(ENDPOINTS.resetCheck.body.parse(null)).toEqual({ token: '' });
  });

  it('refuses an unusable id like the handlers did (Number() of it, positive, safe)', () => {
    const id = ENDPOINTS.deletePending.params;
    expect(id.parse({ id: '12' })).toEqual({ id: 12 });
    for (const bad of ['0', '-1', '1.5', 'x', '9007199254740993']) {
      expect(id.safeParse({ id: bad }).success, bad).toBe(false);
    }
  });

  it("reads posts_predict's optional ids as distinct ids, and refuses any other value", () => {
    const body = ENDPOINTS.predict.body;
    expect(body.parse({ image: 'pending', report: 'no' })).toEqual({});
    expect(body.parse({ ids: '12' })).toEqual({ ids: [12] });
    expect(body.parse({ ids: '3, 1,3' })).toEqual({ ids: [3, 1] });
    const fifty = Array.from({ length: 50 }, (_, i) => i + 1);
    expect(body.parse({ ids: fifty.join(',') })).toEqual({ ids: fifty });
    for (const bad of ['', ' ', 'x', '0', '1,', '1,,2', '1;2', '2147483648', [1], 7, null]) {
      const r = body.safeParse({ ids: bad });
      expect(r.success, JSON.stringify(bad)).toBe(false);
      expect(r.error?.issues[0]?.message).toBe(DIAGNOSIS_MESSAGES.badIds);
    }
    expect(body.safeParse({ ids: [...fifty, 51].join(',') }).success).toBe(false);
  });

  it("gives the contact form's per-field Spanish messages, in field order", () => {
    const r = ENDPOINTS.contact.body.safeParse({
      name: '',
      email: 'nope',
      subject: 'Hola',
      message: 'corto',
    });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => [i.path[0], i.message])).toEqual([
      ['name', CONTACT_MESSAGES.name.empty],
      ['email', CONTACT_MESSAGES.email.invalid],
      ['message', CONTACT_MESSAGES.message.tooShort],
    ]);
    expect(ENDPOINTS.contact.invalid.detail).toBe(CONTACT_REPLY.invalid);
  });
});

describe('the OpenAPI document', () => {
  const doc = openApiDocument({ title: 'DiAgroDL', version: '1' }) as {
    openapi: string;
    paths: Record<
      string,
      Record<
        string,
        { operationId: string; requestBody?: unknown; parameters?: { name: string; in: string }[] }
      >
    >;
  };

  it('lists every endpoint of the table under its OpenAPI path', () => {
    expect(doc.openapi).toBe('3.1.0');
    for (const [name, e] of all) {
      expect(doc.paths[openApiPath(e.path)]?.[e.method.toLowerCase()]?.operationId, name).toBe(
        name,
      );
    }
  });

  it('describes bodies and path parameters from the schemas', () => {
    const login = doc.paths['/api/login/']!.post!.requestBody as {
      content: { 'application/json': { schema: { properties: Record<string, unknown> } } };
    };
    expect(Object.keys(login.content['application/json'].schema.properties)).toEqual([
      'username',
      'password',
      'remember',
    ]);
    expect(doc.paths['/diagrodl/history/{id}/']!.delete!.parameters).toEqual([
      expect.objectContaining({ name: 'id', in: 'path' }),
    ]);
    // a multipart body's file is binary; posts_predict's fields are text (its image is 'pending')
    type Form = { content: { 'multipart/form-data': { schema: { properties: object } } } };
    const fields = (path: string) =>
      (doc.paths[path]!.post!.requestBody as Form).content['multipart/form-data'].schema.properties;
    expect(fields('/diagrodl/posts/')).toMatchObject({
      image: { type: 'string', format: 'binary' },
    });
    expect(fields('/diagrodl/posts_predict/')).toEqual({ ids: { type: 'string' } });
  });
});

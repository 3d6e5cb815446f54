/**
 * The endpoint table of packages/contracts on the wire: the server answers every entry, its
 * OpenAPI document lists them all, login answers with the session, and requests the schemas
 * refuse get the answers the handlers gave before the table (status and Spanish detail).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONTACT_MESSAGES,
  CONTACT_REPLY,
  DEVICE_MESSAGES,
  DIAGNOSIS_MESSAGES,
  ENDPOINTS,
  type Endpoint,
  LOGIN_INVALID,
  SERVER_MESSAGES,
  openApiPath,
} from '@diagrodl/contracts';
import { Browser, type TestServer, json, startTestServer } from './testing/harness.ts';
import { loggedIn } from './testing/diagnosis.ts';

const table = Object.entries(ENDPOINTS) as [string, Endpoint][];
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer('sqlite');
});
afterAll(async () => {
  await server?.app.close();
});

describe('the endpoint table on the wire', () => {
  it('has a route for every endpoint of the table', () => {
    for (const [name, e] of table) {
      expect(server.app.server.hasRoute({ method: e.method, url: e.path }), name).toBe(true);
    }
  });

  it('serves an OpenAPI document that lists every endpoint', async () => {
    const res = await fetch(`${server.baseUrl}/api/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    const doc = await json(res);
    expect(doc.openapi).toBe('3.1.0');
    for (const [name, e] of table) {
      const op = doc.paths[openApiPath(e.path)]?.[e.method.toLowerCase()];
      expect(op?.operationId, `${e.method} ${e.path}`).toBe(name);
    }
    const operations = Object.values(doc.paths as Record<string, object>).flatMap(Object.keys);
    expect(operations).toHaveLength(table.length);
  });

  it('answers a login with the session it opened (the same state GET /api/session/ gives)', async () => {
    const { browser } = await loggedIn(server.app, server.baseUrl, 'SesionUna1');
    const again = await browser.post('/api/login/', {
      json: { username: 'SesionUna1', password: 'Secreta-123456' },
    });
    const reply = await json(again);
    expect(reply.status).toBe('OK');
    expect(reply.session).toEqual(await json(await browser.get('/api/session/')));
    expect(reply.session).toMatchObject({
      isAuthenticated: true,
      user: { userName: 'SesionUna1', firstName: expect.any(String), language: 'es' },
    });
  });
});

describe('requests the schemas refuse', () => {
  it('refuses a login without a user name or password, whatever the body', async () => {
    const b = new Browser(server.baseUrl);
    await b.get('/api/session/');
    for (const body of [
      'null',
      '[]',
      '"x"',
      '{"username":" ","password":"p"}',
      '{"username":"a"}',
    ]) {
      const res = await b.post('/api/login/', {
        body,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status, body).toBe(400);
      expect(await json(res), body).toEqual({ status: 'ERROR', detail: LOGIN_INVALID });
    }
    const empty = await b.post('/api/login/');
    expect(empty.status).toBe(400);
    expect(await json(empty)).toEqual({ status: 'ERROR', detail: LOGIN_INVALID });
  });

  it('gives every invalid contact field its message, also for a body that is not an object', async () => {
    const b = new Browser(server.baseUrl);
    await b.get('/api/session/');
    const res = await b.post('/api/contact/', { json: ['not', 'an', 'object'] });
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({
      status: 'ERROR',
      detail: CONTACT_MESSAGES.name.empty,
      errors: {
        name: CONTACT_MESSAGES.name.empty,
        email: CONTACT_MESSAGES.email.empty,
        subject: CONTACT_MESSAGES.subject.empty,
        message: CONTACT_MESSAGES.message.empty,
      },
    });
    expect(CONTACT_REPLY.invalid).toBe(ENDPOINTS.contact.invalid.detail);
  });

  it('says a reset token is not valid for any body, without an error', async () => {
    const b = new Browser(server.baseUrl);
    await b.get('/api/session/');
    for (const json_ of [null, { token: 5 }, { token: '' }, { token: 'x'.repeat(201) }]) {
      const res = await b.post('/api/password_reset/check/', { json: json_ });
      expect(res.status).toBe(200);
      expect(await json(res)).toEqual({ valid: false });
    }
  });

  it('asks a visitor to log in before it looks at the request', async () => {
    const b = new Browser(server.baseUrl);
    await b.get('/api/session/');
    for (const [method, path] of [
      ['DELETE', '/diagrodl/pending/not-a-number/'],
      ['DELETE', '/diagrodl/history/0/'],
      ['POST', '/diagrodl/posts/'],
      ['POST', '/api/change_password/'],
    ] as const) {
      const res = await b.request(method, path);
      expect(res.status, path).toBe(401);
      expect(await json(res), path).toEqual({
        status: 'ERROR',
        detail: SERVER_MESSAGES.loginRequired,
      });
    }
  });

  it('answers an id that is no id with the 404 of an unknown one', async () => {
    const { browser } = await loggedIn(server.app, server.baseUrl, 'SesionDos2');
    for (const id of ['abc', '0', '-3', '1.5', '99999999999999999999']) {
      const pending = await browser.request('DELETE', `/diagrodl/pending/${id}/`);
      expect(pending.status, id).toBe(404);
      expect(await json(pending)).toEqual({
        status: 'ERROR',
        detail: DIAGNOSIS_MESSAGES.pendingNotFound,
      });
      const history = await browser.request('DELETE', `/diagrodl/history/${id}/`);
      expect(history.status, id).toBe(404);
      expect(await json(history)).toEqual({
        status: 'ERROR',
        detail: DIAGNOSIS_MESSAGES.historyNotFound,
      });
    }
  });

  it('answers an upload without a file, and a device diagnosis that is not multipart, with 400', async () => {
    const { browser } = await loggedIn(server.app, server.baseUrl, 'SesionTres3');
    const fd = new FormData();
    fd.append('name_img', 'x.jpg');
    fd.append('image', 'not a file');
    const upload = await browser.post('/diagrodl/posts/', { body: fd });
    expect(upload.status).toBe(400);
    expect(await json(upload)).toEqual({ status: 'ERROR', detail: DIAGNOSIS_MESSAGES.noFile });
    const device = await browser.post('/diagrodl/device/diagnoses/', { json: { result: '{}' } });
    expect(device.status).toBe(400);
    expect(await json(device)).toEqual({ status: 'ERROR', detail: DIAGNOSIS_MESSAGES.noFile });
  });

  it('answers a device model name that is not one with 404', async () => {
    for (const file of ['mobilenet.exe', 'MobileNet.onnx', '..%2Fsecret.onnx', 'a.card.json.x']) {
      const res = await fetch(`${server.baseUrl}/diagrodl/device/models/${file}`);
      expect(res.status, file).toBe(404);
      expect(await json(res)).toEqual({ status: 'ERROR', detail: DEVICE_MESSAGES.modelNotFound });
    }
  });
});

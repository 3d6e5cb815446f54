import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_ROUTE_PATHS, SERVER_MESSAGES } from '@diagrodl/contracts';
import { precompress } from '../../../scripts/precompress.mjs';
import { Browser, describeEachDatabase, json, startTestServer } from './testing/harness.ts';
import { createUserDirect } from './testing/users.ts';

const fakeWeb = fs.mkdtempSync(path.join(os.tmpdir(), 'diagrodl-web-'));
fs.writeFileSync(path.join(fakeWeb, 'index.html'), '<html><head></head><body>APP</body></html>');
fs.mkdirSync(path.join(fakeWeb, 'assets'));
fs.writeFileSync(path.join(fakeWeb, 'assets', 'app-abc.js'), 'console.log(1)');
const bigScript = Array.from({ length: 400 }, (_, i) => `console.log('line ${i}');`).join('\n');
fs.writeFileSync(path.join(fakeWeb, 'assets', 'big-abc.js'), bigScript);
precompress(fakeWeb);

describeEachDatabase(
  'foundation API',
  (ctx) => {
    it('reports health with the database', async () => {
      const res = await fetch(`${ctx().baseUrl}/api/health`);
      expect(res.status).toBe(200);
      const body = await json(res);
      expect(body.status).toBe('OK');
      expect(body.database.ok).toBe(true);
      expect(body.database.kind).toBe(ctx().app.db.dialect);
      expect(body.maintenance).toBe(false);
    });

    it('answers /api/session/ for a visitor and sets a readable csrftoken cookie', async () => {
      const b = new Browser(ctx().baseUrl);
      const res = await b.get('/api/session/');
      expect(res.status).toBe(200);
      expect(await json(res)).toEqual({ isAuthenticated: false });
      const setCookie = res.headers.getSetCookie().join('\n');
      expect(setCookie).toMatch(/csrftoken=[^;]+;/);
      expect(setCookie).not.toMatch(/csrftoken=[^\n]*HttpOnly/i);
      expect(setCookie).toMatch(/SameSite=Lax/i);
    });

    it('refuses a mutating call without X-CSRFToken with 403 and a clear detail', async () => {
      const b = new Browser(ctx().baseUrl);
      await b.get('/api/session/');
      const res = await b.post('/api/login/', {
        json: { username: 'x', password: 'y' },
        csrf: false,
      });
      expect(res.status).toBe(403);
      expect(await json(res)).toEqual({ status: 'ERROR', detail: SERVER_MESSAGES.csrf });
      const forged = await b.post('/api/login/', {
        json: { username: 'x', password: 'y' },
        csrf: false,
        headers: { 'X-CSRFToken': 'forged.token' },
      });
      expect(forged.status).toBe(403);
    });

    it('logs in, reports the session, and logout kills the old cookie server-side', async () => {
      await createUserDirect(ctx().app.db, { userName: 'AnaLopez1', password: 'Secreta-123456' });
      const b = new Browser(ctx().baseUrl);
      await b.get('/api/session/');
      const bad = await b.post('/api/login/', {
        json: { username: 'AnaLopez1', password: 'nope' },
      });
      expect(bad.status).toBe(401);
      expect((await json(bad)).status).toBe('ERROR');

      const ok = await b.post('/api/login/', {
        json: { username: 'analopez1', password: 'Secreta-123456' },
      });
      expect(ok.status).toBe(200);
      expect((await json(ok)).status).toBe('OK');
      const sessionCookie = ok.headers.getSetCookie().find((c) => c.startsWith('sessionid='));
      expect(sessionCookie).toMatch(/HttpOnly/i);
      const me = await json(await b.get('/api/session/'));
      expect(me.isAuthenticated).toBe(true);
      expect(me.user.userName).toBe('AnaLopez1');

      const oldToken = b.cookie('sessionid')!;
      expect((await b.get('/api/logout/')).status).toBe(200);
      const replay = new Browser(ctx().baseUrl);
      replay.setCookie('sessionid', oldToken);
      expect(await json(await replay.get('/api/session/'))).toEqual({ isAuthenticated: false });
    });

    it('answers unknown API paths with JSON 404, never HTML or a stack trace', async () => {
      const res = await fetch(`${ctx().baseUrl}/api/nothing-here`);
      expect(res.status).toBe(404);
      expect(await json(res)).toEqual({ status: 'ERROR', detail: SERVER_MESSAGES.notFound });
      const b = new Browser(ctx().baseUrl);
      await b.get('/api/session/');
      const malformed = await b.post('/api/login/', {
        body: '{not json',
        headers: { 'content-type': 'application/json' },
      });
      expect(malformed.status).toBe(400);
      const text = await malformed.text();
      expect(JSON.parse(text).status).toBe('ERROR');
      expect(text).not.toMatch(/at .*\.ts:\d+/);
    });

    it('serves the SPA for every route of the specification and 404 for others', async () => {
      for (const route of ALL_ROUTE_PATHS) {
        const res = await fetch(`${ctx().baseUrl}${route}`);
        expect(res.status, route).toBe(200);
        const html = await res.text();
        expect(html).toContain('APP');
        expect(html).toContain('id="app-config"');
      }
      const missing = await fetch(`${ctx().baseUrl}/no/such/page`);
      expect(missing.status).toBe(404);
      expect(await missing.text()).toContain('APP');
      const asset = await fetch(`${ctx().baseUrl}/assets/app-abc.js`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('cache-control')).toContain('immutable');
    });

    it('sends the build’s brotli or gzip copy to a browser that accepts it, else the file', async () => {
      for (const [accept, encoding] of [
        ['gzip, deflate, br', 'br'],
        ['gzip', 'gzip'],
        ['identity', null],
      ] as const) {
        const res = await fetch(`${ctx().baseUrl}/assets/big-abc.js`, {
          headers: { 'accept-encoding': accept },
        });
        expect(res.status, accept).toBe(200);
        expect(res.headers.get('content-encoding'), accept).toBe(encoding);
        expect(res.headers.get('vary') ?? '', accept).toMatch(/accept-encoding/i);
        expect(res.headers.get('content-type'), accept).toMatch(/javascript/);
        expect(res.headers.get('cache-control'), accept).toContain('immutable');
        expect(res.headers.get('x-decoded-content-length'), accept).toBe(
          encoding ? String(Buffer.byteLength(bigScript)) : null,
        );
        // fetch undoes the encoding: the same script arrives
        expect(await res.text(), accept).toBe(bigScript);
      }
      // a file too small to gain keeps no copy and is sent as it is
      expect(fs.existsSync(path.join(fakeWeb, 'assets', 'app-abc.js.br'))).toBe(false);
    });

    it('sends security headers', async () => {
      const res = await fetch(`${ctx().baseUrl}/`);
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    });
  },
  { WEB_DIST: fakeWeb },
);

describe('maintenance mode', () => {
  it('answers every API call with 503 and the maintenance detail, and flags the SPA', async () => {
    const s = await startTestServer('sqlite', { MAINTENANCE: '1', WEB_DIST: fakeWeb });
    try {
      // %-escaped paths reach the same routes, and so does the media folder
      for (const url of [
        '/api/session/',
        '/api/health',
        '/diagrodl/posts/',
        '/%61pi/session/',
        '/%64iagrodl/posts/',
        '/media/reports/abc.pdf',
        '/api/no-such-call',
      ]) {
        const res = await fetch(`${s.baseUrl}${url}`);
        expect(res.status, url).toBe(503);
        expect(await json(res)).toEqual({
          status: 'ERROR',
          detail: 'Website currently in maintenance',
        });
      }
      // nothing is written: a registration through an escaped path is refused too
      const register = await fetch(`${s.baseUrl}/%61pi/Create_user/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(register.status).toBe(503);
      const html = await (await fetch(`${s.baseUrl}/About`)).text();
      expect(html).toContain('"maintenance":true');
    } finally {
      await s.app.close();
    }
  });
});

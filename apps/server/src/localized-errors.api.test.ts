// The server's messages follow the page's language: English when the request's Accept-Language
// starts with English, Spanish otherwise (no header, es-MX, anything else).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import {
  AUTH_MESSAGES,
  AUTH_MESSAGES_EN,
  CONTACT_MESSAGES,
  CONTACT_MESSAGES_EN,
  DIAGNOSIS_MESSAGES as M,
  DIAGNOSIS_MESSAGES_EN as M_EN,
  DIAGNOSIS_PATHS as P,
  SERVER_MESSAGES,
  SERVER_MESSAGES_EN,
} from '@diagrodl/contracts';
import { Browser, type TestServer, describeEachDatabase, json } from './testing/harness.ts';
import { loggedIn, uploadForm } from './testing/diagnosis.ts';

// No model is needed to refuse a request: an empty models folder starts the server faster.
const NO_MODELS = fs.mkdtempSync(path.join(os.tmpdir(), 'diagrodl-no-models-'));
afterAll(() => fs.rmSync(NO_MODELS, { recursive: true, force: true }));

/** The three ways a request names its language, and the language each one gets. */
const LANGUAGES = [
  { name: 'no Accept-Language', headers: {} as Record<string, string>, en: false },
  { name: 'es-MX', headers: { 'Accept-Language': 'es-MX,es;q=0.9,en;q=0.8' }, en: false },
  { name: 'en', headers: { 'Accept-Language': 'en' }, en: true },
  { name: 'en-US', headers: { 'Accept-Language': 'en-US,en;q=0.9,es;q=0.5' }, en: true },
] as const;

let seq = 0;
const user = () => `Idioma${process.pid % 1000}x${seq++}`;

describeEachDatabase(
  'messages in the request language',
  (ctx) => {
    const s = (): TestServer => ctx();

    for (const lang of LANGUAGES) {
      const pick = <T>(es: T, en: T): T => (lang.en ? en : es);

      it(`refuses a visitor, a request without CSRF and a broken URL (${lang.name})`, async () => {
        const visitor = new Browser(s().baseUrl);
        await visitor.get('/api/session/');
        const history = await visitor.get(P.history, { headers: lang.headers });
        expect(history.status).toBe(401);
        expect(await json(history)).toEqual({
          status: 'ERROR',
          detail: pick(SERVER_MESSAGES.loginRequired, SERVER_MESSAGES_EN.loginRequired),
        });
        expect(history.headers.get('vary')).toMatch(/accept-language/i);

        const noCsrf = await visitor.post('/api/logout/', { headers: lang.headers, csrf: false });
        expect(noCsrf.status).toBe(403);
        expect((await json(noCsrf)).detail).toBe(
          pick(SERVER_MESSAGES.csrf, SERVER_MESSAGES_EN.csrf),
        );

        // a URL the router cannot read is answered outside any route (frameworkErrors)
        const broken = await visitor.get('/api/%E0%A4%A', { headers: lang.headers });
        expect(broken.status).toBe(400);
        expect((await json(broken)).detail).toBe(
          pick(SERVER_MESSAGES.badRequest, SERVER_MESSAGES_EN.badRequest),
        );
        const unknown = await visitor.get('/api/nothing-here/', { headers: lang.headers });
        expect(unknown.status).toBe(404);
        expect((await json(unknown)).detail).toBe(
          pick(SERVER_MESSAGES.notFound, SERVER_MESSAGES_EN.notFound),
        );
      });

      it(`answers the diagnosis errors and successes (${lang.name})`, async () => {
        const name = user();
        const { browser } = await loggedIn(s().app, s().baseUrl, name);
        const text = await browser.post(P.posts, {
          body: uploadForm(Buffer.from('hola, no soy una imagen\n'), 'foto.jpg'),
          headers: lang.headers,
        });
        expect(text.status).toBe(415);
        expect(await json(text)).toEqual({
          status: 'ERROR',
          detail: pick(M.badType, M_EN.badType),
        });

        const missing = await browser.request('DELETE', P.historyItem(987_654), {
          headers: lang.headers,
        });
        expect(missing.status).toBe(404);
        expect((await json(missing)).detail).toBe(pick(M.historyNotFound, M_EN.historyNotFound));
        // refused by the endpoint's schema: the table's detail, translated the same way
        const badId = await browser.request('DELETE', '/diagrodl/history/abc/', {
          headers: lang.headers,
        });
        expect(badId.status).toBe(404);
        expect((await json(badId)).detail).toBe(pick(M.historyNotFound, M_EN.historyNotFound));

        // a model this server does not have: a message with the model's name in it
        const config = new FormData();
        for (const [k, v] of Object.entries({
          cultivo: 'tomate',
          nivel: 'hoja',
          tipo_modelo: 'DL',
          modelo_version: 'tomato_leaf_cnn_mobilenet',
        })) {
          config.append(k, v);
        }
        const notLoaded = await browser.post(P.config, { body: config, headers: lang.headers });
        expect(notLoaded.status).toBe(400);
        expect((await json(notLoaded)).detail).toBe(
          pick(M.modelNotLoaded('MobileNet v1'), M_EN.modelNotLoaded('MobileNet v1')),
        );

        // a success detail, and rows are left as they are
        const cleared = await browser.request('DELETE', P.history, { headers: lang.headers });
        expect(await json(cleared)).toEqual({
          status: 'OK',
          detail: pick(M.historyDeleted, M_EN.historyDeleted),
          deleted: 0,
        });
        expect(await json(await browser.get(P.history, { headers: lang.headers }))).toEqual([]);
      });

      it(`greets at login and says goodbye (${lang.name})`, async () => {
        const name = user();
        const { browser } = await loggedIn(s().app, s().baseUrl, name);
        await browser.post('/api/logout/');
        const login = await browser.post('/api/login/', {
          json: { username: name, password: 'Secreta-123456' },
          headers: lang.headers,
        });
        expect(login.status).toBe(200);
        const body = await json(login);
        expect(body.detail).toBe(
          pick(AUTH_MESSAGES.loginOk('Ana'), AUTH_MESSAGES_EN.loginOk('Ana')),
        );
        expect(body.session.user.userName).toBe(name);
        const out = await browser.post('/api/logout/', { headers: lang.headers });
        expect((await json(out)).detail).toBe(
          pick(AUTH_MESSAGES.loggedOut, AUTH_MESSAGES_EN.loggedOut),
        );
      });

      it(`answers the contact form's errors per field (${lang.name})`, async () => {
        const ip = `10.9.${seq % 250}.${(seq++ % 250) + 1}`;
        const tab = new Browser(s().baseUrl);
        await tab.get('/api/session/', { headers: { 'X-Forwarded-For': ip } });
        const res = await tab.post('/api/contact/', {
          json: { name: '', email: 'no-es-correo', subject: ' ', message: 'corto' },
          headers: { ...lang.headers, 'X-Forwarded-For': ip },
        });
        expect(res.status).toBe(400);
        const T = lang.en ? CONTACT_MESSAGES_EN : CONTACT_MESSAGES;
        expect(await json(res)).toEqual({
          status: 'ERROR',
          detail: T.name.empty,
          errors: {
            name: T.name.empty,
            email: T.email.invalid,
            subject: T.subject.empty,
            message: T.message.tooShort,
          },
        });
      });
    }
  },
  { MODELS_DIR: NO_MODELS },
);

import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ACCOUNT_MESSAGES,
  PASSWORD_MESSAGES,
  RATE_LIMIT_MESSAGES,
  RATE_LIMIT_MESSAGES_EN,
} from '@diagrodl/contracts';
import {
  Browser,
  describeEachDatabase,
  json,
  startTestServer,
  type TestServer,
} from '../../testing/harness.ts';
import { createUserDirect } from '../../testing/users.ts';
import { mailsTo, resetLinkFromMail, waitForMails } from '../../testing/mail-reader.ts';
import { AUTH_MESSAGES } from '@diagrodl/contracts';

let seq = 0;
const nextIp = () => `10.2.${Math.floor(seq / 250)}.${(seq++ % 250) + 1}`;
const uniqueName = (p: string) => `${p}${process.pid % 1000}x${++seq}`.slice(0, 15);
const PASSWORD = 'Tomate-rojo-2026';

/** A cookie-keeping client that always comes from the same (fake) address. */
class Tab extends Browser {
  constructor(
    baseUrl: string,
    readonly ip = nextIp(),
  ) {
    super(baseUrl);
  }
  override request(
    method: string,
    url: string,
    opts: Parameters<Browser['request']>[2] = {},
  ): Promise<Response> {
    return super.request(method, url, {
      ...opts,
      headers: { 'X-Forwarded-For': this.ip, ...(opts.headers ?? {}) },
    });
  }
  async open(): Promise<this> {
    await this.get('/api/session/');
    return this;
  }
  login(username: string, password: string, remember = false): Promise<Response> {
    return this.post('/api/login/', { json: { username, password, remember } });
  }
  async authenticated(): Promise<boolean> {
    return (await json(await this.get('/api/session/'))).isAuthenticated;
  }
}

async function newUser(s: TestServer, prefix = 'user'): Promise<{ name: string; email: string }> {
  const name = uniqueName(prefix);
  const email = `${name.toLowerCase()}@example.test`;
  await createUserDirect(s.app.db, { userName: name, password: PASSWORD, email });
  return { name, email };
}

/** Moves the server's clock (it runs in this process) forward. */
function travel(ms: number): void {
  const now = Date.now();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(now + ms);
}

afterEach(() => {
  vi.useRealTimers();
});

describeEachDatabase(
  'login, password change and reset API',
  (ctx) => {
    it('answers one generic Spanish message for an unknown user and a wrong password', async () => {
      const s = ctx();
      const { name } = await newUser(s);
      const tab = await new Tab(s.baseUrl).open();
      const unknown = await tab.login('nobody12345', 'whatever-123');
      const wrong = await tab.login(name, 'whatever-123');
      expect(unknown.status).toBe(401);
      expect(wrong.status).toBe(401);
      expect(await json(unknown)).toEqual({
        status: 'ERROR',
        detail: AUTH_MESSAGES.badCredentials,
      });
      expect(await json(wrong)).toEqual({ status: 'ERROR', detail: AUTH_MESSAGES.badCredentials });
    });

    it('limits failed logins per user name (429 with when to retry), then recovers', async () => {
      const s = ctx();
      const { name } = await newUser(s);
      const tab = await new Tab(s.baseUrl).open();
      for (let i = 0; i < 5; i += 1) expect((await tab.login(name, `wrong-${i}`)).status).toBe(401);
      const blocked = await tab.login(name, PASSWORD);
      expect(blocked.status).toBe(429);
      expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
      expect((await json(blocked)).detail).toBe(
        'Demasiados intentos fallidos de inicio de sesión. Por seguridad, vuelve a intentarlo en 15 minutos.',
      );
      // From another address too: the limit is on the user name.
      const elsewhere = await new Tab(s.baseUrl).open();
      expect((await elsewhere.login(name.toUpperCase(), PASSWORD)).status).toBe(429);
      // Other users from the first address are not blocked.
      const other = await newUser(s);
      expect((await tab.login(other.name, PASSWORD)).status).toBe(200);

      travel(15 * 60 * 1000 + 1000);
      const later = await new Tab(s.baseUrl, tab.ip).open();
      expect((await later.login(name, PASSWORD)).status).toBe(200);
      expect(await later.authenticated()).toBe(true);
    });

    it('counts concurrent wrong logins before checking them: at most the limit are checked', async () => {
      const s = ctx();
      const { name } = await newUser(s);
      // each from its own address: only the user name's limit (5) applies
      const tabs = await Promise.all(Array.from({ length: 30 }, () => new Tab(s.baseUrl).open()));
      const statuses = await Promise.all(
        tabs.map((tab, i) => tab.login(name, `wrong-${i}`).then((r) => r.status)),
      );
      expect(statuses.filter((st) => st === 401)).toHaveLength(5);
      expect(statuses.filter((st) => st === 429)).toHaveLength(25);
      expect((await new Tab(s.baseUrl).open().then((t) => t.login(name, PASSWORD))).status).toBe(
        429,
      );
    });

    it('counts concurrent wrong logins from one address across user names the same way', async () => {
      const s = ctx();
      const tab = await new Tab(s.baseUrl).open();
      const statuses = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          tab.login(`swarm${seq}n${i}`, 'wrong-password').then((r) => r.status),
        ),
      );
      expect(statuses.filter((st) => st === 401)).toHaveLength(20);
      expect(statuses.filter((st) => st === 429)).toHaveLength(10);
    });

    it('does not count successful logins against the address', async () => {
      const s = ctx();
      const { name } = await newUser(s);
      const tab = await new Tab(s.baseUrl).open();
      for (let i = 0; i < 25; i += 1) expect((await tab.login(name, PASSWORD)).status).toBe(200);
      expect((await tab.login(`nobody${seq}`, 'wrong-password')).status).toBe(401);
    });

    it('limits failed logins per address across user names, then recovers', async () => {
      const s = ctx();
      const { name } = await newUser(s);
      const tab = await new Tab(s.baseUrl).open();
      for (let i = 0; i < 20; i += 1) {
        expect((await tab.login(`guess${i}user`, 'wrong-password')).status).toBe(401);
      }
      const res = await tab.login(name, PASSWORD);
      expect(res.status).toBe(429);
      expect((await json(res)).detail).toMatch(/vuelve a intentarlo en 15 minutos/);
      expect((await (await new Tab(s.baseUrl).open()).login(name, PASSWORD)).status).toBe(200);
      travel(16 * 60 * 1000);
      expect((await tab.login(name, PASSWORD)).status).toBe(200);
    });

    it('makes remember-me a 30-day cookie and otherwise a browser-session cookie', async () => {
      const s = ctx();
      const { name } = await newUser(s);
      const short = await new Tab(s.baseUrl).open();
      const a = await short.login(name, PASSWORD, false);
      const ca = a.headers.getSetCookie().find((c) => c.startsWith('sessionid='))!;
      expect(ca).not.toMatch(/Expires|Max-Age/i);
      const long = await new Tab(s.baseUrl).open();
      const b = await long.login(name, PASSWORD, true);
      const cb = b.headers.getSetCookie().find((c) => c.startsWith('sessionid='))!;
      const expires = Date.parse(/Expires=([^;]+)/i.exec(cb)![1]!);
      expect(expires - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000);
    });

    it('ends a session after 12 h idle, not 12 h after login, without a write per request', async () => {
      const s = ctx();
      const { name } = await newUser(s);
      const tab = await new Tab(s.baseUrl).open();
      await tab.login(name, PASSWORD);
      const expiresAt = () =>
        s.app.db.kysely
          .selectFrom('sessions')
          .select('expires_at')
          .where(
            'user_id',
            '=',
            s.app.db.kysely.selectFrom('users').select('id').where('user_name', '=', name),
          )
          .executeTakeFirstOrThrow()
          .then((r) => r.expires_at);
      const atLogin = await expiresAt();
      // Requests right after login leave the row (and the browser-session cookie) alone.
      const res = await tab.get('/api/session/');
      expect((await json(res)).isAuthenticated).toBe(true);
      expect(res.headers.getSetCookie().some((c) => c.startsWith('sessionid='))).toBe(false);
      expect(await expiresAt()).toBe(atLogin);
      // Active every 11 h: still logged in 22 h after login.
      travel(11 * 3600 * 1000);
      expect(await tab.authenticated()).toBe(true);
      expect(Date.parse(await expiresAt())).toBeGreaterThan(Date.parse(atLogin));
      travel(11 * 3600 * 1000);
      expect(await tab.authenticated()).toBe(true);
      // Then 12 h without a request: over.
      travel(12 * 3600 * 1000 + 60_000);
      expect(await tab.authenticated()).toBe(false);
    });

    it('slides a remembered session and its cookie expiry with activity', async () => {
      const s = ctx();
      const { name } = await newUser(s);
      const tab = await new Tab(s.baseUrl).open();
      await tab.login(name, PASSWORD, true);
      travel(20 * 24 * 3600 * 1000);
      const res = await tab.get('/api/session/');
      expect((await json(res)).isAuthenticated).toBe(true);
      const cookie = res.headers.getSetCookie().find((c) => c.startsWith('sessionid='))!;
      expect(cookie).toBeDefined();
      const expires = Date.parse(/Expires=([^;]+)/i.exec(cookie)![1]!);
      expect(expires - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000);
      travel(20 * 24 * 3600 * 1000);
      expect(await tab.authenticated()).toBe(true);
      travel(30 * 24 * 3600 * 1000 + 60_000);
      expect(await tab.authenticated()).toBe(false);
    });

    it('rotates the session id at login; a cookie after logout is not authenticated', async () => {
      const s = ctx();
      const { name } = await newUser(s);
      const tab = await new Tab(s.baseUrl).open();
      await tab.login(name, PASSWORD);
      const first = tab.cookie('sessionid')!;
      await tab.login(name, PASSWORD);
      const second = tab.cookie('sessionid')!;
      expect(second).not.toBe(first);
      const stale = new Tab(s.baseUrl);
      stale.setCookie('sessionid', first);
      expect(await stale.authenticated()).toBe(false);
      expect((await tab.get('/api/logout/')).status).toBe(200);
      const replay = new Tab(s.baseUrl);
      replay.setCookie('sessionid', second);
      expect(await replay.authenticated()).toBe(false);
      expect((await replay.post('/api/change_password/', { json: {} })).status).toBe(401);
    });

    it('never answers 500 to hostile login input', async () => {
      const s = ctx();
      const tab = await new Tab(s.baseUrl).open();
      for (const body of [
        { username: 'x'.repeat(10_240), password: 'y' },
        { username: 'ana', password: 'p'.repeat(10_240) },
        { username: "' OR 1=1 --", password: "' OR 1=1 --" },
        { username: '<script>alert(1)</script>', password: '😀😀😀' },
        { username: 'nul\u0000', password: 'nul\u0000' },
        { username: ['a'], password: { $ne: '' } },
        { username: 12345, password: true },
        {},
      ]) {
        const res = await tab.post('/api/login/', { json: body });
        expect(res.status, JSON.stringify(body).slice(0, 60)).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
      }
    });

    it('changes the password of a logged-in user and ends the other sessions', async () => {
      const s = ctx();
      const { name } = await newUser(s);
      const here = await new Tab(s.baseUrl).open();
      const there = await new Tab(s.baseUrl).open();
      await here.login(name, PASSWORD);
      await there.login(name, PASSWORD);
      const change = (body: Record<string, string>) =>
        here.post('/api/change_password/', { json: body });
      const NEW = 'Hoja-verde-2027';
      const cases: [Record<string, string>, string][] = [
        [
          { current_password: '', new_password: NEW, new_password_confirm: NEW },
          ACCOUNT_MESSAGES.currentMissing,
        ],
        [
          { current_password: PASSWORD, new_password: NEW, new_password_confirm: `${NEW}x` },
          ACCOUNT_MESSAGES.mismatch,
        ],
        [
          { current_password: PASSWORD, new_password: 'corta1', new_password_confirm: 'corta1' },
          PASSWORD_MESSAGES.tooShort,
        ],
        [
          {
            current_password: PASSWORD,
            new_password: 'sinnumeros',
            new_password_confirm: 'sinnumeros',
          },
          PASSWORD_MESSAGES.needsLetterAndDigit,
        ],
        [
          {
            current_password: PASSWORD,
            new_password: `${name}-123`,
            new_password_confirm: `${name}-123`,
          },
          PASSWORD_MESSAGES.containsUserName,
        ],
        [
          { current_password: 'not-it-123', new_password: NEW, new_password_confirm: NEW },
          ACCOUNT_MESSAGES.currentWrong,
        ],
        [
          { current_password: PASSWORD, new_password: PASSWORD, new_password_confirm: PASSWORD },
          ACCOUNT_MESSAGES.sameAsCurrent,
        ],
      ];
      for (const [body, detail] of cases) {
        const res = await change(body);
        expect(res.status, detail).toBe(400);
        expect(await json(res)).toEqual({ status: 'ERROR', detail });
      }
      const noCsrf = await here.post('/api/change_password/', {
        json: { current_password: PASSWORD, new_password: NEW, new_password_confirm: NEW },
        csrf: false,
      });
      expect(noCsrf.status).toBe(403);
      const ok = await change({
        current_password: PASSWORD,
        new_password: NEW,
        new_password_confirm: NEW,
      });
      expect(await json(ok)).toEqual({ status: 'OK', detail: ACCOUNT_MESSAGES.changed });
      expect(await here.authenticated()).toBe(true);
      expect(await there.authenticated()).toBe(false);
      const again = await new Tab(s.baseUrl).open();
      expect((await again.login(name, PASSWORD)).status).toBe(401);
      expect((await again.login(name, NEW)).status).toBe(200);
    });

    /** A logged-in tab and a password change whose current password is wrong. */
    async function wrongCurrentPassword(s: ReturnType<typeof ctx>) {
      const { name } = await newUser(s);
      const tab = await new Tab(s.baseUrl).open();
      await tab.login(name, PASSWORD);
      const body = {
        current_password: 'wrong-123456',
        new_password: 'Nueva-clave-99',
        new_password_confirm: 'Nueva-clave-99',
      };
      return { tab, body };
    }

    it('limits wrong current passwords when changing the password', async () => {
      const { tab, body } = await wrongCurrentPassword(ctx());
      for (let i = 0; i < 5; i += 1) {
        expect((await tab.post('/api/change_password/', { json: body })).status).toBe(400);
      }
      const blocked = await tab.post('/api/change_password/', { json: body });
      expect(blocked.status).toBe(429);
      expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
      // its own message: not the login's
      const detail = (await json(blocked)).detail;
      expect(detail).toBe(RATE_LIMIT_MESSAGES.currentPassword(15 * 60));
      expect(detail).toBe(
        'Demasiados intentos fallidos con la contraseña actual. Por seguridad, vuelve a intentarlo en 15 minutos.',
      );
      const en = await tab.post('/api/change_password/', {
        json: body,
        headers: { 'Accept-Language': 'en' },
      });
      expect((await json(en)).detail).toBe(RATE_LIMIT_MESSAGES_EN.currentPassword(15 * 60));
    });

    it('counts concurrent wrong current passwords before checking them', async () => {
      const { tab, body } = await wrongCurrentPassword(ctx());
      const statuses = await Promise.all(
        Array.from({ length: 20 }, () =>
          tab.post('/api/change_password/', { json: body }).then((r) => r.status),
        ),
      );
      expect(statuses.filter((st) => st === 400)).toHaveLength(5);
      expect(statuses.filter((st) => st === 429)).toHaveLength(15);
    });

    it('ends the login lockout with a password reset', async () => {
      const s = ctx();
      const { name, email } = await newUser(s);
      const outbox = path.join(s.dataDir, 'outbox');
      const tab = await new Tab(s.baseUrl).open();
      for (let i = 0; i < 5; i += 1) expect((await tab.login(name, `wrong-${i}`)).status).toBe(401);
      expect((await tab.login(name, PASSWORD)).status).toBe(429);
      await tab.post('/api/password_reset/', { json: { email } });
      const [mail] = await waitForMails(outbox, email);
      const token = resetLinkFromMail(mail!).searchParams.get('token')!;
      const NEW = 'Riego-goteo-2031';
      const done = await tab.post('/api/password_reset/confirm/', {
        json: { token, new_password: NEW, new_password_confirm: NEW },
      });
      expect(await json(done)).toEqual({ status: 'OK', detail: ACCOUNT_MESSAGES.resetDone });
      expect((await tab.login(name, NEW)).status).toBe(200);
      expect(await tab.authenticated()).toBe(true);
    });

    it('mails a reset link that works once and expires in one hour', async () => {
      const s = ctx();
      const { name, email } = await newUser(s);
      const outbox = path.join(s.dataDir, 'outbox');
      const tab = await new Tab(s.baseUrl).open();
      const logged = await new Tab(s.baseUrl).open();
      await logged.login(name, PASSWORD);

      const unknown = await tab.post('/api/password_reset/', {
        json: { email: 'nadie@example.test' },
      });
      const known = await tab.post('/api/password_reset/', {
        json: { email: email.toUpperCase() },
      });
      expect(await json(unknown)).toEqual({
        status: 'OK',
        detail: ACCOUNT_MESSAGES.resetRequested,
      });
      expect(await json(known)).toEqual({ status: 'OK', detail: ACCOUNT_MESSAGES.resetRequested });
      // the mail is sent after the answer
      const [mail] = await waitForMails(outbox, email);
      expect(mailsTo(outbox, 'nadie@example.test')).toHaveLength(0);
      expect(mail!.subject).toBe('Restablece tu contraseña de DiAgroDL');
      // for the server's user only: it holds a live link
      expect(fs.statSync(mail!.file).mode & 0o777).toBe(0o600);
      expect(fs.statSync(outbox).mode & 0o777).toBe(0o700);
      expect(fs.readdirSync(outbox).filter((f) => !f.endsWith('.eml'))).toEqual([]);
      const link = resetLinkFromMail(mail!);
      expect(link.origin).toBe(s.baseUrl);
      const token = link.searchParams.get('token')!;

      expect(await json(await tab.post('/api/password_reset/check/', { json: { token } }))).toEqual(
        { valid: true },
      );
      const NEW = 'Riego-goteo-2028';
      const weak = await tab.post('/api/password_reset/confirm/', {
        json: { token, new_password: 'corta', new_password_confirm: 'corta' },
      });
      expect((await json(weak)).detail).toBe(PASSWORD_MESSAGES.tooShort);
      const noCsrf = await tab.post('/api/password_reset/confirm/', {
        json: { token, new_password: NEW, new_password_confirm: NEW },
        csrf: false,
      });
      expect(noCsrf.status).toBe(403);
      const done = await tab.post('/api/password_reset/confirm/', {
        json: { token, new_password: NEW, new_password_confirm: NEW },
      });
      expect(await json(done)).toEqual({ status: 'OK', detail: ACCOUNT_MESSAGES.resetDone });
      expect(await logged.authenticated()).toBe(false);
      const reuse = await tab.post('/api/password_reset/confirm/', {
        json: { token, new_password: 'Otra-clave-2029', new_password_confirm: 'Otra-clave-2029' },
      });
      expect(reuse.status).toBe(400);
      expect((await json(reuse)).detail).toBe(ACCOUNT_MESSAGES.resetTokenInvalid);
      expect((await tab.login(name, PASSWORD)).status).toBe(401);
      expect((await tab.login(name, NEW)).status).toBe(200);

      // A second link, used after an hour: refused.
      await tab.post('/api/password_reset/', { json: { email } });
      const second = (await waitForMails(outbox, email, 2)).at(-1)!;
      const late = resetLinkFromMail(second).searchParams.get('token')!;
      travel(60 * 60 * 1000 + 1000);
      expect(
        await json(await tab.post('/api/password_reset/check/', { json: { token: late } })),
      ).toEqual({ valid: false });
      const expired = await tab.post('/api/password_reset/confirm/', {
        json: {
          token: late,
          new_password: 'Otra-clave-2029',
          new_password_confirm: 'Otra-clave-2029',
        },
      });
      expect(expired.status).toBe(400);
    });

    it('limits reset requests and never answers 500 to hostile input', async () => {
      const s = ctx();
      const { email } = await newUser(s);
      const outbox = path.join(s.dataDir, 'outbox');
      const tab = await new Tab(s.baseUrl).open();
      for (let i = 0; i < 5; i += 1) {
        expect((await tab.post('/api/password_reset/', { json: { email } })).status).toBe(200);
      }
      expect(await waitForMails(outbox, email, 3)).toHaveLength(3);
      expect((await tab.post('/api/password_reset/', { json: { email } })).status).toBe(429);
      const other = await new Tab(s.baseUrl).open();
      for (const body of [
        { email: 'x'.repeat(10_240) },
        { email: "' OR 1=1 --@x.y" },
        { email: ['a@b.cd'] },
        {},
      ]) {
        const res = await other.post('/api/password_reset/', { json: body });
        expect(res.status).toBe(400);
      }
      for (const token of ['x'.repeat(10_240), "' OR 1=1 --", 42, null]) {
        const res = await other.post('/api/password_reset/confirm/', {
          json: { token, new_password: 'Valida-clave-1', new_password_confirm: 'Valida-clave-1' },
        });
        expect(res.status).toBe(400);
      }
    });
  },
  { TRUST_PROXY: '1' },
);

describe('password reset request and a slow mail server', () => {
  it('answers before the mail is sent, for an address with an account as without', async () => {
    // an SMTP server that accepts connections and never greets: a send hangs (10 s timeout)
    const sockets = new Set<net.Socket>();
    const smtp = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.address() as net.AddressInfo).port;
    const s = await startTestServer('sqlite', { SMTP_URL: `smtp://127.0.0.1:${port}` });
    try {
      const { email } = await newUser(s);
      const tab = await new Tab(s.baseUrl).open();
      const timed = async (address: string) => {
        const start = performance.now();
        const res = await tab.post('/api/password_reset/', { json: { email: address } });
        expect(await json(res)).toEqual({
          status: 'OK',
          detail: ACCOUNT_MESSAGES.resetRequested,
        });
        return performance.now() - start;
      };
      const without = await timed('nadie-aqui@example.test');
      const connected = new Promise<void>((resolve) => smtp.once('connection', () => resolve()));
      const withAccount = await timed(email);
      // the mail is on its way (connected), and the answer did not wait for it
      await connected;
      expect(withAccount).toBeLessThan(3000);
      expect(withAccount).toBeLessThan(without + 1000);
    } finally {
      for (const socket of sockets) socket.destroy(); // the send fails: the server can close
      await s.app.close();
      await new Promise((resolve) => smtp.close(resolve));
    }
  });
});

import net from 'node:net';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, describe, expect, it } from 'vitest';
import { REGISTRATION_MESSAGES as M, REGISTRATION_SERVER_MESSAGES as S } from '@diagrodl/contracts';
import {
  Browser,
  describeEachDatabase,
  json,
  startTestServer,
  type TestServer,
} from '../../testing/harness.ts';
import { mailsTo, parseMail, passwordFromMail, readOutbox } from '../../testing/mail-reader.ts';

let seq = 0;
/** A fresh IP per test (TRUST_PROXY=1): the per-IP limits of one test do not touch another. */
const nextIp = () => `10.1.${Math.floor(seq / 250)}.${(seq++ % 250) + 1}`;

function form(over: Record<string, unknown> = {}): Record<string, unknown> {
  seq += 1;
  const n = `${process.pid % 1000}x${seq}`;
  return {
    User_name: `Ana${n}`.slice(0, 15),
    First_name: 'Ana',
    Last_name: 'López Hernández',
    Email: `ana.${n}@example.com`,
    Country: 'MX',
    City: 'Texcoco',
    Code_country: '+52',
    Phone_number: '595 952 1500',
    Organisation_type: '3',
    Organisation_name: 'Universidad Autónoma Chapingo',
    Purpose_use: '3',
    Aceppt_terms: true,
    Give_permission: false,
    Accept_DiAgro_data: true,
    Subscribe_update: true,
    Language: 'es',
    ...over,
  };
}

async function visitor(s: TestServer, ip = nextIp()): Promise<Browser & { ip: string }> {
  const b = new Browser(s.baseUrl) as Browser & { ip: string };
  b.ip = ip;
  await b.get('/api/session/', { headers: { 'X-Forwarded-For': ip } });
  return b;
}

const register = (b: Browser & { ip: string }, body: Record<string, unknown>) =>
  b.post('/api/Create_user/', { json: body, headers: { 'X-Forwarded-For': b.ip } });

const outbox = (s: TestServer) => path.join(s.dataDir, 'outbox');

describeEachDatabase(
  'registration API',
  (ctx) => {
    it('creates the account, stores only an argon2id hash and mails the password (es)', async () => {
      const s = ctx();
      const b = await visitor(s);
      const body = form();
      const res = await register(b, body);
      const reply = await json(res);
      expect(res.status, JSON.stringify(reply)).toBe(200);
      expect(reply).toEqual({ status: 'OK', detail: S.created(String(body.Email)) });

      const [mail, ...more] = mailsTo(outbox(s), String(body.Email));
      expect(more).toHaveLength(0);
      expect(mail!.subject).toBe('Tu cuenta de DiAgroDL');
      expect(mail!.text).toContain(`Nombre de usuario: ${String(body.User_name)}`);
      expect(mail!.text).toContain(`${s.baseUrl}/Login_session`);
      const password = passwordFromMail(mail!);
      expect(password).toMatch(/^\S{16}$/);

      const row = await s.app.db.kysely
        .selectFrom('users')
        .selectAll()
        .where('user_name', '=', String(body.User_name))
        .executeTakeFirstOrThrow();
      expect(row.password_hash).toMatch(/^\$argon2id\$/);
      expect(JSON.stringify(row)).not.toContain(password);
      expect(row).toMatchObject({
        first_name: 'Ana',
        country: 'MX',
        code_country: '+52',
        organisation_type: 3,
        purpose_use: 3,
        accept_terms: 1,
        give_permission: 0,
        accept_data_licence: 1,
        subscribe_update: 1,
        language: 'es',
      });

      const login = await b.post('/api/login/', {
        json: { username: body.User_name, password },
        headers: { 'X-Forwarded-For': b.ip },
      });
      expect(login.status).toBe(200);
      expect((await json(await b.get('/api/session/'))).isAuthenticated).toBe(true);
    });

    it('writes the mail in English for a user who registered in English', async () => {
      const s = ctx();
      const body = form({ Language: 'en' });
      expect((await register(await visitor(s), body)).status).toBe(200);
      const [mail] = mailsTo(outbox(s), String(body.Email));
      expect(mail!.subject).toBe('Your DiAgroDL account');
      expect(mail!.text).toContain(`User name: ${String(body.User_name)}`);
      expect(passwordFromMail(mail!)).toHaveLength(16);
      // Without a Language field, Accept-Language decides.
      const other = form({ Language: undefined });
      const b = await visitor(s);
      const res = await b.post('/api/Create_user/', {
        json: other,
        headers: { 'X-Forwarded-For': b.ip, 'Accept-Language': 'en-GB,en;q=0.8' },
      });
      expect(res.status).toBe(200);
      expect(mailsTo(outbox(s), String(other.Email))[0]!.subject).toBe('Your DiAgroDL account');
    });

    it('answers every rule of the specification in order with its exact message', async () => {
      const s = ctx();
      const b = await visitor(s);
      const steps: [string, unknown, string][] = [
        ['User_name', 'AnaRules1', M.userNameEmpty],
        ['First_name', 'Ana', M.firstNameEmpty],
        ['Last_name', 'López', M.lastNameEmpty],
        ['Email', `rules.${process.pid}@example.com`, M.emailEmpty],
        ['Country', 'CA', M.countryNotSelected],
        ['City', 'Toronto', M.cityEmpty],
        ['Organisation_type', '1', M.organisationTypeNotSelected],
        ['Organisation_name', 'FAO', M.organisationNameEmpty],
        ['Purpose_use', '2', M.purposeNotSelected],
        ['Aceppt_terms', true, M.termsNotAccepted],
        ['Accept_DiAgro_data', true, 'Please, Activate --> Accept DiAgro-User License!'],
      ];
      const body: Record<string, unknown> = {
        User_name: '',
        First_name: '',
        Last_name: '',
        Email: '',
        Country: '',
        City: '',
        Code_country: '',
        Phone_number: '',
        Organisation_type: '',
        Organisation_name: '',
        Purpose_use: '',
        Aceppt_terms: false,
        Give_permission: false,
        Accept_DiAgro_data: false,
        Subscribe_update: false,
      };
      for (const [field, value, message] of steps) {
        const res = await register(b, body);
        expect(res.status, field).toBe(400);
        expect(await json(res)).toEqual({ status: 'ERROR', detail: message });
        body[field] = value;
      }
      for (const [value, message] of [
        [12345, M.userNameNotString],
        ['abc', M.userNameLength],
        ['a'.repeat(16), M.userNameLength],
        ['ana lopez', M.userNameChars],
      ] as const) {
        const res = await register(b, { ...body, User_name: value });
        expect(await json(res)).toEqual({ status: 'ERROR', detail: message });
      }
      expect((await register(b, body)).status).toBe(200);
    });

    it('adds Spanish details: email format, lengths, country code, phone', async () => {
      const s = ctx();
      const b = await visitor(s);
      const cases: [Record<string, unknown>, string][] = [
        [{ Email: 'ana-at-example.com' }, S.emailFormat],
        [
          { Email: 'ana@example.com\r\nBcc: all@example.com' },
          'El campo Correo electrónico contiene caracteres no permitidos.',
        ],
        [{ First_name: 'A'.repeat(101) }, 'El campo Nombre admite como máximo 100 caracteres.'],
        [{ City: 'x'.repeat(10_240) }, 'El campo Ciudad admite como máximo 100 caracteres.'],
        [{ Code_country: '+1' }, S.codeCountry],
        [{ Phone_number: '+52 1234567' }, S.phone],
        [{ Country: 'XX' }, M.countryNotSelected],
      ];
      for (const [over, detail] of cases) {
        const res = await register(b, form(over));
        expect(res.status, JSON.stringify(over).slice(0, 60)).toBe(400);
        expect((await json(res)).detail).toBe(detail);
      }
    });

    it('refuses a taken user name or email with one message that names neither', async () => {
      const s = ctx();
      const first = form();
      expect((await register(await visitor(s), first)).status).toBe(200);
      const before = readOutbox(outbox(s)).length;
      for (const over of [
        { User_name: String(first.User_name).toUpperCase() },
        { Email: String(first.Email).toUpperCase() },
      ]) {
        const res = await register(await visitor(s), form(over));
        expect(res.status).toBe(409);
        expect(await json(res)).toEqual({ status: 'ERROR', detail: S.taken });
      }
      expect(readOutbox(outbox(s)).length).toBe(before);
    });

    it('refuses a registration without the CSRF header (403)', async () => {
      const s = ctx();
      const b = await visitor(s);
      const res = await b.post('/api/Create_user/', {
        json: form(),
        csrf: false,
        headers: { 'X-Forwarded-For': b.ip },
      });
      expect(res.status).toBe(403);
    });

    it('limits the accounts created from one address (429 with when to retry)', async () => {
      const s = ctx();
      const ip = nextIp();
      for (let i = 0; i < 10; i += 1) {
        expect((await register(await visitor(s, ip), form())).status).toBe(200);
      }
      const res = await register(await visitor(s, ip), form());
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(3000);
      expect((await json(res)).detail).toMatch(/Vuelve a intentarlo en (59|60) minutos\./);
      expect((await register(await visitor(s), form())).status).toBe(200);
    });

    it('counts concurrent registrations from one address first: at most the limit go through', async () => {
      const s = ctx();
      const ip = nextIp();
      const tabs = await Promise.all(Array.from({ length: 25 }, () => visitor(s, ip)));
      const bodies = tabs.map(() => form());
      const statuses = await Promise.all(
        tabs.map((b, i) => register(b, bodies[i]!).then((r) => r.status)),
      );
      expect(statuses.filter((st) => st === 200)).toHaveLength(10);
      expect(statuses.filter((st) => st === 429)).toHaveLength(15);
      const emails = bodies.map((b) => String(b.Email));
      const created = await s.app.db.kysely
        .selectFrom('users')
        .select('id')
        .where('email', 'in', emails)
        .execute();
      expect(created).toHaveLength(10);
      expect((await register(await visitor(s, ip), form())).status).toBe(429);
    });

    it('counts only accounts created: refused forms and taken names give their count back', async () => {
      const s = ctx();
      const ip = nextIp();
      const first = form();
      expect((await register(await visitor(s, ip), first)).status).toBe(200);
      for (let i = 0; i < 10; i += 1) {
        expect((await register(await visitor(s, ip), form({ City: '' }))).status).toBe(400);
        const taken = form({ User_name: first.User_name });
        expect((await register(await visitor(s, ip), taken)).status).toBe(409);
      }
      for (let i = 0; i < 9; i += 1) {
        expect((await register(await visitor(s, ip), form())).status).toBe(200);
      }
      expect((await register(await visitor(s, ip), form())).status).toBe(429);
    });

    it('stores hostile text as text and never answers 500', async () => {
      const s = ctx();
      const nasty = [
        "Robert'); DROP TABLE users;--",
        '<script>alert("x")</script><img src=x onerror=alert(1)>',
        'Ñandú Pérez-Çelik 😀🍅 مرحبا 中文',
        "' OR '1'='1",
      ];
      for (const field of ['First_name', 'Last_name', 'City', 'Organisation_name']) {
        for (const value of nasty) {
          const body = form({ [field]: value });
          const res = await register(await visitor(s), body);
          expect(res.status, `${field}=${value}`).toBe(200);
          const row = await s.app.db.kysely
            .selectFrom('users')
            .selectAll()
            .where('user_name', '=', String(body.User_name))
            .executeTakeFirstOrThrow();
          const column = field.toLowerCase() as 'first_name' | 'last_name' | 'city';
          expect(row[column]).toBe(value);
        }
      }
      expect(
        (await s.app.db.kysely.selectFrom('users').select('id').execute()).length,
      ).toBeGreaterThan(16);
      const big = 'Ä😀'.repeat(5_000);
      const weird: Record<string, unknown>[] = [
        ...[
          'User_name',
          'First_name',
          'Last_name',
          'Email',
          'Country',
          'City',
          'Code_country',
          'Phone_number',
          'Organisation_type',
          'Organisation_name',
          'Purpose_use',
          'Language',
        ].flatMap((f) => [
          { [f]: big },
          { [f]: "'; DROP TABLE users; --" },
          { [f]: '<b onmouseover=alert(1)>x</b>' },
          { [f]: 'nul\u0000byte' },
          { [f]: { $gt: '' } },
          { [f]: ['a', 'b'] },
          { [f]: null },
          { [f]: 1e308 },
        ]),
        ...['Aceppt_terms', 'Give_permission', 'Accept_DiAgro_data', 'Subscribe_update'].flatMap(
          (f) => [{ [f]: 'true' }, { [f]: 1 }, { [f]: big }],
        ),
      ];
      for (const over of weird) {
        const res = await register(await visitor(s), form(over));
        expect(res.status, JSON.stringify(over).slice(0, 80)).toBeLessThan(500);
        expect((await json(res)).status).toBeDefined();
      }
      for (const raw of ['[]', '"x"', 'null', '{"User_name":', '1']) {
        const b = await visitor(s);
        const res = await b.post('/api/Create_user/', {
          body: raw,
          headers: { 'content-type': 'application/json', 'X-Forwarded-For': b.ip },
        });
        expect(res.status, raw).toBe(400);
      }
    });
  },
  { TRUST_PROXY: '1' },
);

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

describe('registration mail over SMTP', () => {
  const received: string[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push(Buffer.concat(chunks).toString('utf8'));
        callback();
      });
    },
  });
  afterAll(() => new Promise<void>((r) => smtp.close(() => r())));

  it('sends the welcome mail through SMTP_URL', async () => {
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', () => r()));
    const port = (smtp.server.address() as net.AddressInfo).port;
    const s = await startTestServer('sqlite', { SMTP_URL: `smtp://127.0.0.1:${port}` });
    try {
      const b = await visitor(s);
      const body = form();
      const res = await register(b, body);
      expect(res.status, JSON.stringify(await res.clone().json())).toBe(200);
      expect(received).toHaveLength(1);
      const mail = parseMail(received[0]!);
      expect(mail.to).toContain(String(body.Email));
      expect(mail.from).toContain('no-reply@diagrodl.local');
      expect(passwordFromMail(mail)).toHaveLength(16);
      expect(readOutbox(path.join(s.dataDir, 'outbox'))).toHaveLength(0);
    } finally {
      await s.app.close();
    }
  });

  it('leaves no account behind when the mail cannot be sent, and says so', async () => {
    const s = await startTestServer('sqlite', {
      SMTP_URL: `smtp://127.0.0.1:${await closedPort()}`,
    });
    try {
      const b = await visitor(s);
      const body = form();
      const res = await register(b, body);
      expect(res.status).toBe(503);
      expect(await json(res)).toEqual({ status: 'ERROR', detail: S.mailFailed });
      const rows = await s.app.db.kysely.selectFrom('users').select('id').execute();
      expect(rows).toHaveLength(0);
      // Only accounts created count against the address: more failed mails are not refused.
      for (let i = 0; i < 10; i += 1) expect((await register(b, form())).status).toBe(503);
    } finally {
      await s.app.close();
    }
  });
});

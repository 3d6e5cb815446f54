import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CONTACT_MESSAGES, CONTACT_REPLY } from '@diagrodl/contracts';
import {
  Browser,
  describeEachDatabase,
  json,
  postgresOrSkip,
  startTestServer,
  type TestServer,
} from '../../testing/harness.ts';
import { createUserDirect } from '../../testing/users.ts';
import { mailsTo } from '../../testing/mail-reader.ts';

let seq = 0;
const nextIp = () => `10.3.${Math.floor(seq / 250)}.${(seq++ % 250) + 1}`;
const CONTACT_TO = 'equipo@diagrodl.test';

async function tab(s: TestServer, ip = nextIp()) {
  const b = new Browser(s.baseUrl);
  await b.get('/api/session/', { headers: { 'X-Forwarded-For': ip } });
  return {
    b,
    send: (body: unknown, opts: { csrf?: boolean } = {}) =>
      b.post('/api/contact/', { json: body, headers: { 'X-Forwarded-For': ip }, ...opts }),
  };
}

const message = (over: Record<string, unknown> = {}) => ({
  name: 'Ana López',
  email: 'ana@example.com',
  subject: 'Pregunta sobre el diagnóstico',
  message: '¿Funciona con fotos de fresa?\nGracias.',
  ...over,
});

async function stored(s: TestServer, subject: string) {
  return s.app.db.kysely
    .selectFrom('contact_messages')
    .selectAll()
    .where('subject', '=', subject)
    .executeTakeFirstOrThrow();
}

afterEach(() => {
  vi.useRealTimers();
});

describeEachDatabase(
  'contact API',
  (ctx) => {
    it('stores a visitor message and mails it to CONTACT_TO with the sender as reply-to', async () => {
      const s = ctx();
      const { send } = await tab(s);
      const body = message({ subject: `Visitante ${seq}` });
      const res = await send(body);
      expect(await json(res)).toEqual({ status: 'OK', detail: CONTACT_REPLY.sent });
      const row = await stored(s, body.subject);
      expect(row).toMatchObject({
        name: 'Ana López',
        email: 'ana@example.com',
        user_id: null,
        mailed: 1,
      });
      expect(row.message).toBe(body.message);
      const mail = mailsTo(path.join(s.dataDir, 'outbox'), CONTACT_TO).find((m) =>
        m.subject.endsWith(body.subject),
      )!;
      expect(mail.replyTo).toContain('ana@example.com');
      expect(mail.text).toContain('(visitante sin sesión)');
      expect(mail.text).toContain('¿Funciona con fotos de fresa?');
    });

    it('notes the user of a logged-in sender', async () => {
      const s = ctx();
      const id = await createUserDirect(s.app.db, {
        userName: `Contact${process.pid % 1000}`,
        password: 'Clave-segura-1',
      });
      const t = await tab(s);
      await t.b.post('/api/login/', {
        json: { username: `Contact${process.pid % 1000}`, password: 'Clave-segura-1' },
        headers: { 'X-Forwarded-For': '10.3.250.1' },
      });
      const body = message({ subject: `Usuario ${seq}` });
      expect((await t.send(body)).status).toBe(200);
      expect((await stored(s, body.subject)).user_id).toBe(id);
    });

    it('answers a clear Spanish message for every invalid field', async () => {
      const s = ctx();
      const { send } = await tab(s);
      const res = await send({ name: '', email: 'no-es-correo', subject: ' ', message: 'corto' });
      expect(res.status).toBe(400);
      const body = await json(res);
      expect(body).toEqual({
        status: 'ERROR',
        detail: CONTACT_MESSAGES.name.empty,
        errors: {
          name: 'Escribe tu nombre.',
          email: 'El correo electrónico no tiene un formato válido (ejemplo: nombre@dominio.com).',
          subject: 'Escribe el asunto de tu mensaje.',
          message: 'El mensaje es demasiado corto (mínimo 10 caracteres).',
        },
      });
      const long = await json(await send(message({ message: 'x'.repeat(10_240) })));
      expect(long.errors).toEqual({ message: 'El mensaje admite como máximo 5000 caracteres.' });
    });

    it('refuses a message without the CSRF header (403)', async () => {
      const s = ctx();
      const { send } = await tab(s);
      expect((await send(message(), { csrf: false })).status).toBe(403);
    });

    it('stores hostile text as text and never answers 500', async () => {
      const s = ctx();
      const nasty = [
        "Robert'); DROP TABLE contact_messages;--",
        '<script>alert("x")</script><img src=x onerror=alert(1)>',
        'Ñandú Pérez 😀🍅 مرحبا 中文',
      ];
      for (const [i, value] of nasty.entries()) {
        const { send } = await tab(s);
        const body = message({
          name: value,
          subject: `${value} ${i}`,
          message: `${value}\n${value}`,
        });
        expect((await send(body)).status).toBe(200);
        const row = await stored(s, body.subject);
        expect(row.name).toBe(value);
        expect(row.message).toBe(body.message);
      }
      const { send } = await tab(s);
      for (const over of [
        { name: 'x'.repeat(10_240) },
        { subject: '😀'.repeat(10_240) },
        { email: `${'a'.repeat(10_240)}@example.com` },
        { name: 'nul\u0000' },
        { message: 'mensaje con nul \u0000 dentro' },
        { subject: 'Bcc: todos@example.com\r\nX: y' },
        { name: { $gt: '' } },
        { email: ['a@b.cd'] },
        { message: 12345678901 },
      ]) {
        const res = await send(message(over));
        expect(res.status, JSON.stringify(over).slice(0, 60)).toBe(400);
      }
      for (const raw of ['[]', 'null', '"x"', '{']) {
        const t = await tab(s);
        const res = await t.b.post('/api/contact/', {
          body: raw,
          headers: { 'content-type': 'application/json' },
        });
        expect(res.status, raw).toBe(400);
      }
    });

    it('counts concurrent messages from one address first: at most the limit are sent', async () => {
      const s = ctx();
      const ip = nextIp();
      const tabs = await Promise.all(Array.from({ length: 20 }, () => tab(s, ip)));
      const subject = `Enjambre ${seq}`;
      const statuses = await Promise.all(
        tabs.map((t, i) => t.send(message({ subject: `${subject} ${i}` })).then((r) => r.status)),
      );
      expect(statuses.filter((st) => st === 200)).toHaveLength(5);
      expect(statuses.filter((st) => st === 429)).toHaveLength(15);
      const rows = await s.app.db.kysely
        .selectFrom('contact_messages')
        .select('id')
        .where('subject', 'like', `${subject} %`)
        .execute();
      expect(rows).toHaveLength(5);
      expect((await tabs[0]!.send(message())).status).toBe(429);
    });

    it('limits messages per address (429 with when to retry), then recovers', async () => {
      const s = ctx();
      const ip = nextIp();
      const { send } = await tab(s, ip);
      for (let i = 0; i < 5; i += 1) expect((await send(message())).status).toBe(200);
      const res = await send(message());
      expect(res.status).toBe(429);
      expect((await json(res)).detail).toBe(
        'Demasiadas solicitudes seguidas. Vuelve a intentarlo en 10 minutos.',
      );
      expect((await (await tab(s)).send(message())).status).toBe(200);
      const now = Date.now();
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(now + 10 * 60 * 1000 + 1000);
      expect((await send(message())).status).toBe(200);
    });
  },
  { TRUST_PROXY: '1', CONTACT_TO },
);

for (const kind of ['sqlite', 'postgres'] as const) {
  describe(`contact mail tried again [${kind}]`, () => {
    it('a message whose mail failed is mailed on a later try, once', async () => {
      if (kind === 'postgres' && !(await postgresOrSkip('the contact retry test'))) return;
      const s = await startTestServer(
        kind,
        { TRUST_PROXY: '1', CONTACT_TO },
        { contactRetry: { everyMs: 100, afterMs: 0 } },
      );
      try {
        // the mail cannot be written (the outbox is a file, not a folder): the mail fails
        const outbox = path.join(s.dataDir, 'outbox');
        fs.rmSync(outbox, { recursive: true, force: true });
        fs.writeFileSync(outbox, 'no folder here');
        const { send } = await tab(s);
        const body = message({ subject: `Reintento ${kind} ${seq}` });
        expect(await json(await send(body))).toEqual({ status: 'OK', detail: CONTACT_REPLY.sent });
        const first = await stored(s, body.subject);
        expect(first.mailed).toBe(0);
        // tried again while it still fails: kept, its last try moves on
        await expect
          .poll(async () => (await stored(s, body.subject)).mail_attempted_at, { timeout: 15_000 })
          .not.toBe(first.mail_attempted_at);
        expect((await stored(s, body.subject)).mailed).toBe(0);
        // the mail works again: the next try sends it, and only once
        fs.rmSync(outbox);
        await expect
          .poll(async () => (await stored(s, body.subject)).mailed, { timeout: 15_000 })
          .toBe(1);
        const mails = mailsTo(outbox, CONTACT_TO).filter((m) => m.subject.endsWith(body.subject));
        expect(mails).toHaveLength(1);
        expect(mails[0]!.replyTo).toContain('ana@example.com');
        expect(mails[0]!.text).toContain('(visitante sin sesión)');
      } finally {
        await s.app.close();
      }
    });
  });
}

// "Mis datos" against the real server on SQLite and PostgreSQL: the archive holds exactly the
// user's rows and files (another user's never), a wrong password or a missing confirmation
// deletes nothing, and a deletion (also in the middle of an identification) leaves no row in any
// table and no file under DATA_DIR, mails a confirmation, and frees the name and address.
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import {
  DIAGNOSIS_PATHS as P,
  ENDPOINTS,
  MY_DATA_MESSAGES as M,
  MY_DATA_MESSAGES_EN,
  RATE_LIMIT_MESSAGES,
  REGISTRATION_SERVER_MESSAGES,
  SERVER_MESSAGES,
} from '@diagrodl/contracts';
import type { App } from '../../app.ts';
import {
  PASSWORD,
  type Place,
  configForm,
  leafPhoto,
  listFiles,
  newPlace,
  predictForm,
  removePlace,
  startAt,
  uploadForm,
} from '../../testing/diagnosis.ts';
import { Browser, type Json, json, postgresOrSkip } from '../../testing/harness.ts';
import { mailsTo } from '../../testing/mail-reader.ts';
import { makeModelsDir } from '../../testing/tiny-model.ts';
import { openFilesUnder } from '../../testing/open-files.ts';
import { createUserDirect } from '../../testing/users.ts';
import type { RunOutcome } from '../diagnosis/identification-runner.ts';

const MODELS_DIR = makeModelsDir(['mobilenet']);
afterAll(() => fs.rmSync(MODELS_DIR, { recursive: true, force: true }));

const EXPORT = ENDPOINTS.myDataExport.path;
const DELETE = ENDPOINTS.deleteAccount.path;

/** Every entry of a zip, by name. */
async function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (err, z) => (err ? reject(err) : resolve(z))),
  );
  const entries = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', () => resolve());
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (err, stream) => {
        if (err) return reject(err);
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('error', reject);
        stream.on('end', () => {
          entries.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
  return entries;
}

/** The user's files on disk: archive folder/name -> bytes. */
function filesOf(dataDir: string, userId: number): Map<string, Buffer> {
  const folders = {
    post_images: 'photos',
    heatmaps: 'heatmaps',
    thumbs: 'thumbnails',
    reports: 'reports',
  };
  const out = new Map<string, Buffer>();
  for (const [kind, folder] of Object.entries(folders)) {
    const dir = path.join(dataDir, 'media', kind, String(userId));
    for (const f of listFiles(dir)) out.set(`${folder}/${f}`, fs.readFileSync(path.join(dir, f)));
  }
  return out;
}

/** Every table of the database (from its catalogue: a table added later is scanned too). */
async function allRows(app: App): Promise<Map<string, Record<string, unknown>[]>> {
  const db = app.db.kysely;
  const tables =
    app.db.dialect === 'sqlite'
      ? (
          await sql<{
            name: string;
          }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(
            db,
          )
        ).rows.map((r) => r.name)
      : (
          await sql<{
            name: string;
          }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(
            db,
          )
        ).rows.map((r) => r.name);
  expect(tables).toEqual(expect.arrayContaining(['users', 'sessions', 'diagnosis_images']));
  const out = new Map<string, Record<string, unknown>[]>();
  for (const t of tables) {
    out.set(
      t,
      (await sql<Record<string, unknown>>`select * from ${sql.table(t)}`.execute(db)).rows,
    );
  }
  return out;
}

/** Rows of any table that belong to or name the user (contact messages checked apart). */
function traces(
  rows: Map<string, Record<string, unknown>[]>,
  user: { id: number; userName: string; email: string },
): string[] {
  const found: string[] = [];
  for (const [table, list] of rows) {
    for (const row of list) {
      if (row.user_id !== undefined && Number(row.user_id) === user.id) {
        found.push(`${table}: ${JSON.stringify(row)}`);
      }
      if (table === 'users' && Number(row.id) === user.id) found.push(`users: ${row.id}`);
      if (table === 'contact_messages') continue;
      const text = JSON.stringify(row).toLowerCase();
      if (text.includes(user.userName.toLowerCase()) || text.includes(user.email.toLowerCase())) {
        found.push(`${table} names the user: ${text.slice(0, 200)}`);
      }
    }
  }
  return found;
}

/** Every file under a folder, relative paths (folders included with a trailing slash). */
function walk(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .map((f) => (fs.statSync(path.join(dir, f)).isDirectory() ? `${f}/` : f))
    .sort();
}

function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((r) => {
    open = r;
  });
  return { opened, open };
}

for (const kind of ['sqlite', 'postgres'] as const) {
  describe(`Mis datos: archive and account deletion [${kind}]`, { timeout: 120_000 }, () => {
    let place: Place | undefined;
    let server: { app: App; baseUrl: string } | undefined;
    /** Per user: pause its run before the chunk after `at` photos (a test opens it). */
    const pauses = new Map<number, { at: number; reached: () => void; hold: Promise<void> }>();
    const ends = new Map<number, (outcome: RunOutcome) => void>();
    let seq = 0;

    beforeAll(async () => {
      if (kind === 'postgres' && !(await postgresOrSkip('the PostgreSQL Mis datos suite'))) return;
      place = newPlace(kind, { MODELS_DIR });
      server = await startAt(place, {
        diagnosis: {
          chunkSize: 1,
          beforeChunk: async ({ userId, done }) => {
            const pause = pauses.get(userId);
            if (pause && done === pause.at) {
              pause.reached();
              await pause.hold;
            }
          },
          onRunEnd: ({ userId, outcome }) => ends.get(userId)?.(outcome),
        },
      });
    });
    afterAll(async () => {
      await server?.app.close();
      if (place) await removePlace(place);
    });

    const s = () => {
      if (!server || !place) throw new Error('server not started (PostgreSQL unavailable)');
      return { ...server, dataDir: place.dataDir };
    };

    /** A user with a second login, two identified photos, a report, a pending photo, a message. */
    async function grower(opts: { language?: string; contact?: boolean } = {}) {
      const language = opts.language ?? 'es';
      const { app, baseUrl } = s();
      seq += 1;
      const userName = `Datos${process.pid % 1000}x${seq}`;
      const email = `${userName.toLowerCase()}@example.com`;
      const id = await createUserDirect(app.db, { userName, password: PASSWORD, email, language });
      const login = async () => {
        const b = new Browser(baseUrl);
        await b.get('/api/session/');
        const res = await b.post('/api/login/', {
          json: { username: userName, password: PASSWORD },
        });
        expect(res.status).toBe(200);
        return b;
      };
      const browser = await login();
      const other = await login();
      expect(
        (await browser.post(P.config, { body: configForm('tomato_leaf_cnn_mobilenet') })).status,
      ).toBe(200);
      for (const i of [1, 2]) {
        const photo = await leafPhoto({ seed: seq * 10 + i });
        const res = await browser.post(P.posts, {
          body: uploadForm(photo, `hoja ${userName} ${i}.jpg`),
        });
        expect(res.status).toBe(200);
      }
      const predicted = await browser.post(`${P.predict}?wait=1`, { body: predictForm() });
      expect(await json(predicted)).toMatchObject({ total: 2 });
      expect((await browser.get(P.makeReport)).status).toBe(200);
      const pending = await browser.post(P.posts, {
        body: uploadForm(await leafPhoto({ seed: seq * 10 + 3 }), `pendiente-${userName}.jpg`),
      });
      expect(pending.status).toBe(200);
      if (opts.contact) {
        const contact = await browser.post('/api/contact/', {
          json: {
            name: `Ana ${userName}`,
            email,
            subject: 'Consulta',
            message: `Hola, soy ${userName}: ¿qué modelo me recomiendan?`,
          },
        });
        expect(contact.status).toBe(200);
      }
      return { id, userName, email, browser, other, login };
    }

    it("the archive holds exactly the user's rows and files, never another user's", async () => {
      const { app, dataDir } = s();
      const a = await grower({ contact: true });
      const b = await grower({ contact: true });
      const res = await a.browser.get(EXPORT);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/zip');
      expect(res.headers.get('content-disposition')).toMatch(
        new RegExp(`^attachment; filename="diagrodl-${a.userName}-\\d{4}-\\d{2}-\\d{2}\\.zip"$`),
      );
      const entries = await unzip(Buffer.from(await res.arrayBuffer()));

      // files: the user's, byte for byte, and nothing else
      const mine = filesOf(dataDir, a.id);
      expect([...mine.keys()].filter((k) => k.startsWith('photos/'))).toHaveLength(3);
      expect([...mine.keys()].filter((k) => k.startsWith('heatmaps/'))).toHaveLength(2);
      expect([...mine.keys()].filter((k) => k.startsWith('thumbnails/'))).toHaveLength(2);
      expect([...mine.keys()].filter((k) => k.startsWith('reports/'))).toHaveLength(1);
      const files = [...entries.keys()].filter((k) => k.includes('/'));
      expect(files.sort()).toEqual([...mine.keys()].sort());
      for (const [name, bytes] of mine) expect(entries.get(name)!.equals(bytes), name).toBe(true);
      const theirs = filesOf(dataDir, b.id);
      for (const name of theirs.keys()) expect(entries.has(name), name).toBe(false);
      expect([...entries.keys()].filter((k) => !k.includes('/')).sort()).toEqual([
        'LEEME-README.txt',
        'diagnoses.csv',
        'diagnoses.json',
        'photos.csv',
        'photos.json',
        'profile.json',
      ]);

      // rows: the user's, every one, and nothing of the other user
      const db = app.db.kysely;
      const history = await db
        .selectFrom('diagnosis_history')
        .selectAll()
        .where('user_id', '=', a.id)
        .execute();
      const images = await db
        .selectFrom('diagnosis_images')
        .selectAll()
        .where('user_id', '=', a.id)
        .execute();
      const diagnoses: Json[] = JSON.parse(entries.get('diagnoses.json')!.toString('utf8'));
      expect(diagnoses.map((d) => d.id)).toEqual(history.map((h) => h.id));
      for (const d of diagnoses) {
        const h = history.find((x) => x.id === d.id)!;
        expect(d).toMatchObject({
          name_img: h.name_img,
          label: h.label,
          probability: h.probability,
          model: h.model,
          diagnosed_at: h.created_at,
          top3: JSON.parse(h.top3),
          thumbnail: `thumbnails/${h.thumb_file}`,
        });
        expect(d.top3).toHaveLength(3);
        expect(entries.has(d.thumbnail) && entries.has(d.photo) && entries.has(d.heatmap)).toBe(
          true,
        );
      }
      const photos: Json[] = JSON.parse(entries.get('photos.json')!.toString('utf8'));
      expect(photos.map((p) => p.id)).toEqual(images.map((i) => i.id));
      expect(photos.map((p) => p.status).sort()).toEqual(['done', 'done', 'pending']);
      for (const p of photos) expect(entries.has(p.photo), p.photo).toBe(true);

      const csv = entries
        .get('diagnoses.csv')!
        .toString('utf8')
        .replace(/^\uFEFF/, '');
      const lines = csv.trim().split('\r\n');
      expect(lines[0]).toMatch(/^id,name_img,diagnosed_at,label,/);
      expect(lines.slice(1).map((l) => Number(l.split(',')[0]))).toEqual(history.map((h) => h.id));
      const photosCsv = entries.get('photos.csv')!.toString('utf8').trim().split('\r\n');
      expect(photosCsv).toHaveLength(images.length + 1);

      const profile = JSON.parse(entries.get('profile.json')!.toString('utf8'));
      expect(profile.account).toMatchObject({ id: a.id, user_name: a.userName, email: a.email });
      expect(profile.account.password_hash).toBeUndefined();
      expect(profile.sessions).toHaveLength(2);
      expect(profile.diagnosis_settings).toMatchObject({ model: 'mobilenet' });
      expect(profile.contact_messages).toHaveLength(1);
      expect(profile.contact_messages[0].message).toContain(a.userName);
      expect(profile.identification_runs).toHaveLength(1);

      const readme = entries.get('LEEME-README.txt')!.toString('utf8');
      for (const word of [
        '== Español ==',
        '== English ==',
        'profile.json',
        'diagnoses.csv',
        'photos/',
        'heatmaps/',
        'reports/',
      ]) {
        expect(readme).toContain(word);
      }
      // nothing of the other user anywhere in the archive's text
      const text = [...entries]
        .filter(([k]) => !k.includes('/'))
        .map(([, v]) => v.toString('utf8'))
        .join('\n');
      expect(text.toLowerCase()).not.toContain(b.userName.toLowerCase());
      expect(text).not.toContain('$argon2');

      // a visitor gets no archive
      const visitor = new Browser(s().baseUrl);
      expect((await visitor.get(EXPORT)).status).toBe(401);
    });

    it('a download the client abandons leaves no file of the user open on the server', async () => {
      const { dataDir } = s();
      const a = await grower();
      // big photos, so the archive is far from sent when the client goes away
      const photos = path.join(dataDir, 'media', 'post_images', String(a.id));
      for (let i = 0; i < 24; i++) {
        fs.writeFileSync(path.join(photos, `grande-${i}.jpg`), Buffer.alloc(1024 * 1024, i));
      }
      const media = path.join(dataDir, 'media');
      // the server runs in this process: its open files are this process's
      const openMedia = () => openFilesUnder(media);
      for (let attempt = 0; attempt < 3; attempt++) {
        const gone = new AbortController();
        const res = await a.browser.request('GET', EXPORT, { signal: gone.signal });
        expect(res.status).toBe(200);
        const reader = res.body!.getReader();
        let received = 0;
        while (received < 3 * 1024 * 1024) received += (await reader.read()).value?.length ?? 0;
        gone.abort();
        await reader.cancel().catch(() => undefined);
      }
      await expect.poll(openMedia, { timeout: 10_000 }).toEqual([]);
      for (let i = 0; i < 24; i++) fs.rmSync(path.join(photos, `grande-${i}.jpg`));
    });

    it('a wrong password, no password or no confirmation deletes nothing', async () => {
      const { app, dataDir, baseUrl } = s();
      const a = await grower();
      // (the wrong password counts in rate_limits, as a wrong current password does)
      const withoutLimits = async () => {
        const rows = await allRows(app);
        rows.delete('rate_limits');
        return rows;
      };
      const before = await withoutLimits();
      const filesBefore = walk(dataDir).filter((f) => !f.startsWith('outbox/'));
      const cases: [Json, string][] = [
        [{ password: 'Incorrecta-1234', confirm: true }, M.passwordWrong],
        [{ password: '', confirm: true }, M.passwordMissing],
        [{ password: PASSWORD, confirm: false }, M.confirmMissing],
        [{ password: PASSWORD }, M.confirmMissing],
        ['nada', M.passwordMissing],
      ];
      for (const [body, detail] of cases) {
        const res = await a.browser.post(DELETE, { json: body });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(await json(res)).toEqual({ status: 'ERROR', detail });
      }
      const en = await a.browser.post(DELETE, {
        json: { password: 'Incorrecta-1234', confirm: true },
        headers: { 'Accept-Language': 'en' },
      });
      expect((await json(en)).detail).toBe(MY_DATA_MESSAGES_EN.passwordWrong);
      // without the CSRF header, and as a visitor
      expect(
        (await a.browser.post(DELETE, { json: { password: PASSWORD, confirm: true }, csrf: false }))
          .status,
      ).toBe(403);
      const visitor = new Browser(baseUrl);
      await visitor.get('/api/session/');
      const res = await visitor.post(DELETE, { json: { password: PASSWORD, confirm: true } });
      expect(res.status).toBe(401);
      expect((await json(res)).detail).toBe(SERVER_MESSAGES.loginRequired);

      expect(await withoutLimits()).toEqual(before);
      expect(walk(dataDir).filter((f) => !f.startsWith('outbox/'))).toEqual(filesBefore);
      expect((await json(await a.browser.get('/api/session/'))).isAuthenticated).toBe(true);
      expect(mailsTo(path.join(dataDir, 'outbox'), a.email)).toHaveLength(0);
    });

    it('deleting during an identification stops it and leaves no row and no file; the mail confirms; the name is free again', async () => {
      const { app, dataDir, baseUrl } = s();
      const a = await grower({ contact: true });
      const b = await grower();
      const bFiles = filesOf(dataDir, b.id);
      const bExport = await unzip(Buffer.from(await (await b.browser.get(EXPORT)).arrayBuffer()));

      // two more photos; the run pauses after its first photo is written
      for (const i of [4, 5]) {
        const res = await a.browser.post(P.posts, {
          body: uploadForm(await leafPhoto({ seed: i }), `m${i}.jpg`),
        });
        expect(res.status).toBe(200);
      }
      const reached = gate();
      const hold = gate();
      pauses.set(a.id, { at: 1, reached: reached.open, hold: hold.opened });
      const ended = new Promise<RunOutcome>((r) => ends.set(a.id, r));
      expect(await json(await a.browser.post(P.predict, { body: predictForm() }))).toMatchObject({
        total: 3,
      });
      await reached.opened;
      expect(fs.readdirSync(path.join(dataDir, 'media', 'heatmaps', String(a.id)))).toHaveLength(3);

      const deleting = a.browser.post(DELETE, { json: { password: PASSWORD, confirm: true } });
      // the deletion holds the user's work first: from then on the server refuses a new run
      for (;;) {
        const res = await a.other.post(P.predict, { body: predictForm() });
        if (res.status === 503) break;
        expect(res.status).toBe(200); // 'already running'
        await new Promise((r) => setTimeout(r, 20));
      }
      hold.open();
      const res = await deleting;
      expect(res.status).toBe(200);
      expect(await json(res)).toEqual({ status: 'OK', detail: M.deleted });
      expect(await ended).toBe('stopped');

      // no row of the user in any table; the contact message stays, unlinked
      const rows = await allRows(app);
      expect(traces(rows, a)).toEqual([]);
      const messages = rows
        .get('contact_messages')!
        .filter((m) => String(m.message).includes(a.userName));
      expect(messages).toHaveLength(1);
      expect(messages[0]!.user_id).toBeNull();
      expect(rows.get('diagnosis_history')!.filter((h) => Number(h.user_id) === b.id)).toHaveLength(
        2,
      );

      // no file of the user under DATA_DIR (the outbox holds the mails sent, as a mail server would)
      const left = walk(dataDir);
      for (const kind of ['post_images', 'heatmaps', 'thumbs', 'reports']) {
        expect(left).not.toContain(`media/${kind}/${a.id}/`);
        expect(left.filter((f) => f.startsWith(`media/${kind}/${a.id}/`))).toEqual([]);
      }
      expect(filesOf(dataDir, b.id)).toEqual(bFiles);
      const bAfter = await unzip(Buffer.from(await (await b.browser.get(EXPORT)).arrayBuffer()));
      expect([...bAfter.keys()].sort()).toEqual([...bExport.keys()].sort());

      // both sessions ended; the password no longer opens anything
      expect((await json(await a.browser.get('/api/session/'))).isAuthenticated).toBe(false);
      expect((await json(await a.other.get('/api/session/'))).isAuthenticated).toBe(false);
      const relogin = new Browser(baseUrl);
      await relogin.get('/api/session/');
      expect(
        (await relogin.post('/api/login/', { json: { username: a.userName, password: PASSWORD } }))
          .status,
      ).toBe(401);

      const [mail, ...more] = mailsTo(path.join(dataDir, 'outbox'), a.email);
      expect(more).toHaveLength(0);
      expect(mail!.subject).toBe('Tu cuenta de DiAgroDL se borró');
      expect(mail!.text).toContain(`la cuenta "${a.userName}" de DiAgroDL se borró`);
      expect(mail!.text).toContain(`${baseUrl}/Create_account`);

      // the same user name and address can register again
      const again = new Browser(baseUrl);
      await again.get('/api/session/');
      const registered = await again.post('/api/Create_user/', {
        json: {
          User_name: a.userName,
          First_name: 'Ana',
          Last_name: 'López',
          Email: a.email,
          Country: 'MX',
          City: 'Texcoco',
          Code_country: '+52',
          Phone_number: '',
          Organisation_type: '3',
          Organisation_name: 'Chapingo',
          Purpose_use: '3',
          Aceppt_terms: true,
          Give_permission: false,
          Accept_DiAgro_data: true,
          Subscribe_update: false,
        },
      });
      expect(await json(registered)).toEqual({
        status: 'OK',
        detail: REGISTRATION_SERVER_MESSAGES.created(a.email),
      });
      const fresh = await app.db.kysely
        .selectFrom('users')
        .select('id')
        .where('user_name_lower', '=', a.userName.toLowerCase())
        .executeTakeFirstOrThrow();
      expect(fresh.id).not.toBe(a.id);
      expect(filesOf(dataDir, fresh.id).size).toBe(0);
    });

    it('counts concurrent wrong passwords before checking them, with a message of its own', async () => {
      const { app, baseUrl } = s();
      seq += 1;
      const userName = `Prisa${process.pid % 1000}x${seq}`;
      await createUserDirect(app.db, { userName, password: PASSWORD });
      const browser = new Browser(baseUrl);
      await browser.get('/api/session/');
      await browser.post('/api/login/', { json: { username: userName, password: PASSWORD } });
      const replies = await Promise.all(
        Array.from({ length: 20 }, () =>
          browser.post(DELETE, { json: { password: 'Incorrecta-1234', confirm: true } }),
        ),
      );
      const statuses = replies.map((r) => r.status);
      expect(statuses.filter((st) => st === 400)).toHaveLength(5);
      expect(statuses.filter((st) => st === 429)).toHaveLength(15);
      const refused = replies.find((r) => r.status === 429)!;
      expect((await json(refused)).detail).toBe(RATE_LIMIT_MESSAGES.currentPassword(15 * 60));
      // nothing was deleted
      expect((await json(await browser.get('/api/session/'))).isAuthenticated).toBe(true);
    });

    it('writes the confirmation in English for an English account', async () => {
      const { dataDir } = s();
      const c = await grower({ language: 'en' });
      const res = await c.browser.post(DELETE, {
        json: { password: PASSWORD, confirm: true },
        headers: { 'Accept-Language': 'en-GB,en;q=0.9' },
      });
      expect(await json(res)).toEqual({ status: 'OK', detail: MY_DATA_MESSAGES_EN.deleted });
      const [mail] = mailsTo(path.join(dataDir, 'outbox'), c.email);
      expect(mail!.subject).toBe('Your DiAgroDL account has been deleted');
      expect(mail!.text).toContain(`the DiAgroDL account "${c.userName}" has been deleted`);
    });
  });
}

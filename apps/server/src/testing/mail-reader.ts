import fs from 'node:fs';
import path from 'node:path';

/** One e-mail as the tests read it: decoded headers and plain-text body. */
export interface ReadMail {
  to: string;
  from: string;
  replyTo: string;
  subject: string;
  text: string;
  file: string;
}

function decodeWords(value: string): string {
  return value.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_m, enc: string, data: string) =>
    enc.toLowerCase() === 'b'
      ? Buffer.from(data, 'base64').toString('utf8')
      : decodeQp(data.replace(/_/g, ' ')),
  );
}

function decodeQp(value: string): string {
  const bytes: number[] = [];
  const soft = value.replace(/=\n/g, '');
  for (let i = 0; i < soft.length; i += 1) {
    const c = soft[i]!;
    if (c === '=' && /^[0-9A-F]{2}$/i.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(c, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Parses a single-part text message as nodemailer writes it (the only kind we send). */
export function parseMail(raw: string, file = ''): ReadMail {
  const source = raw.replace(/\r\n/g, '\n');
  const split = source.indexOf('\n\n');
  const head = source.slice(0, split).replace(/\n[ \t]+/g, ' ');
  const body = source.slice(split + 2);
  const headers = new Map<string, string>();
  for (const line of head.split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  const text =
    encoding === 'base64'
      ? Buffer.from(body.replace(/\s/g, ''), 'base64').toString('utf8')
      : encoding === 'quoted-printable'
        ? decodeQp(body)
        : body;
  return {
    to: decodeWords(headers.get('to') ?? ''),
    from: decodeWords(headers.get('from') ?? ''),
    replyTo: decodeWords(headers.get('reply-to') ?? ''),
    subject: decodeWords(headers.get('subject') ?? ''),
    text: text.replace(/\n$/, ''),
    file,
  };
}

/** Every message in an outbox folder, oldest first. */
export function readOutbox(dir: string): ReadMail[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((f) => parseMail(fs.readFileSync(path.join(dir, f), 'utf8'), path.join(dir, f)));
}

/** The messages to one address (case-insensitive). */
export function mailsTo(dir: string, address: string): ReadMail[] {
  return readOutbox(dir).filter((m) => m.to.toLowerCase().includes(address.toLowerCase()));
}

/**
 * Waits until an outbox folder holds `count` messages to one address (mails sent after the
 * answer, as the reset link is), and returns them; fails after `timeoutMs`.
 */
export async function waitForMails(
  dir: string,
  address: string,
  count = 1,
  timeoutMs = 10_000,
): Promise<ReadMail[]> {
  // performance.now: the tests that move the clock fake Date
  const end = performance.now() + timeoutMs;
  for (;;) {
    const mails = mailsTo(dir, address);
    if (mails.length >= count) return mails;
    if (performance.now() > end) {
      throw new Error(`${mails.length} of ${count} mails to ${address} in ${dir}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Reads the generated password out of a welcome mail (es or en). */
export function passwordFromMail(mail: ReadMail): string {
  const m = /(?:Contraseña|Password):\s+(\S+)/.exec(mail.text);
  if (!m) throw new Error(`no password in mail:\n${mail.text}`);
  return m[1]!;
}

/** Reads the reset link out of a reset mail. */
export function resetLinkFromMail(mail: ReadMail): URL {
  const m = /(https?:\/\/\S+\/Reset_password\?token=\S+)/.exec(mail.text);
  if (!m) throw new Error(`no reset link in mail:\n${mail.text}`);
  return new URL(m[1]!);
}

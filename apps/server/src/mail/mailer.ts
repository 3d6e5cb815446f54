import fs from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import { randomToken } from '../lib/tokens.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  replyTo?: string;
}

/** Sends one message or throws (the caller decides what a failure undoes). */
export interface Mailer {
  /** 'smtp://host:port' (no credentials) or 'outbox:<folder>'. */
  readonly describe: string;
  send(message: MailMessage): Promise<void>;
}

/**
 * SMTP when SMTP_URL is set; otherwise each message is written as an .eml file (mode 0600, in a
 * folder made 0700) into the outbox folder (DATA_DIR/outbox) and its path is logged, so the
 * embedded mode needs no mail server and nothing is lost.
 */
export function createMailer(
  opts: { smtpUrl: string | undefined; from: string; outboxDir: string },
  log: FastifyBaseLogger,
): Mailer {
  if (opts.smtpUrl) {
    const url = new URL(opts.smtpUrl);
    const transport = nodemailer.createTransport({
      url: opts.smtpUrl,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
    return {
      describe: `${url.protocol}//${url.host}`,
      async send(message) {
        await transport.sendMail({ from: opts.from, ...message });
      },
    };
  }
  const stream = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });
  return {
    describe: `outbox:${opts.outboxDir}`,
    async send(message) {
      const info = await stream.sendMail({ from: opts.from, ...message });
      // Readable by the server's user only (generated passwords, live reset links); written
      // under another name first, so that a reader of the folder never sees half a message.
      fs.mkdirSync(opts.outboxDir, { recursive: true, mode: 0o700 });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(opts.outboxDir, `${stamp}-${randomToken(6)}.eml`);
      const partial = `${file}.partial`;
      fs.writeFileSync(partial, info.message as Buffer, { mode: 0o600 });
      fs.renameSync(partial, file);
      log.info({ mail: file, subject: message.subject }, `mail written to ${file}`);
    },
  };
}

import {
  CONTACT_FIELDS,
  CONTACT_REPLY,
  type ContactBody,
  RATE_LIMIT_MESSAGES,
  TOOL,
} from '@diagrodl/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { nowIso } from '../../lib/tokens.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { UserRepository } from '../users/user.repository.ts';
import { RATE_RULES, type RateLimiter } from '../../lib/rate-limit/rate-limiter.ts';
import type { ContactMessage, ContactRepository } from './contact.repository.ts';

/** How often the server looks for contact messages whose mail failed, and tries them again. */
export interface ContactRetry {
  /** How often it looks. */
  everyMs: number;
  /** How long after the last try a message is tried again. */
  afterMs: number;
}

export const CONTACT_RETRY: ContactRetry = { everyMs: 5 * 60_000, afterMs: 5 * 60_000 };

/** How many messages one look tries at most (the next look takes the rest). */
const RETRY_BATCH = 20;

/**
 * Contact messages from visitors and users: checked, stored, then mailed to CONTACT_TO. A message
 * whose mail fails (the mail server down) stays stored and is mailed again later
 * (`resendUnmailed`), so that every message reaches the provider.
 */
export class ContactService {
  constructor(
    private readonly deps: {
      contacts: ContactRepository;
      users: UserRepository;
      mailer: Mailer;
      limiter: RateLimiter;
      contactTo: string;
      log: FastifyBaseLogger;
    },
  ) {}

  /** `body` passed the contact form's rules (checkContact, in the endpoint's request schema). */
  async send(body: ContactBody, ctx: { ip: string; userId: number | null }): Promise<string> {
    const { limiter } = this.deps;
    // Every message let through counts (stored, mailed or not); counted first (take), so that
    // concurrent messages cannot all pass.
    await limiter.takeOrRefuse(RATE_RULES.contactPerIp, ctx.ip, RATE_LIMIT_MESSAGES.other);
    const [name, email, subject, message] = CONTACT_FIELDS.map((f) => body[f].trim()) as [
      string,
      string,
      string,
      string,
    ];
    const id = await this.deps.contacts.insert({
      name,
      email,
      subject,
      message,
      user_id: ctx.userId,
      created_at: nowIso(),
    });
    await this.mail({ id, name, email, subject, message, user_id: ctx.userId });
    return CONTACT_REPLY.sent;
  }

  /**
   * Mails again the stored messages whose mail failed and was last tried at least
   * `retry.afterMs` ago (each claimed first, so that one process mails it); how many went.
   */
  async resendUnmailed(retry: ContactRetry = CONTACT_RETRY): Promise<number> {
    const now = Date.now();
    const due = await this.deps.contacts.claimUnmailed(
      new Date(now - retry.afterMs).toISOString(),
      new Date(now).toISOString(),
      RETRY_BATCH,
    );
    let sent = 0;
    for (const row of due) if (await this.mail(row)) sent++;
    if (sent) this.deps.log.info({ sent }, 'contact messages mailed on a later try');
    return sent;
  }

  /** Mails one stored message to CONTACT_TO; false (logged, the row kept unmailed) on failure. */
  private async mail(
    row: Pick<ContactMessage, 'id' | 'name' | 'email' | 'subject' | 'message' | 'user_id'>,
  ): Promise<boolean> {
    const user = row.user_id == null ? undefined : await this.deps.users.findById(row.user_id);
    try {
      await this.deps.mailer.send({
        to: this.deps.contactTo,
        replyTo: row.email,
        subject: `[${TOOL} contacto #${row.id}] ${row.subject}`,
        text: [
          `Nombre: ${row.name}`,
          `Correo: ${row.email}`,
          `Usuario: ${user ? user.user_name : '(visitante sin sesión)'}`,
          `Asunto: ${row.subject}`,
          '',
          row.message,
        ].join('\n'),
      });
      await this.deps.contacts.markMailed(row.id);
      return true;
    } catch (err) {
      // The message stays stored (mailed = 0) and is tried again later (resendUnmailed).
      this.deps.log.error(
        { err, contactMessageId: row.id },
        'contact mail failed; message kept, to be tried again',
      );
      return false;
    }
  }
}

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
import type { ContactRepository } from './contact.repository.ts';

/** Contact messages from visitors and users: checked, stored, then mailed to CONTACT_TO. */
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
    const user = ctx.userId == null ? undefined : await this.deps.users.findById(ctx.userId);
    try {
      await this.deps.mailer.send({
        to: this.deps.contactTo,
        replyTo: email,
        subject: `[${TOOL} contacto #${id}] ${subject}`,
        text: [
          `Nombre: ${name}`,
          `Correo: ${email}`,
          `Usuario: ${user ? user.user_name : '(visitante sin sesión)'}`,
          `Asunto: ${subject}`,
          '',
          message,
        ].join('\n'),
      });
      await this.deps.contacts.markMailed(id);
    } catch (err) {
      // The message is stored (mailed = 0): nothing is lost; the log says what to look at.
      this.deps.log.error({ err, contactMessageId: id }, 'contact mail failed; message kept');
    }
    return CONTACT_REPLY.sent;
  }
}

import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import type { ContactMessagesTable, Database } from '../../db/schema.ts';

export type ContactMessage = Selectable<ContactMessagesTable>;

/** Its last try is older than `triedBefore`, or not known. */
const due = (eb: ExpressionBuilder<Database, 'contact_messages'>, triedBefore: string) =>
  eb.or([eb('mail_attempted_at', 'is', null), eb('mail_attempted_at', '<', triedBefore)]);

/** The only code that reads and writes the contact_messages table. */
export class ContactRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Stores a message whose mail is being tried now (its `created_at`). */
  async insert(
    row: Omit<ContactMessagesTable, 'id' | 'mailed' | 'mail_attempted_at'>,
  ): Promise<number> {
    const r = await this.db
      .insertInto('contact_messages')
      .values({ ...row, mailed: 0, mail_attempted_at: row.created_at })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(r.id);
  }

  async markMailed(id: number): Promise<void> {
    await this.db.updateTable('contact_messages').set({ mailed: 1 }).where('id', '=', id).execute();
  }

  /**
   * Up to `limit` messages not mailed whose last try is older than `triedBefore` (or unknown),
   * oldest first, each claimed for this try by setting its try time to `now` in an update that
   * only one process can win: two server processes never mail the same message at once.
   */
  async claimUnmailed(triedBefore: string, now: string, limit: number): Promise<ContactMessage[]> {
    const candidates = await this.db
      .selectFrom('contact_messages')
      .select('id')
      .where('mailed', '=', 0)
      .where((eb) => due(eb, triedBefore))
      .orderBy('id')
      .limit(limit)
      .execute();
    const claimed: ContactMessage[] = [];
    for (const { id } of candidates) {
      const won = await this.db
        .updateTable('contact_messages')
        .set({ mail_attempted_at: now })
        .where('id', '=', id)
        .where('mailed', '=', 0)
        .where((eb) => due(eb, triedBefore))
        .returningAll()
        .executeTakeFirst();
      if (won) claimed.push(won);
    }
    return claimed;
  }
}

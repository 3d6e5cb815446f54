import type { Kysely } from 'kysely';
import type { ContactMessagesTable, Database } from '../../db/schema.ts';

/** The only code that reads and writes the contact_messages table. */
export class ContactRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: Omit<ContactMessagesTable, 'id' | 'mailed'>): Promise<number> {
    const r = await this.db
      .insertInto('contact_messages')
      .values({ ...row, mailed: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(r.id);
  }

  async markMailed(id: number): Promise<void> {
    await this.db.updateTable('contact_messages').set({ mailed: 1 }).where('id', '=', id).execute();
  }
}

import type { Insertable, Kysely } from 'kysely';
import type { Database, DiagnosisHistoryTable } from '../../db/schema.ts';
import type { HistoryRow } from './diagnosis.repository.ts';

/** SQL for diagnoses made on a device (modules/diagnosis/README.md): history entries keyed by the device's id. */
export class DeviceDiagnosisRepository {
  constructor(private readonly db: Kysely<Database>) {}

  findByClientId(userId: number, clientId: string): Promise<HistoryRow | undefined> {
    return this.db
      .selectFrom('diagnosis_history')
      .selectAll()
      .where('user_id', '=', userId)
      .where('client_id', '=', clientId)
      .executeTakeFirst();
  }

  /** Inserts one entry; a second one with the same (user, client id) fails on the unique index. */
  async insert(row: Insertable<DiagnosisHistoryTable>): Promise<number> {
    const r = await this.db
      .insertInto('diagnosis_history')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(r.id);
  }
}

import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** The only code that reads and writes the rate_limits table. */
export class RateLimitRepository {
  constructor(private readonly db: Kysely<Database>) {}

  find(bucket: string): Promise<{ hits: number; window_end: string } | undefined> {
    return this.db
      .selectFrom('rate_limits')
      .select(['hits', 'window_end'])
      .where('bucket', '=', bucket)
      .executeTakeFirst();
  }

  /** Counts one hit: a new window starts when the current one has ended. */
  async hit(bucket: string, nowIso: string, newWindowEnd: string): Promise<void> {
    const expired = sql<boolean>`rate_limits.window_end <= ${nowIso}`;
    await this.db
      .insertInto('rate_limits')
      .values({ bucket, hits: 1, window_end: newWindowEnd })
      .onConflict((oc) =>
        oc.column('bucket').doUpdateSet({
          hits: sql<number>`case when ${expired} then 1 else rate_limits.hits + 1 end`,
          window_end: sql<string>`case when ${expired} then ${newWindowEnd} else rate_limits.window_end end`,
        }),
      )
      .execute();
  }

  async delete(bucket: string): Promise<void> {
    await this.db.deleteFrom('rate_limits').where('bucket', '=', bucket).execute();
  }

  async deleteExpired(nowIso: string): Promise<void> {
    await this.db.deleteFrom('rate_limits').where('window_end', '<=', nowIso).execute();
  }
}

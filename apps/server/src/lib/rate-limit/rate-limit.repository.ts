import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** The only code that reads and writes the rate_limits table. */
export class RateLimitRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Counts one hit: a new window starts when the current one has ended. One statement, so
   * concurrent hits each see their own count: the counter and window after this hit.
   */
  async hit(
    bucket: string,
    nowIso: string,
    newWindowEnd: string,
  ): Promise<{ hits: number; window_end: string }> {
    const expired = sql<boolean>`rate_limits.window_end <= ${nowIso}`;
    const row = await this.db
      .insertInto('rate_limits')
      .values({ bucket, hits: 1, window_end: newWindowEnd })
      .onConflict((oc) =>
        oc.column('bucket').doUpdateSet({
          hits: sql<number>`case when ${expired} then 1 else rate_limits.hits + 1 end`,
          window_end: sql<string>`case when ${expired} then ${newWindowEnd} else rate_limits.window_end end`,
        }),
      )
      .returning(['hits', 'window_end'])
      .executeTakeFirstOrThrow();
    return { hits: Number(row.hits), window_end: row.window_end };
  }

  /** Takes one hit back (never below 0): an attempt counted that turned out not to count. */
  async unhit(bucket: string): Promise<void> {
    await this.db
      .updateTable('rate_limits')
      .set({ hits: sql<number>`rate_limits.hits - 1` })
      .where('bucket', '=', bucket)
      .where('hits', '>', 0)
      .execute();
  }

  async delete(bucket: string): Promise<void> {
    await this.db.deleteFrom('rate_limits').where('bucket', '=', bucket).execute();
  }

  async deleteExpired(nowIso: string): Promise<void> {
    await this.db.deleteFrom('rate_limits').where('window_end', '<=', nowIso).execute();
  }
}

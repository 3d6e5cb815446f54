import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import type { DiagnosisReason } from '@diagrodl/contracts';
import type {
  Database,
  DiagnosisHistoryTable,
  DiagnosisImagesTable,
  DiagnosisRunsTable,
  DiagnosisSettingsTable,
} from '../../db/schema.ts';

export type ImageRow = Selectable<DiagnosisImagesTable>;
export type RunRow = Selectable<DiagnosisRunsTable>;
export type HistoryRow = Selectable<DiagnosisHistoryTable>;
export type SettingsRow = Selectable<DiagnosisSettingsTable>;

/** History rows deleted per statement (ids in one `IN` list). */
const HISTORY_DELETE_BATCH = 500;

export interface ResultFields {
  label: string;
  probability: number;
  accepted: boolean;
  /** null when accepted, else 'not_leaf' | 'low_confidence' */
  reason: DiagnosisReason | null;
  leaf_probability: number | null;
  lab_like: number | null;
  top3: string;
  model: string;
  heatmap_file: string;
  predicted_at: string;
}

/**
 * The only code that speaks SQL for the diagnosis tool. Every query that touches a user's
 * data takes the owner's id and filters by it.
 */
export class DiagnosisRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async userLanguage(userId: number): Promise<{ language: string; userName: string } | undefined> {
    const row = await this.db
      .selectFrom('users')
      .select(['language', 'user_name', 'first_name', 'last_name'])
      .where('id', '=', userId)
      .executeTakeFirst();
    return row
      ? {
          language: row.language,
          userName: `${row.first_name} ${row.last_name} (${row.user_name})`,
        }
      : undefined;
  }

  /* ---- settings ---- */

  getSettings(userId: number): Promise<SettingsRow | undefined> {
    return this.db
      .selectFrom('diagnosis_settings')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  async saveSettings(row: Insertable<DiagnosisSettingsTable>): Promise<void> {
    await this.db
      .insertInto('diagnosis_settings')
      .values(row)
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet({
          cultivo: row.cultivo,
          nivel: row.nivel,
          tipo_modelo: row.tipo_modelo,
          modelo_version: row.modelo_version,
          model_id: row.model_id,
          updated_at: row.updated_at,
        }),
      )
      .execute();
  }

  /* ---- images ---- */

  async insertImage(row: Insertable<DiagnosisImagesTable>): Promise<number> {
    const r = await this.db
      .insertInto('diagnosis_images')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(r.id);
  }

  /** Images not yet identified (pending or being identified) with ids up to `upToId`. */
  async countUnfinished(userId: number, upToId?: number): Promise<number> {
    let q = this.db
      .selectFrom('diagnosis_images')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('user_id', '=', userId)
      .where('status', 'in', ['pending', 'claimed']);
    if (upToId !== undefined) q = q.where('id', '<=', upToId);
    const r = await q.executeTakeFirstOrThrow();
    return Number(r.n);
  }

  listUnfinished(userId: number): Promise<ImageRow[]> {
    return this.db
      .selectFrom('diagnosis_images')
      .selectAll()
      .where('user_id', '=', userId)
      .where('status', 'in', ['pending', 'claimed'])
      .orderBy('id')
      .execute();
  }

  listDone(userId: number): Promise<ImageRow[]> {
    return this.db
      .selectFrom('diagnosis_images')
      .selectAll()
      .where('user_id', '=', userId)
      .where('status', '=', 'done')
      .orderBy('id')
      .execute();
  }

  listAllImages(userId: number): Promise<ImageRow[]> {
    return this.db
      .selectFrom('diagnosis_images')
      .selectAll()
      .where('user_id', '=', userId)
      .execute();
  }

  findImage(userId: number, id: number): Promise<ImageRow | undefined> {
    return this.db
      .selectFrom('diagnosis_images')
      .selectAll()
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** Deletes one image only if it is still pending (not being identified, not done). */
  async deletePending(userId: number, id: number): Promise<boolean> {
    const r = await this.db
      .deleteFrom('diagnosis_images')
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async deleteImages(userId: number, ids: readonly number[]): Promise<number> {
    if (!ids.length) return 0;
    const r = await this.db
      .deleteFrom('diagnosis_images')
      .where('user_id', '=', userId)
      .where('id', 'in', ids)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /**
   * Atomically claims this user's pending images (and claims whose heartbeat is older than
   * `staleBefore`: their process died) for a run; with `ids`, only those of them (an id that is
   * not one of this user's pending images is not claimed). Two concurrent calls never get the
   * same row: the UPDATE re-checks the WHERE clause on every row it changes.
   */
  async claim(
    userId: number,
    runId: number,
    token: string,
    now: string,
    staleBefore: string,
    ids?: readonly number[],
  ): Promise<ImageRow[]> {
    if (ids && !ids.length) return [];
    let claim = this.db
      .updateTable('diagnosis_images')
      .set({ status: 'claimed', claim_token: token, claimed_at: now, run_id: runId })
      .where('user_id', '=', userId)
      .where((eb) =>
        eb.or([
          eb('status', '=', 'pending'),
          eb.and([eb('status', '=', 'claimed'), eb('claimed_at', '<', staleBefore)]),
        ]),
      );
    if (ids) claim = claim.where('id', 'in', ids);
    await claim.execute();
    return this.db
      .selectFrom('diagnosis_images')
      .selectAll()
      .where('user_id', '=', userId)
      .where('claim_token', '=', token)
      .where('status', '=', 'claimed')
      .orderBy('id')
      .execute();
  }

  /** Keeps a live claim alive. */
  async heartbeat(token: string, now: string): Promise<void> {
    await this.db
      .updateTable('diagnosis_images')
      .set({ claimed_at: now })
      .where('claim_token', '=', token)
      .where('status', '=', 'claimed')
      .execute();
  }

  /** Gives still-claimed images back (status pending) so a later request identifies them. */
  async release(token: string): Promise<number> {
    const r = await this.db
      .updateTable('diagnosis_images')
      .set({ status: 'pending', claim_token: null, claimed_at: null })
      .where('claim_token', '=', token)
      .where('status', '=', 'claimed')
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  /**
   * Stores one result and its history copy in one transaction, only if the claim is still
   * ours (fencing: a claim taken over after a stall is not written twice).
   */
  async finish(
    userId: number,
    imageId: number,
    token: string,
    result: ResultFields,
    history: Omit<Insertable<DiagnosisHistoryTable>, 'user_id' | 'image_id'>,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const r = await trx
        .updateTable('diagnosis_images')
        .set({
          status: 'done',
          claim_token: null,
          label: result.label,
          probability: result.probability,
          accepted: result.accepted ? 1 : 0,
          reason: result.reason,
          leaf_probability: result.leaf_probability,
          lab_like: result.lab_like,
          top3: result.top3,
          model: result.model,
          heatmap_file: result.heatmap_file,
          predicted_at: result.predicted_at,
        })
        .where('id', '=', imageId)
        .where('user_id', '=', userId)
        .where('claim_token', '=', token)
        .where('status', '=', 'claimed')
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) return false;
      await trx
        .insertInto('diagnosis_history')
        .values({ ...history, user_id: userId, image_id: imageId })
        .execute();
      return true;
    });
  }

  /** Drops a claimed image that could not be identified (its file is unreadable). */
  async dropClaimed(userId: number, imageId: number, token: string): Promise<boolean> {
    const r = await this.db
      .deleteFrom('diagnosis_images')
      .where('id', '=', imageId)
      .where('user_id', '=', userId)
      .where('claim_token', '=', token)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /* ---- runs ---- */

  async insertRun(row: Insertable<DiagnosisRunsTable>): Promise<number> {
    const r = await this.db
      .insertInto('diagnosis_runs')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(r.id);
  }

  /** Changes a run only while `token` holds it (a run taken over is not written by its old holder). */
  async updateRun(
    runId: number,
    token: string,
    set: Partial<Pick<RunRow, 'state' | 'total' | 'done' | 'detail' | 'updated_at'>>,
  ): Promise<boolean> {
    const r = await this.db
      .updateTable('diagnosis_runs')
      .set(set)
      .where('id', '=', runId)
      .where('owner', '=', token)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** The lease's heartbeat; false when the run is no longer this holder's. */
  heartbeatRun(runId: number, token: string, now: string): Promise<boolean> {
    return this.updateRun(runId, token, { updated_at: now });
  }

  /** A clean stop mid-run: the lease ends now, so the next holder need not wait for it. */
  async handOver(runId: number, token: string): Promise<void> {
    await this.updateRun(runId, token, { updated_at: new Date(0).toISOString() });
  }

  finishRun(
    runId: number,
    token: string,
    set: { detail: string | null; updated_at: string },
  ): Promise<boolean> {
    return this.updateRun(runId, token, { ...set, state: 'done' });
  }

  async addRunDone(runId: number, token: string, n: number, now: string): Promise<boolean> {
    const r = await this.db
      .updateTable('diagnosis_runs')
      .set({ done: sql<number>`done + ${n}`, updated_at: now })
      .where('id', '=', runId)
      .where('owner', '=', token)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async deleteRun(userId: number, runId: number): Promise<void> {
    await this.db
      .deleteFrom('diagnosis_runs')
      .where('user_id', '=', userId)
      .where('id', '=', runId)
      .execute();
  }

  latestRun(userId: number): Promise<RunRow | undefined> {
    return this.db
      .selectFrom('diagnosis_runs')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** This user's run still marked running (alive, or waiting to be taken over), if any. */
  runningRun(userId: number): Promise<RunRow | undefined> {
    return this.db
      .selectFrom('diagnosis_runs')
      .selectAll()
      .where('user_id', '=', userId)
      .where('state', '=', 'running')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** Runs marked running whose lease heartbeat is older than `staleBefore` (their holder died). */
  staleRuns(staleBefore: string): Promise<RunRow[]> {
    return this.db
      .selectFrom('diagnosis_runs')
      .selectAll()
      .where('state', '=', 'running')
      .where('updated_at', '<', staleBefore)
      .orderBy('id')
      .limit(100)
      .execute();
  }

  /**
   * Takes a run over from its dead holder, atomically: only if it is still exactly as read
   * (same owner, same heartbeat), so of several processes sweeping at once one wins. The run's
   * claimed images get the new token, which fences off the old holder's late writes. Returns
   * them (null when another process was quicker).
   */
  takeOver(run: RunRow, token: string, now: string): Promise<ImageRow[] | null> {
    return this.db.transaction().execute(async (trx) => {
      let q = trx
        .updateTable('diagnosis_runs')
        .set({ owner: token, updated_at: now, takeovers: sql<number>`takeovers + 1` })
        .where('id', '=', run.id)
        .where('state', '=', 'running')
        .where('updated_at', '=', run.updated_at);
      q = run.owner === null ? q.where('owner', 'is', null) : q.where('owner', '=', run.owner);
      const r = await q.executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) return null;
      await trx
        .updateTable('diagnosis_images')
        .set({ claim_token: token, claimed_at: now })
        .where('run_id', '=', run.id)
        .where('status', '=', 'claimed')
        .execute();
      return trx
        .selectFrom('diagnosis_images')
        .selectAll()
        .where('claim_token', '=', token)
        .where('status', '=', 'claimed')
        .orderBy('id')
        .execute();
    });
  }

  async deleteRuns(userId: number): Promise<void> {
    await this.db.deleteFrom('diagnosis_runs').where('user_id', '=', userId).execute();
  }

  /* ---- history ---- */

  listHistory(userId: number, limit: number): Promise<HistoryRow[]> {
    return (
      this.db
        .selectFrom('diagnosis_history')
        .selectAll()
        .where('user_id', '=', userId)
        // newest first by the date each was made: a diagnosis made on a device and sent later
        // takes its place by its own date
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute()
    );
  }

  findHistory(userId: number, id: number): Promise<HistoryRow | undefined> {
    return this.db
      .selectFrom('diagnosis_history')
      .selectAll()
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async deleteHistory(userId: number, id?: number): Promise<HistoryRow[]> {
    let q = this.db.selectFrom('diagnosis_history').selectAll().where('user_id', '=', userId);
    if (id !== undefined) q = q.where('id', '=', id);
    const rows = await q.execute();
    // the rows read (and only those: one added meanwhile keeps its thumbnail), a few hundred ids
    // at a time, within every database's limit on a statement's parameters, all or none
    const ids = rows.map((r) => r.id);
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < ids.length; i += HISTORY_DELETE_BATCH) {
        await trx
          .deleteFrom('diagnosis_history')
          .where('user_id', '=', userId)
          .where('id', 'in', ids.slice(i, i + HISTORY_DELETE_BATCH))
          .execute();
      }
    });
    return rows;
  }
}

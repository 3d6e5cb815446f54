/**
 * What identification left: the user's result rows (`GET /diagrodl/posts/`), 'start anew', the
 * history and its deletion. Rows are shown through the one mapper (result-view.ts).
 */
import {
  DIAGNOSIS_MESSAGES as M,
  type DeleteReply,
  HISTORY_LIMIT,
  type DiagnosisRow,
  type HistoryItem,
} from '@diagrodl/contracts';
import { HttpError } from '../../lib/errors.ts';
import type { DiagnosisRepository } from './diagnosis.repository.ts';
import type { MediaStore } from './media.ts';
import { hasClassLabel, resultView } from './result-view.ts';

export class ResultsService {
  constructor(
    private readonly repo: DiagnosisRepository,
    private readonly media: MediaStore,
  ) {}

  /** The page's language when the request names one, else the account's. */
  private async language(userId: number, asked?: string): Promise<string> {
    return asked ?? (await this.repo.userLanguage(userId))?.language ?? 'es';
  }

  async rows(userId: number, asked?: string): Promise<DiagnosisRow[]> {
    const language = await this.language(userId, asked);
    const rows = await this.repo.listDone(userId);
    return rows.filter(hasClassLabel).map((r) => ({
      ...resultView(r, language),
      created_at: r.predicted_at ?? r.created_at,
      image: this.media.url('post_images', r.file),
      heatmap: r.heatmap_file ? this.media.url('heatmaps', r.heatmap_file) : '',
    }));
  }

  /**
   * One identified photo leaves the working set (its photo and heatmap files too); its history
   * entry stays. The results screen calls it when the person identifies that photo again (cropped
   * or taken anew), so the new answer replaces the old one.
   */
  async deleteRow(userId: number, id: number): Promise<DeleteReply> {
    const row = await this.repo.findImage(userId, id);
    if (row?.status !== 'done') throw new HttpError(404, M.rowNotFound);
    const n = await this.repo.deleteImages(userId, [id]);
    await this.media.remove('post_images', userId, row.file);
    await this.media.remove('heatmaps', userId, row.heatmap_file ?? `h${row.id}.jpg`);
    return { status: 'OK', detail: M.rowsDeleted, deleted: n };
  }

  /** 'Start anew': this user's images, result rows, heatmaps and reports go; the history stays. */
  async deleteRows(userId: number): Promise<DeleteReply> {
    const rows = await this.repo.listAllImages(userId);
    const n = await this.repo.deleteImages(
      userId,
      rows.map((r) => r.id),
    );
    for (const r of rows) {
      await this.media.remove('post_images', userId, r.file);
      await this.media.remove('heatmaps', userId, r.heatmap_file ?? `h${r.id}.jpg`);
    }
    await this.media.clear('reports', userId);
    await this.repo.deleteRuns(userId);
    return { status: 'OK', detail: M.rowsDeleted, deleted: n };
  }

  async history(userId: number, asked?: string): Promise<HistoryItem[]> {
    const language = await this.language(userId, asked);
    const rows = await this.repo.listHistory(userId, HISTORY_LIMIT);
    return rows.filter(hasClassLabel).map((r) => {
      const thumbnail = this.media.url('thumbs', r.thumb_file);
      return {
        ...resultView(r, language),
        created_at: r.created_at,
        image: thumbnail,
        heatmap: '',
        thumbnail,
        client_id: r.client_id ?? null,
      };
    });
  }

  async deleteHistory(userId: number, id?: number): Promise<DeleteReply> {
    const gone = await this.repo.deleteHistory(userId, id);
    if (id !== undefined && !gone.length) throw new HttpError(404, M.historyNotFound);
    for (const h of gone) await this.media.remove('thumbs', userId, h.thumb_file);
    return { status: 'OK', detail: M.historyDeleted, deleted: gone.length };
  }
}

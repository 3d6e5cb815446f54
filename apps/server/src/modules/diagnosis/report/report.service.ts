/**
 * The diagnosis report of a user's identified photos: rows read through the one mapper
 * (result-view.ts), small JPEGs of each photo and its heatmap (each file decoded once, in the
 * model worker), the PDF rendered by report-pdf.ts and kept in the user's `reports` media folder.
 */
import { DIAGNOSIS_MESSAGES as M, type ReportReply, TOOL, fieldRowOf } from '@diagrodl/contracts';
import { ModelRegistry } from '../../../inference/registry.ts';
import { HttpError } from '../../../lib/errors.ts';
import { randomToken } from '../../../lib/tokens.ts';
import type { ModelWorker } from '../../../worker/model-worker.ts';
import type { DiagnosisRepository } from '../diagnosis.repository.ts';
import type { MediaStore } from '../media.ts';
import { hasClassLabel, lang, resultView } from '../result-view.ts';
import { type ReportImage, renderDiagnosisReport } from './report-pdf.ts';

/** How many of a user's report PDFs are kept: the newest, and a couple made just before it. */
export const REPORTS_KEPT = 3;

export class ReportService {
  constructor(
    private readonly repo: DiagnosisRepository,
    private readonly media: MediaStore,
    /** Test accuracies for the cover; small JPEGs of the photo and its heatmap, off the event loop. */
    private readonly models: Pick<ModelWorker, 'accuracy' | 'list' | 'thumbnail'>,
  ) {}

  /**
   * `asked`: the page's language when the request names one; else the account's. `timeZone`: the
   * browser's, for the report's date (UTC when absent or unknown).
   */
  async makeReport(
    userId: number,
    baseUrl: string,
    asked?: 'es' | 'en',
    timeZone?: string,
  ): Promise<ReportReply> {
    const rows = await this.repo.listDone(userId);
    const usable = rows.filter(hasClassLabel);
    if (!usable.length) throw new HttpError(400, M.noRows);
    const user = await this.repo.userLanguage(userId);
    const language = asked ?? lang(user?.language);
    const models = [...new Set(usable.map((r) => r.model ?? ''))];
    const images: ReportImage[] = [];
    for (const r of usable) {
      const view = resultView(r, language);
      const photo = await this.media.read('post_images', userId, r.file).catch(() => null);
      const heatmap = r.heatmap_file
        ? await this.media.read('heatmaps', userId, r.heatmap_file).catch(() => null)
        : null;
      images.push({
        nameImg: r.name_img,
        label: view.label,
        predict: view.predict,
        probability: view.probability,
        accepted: view.accepted,
        reason: view.reason,
        fieldPhoto: view.field_photo,
        top3: view.top3,
        photo: photo ? await this.models.thumbnail(photo, 360, 82).catch(() => null) : null,
        heatmap: heatmap ? await this.models.thumbnail(heatmap, 360, 82).catch(() => null) : null,
        pageUrl: `${baseUrl}${view.page}`,
      });
    }
    const listed = this.models.list();
    const pdf = await renderDiagnosisReport({
      productName: TOOL,
      userName: user?.userName ?? String(userId),
      date: new Date(),
      timeZone,
      language,
      // the models as the server has them now (the ensemble with its members): their accuracy
      // on the lab test photos and, beside it, their figures on real field photos, both from
      // their cards
      models: models.map((id) => {
        const model = listed.find((m) => m.id === id);
        const field = fieldRowOf(model?.reliability ?? []);
        return {
          label: model?.label ?? ModelRegistry.label(id),
          accuracy: this.models.accuracy(id),
          field: field
            ? {
                n: field.n,
                top1: field.top1,
                acceptedShare: field.acceptedShare,
                accuracyAccepted: field.accuracyAccepted,
              }
            : null,
        };
      }),
      images,
    });
    const file = `${randomToken(24)}.pdf`;
    // 'start anew' may run while the PDF is made: its rows then are gone, and so must the report
    // be (written first, checked after: whichever order the two run in, no report outlives them)
    const stillThere = async () => {
      const now = new Set((await this.repo.listDone(userId)).map((r) => r.id));
      return usable.every((r) => now.has(r.id));
    };
    try {
      await this.media.write('reports', userId, file, pdf);
    } catch (err) {
      if (!(await stillThere())) throw new HttpError(400, M.noRows);
      throw err;
    }
    if (!(await stillThere())) {
      await this.media.remove('reports', userId, file);
      throw new HttpError(400, M.noRows);
    }
    // each report replaces the older ones (the last few stay, for a request made at the same time)
    await this.media.keepNewest('reports', userId, REPORTS_KEPT);
    return { url: this.media.url('reports', file) };
  }
}

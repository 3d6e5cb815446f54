/**
 * Photos waiting to be identified: an upload is checked (uploads.ts), stored by MediaStore and
 * recorded as 'pending'; at most UPLOAD_LIMITS.maxPending per user; a pending photo can be
 * taken back until a run claims it.
 */
import {
  DIAGNOSIS_MESSAGES as M,
  UPLOAD_LIMITS,
  type DeleteReply,
  type PendingImage,
  type UploadReply,
} from '@diagrodl/contracts';
import { HttpError } from '../../lib/errors.ts';
import { nowIso, randomToken } from '../../lib/tokens.ts';
import type { DiagnosisRepository } from './diagnosis.repository.ts';
import type { MediaStore } from './media.ts';
import { displayName, inspectImage } from './uploads.ts';

export interface UploadInput {
  bytes: Buffer;
  filename: string | undefined;
  nameImg: string | undefined;
}

export class UploadService {
  constructor(
    private readonly repo: DiagnosisRepository,
    private readonly media: MediaStore,
  ) {}

  async upload(userId: number, input: UploadInput): Promise<UploadReply> {
    const nameImg = displayName(input.nameImg, input.filename);
    const img = await inspectImage(input.bytes);
    if ((await this.repo.countUnfinished(userId)) >= UPLOAD_LIMITS.maxPending) {
      throw new HttpError(409, M.tooManyPending);
    }
    const file = `${randomToken(12)}.${img.ext}`;
    await this.media.write('post_images', userId, file, input.bytes);
    let id: number;
    try {
      id = await this.repo.insertImage({
        user_id: userId,
        name_img: nameImg,
        file,
        mime: img.mime,
        size_bytes: input.bytes.length,
        width: img.width,
        height: img.height,
        status: 'pending',
        created_at: nowIso(),
      });
    } catch (err) {
      await this.media.remove('post_images', userId, file);
      throw err;
    }
    // Two uploads racing past the check above: the later one is taken back.
    if ((await this.repo.countUnfinished(userId, id)) > UPLOAD_LIMITS.maxPending) {
      await this.repo.deleteImages(userId, [id]);
      await this.media.remove('post_images', userId, file);
      throw new HttpError(409, M.tooManyPending);
    }
    return { status: 'OK', detail: M.uploadOk, id, name_img: nameImg };
  }

  async pending(userId: number): Promise<PendingImage[]> {
    const rows = await this.repo.listUnfinished(userId);
    return rows.map((r) => ({
      id: r.id,
      name_img: r.name_img,
      size: r.size_bytes,
      created_at: r.created_at,
      url: this.media.url('post_images', r.file),
    }));
  }

  async deletePending(userId: number, id: number): Promise<DeleteReply> {
    const row = await this.repo.findImage(userId, id);
    if (!row || row.status === 'done') throw new HttpError(404, M.pendingNotFound);
    if (row.status === 'claimed') throw new HttpError(409, M.pendingBusy);
    if (!(await this.repo.deletePending(userId, id))) throw new HttpError(409, M.pendingBusy);
    await this.media.remove('post_images', userId, row.file);
    return { status: 'OK', detail: M.pendingRemoved, deleted: 1 };
  }
}

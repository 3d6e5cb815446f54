/**
 * Diagnoses made on a device (README.md beside this file, "Diagnoses made on a device") reach the history: the photo is checked exactly as an
 * upload is (type, size, pixels, a full decode, a safe name), the device's result is checked
 * against the shared schema, and the device's id makes a retry return the first copy.
 */
import {
  DEVICE_MESSAGES as D,
  DIAGNOSIS_MESSAGES,
  type DeviceSyncReply,
  clientIdSchema,
  deviceResultSchema,
  isPlausibleDiagnosisDate,
} from '@diagrodl/contracts';
import { HttpError } from '../../lib/errors.ts';
import { randomToken } from '../../lib/tokens.ts';
import type { ModelWorker } from '../../worker/model-worker.ts';
import type { DeviceDiagnosisRepository } from './device.repository.ts';
import type { MediaStore } from './media.ts';
import { displayName, inspectImage } from './uploads.ts';

export interface DeviceDiagnosisInput {
  bytes: Buffer | undefined;
  filename: string | undefined;
  nameImg: string | undefined;
  clientId: string | undefined;
  /** The device's result as JSON text (multipart field `result`). */
  result: string | undefined;
}

/** True for a unique-constraint violation on SQLite or PostgreSQL. */
function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

export class DeviceDiagnosisService {
  constructor(
    private readonly repo: DeviceDiagnosisRepository,
    private readonly media: MediaStore,
    /** The model worker: the thumbnail is made off the event loop, like identification's. */
    private readonly images: Pick<ModelWorker, 'thumbnail'>,
  ) {}

  async receive(userId: number, input: DeviceDiagnosisInput): Promise<DeviceSyncReply> {
    const id = clientIdSchema.safeParse(input.clientId);
    if (!id.success) throw new HttpError(400, D.badClientId);
    const clientId = id.data.toLowerCase();
    const known = await this.repo.findByClientId(userId, clientId);
    if (known) return { status: 'OK', detail: D.duplicate, id: known.id, duplicate: true };

    let json: unknown;
    try {
      json = JSON.parse(input.result ?? '');
    } catch {
      throw new HttpError(400, D.badResult);
    }
    const parsed = deviceResultSchema.safeParse(json);
    if (!parsed.success) throw new HttpError(400, D.badResult);
    const result = parsed.data;
    if (!isPlausibleDiagnosisDate(result.diagnosed_at, new Date()))
      throw new HttpError(400, D.badDate);

    if (!input.bytes) throw new HttpError(400, DIAGNOSIS_MESSAGES.noFile);
    const nameImg = displayName(input.nameImg, input.filename);
    await inspectImage(input.bytes);

    const thumb = `d${randomToken(12)}.jpg`;
    await this.media.write('thumbs', userId, thumb, await this.images.thumbnail(input.bytes));
    try {
      const entry = await this.repo.insert({
        user_id: userId,
        image_id: 0,
        name_img: nameImg,
        label: result.label,
        probability: result.probability,
        accepted: result.accepted ? 1 : 0,
        reason: result.reason,
        leaf_probability: result.leaf_probability,
        lab_like: result.lab_like ?? null,
        top3: JSON.stringify(result.top3),
        model: result.model,
        thumb_file: thumb,
        created_at: new Date(result.diagnosed_at).toISOString(),
        client_id: clientId,
      });
      return { status: 'OK', detail: D.stored, id: entry, duplicate: false };
    } catch (err) {
      await this.media.remove('thumbs', userId, thumb);
      // the same id sent twice at once: the other request stored it
      if (isUniqueViolation(err)) {
        const first = await this.repo.findByClientId(userId, clientId);
        if (first) return { status: 'OK', detail: D.duplicate, id: first.id, duplicate: true };
      }
      throw err;
    }
  }
}

/**
 * Upload rules: JPEG, PNG or WebP that sharp decodes, at most 15 MB and 40 megapixels
 * (checked from the header before decoding: decompression bombs are refused), and a safe
 * display name. Every refusal is an HttpError with a Spanish detail.
 */
import sharp, { type Metadata } from 'sharp';
import { DIAGNOSIS_MESSAGES as M, UPLOAD_LIMITS } from '@diagrodl/contracts';
import { HttpError } from '../../lib/errors.ts';
import { DECODE_FAIL_ON } from '../../inference/preprocess.ts';

export interface InspectedImage {
  format: 'jpeg' | 'png' | 'webp';
  ext: 'jpg' | 'png' | 'webp';
  mime: string;
  width: number;
  height: number;
}

const FORMATS = {
  jpeg: { ext: 'jpg', mime: 'image/jpeg' },
  png: { ext: 'png', mime: 'image/png' },
  webp: { ext: 'webp', mime: 'image/webp' },
} as const;

/**
 * The display name of an upload: the base name with spaces (and any character other than
 * letters, digits, '.', '-', '_', '(' and ')') replaced by underscores, leading dots dropped.
 * A name carrying a path (any slash or backslash, '.' or '..'), control characters or no
 * letter or digit is refused. The name is only ever shown: stored files get server-made names.
 */
export function safeImageName(raw: string): string {
  const name = raw.normalize('NFC').trim();
  if (!name || name.length > 255) throw new HttpError(400, M.badName);
  if (/[/\\]/.test(name) || /^\.+$/.test(name) || /[\p{Cc}]/u.test(name)) {
    throw new HttpError(400, M.badName);
  }
  let safe = name
    .replace(/\s+/g, '_')
    .replace(/[^\p{L}\p{N}._()-]/gu, '_')
    .replace(/_{2,}/g, '_')
    .replace(/^\.+/, '');
  if (!safe || !/[\p{L}\p{N}]/u.test(safe)) throw new HttpError(400, M.badName);
  if (safe.length > 120) {
    const dot = safe.lastIndexOf('.');
    const ext = dot > 0 && safe.length - dot <= 6 ? safe.slice(dot) : '';
    safe = safe.slice(0, 120 - ext.length) + ext;
  }
  return safe;
}

/**
 * The name a photo is shown under: the user's nameImg, else the file's own name; a file name that
 * is given must be acceptable too, even when nameImg replaces it.
 */
export function displayName(nameImg: string | undefined, filename: string | undefined): string {
  const rawName = nameImg?.trim() ? nameImg : filename;
  if (filename) safeImageName(filename);
  return safeImageName(rawName ?? '');
}

/** Checks an uploaded image completely (header, pixel count, full decode). */
export async function inspectImage(bytes: Buffer): Promise<InspectedImage> {
  if (bytes.length === 0) throw new HttpError(400, M.emptyFile);
  if (bytes.length > UPLOAD_LIMITS.maxBytes) throw new HttpError(413, M.tooLarge);
  let meta: Metadata;
  try {
    // header only: nothing is decoded yet
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new HttpError(415, M.badType);
  }
  const format = meta.format as string | undefined;
  if (format !== 'jpeg' && format !== 'png' && format !== 'webp') {
    throw new HttpError(415, M.badType);
  }
  // EXIF orientations 5 to 8 turn the photo a quarter: its upright size swaps the stored one
  const quarterTurn = (meta.orientation ?? 1) >= 5;
  const width = (quarterTurn ? meta.height : meta.width) ?? 0;
  const height = (quarterTurn ? meta.width : meta.height) ?? 0;
  if (!width || !height) throw new HttpError(400, M.undecodable);
  if (width * height > UPLOAD_LIMITS.maxPixels) throw new HttpError(413, M.tooManyPixels);
  try {
    // a full decode (shrunk on the fly), as strict as identification's: truncated data is refused here
    await sharp(bytes, { failOn: DECODE_FAIL_ON, limitInputPixels: UPLOAD_LIMITS.maxPixels })
      .resize(64, 64, { fit: 'inside' })
      .raw()
      .toBuffer();
  } catch {
    throw new HttpError(400, M.undecodable);
  }
  return { format, ...FORMATS[format], width, height };
}

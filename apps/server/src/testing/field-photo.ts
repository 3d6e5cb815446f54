/**
 * A field-like photo of a tomato leaf, for the field-photo caution tests: a lab photo of late
 * blight on a procedural background (fixtures/field-like/README.md says how it was made).
 */
import fs from 'node:fs';
import path from 'node:path';

export const FIELD_LIKE_JPEG = path.join(
  import.meta.dirname,
  'fixtures',
  'field-like',
  'tizon-campo.jpg',
);

/** The field-like photo as JPEG bytes. */
export async function fieldLikeJpeg(): Promise<Buffer> {
  return fs.promises.readFile(FIELD_LIKE_JPEG);
}

/**
 * A photo that is not a tomato leaf, for the not-leaf tests: the cat of the MobileNetV2 sample
 * images, committed as JPEG (fixtures/not-leaf/README.md says where it comes from).
 */
import fs from 'node:fs';
import path from 'node:path';

export const NOT_LEAF_JPEG = path.join(import.meta.dirname, 'fixtures', 'not-leaf', 'gato.jpg');

/** The cat photo as JPEG bytes. */
export async function notLeafJpeg(): Promise<Buffer> {
  return fs.promises.readFile(NOT_LEAF_JPEG);
}

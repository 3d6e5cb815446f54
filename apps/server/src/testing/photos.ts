/**
 * Committed photos for the diagnosis tests (each folder's README.md under fixtures/ says where it
 * comes from): a photo that is not a tomato leaf (the cat of the MobileNetV2 sample images), the
 * leaves of another crop in the field (a pepper plant with leaf spot, PlantDoc) and a field-like
 * photo of a tomato leaf (a lab photo of late blight on a procedural background).
 */
import fs from 'node:fs';
import path from 'node:path';

const fixture = (...parts: string[]) => path.join(import.meta.dirname, 'fixtures', ...parts);

export const NOT_LEAF_JPEG = fixture('not-leaf', 'gato.jpg');
export const OTHER_CROP_JPEG = fixture('other-crop', 'pimiento.jpg');
export const FIELD_LIKE_JPEG = fixture('field-like', 'tizon-campo.jpg');

/** The cat photo as JPEG bytes. */
export const notLeafJpeg = (): Promise<Buffer> => fs.promises.readFile(NOT_LEAF_JPEG);

/** The pepper plant's photo as JPEG bytes. */
export const otherCropJpeg = (): Promise<Buffer> => fs.promises.readFile(OTHER_CROP_JPEG);

/** The field-like photo as JPEG bytes. */
export const fieldLikeJpeg = (): Promise<Buffer> => fs.promises.readFile(FIELD_LIKE_JPEG);

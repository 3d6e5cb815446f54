/**
 * Cropping a picked photo to the leaf before it is uploaded. A leaf small in the frame is the
 * photo condition that costs the diagnosis most (ml/LOG.md, "Photo conditions"): the shipped
 * model gives a diagnosis for 0.4 % of such leaves against 48 % when the leaf fills the frame.
 * A phone photo has the pixels to spare, so a square cut around the leaf is the leaf close up.
 *
 * The crop square is kept in fractions of the photo as it is shown (EXIF orientation applied):
 * its centre (of the width and of the height) and its side (of the shorter side).
 */
export interface CropBox {
  cx: number;
  cy: number;
  side: number;
}

/** The smallest side the square may have, as a fraction of the photo's shorter side. */
export const MIN_SIDE = 0.15;

/** The whole photo's largest centred square. */
export const FULL_BOX: CropBox = { cx: 0.5, cy: 0.5, side: 1 };

/** The photos the cropped copy keeps their type; anything else becomes a JPEG. */
const KEPT_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp']);

/** Largest side of the cropped copy, in pixels (the model reads 224; the report shows a few hundred). */
export const MAX_CROP_PX = 2048;

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** `box` with its side in [MIN_SIDE, 1] and the square wholly inside a `w` × `h` photo. */
export function clampBox(box: CropBox, w: number, h: number): CropBox {
  const side = clamp(box.side, MIN_SIDE, 1);
  const s = side * Math.min(w, h);
  return {
    cx: clamp(box.cx, s / 2 / w, 1 - s / 2 / w),
    cy: clamp(box.cy, s / 2 / h, 1 - s / 2 / h),
    side,
  };
}

/** The square in whole pixels of a `w` × `h` photo: its left, top and side, inside the photo. */
export function pixelRect(
  box: CropBox,
  w: number,
  h: number,
): { x: number; y: number; size: number } {
  const b = clampBox(box, w, h);
  const size = Math.max(1, Math.round(b.side * Math.min(w, h)));
  return {
    x: clamp(Math.round(b.cx * w - size / 2), 0, w - size),
    y: clamp(Math.round(b.cy * h - size / 2), 0, h - size),
    size,
  };
}

/** `box` moved by (dx, dy) fractions of the photo's width and height, kept inside it. */
export function moveBox(box: CropBox, dx: number, dy: number, w: number, h: number): CropBox {
  return clampBox({ ...box, cx: box.cx + dx, cy: box.cy + dy }, w, h);
}

/**
 * A copy of `file` cut to `box` (EXIF orientation applied first, as the photo was shown), at most
 * MAX_CROP_PX a side, with the same name and type (JPEG, PNG or WebP; JPEG for any other type) and
 * last-modified date. Throws when the browser cannot decode the photo.
 */
export async function cropFile(file: File, box: CropBox): Promise<File> {
  const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  try {
    const r = pixelRect(box, bitmap.width, bitmap.height);
    const out = Math.min(r.size, MAX_CROP_PX);
    const canvas = document.createElement('canvas');
    canvas.width = out;
    canvas.height = out;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2D canvas');
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(bitmap, r.x, r.y, r.size, r.size, 0, 0, out, out);
    const type = KEPT_TYPES.has(file.type) ? file.type : 'image/jpeg';
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, type, 0.92));
    if (!blob) throw new Error('the cropped photo could not be encoded');
    return new File([blob], file.name, { type: blob.type, lastModified: file.lastModified });
  } finally {
    bitmap.close();
  }
}

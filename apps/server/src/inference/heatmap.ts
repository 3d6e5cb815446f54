/**
 * Heatmap images: the predicted class's activation map, normalised to [0, 1], colour-mapped
 * (jet) and alpha-blended over the photo with sharp. The model saw the photo's centre square
 * (see preprocess.ts), so the map covers exactly that square; the rest of the photo is shown
 * as it is.
 */
import sharp from 'sharp';
import { type CamMap, HEATMAP_MAX_SIDE, camOverlayRgba } from '@diagrodl/contracts/inference/cam';
import { centreSquare } from '@diagrodl/contracts/inference/preprocess';

// The overlay itself (normalise, resize, jet, alpha) is shared with the browser's on-device
// diagnosis: packages/contracts/src/inference/cam.ts.
export { HEATMAP_MAX_SIDE, jet, normaliseMap } from '@diagrodl/contracts/inference/cam';

/** The overlay as a JPEG: the photo (EXIF-oriented, at most 1024 px) with the CAM blended in. */
export async function renderHeatmap(
  photo: Buffer,
  cam: CamMap,
  opts: { maxSide?: number; quality?: number } = {},
): Promise<Buffer> {
  const maxSide = opts.maxSide ?? HEATMAP_MAX_SIDE;
  const base = await sharp(photo, { failOn: 'error' })
    .autoOrient()
    .resize(maxSide, maxSide, { fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb')
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height } = base.info;
  const { side, left, top } = centreSquare(width, height);
  const overlay = camOverlayRgba(cam, side);
  const rgba = Buffer.from(overlay.buffer, overlay.byteOffset, overlay.length);
  return sharp(base.data, { raw: { width, height, channels: 3 } })
    .composite([{ input: rgba, raw: { width: side, height: side, channels: 4 }, left, top }])
    .jpeg({ quality: opts.quality ?? 82 })
    .toBuffer();
}

/** A small JPEG of the photo (history entries, report blocks). */
export async function thumbnailJpeg(photo: Buffer, side = 160, quality = 78): Promise<Buffer> {
  return sharp(photo, { failOn: 'error' })
    .autoOrient()
    .resize(side, side, { fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality })
    .toBuffer();
}

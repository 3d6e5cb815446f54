/**
 * The images made from a photo, all from ONE decoded image (inference/preprocess.ts decodeRgb:
 * EXIF-oriented 8-bit RGB): the heatmap overlay (the predicted class's activation map,
 * normalised, colour-mapped (jet) and alpha-blended over the photo) and the thumbnail. The model
 * saw the photo's centre square (see inference/preprocess.ts), so the map covers exactly that
 * square; the rest of the photo is shown as it is.
 */
import sharp from 'sharp';
import { type CamMap, HEATMAP_MAX_SIDE, camOverlayRgba } from '@diagrodl/contracts/inference/cam';
import { centreSquare } from '@diagrodl/contracts/inference/preprocess';
import { DECODE_FAIL_ON, type DecodedRgb } from '../inference/preprocess.ts';

// The overlay itself (normalise, resize, jet, alpha) is shared with the browser's on-device
// diagnosis: packages/contracts/src/inference/cam.ts.

/** The JPEGs identification keeps of a photo: the heatmap overlay and the history thumbnail. */
export interface PhotoImages {
  heatmap: Buffer;
  thumbnail: Buffer;
}

const raw = (img: DecodedRgb) =>
  sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } });

/**
 * The photo as the heatmap shows it: at most `maxSide` px (1024; never enlarged), raw RGB. It
 * does not need the model's answer, so identification makes it while the model runs.
 */
export async function heatmapBase(
  photo: DecodedRgb,
  maxSide: number = HEATMAP_MAX_SIDE,
): Promise<DecodedRgb> {
  const { data, info } = await raw(photo)
    .resize(maxSide, maxSide, { fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/**
 * The overlay as a JPEG: the photo (at most 1024 px) with the CAM blended in; on `base`, the
 * photo's heatmapBase, when it is already made.
 */
export async function renderHeatmap(
  photo: DecodedRgb,
  cam: CamMap,
  opts: { maxSide?: number; quality?: number; base?: DecodedRgb } = {},
): Promise<Buffer> {
  const { data, width, height } = opts.base ?? (await heatmapBase(photo, opts.maxSide));
  const { side, left, top } = centreSquare(width, height);
  const overlay = camOverlayRgba(cam, side);
  const rgba = Buffer.from(overlay.buffer, overlay.byteOffset, overlay.length);
  return sharp(data, { raw: { width, height, channels: 3 } })
    .composite([{ input: rgba, raw: { width: side, height: side, channels: 4 }, left, top }])
    .jpeg({ quality: opts.quality ?? 82 })
    .toBuffer();
}

/**
 * A small JPEG of a photo (history entries, report blocks): from the decoded image, or from an
 * image file (a stored photo or heatmap, decoded here once).
 */
export async function thumbnailJpeg(
  photo: DecodedRgb | Buffer,
  side = 160,
  quality = 78,
): Promise<Buffer> {
  const img = Buffer.isBuffer(photo)
    ? sharp(photo, { failOn: DECODE_FAIL_ON }).autoOrient()
    : raw(photo);
  return img
    .resize(side, side, { fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality })
    .toBuffer();
}

/**
 * Both images identification keeps, from the one decoded photo: both from its heatmapBase (given
 * as `base` when already made), the thumbnail too, which from the 1024 px image has the same size
 * and looks the same as from a 12 MP photo at a quarter of the time.
 */
export async function photoImages(
  photo: DecodedRgb,
  cam: CamMap,
  base?: DecodedRgb,
): Promise<PhotoImages> {
  const b = base ?? (await heatmapBase(photo));
  const [heatmap, thumbnail] = await Promise.all([
    renderHeatmap(photo, cam, { base: b }),
    thumbnailJpeg(b),
  ]);
  return { heatmap, thumbnail };
}

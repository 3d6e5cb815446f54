/**
 * A photo that is not a tomato leaf, for the not-leaf tests: the cat of the MobileNetV2 sample
 * images (../shared/pretrained/mobilenet_v2_imagenet/cat.bmp), converted to JPEG with sharp.
 * libvips reads no BMP, so the (uncompressed 24/32-bit) BMP is decoded here.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const REPO = path.resolve(import.meta.dirname, '..', '..', '..', '..');

/** The cat photo, relative to the repository: ../shared/pretrained/mobilenet_v2_imagenet/cat.bmp */
export const NOT_LEAF_BMP = path.resolve(
  REPO,
  '../shared/pretrained/mobilenet_v2_imagenet/cat.bmp',
);

/** Decodes an uncompressed 24- or 32-bit BMP into RGB pixels. */
export function decodeBmp(bytes: Buffer): { width: number; height: number; rgb: Buffer } {
  if (bytes.toString('ascii', 0, 2) !== 'BM') throw new Error('not a BMP file');
  const offset = bytes.readUInt32LE(10);
  const width = bytes.readInt32LE(18);
  const rawHeight = bytes.readInt32LE(22);
  const bpp = bytes.readUInt16LE(28);
  const compression = bytes.readUInt32LE(30);
  // 0: BI_RGB; 3 (BI_BITFIELDS) with 32 bits is the usual BGRA layout
  if ((bpp !== 24 && bpp !== 32) || !(compression === 0 || (compression === 3 && bpp === 32))) {
    throw new Error(`unsupported BMP (${bpp} bits, compression ${compression})`);
  }
  const height = Math.abs(rawHeight);
  const step = bpp / 8;
  const stride = Math.ceil((width * step) / 4) * 4;
  const rgb = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    const row = offset + (rawHeight > 0 ? height - 1 - y : y) * stride;
    for (let x = 0; x < width; x++) {
      const i = row + x * step;
      const o = (y * width + x) * 3;
      rgb[o] = bytes[i + 2] as number;
      rgb[o + 1] = bytes[i + 1] as number;
      rgb[o + 2] = bytes[i] as number;
    }
  }
  return { width, height, rgb };
}

/** The cat photo as JPEG bytes. */
export async function notLeafJpeg(file = NOT_LEAF_BMP): Promise<Buffer> {
  const { width, height, rgb } = decodeBmp(fs.readFileSync(file));
  return sharp(rgb, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

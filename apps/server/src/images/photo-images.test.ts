// The images made from one decoded photo: the heatmap overlay and the thumbnail.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeRgb } from '../inference/preprocess.ts';
import { heatmapBase, photoImages, renderHeatmap, thumbnailJpeg } from './photo-images.ts';

describe('photo images', () => {
  it('overlays the CAM on the photo centre square, at the photo size', async () => {
    const photo = await sharp({
      create: { width: 300, height: 200, channels: 3, background: '#808080' },
    })
      .jpeg()
      .toBuffer();
    // hot top-left corner of the centre square, cold elsewhere
    const cam = { width: 2, height: 2, data: new Float32Array([1, 0, 0, 0]) };
    const out = await renderHeatmap(await decodeRgb(photo), cam);
    const { data, info } = await sharp(out).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([300, 200]);
    const px = (x: number, y: number): [number, number, number] => {
      const o = (y * info.width + x) * info.channels;
      return [data[o]!, data[o + 1]!, data[o + 2]!];
    };
    const hot = px(55, 5); // centre square spans x 50..249
    const cold = px(245, 195);
    const outside = px(10, 100);
    expect(hot[0]).toBeGreaterThan(hot[2] + 40); // red-ish
    expect(cold[2]).toBeGreaterThan(cold[0] + 20); // blue-ish
    expect(Math.abs(outside[0] - outside[2])).toBeLessThan(12); // untouched grey
  });

  it('shrinks large photos to at most 1024 px', async () => {
    const photo = await sharp({
      create: { width: 2400, height: 1600, channels: 3, background: '#406030' },
    })
      .jpeg()
      .toBuffer();
    const out = await renderHeatmap(await decodeRgb(photo), {
      width: 7,
      height: 7,
      data: new Float32Array(49).fill(0.5),
    });
    const meta = await sharp(out).metadata();
    expect([meta.width, meta.height]).toEqual([1024, 683]);
  });

  it('makes the same thumbnail from the decoded photo as from its file', async () => {
    const photo = await sharp({
      create: { width: 640, height: 480, channels: 3, background: '#3a7a30' },
    })
      .jpeg()
      .toBuffer();
    const fromFile = await sharp(await thumbnailJpeg(photo)).metadata();
    const fromDecoded = await sharp(await thumbnailJpeg(await decodeRgb(photo))).metadata();
    expect([fromDecoded.width, fromDecoded.height]).toEqual([160, 120]);
    expect([fromDecoded.width, fromDecoded.height]).toEqual([fromFile.width, fromFile.height]);
  });

  it('makes both images from the 1024 px base: the same with it made beforehand, the thumbnail as large', async () => {
    const photo = await decodeRgb(
      await sharp({ create: { width: 2400, height: 1600, channels: 3, background: '#2f6a2a' } })
        .composite([
          {
            input: { create: { width: 600, height: 900, channels: 3, background: '#c9b037' } },
            left: 700,
            top: 300,
          },
        ])
        .jpeg()
        .toBuffer(),
    );
    const cam = { width: 7, height: 7, data: Float32Array.from({ length: 49 }, (_, i) => i / 48) };
    const base = await heatmapBase(photo);
    expect([base.width, base.height]).toEqual([1024, 683]);
    const made = await photoImages(photo, cam);
    const given = await photoImages(photo, cam, base);
    expect(given.heatmap.equals(made.heatmap)).toBe(true);
    expect(given.thumbnail.equals(made.thumbnail)).toBe(true);
    expect(made.heatmap.equals(await renderHeatmap(photo, cam))).toBe(true);
    // the thumbnail from the base: the size, and within a few levels the pixels, of one from the photo
    const fromBase = await sharp(made.thumbnail).raw().toBuffer({ resolveWithObject: true });
    const fromPhoto = await sharp(await thumbnailJpeg(photo))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([fromBase.info.width, fromBase.info.height]).toEqual([160, 107]);
    expect([fromBase.info.width, fromBase.info.height]).toEqual([
      fromPhoto.info.width,
      fromPhoto.info.height,
    ]);
    let sum = 0;
    for (let i = 0; i < fromBase.data.length; i++)
      sum += Math.abs(fromBase.data[i]! - fromPhoto.data[i]!);
    expect(sum / fromBase.data.length).toBeLessThan(3);
  });
});

import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DIAGNOSIS_MESSAGES as M } from '@diagrodl/contracts';
import { inspectImage, safeImageName } from './uploads.ts';

describe('safeImageName', () => {
  it('replaces spaces and odd characters with underscores and keeps accents', () => {
    expect(safeImageName('hoja de tomate 1.jpg')).toBe('hoja_de_tomate_1.jpg');
    expect(safeImageName('  Tizón   tardío (2).JPG ')).toBe('Tizón_tardío_(2).JPG');
    expect(safeImageName('a<b>c|d?.png')).toBe('a_b_c_d_.png');
    expect(safeImageName('.oculta.jpg')).toBe('oculta.jpg');
    expect(safeImageName('hoja..1.jpg')).toBe('hoja..1.jpg');
    expect(safeImageName(`${'x'.repeat(200)}.webp`)).toMatch(/^x{115}\.webp$/);
  });

  it('refuses names with a path, control characters or nothing usable', () => {
    for (const bad of [
      '../x.jpg',
      '..\\x.jpg',
      'a/b.jpg',
      '/etc/passwd',
      '..',
      '.',
      '',
      '   ',
      'a\u0000.jpg',
      'a\nb.jpg',
      '___',
    ]) {
      expect(() => safeImageName(bad), JSON.stringify(bad)).toThrow(M.badName);
    }
  });
});

describe('inspectImage', () => {
  it('gives the size of the photo as it is shown: upright, after its EXIF orientation', async () => {
    const photo = (orientation: number) =>
      sharp({ create: { width: 300, height: 200, channels: 3, background: '#3a7d2c' } })
        .jpeg()
        .withMetadata({ orientation })
        .toBuffer();
    expect(await inspectImage(await photo(1))).toMatchObject({ width: 300, height: 200 });
    expect(await inspectImage(await photo(3))).toMatchObject({ width: 300, height: 200 });
    expect(await inspectImage(await photo(6))).toMatchObject({ width: 200, height: 300 });
    expect(await inspectImage(await photo(8))).toMatchObject({ width: 200, height: 300 });
  });
});

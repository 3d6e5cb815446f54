// Cropping a picked photo to the leaf before upload (/upload, "Recortar"): a 1200 × 900 photo with
// the leaf small in one corner on a flat blue background is cut, by a click on the leaf and the
// size slider, to a square of the leaf; the row shows the cropped copy, and that copy is what is
// uploaded.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { Page } from '@playwright/test';
import { expect, expectAccessible, shot, test } from './fixtures.ts';

const LEAF = path.join(import.meta.dirname, 'assets', 'late_blight_leaf.jpg');

/** The leaf at 300 px with its top-left corner at (100, 100) of a flat blue 1200 × 900 JPEG. */
async function leafSmallInFrame(): Promise<Buffer> {
  const leaf = await sharp(fs.readFileSync(LEAF)).resize(300, 300).toBuffer();
  return sharp({ create: { width: 1200, height: 900, channels: 3, background: '#0000ff' } })
    .composite([{ input: leaf, left: 100, top: 100 }])
    .jpeg({ quality: 92 })
    .toBuffer();
}

/** Size and share of clearly blue pixels of the picked photo's thumbnail (the file as it is now). */
async function thumbFacts(page: Page): Promise<{ w: number; h: number; blue: number }> {
  const img = page.getByTestId('selection-list').locator('tbody tr img').first();
  await expect(img).toHaveJSProperty('complete', true);
  return img.evaluate((el: HTMLImageElement) => {
    const c = document.createElement('canvas');
    c.width = el.naturalWidth;
    c.height = el.naturalHeight;
    const ctx = c.getContext('2d')!;
    ctx.drawImage(el, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    let blue = 0;
    for (let i = 0; i < d.length; i += 4)
      if (d[i + 2]! > 200 && d[i]! < 60 && d[i + 1]! < 60) blue++;
    return { w: c.width, h: c.height, blue: blue / (c.width * c.height) };
  });
}

test.describe('cropping a photo to the leaf before upload', () => {
  test('a click on the leaf and the size slider cut the photo to the leaf; the crop is uploaded', async ({
    userPage: page,
  }) => {
    await page.goto('/Custom');
    await page.getByLabel('Modelos').selectOption('tomato_leaf_cnn_mobilenet');
    await page.getByRole('button', { name: 'Enviar configuración' }).click();
    await page.getByRole('link', { name: 'Subir imágenes' }).click();
    await expect(page).toHaveURL(/\/upload$/);

    await page
      .getByLabel(/Elige una o varias fotos/)
      .setInputFiles([
        { name: 'planta.jpg', mimeType: 'image/jpeg', buffer: await leafSmallInFrame() },
      ]);
    const before = await thumbFacts(page);
    expect(before).toMatchObject({ w: 1200, h: 900 });
    expect(before.blue).toBeGreaterThan(0.85);

    // "Cancelar" changes nothing
    await page.getByRole('button', { name: /^Recortar\s*: planta\.jpg$/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Recortar la foto a la hoja' });
    await expect(dialog.getByTestId('crop-box')).toBeVisible();
    // its close button is named in the page's language, not 'Close'
    await expect(dialog.getByRole('button', { name: 'Cerrar' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('cropped-badge')).toHaveCount(0);

    await page.getByRole('button', { name: /^Recortar\s*: planta\.jpg$/ }).click();
    await expect(dialog.getByTestId('crop-box')).toBeVisible();
    // a quarter of the shorter side (225 px), then a click on the leaf's centre (250, 250)
    await dialog.getByLabel('Tamaño del recorte').fill('25');
    const frame = await dialog.getByTestId('crop-frame').boundingBox();
    await page.mouse.click(
      frame!.x + (250 / 1200) * frame!.width,
      frame!.y + (250 / 900) * frame!.height,
    );
    // and one step right with the keyboard, still on the leaf
    await dialog.getByRole('group', { name: 'Recorte' }).press('ArrowRight');
    await expectAccessible(page, 'the crop dialog');
    await shot(page, 'diagnosis-crop-es');
    await dialog.getByRole('button', { name: 'Recortar', exact: true }).click();
    await expect(dialog).toBeHidden();

    await expect(page.getByTestId('cropped-badge')).toHaveText('recortada');
    const after = await thumbFacts(page);
    expect(after).toMatchObject({ w: 225, h: 225 });
    expect(after.blue).toBeLessThan(0.02);
    const row = page.getByTestId('selection-list').locator('tbody tr').first();
    await expect(row).toContainText('image/jpeg');
    const croppedSize = (await row.locator('td').nth(4).textContent())!.trim();

    // the cropped copy is the file uploaded
    await page.getByRole('button', { name: 'Subir imágenes seleccionadas' }).click();
    const uploaded = page.getByTestId('uploaded-list').locator('tbody tr');
    await expect(uploaded).toHaveCount(1);
    await expect(uploaded.first()).toContainText('planta.jpg');
    await expect(uploaded.first()).toContainText(croppedSize);
  });
});

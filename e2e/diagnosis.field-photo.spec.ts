// The shipped model on a field-like photo of a tomato leaf (apps/server/src/testing/fixtures/
// field-like/tizon-campo.jpg) and a lab photo: the results screen and the history show the
// field-photo caution under the field-like diagnosis only. Needs a model with a `lab_like` output,
// as the shipped one has; the test fails otherwise.
import fs from 'node:fs';
import path from 'node:path';
import { FIELD_PHOTO_CAUTION } from '../packages/contracts/src/diagnosis.ts';
import { fieldLikeJpeg } from '../apps/server/src/testing/photos.ts';
import { expect, expectAccessible, identifyOnServer, setLanguage, shot, test } from './fixtures.ts';

const LAB = path.join(import.meta.dirname, 'assets', 'late_blight_leaf.jpg');

test.describe('a diagnosis of a field-like photo carries the field-photo caution', () => {
  test.describe.configure({ timeout: 180_000 });

  test('results screen and history, in Spanish and English', async ({ userPage: page }) => {
    await identifyOnServer(page, [
      { name: 'tizon-campo.jpg', mimeType: 'image/jpeg', buffer: await fieldLikeJpeg() },
      { name: 'tizon-lab.jpg', mimeType: 'image/jpeg', buffer: fs.readFileSync(LAB) },
    ]);

    // /Get_predict: both diagnosed; the caution under the field-like one only
    await page.goto('/Get_predict');
    await page.getByRole('button', { name: 'Mostrar el diagnóstico' }).click();
    const rows = page.getByTestId('diagnosis-row');
    await expect(rows).toHaveCount(2);
    const field = rows.filter({ hasText: 'tizon-campo.jpg' });
    const lab = rows.filter({ hasText: 'tizon-lab.jpg' });
    await expect(field.getByTestId('row-label')).toHaveText('Tizón tardío');
    await expect(field.getByTestId('row-caution')).toHaveText(FIELD_PHOTO_CAUTION.es);
    await expect(field.getByRole('link', { name: 'Qué hacer: Tizón tardío' })).toBeVisible();
    await expect(lab.getByTestId('row-label')).toHaveText('Tizón tardío');
    await expect(lab.getByTestId('row-caution')).toHaveCount(0);
    await expect(page.getByTestId('results-field-photos')).toHaveText(
      '1 diagnóstico lleva el aviso de foto de campo: compárelo con las otras posibilidades.',
    );
    await expectAccessible(page, '/Get_predict (field-like photo)');
    await field.scrollIntoViewIfNeeded();
    await shot(page, 'diagnosis-results-field-photo-es');

    // /Historial
    await page.goto('/Historial');
    await expect(page.getByTestId('history-label')).toHaveCount(2);
    await expect(page.getByTestId('history-caution')).toHaveCount(1);
    await expect(page.getByTestId('history-caution')).toHaveText(FIELD_PHOTO_CAUTION.es);

    // English
    await setLanguage(page, 'en');
    await page.reload();
    await expect(page.getByTestId('history-caution')).toHaveText(FIELD_PHOTO_CAUTION.en);

    // the configuration page says, in English too, how often a field diagnosis is right
    // (the page preselects the server's default model: the MobileNet's panel is chosen here)
    await page.goto('/Custom');
    await page.getByLabel('Models').selectOption('tomato_leaf_cnn_mobilenet');
    const panel = page.getByTestId('model-reliability');
    await expect(
      panel.getByRole('heading', { name: 'How far can MobileNet v1 be trusted?' }),
    ).toBeVisible();
    await expect(panel.getByTestId('field-summary')).toContainText(
      /^On real field photos it gives a diagnosis for \d+\.\d% of them and is right \d+\.\d% of those times\./,
    );
    await expect(panel.getByRole('row', { name: /^Real field photos/ })).toContainText(
      '95% confidence interval',
    );
    await expectAccessible(page, '/Custom in English');
    await shot(page, 'diagnosis-custom-reliability-en');
  });
});

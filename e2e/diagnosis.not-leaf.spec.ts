// The shipped model on a photo that is not a tomato leaf (a cat: apps/server/src/testing/
// fixtures/not-leaf/gato.jpg): the results screen and the history
// say 'No parece una hoja de tomate' with the photo hint. Needs a model whose card has a
// rejection.leaf_threshold (a graph with a `leaf` output), as the shipped one has; the test fails
// otherwise. The server uses MODELS_DIR when set.
import type { LoadedModelDetails } from '../packages/contracts/src/diagnosis.ts';
import { NOT_LEAF, NOT_LEAF_HINT } from '../packages/contracts/src/diagnosis.ts';
import { notLeafJpeg } from '../apps/server/src/testing/photos.ts';
import { expect, expectAccessible, identifyOnServer, shot, test } from './fixtures.ts';

test.describe("a photo that is not a tomato leaf: 'No parece una hoja de tomate'", () => {
  test.describe.configure({ timeout: 180_000 });

  test('the results screen and the history show the not-leaf outcome and its hint', async ({
    userPage: page,
  }) => {
    const models: LoadedModelDetails[] = await (await page.request.get('/diagrodl/models/')).json();
    const mobilenet = models.find((m) => m.id === 'mobilenet');
    expect(
      mobilenet?.leafThreshold,
      "the shipped MobileNet has a learned 'not a tomato leaf' rule (rejection.leaf_threshold)",
    ).toBeDefined();

    // /Custom, /upload (the cat as a JPEG), /Predict_rows
    await identifyOnServer(page, [
      { name: 'gato.jpg', mimeType: 'image/jpeg', buffer: await notLeafJpeg() },
    ]);

    // the API row: reason not_leaf
    const rows = await (await page.request.get('/diagrodl/posts/')).json();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name_img: 'gato.jpg', accepted: false, reason: 'not_leaf' });

    // /Get_predict
    await page.goto('/Get_predict');
    await page.getByRole('button', { name: 'Mostrar el diagnóstico' }).click();
    const row = page.getByTestId('diagnosis-row');
    await expect(row).toHaveCount(1);
    await expect(row).toHaveAttribute('data-reason', 'not_leaf');
    await expect(row.getByTestId('row-label')).toHaveText(NOT_LEAF.es);
    await expect(row.getByTestId('row-hint')).toHaveText(NOT_LEAF_HINT.es);
    await expect(page.getByText('No parece una hoja de tomate').first()).toBeVisible();
    await expect(page.getByText('No reconocido con confianza')).toHaveCount(0);
    await expectAccessible(page, '/Get_predict (not a leaf)');
    await shot(page, 'diagnosis-results-not-leaf-es');

    // /Historial
    await page.goto('/Historial');
    const label = page.getByTestId('history-label');
    await expect(label).toHaveCount(1);
    await expect(label).toContainText(NOT_LEAF.es);
    await expect(label).toContainText(NOT_LEAF_HINT.es);
  });
});

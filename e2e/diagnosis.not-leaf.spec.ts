// The shipped model on a photo that is not a tomato leaf (a cat: apps/server/src/testing/
// fixtures/not-leaf/gato.jpg) and on another crop's leaves (a pepper plant: fixtures/other-crop/
// pimiento.jpg): the results screen and the history
// say 'No parece una hoja de tomate' with its hint, which says that the tool diagnoses tomato
// leaves only (so a leaf of another crop gets it too) and asks for a photo of a tomato leaf, in
// Spanish and English. Needs a model whose card has a rejection.leaf_threshold (a graph with a
// `leaf` output), as the shipped one has; the test fails otherwise. The server uses MODELS_DIR
// when set.
import type { LoadedModelDetails } from '../packages/contracts/src/diagnosis.ts';
import { NOT_LEAF, NOT_LEAF_HINT } from '../packages/contracts/src/diagnosis.ts';
import { notLeafJpeg, otherCropJpeg } from '../apps/server/src/testing/photos.ts';
import { expect, expectAccessible, identifyOnServer, setLanguage, shot, test } from './fixtures.ts';

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

    // /Custom, /upload (the cat and the pepper plant as JPEGs), /Predict_rows
    await identifyOnServer(page, [
      { name: 'gato.jpg', mimeType: 'image/jpeg', buffer: await notLeafJpeg() },
      { name: 'pimiento.jpg', mimeType: 'image/jpeg', buffer: await otherCropJpeg() },
    ]);

    // the API rows: reason not_leaf for both
    const rows: { name_img: string }[] = await (await page.request.get('/diagrodl/posts/')).json();
    expect(rows).toHaveLength(2);
    for (const name of ['gato.jpg', 'pimiento.jpg']) {
      expect(rows.find((r) => r.name_img === name)).toMatchObject({
        accepted: false,
        reason: 'not_leaf',
      });
    }

    // /Get_predict
    await page.goto('/Get_predict');
    await page.getByRole('button', { name: 'Mostrar el diagnóstico' }).click();
    const rowsShown = page.getByTestId('diagnosis-row');
    await expect(rowsShown).toHaveCount(2);
    await expect(rowsShown.nth(1)).toHaveAttribute('data-reason', 'not_leaf');
    const row = rowsShown.first();
    await expect(row).toHaveAttribute('data-reason', 'not_leaf');
    await expect(row.getByTestId('row-label')).toHaveText(NOT_LEAF.es);
    await expect(row.getByTestId('row-hint')).toHaveText(NOT_LEAF_HINT.es);
    await expect(row.getByTestId('row-hint')).toContainText(
      'Esta herramienta solo diagnostica hojas de tomate',
    );
    await expect(page.getByText('No parece una hoja de tomate').first()).toBeVisible();
    await expect(page.getByText('No reconocido con confianza')).toHaveCount(0);
    await expectAccessible(page, '/Get_predict (not a leaf)');
    await shot(page, 'diagnosis-results-not-leaf-es');

    // /Historial
    await page.goto('/Historial');
    const labels = page.getByTestId('history-label');
    await expect(labels).toHaveCount(2);
    for (const label of await labels.all()) {
      await expect(label).toContainText(NOT_LEAF.es);
      await expect(label).toContainText(NOT_LEAF_HINT.es);
    }

    // English: the results screen says the same
    await setLanguage(page, 'en');
    await page.goto('/Get_predict');
    await page.getByRole('button', { name: 'Show the diagnosis' }).click();
    await expect(row.getByTestId('row-label')).toHaveText(NOT_LEAF.en);
    await expect(row.getByTestId('row-hint')).toHaveText(NOT_LEAF_HINT.en);
    await expect(row.getByTestId('row-hint')).toContainText(
      'This tool diagnoses tomato leaves only',
    );
  });
});

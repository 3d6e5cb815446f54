import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type ReliabilityRow, fieldRowOf } from '../packages/contracts/src/reliability.ts';
import {
  expect,
  expectAccessible,
  loginViaApi,
  createUser,
  pct1,
  shot,
  test,
  uniqueUserName,
} from './fixtures.ts';

const assets = path.join(import.meta.dirname, 'assets');
const LEAVES = ['late_blight_leaf.jpg', 'hoja sana.jpg', 'early_blight_leaf.jpg'].map((f) =>
  path.join(assets, f),
);

test.describe('diagnosis flow', () => {
  test.describe.configure({ timeout: 180_000 });

  test('configure, upload, identify with progress, report, results, start anew', async ({
    userPage: page,
  }) => {
    // /DiAgroDL: the tool's home
    await page.goto('/DiAgroDL');
    // how to photograph a leaf: the same tips as on the upload page
    await expect(
      page.getByRole('complementary', { name: 'Cómo tomar la foto' }).getByRole('listitem'),
    ).toHaveCount(4);
    // the disease pages and the tool's own page are one click away
    await expect(page.getByRole('link', { name: 'Las enfermedades que reconoce' })).toHaveAttribute(
      'href',
      '/Tomato_crops',
    );
    await expect(
      page.getByRole('link', { name: 'Cómo funciona y qué tan confiable es' }),
    ).toHaveAttribute('href', '/About_DiAgroDL');
    await shot(page, 'diagnosis-home-es');
    await page.getByRole('link', { name: 'Iniciar diagnóstico' }).click();

    // /Custom
    await expect(page).toHaveURL(/\/Custom$/);
    await expect(
      page.getByRole('heading', { name: 'Selección del modelo y parámetros aplicables' }),
    ).toBeVisible();
    await expect(page.getByLabel('Cultivo').locator('option[value="fresa"]')).toBeDisabled();
    await expect(page.getByLabel('Cultivo').locator('option[value="maiz"]')).toBeDisabled();
    for (const v of ['fruta', 'raiz', 'tallo', 'flor']) {
      await expect(
        page.getByLabel('Nivel de identificación').locator(`option[value="${v}"]`),
      ).toBeDisabled();
    }
    await expect(page.getByLabel('Tipo de modelo').locator('option[value="ML"]')).toBeDisabled();
    const models = page.getByLabel('Modelos');
    await expect(models.locator('option', { hasText: 'VGG16 v1' })).toHaveCount(1);
    await expect(models.locator('option', { hasText: 'ResNet50 v1' })).toHaveCount(1);
    await expect(models.locator('option', { hasText: 'MobileNet v1' })).toHaveCount(1);
    // each loaded model, the ensemble too (its own card), shows the test accuracy the server reports
    const loaded = (await (await page.request.get('/diagrodl/models/')).json()) as {
      modeloVersion: string;
      testAccuracy: number | null;
      fieldAccuracy: number | null;
      reliability: ReliabilityRow[];
    }[];
    for (const m of loaded.filter((x) => x.testAccuracy !== null)) {
      const pct = new Intl.NumberFormat('es-MX', {
        style: 'percent',
        maximumFractionDigits: 1,
      }).format(m.testAccuracy as number);
      await expect(models.locator(`option[value="${m.modeloVersion}"]`)).toContainText(
        `exactitud en prueba ${pct}`,
      );
    }
    // and the accuracy on real field photos where the card measured it (the shipped MobileNet does)
    const pct = (x: number) =>
      new Intl.NumberFormat('es-MX', { style: 'percent', maximumFractionDigits: 1 }).format(x);
    const field = loaded.filter((x) => x.fieldAccuracy !== null);
    expect(field.map((m) => m.modeloVersion)).toContain('tomato_leaf_cnn_mobilenet');
    for (const m of field) {
      await expect(models.locator(`option[value="${m.modeloVersion}"]`)).toContainText(
        `en fotos de campo ${pct(m.fieldAccuracy as number)}`,
      );
    }
    await shot(page, 'diagnosis-custom-es');
    await models.selectOption('tomato_leaf_cnn_mobilenet');
    // under the selector, how far the chosen model can be trusted, set by set, from its card
    const panel = page.getByTestId('model-reliability');
    await expect(
      panel.getByRole('heading', { name: '¿Qué tan confiable es MobileNet v1?' }),
    ).toBeVisible();
    const mobilenet = loaded.find((m) => m.modeloVersion === 'tomato_leaf_cnn_mobilenet')!;
    // the summary reads the set that stands for "on field photos" (the held-out ones when measured)
    const onField = fieldRowOf(mobilenet.reliability)!;
    await expect(panel.getByTestId('field-summary')).toContainText(
      `En fotos reales de campo da un diagnóstico en el ${pct1(onField.acceptedShare!)} de los casos y acierta en el ${pct1(onField.accuracyAccepted!)} de esas veces.`,
    );
    const firstSource = mobilenet.reliability.find((r) => r.set === 'field_val')!;
    await expect(panel.getByRole('row', { name: /^Reales de campo/ })).toContainText(
      pct1(firstSource.top1!),
    );
    await expect(panel.getByRole('row', { name: /^Cotidianas que no son hojas/ })).toContainText(
      'rechaza el',
    );
    await shot(page, 'diagnosis-custom-reliability-es');
    const uploadButton = page.getByRole('button', { name: 'Subir imágenes' });
    await expect(uploadButton).toBeDisabled();
    await expectAccessible(page, '/Custom');
    await page.getByRole('button', { name: 'Enviar configuración' }).click();
    await page.getByRole('link', { name: 'Subir imágenes' }).click();

    // /upload
    await expect(page).toHaveURL(/\/upload$/);
    // how to photograph a leaf, before the file picker
    const tips = page.getByRole('complementary', { name: 'Cómo tomar la foto' });
    await expect(tips.getByRole('listitem')).toHaveCount(4);
    await expect(tips.getByRole('listitem').first()).toHaveText(
      'Acércate. Que la hoja ocupe casi toda la foto: con la hoja pequeña el modelo ve poco de los síntomas. Si salió pequeña, usa «Recortar» al subirla.',
    );
    const identify = page.getByRole('button', { name: 'Identificar y diagnosticar imágenes' });
    await expect(identify).toBeDisabled();
    await page.getByRole('button', { name: 'Subir imágenes seleccionadas' }).click();
    await expect(page.getByTestId('upload-alert')).toHaveText('Por favor selecciona una imagen');

    await page.getByLabel(/Elige una o varias fotos/).setInputFiles(LEAVES);
    const selection = page.getByTestId('selection-list');
    await expect(selection.locator('tbody tr')).toHaveCount(3);
    await expect(selection).toContainText('hoja sana.jpg');
    await expect(selection).toContainText('image/jpeg');
    await expect(selection).toContainText(/\d+\.\d{2} KB/);
    await expect(selection.locator('img').first()).toHaveAttribute(
      'src',
      /^data:image\/jpeg;base64,/,
    );
    await shot(page, 'diagnosis-upload-selection-es');
    await page.getByRole('button', { name: 'Subir imágenes seleccionadas' }).click();
    await expect(page.getByTestId('selection-list')).toHaveCount(0);
    const uploaded = page.getByTestId('uploaded-list');
    await expect(uploaded.locator('tbody tr')).toHaveCount(3);
    await expect(uploaded).toContainText('hoja_sana.jpg');

    // remove one uploaded image after the confirmation
    await uploaded.getByRole('button', { name: /Eliminar\s?: early_blight_leaf\.jpg/ }).click();
    await expect(page.getByRole('dialog')).toContainText('¿Estás seguro de eliminar esta imagen?');
    await page.getByRole('dialog').getByRole('button', { name: 'Eliminar', exact: true }).click();
    await expect(uploaded.locator('tbody tr')).toHaveCount(2);
    // the dialog has faded out (axe would read its half-transparent colours)
    await expect(page.locator('.modal')).toHaveCount(0);
    await expectAccessible(page, '/upload');
    await shot(page, 'diagnosis-upload-es');
    await page.getByRole('link', { name: 'Identificar y diagnosticar imágenes' }).click();

    // /Predict_rows
    await expect(page).toHaveURL(/\/Predict_rows$/);
    await expect(page.getByRole('button', { name: 'Visualizar diagnóstico' })).toBeDisabled();
    await page.getByRole('button', { name: 'Iniciar identificación' }).click();
    await expect(page.getByTestId('predict-progress')).toBeVisible();
    await expect(page.getByTestId('predict-status')).toHaveText(
      'Identificación terminada: 2 imágenes.',
      { timeout: 90_000 },
    );
    await shot(page, 'diagnosis-predict-es');
    await page.getByRole('link', { name: 'Visualizar diagnóstico' }).click();

    // /Create_report
    await expect(page).toHaveURL(/\/Create_report$/);
    const request = page.getByRole('button', { name: 'Solicitar reporte del diagnóstico (PDF)' });
    await request.click();
    await expect(request).toBeDisabled();
    const link = page.getByRole('link', { name: 'Descargar el reporte (PDF)' });
    const href = await link.getAttribute('href');
    expect(href).toMatch(/^\/media\/reports\/[A-Za-z0-9_-]{20,}\.pdf$/);
    // saved under a name that says what it is
    await expect(link).toHaveAttribute('download', /^diagrodl-diagnostico-\d{4}-\d{2}-\d{2}\.pdf$/);
    const pdf = await page.request.get(href!);
    expect(pdf.status()).toBe(200);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'report-'));
    fs.writeFileSync(path.join(dir, 'r.pdf'), await pdf.body());
    execFileSync('pdftoppm', ['-r', '40', '-png', path.join(dir, 'r.pdf'), path.join(dir, 'page')]);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.png')).length).toBeGreaterThanOrEqual(2);
    // its cover: how many photos, each one's answer, and the model's field figures beside the lab
    // one, as its card holds them
    const cover = execFileSync('pdftotext', ['-layout', '-l', '1', path.join(dir, 'r.pdf'), '-'])
      .toString()
      .replace(/\s+/g, ' ');
    expect(cover).toContain('Imágenes analizadas: 2');
    expect(cover).toMatch(/[12]\. late_blight_leaf\.jpg Tizón tardío — \d{1,3}\.\d% de confianza/);
    expect(cover).toMatch(/[12]\. hoja_sana\.jpg /);
    expect(cover).toContain(`acierta en el ${pct1(mobilenet.testAccuracy!)}`);
    expect(cover).toContain(
      `da un diagnóstico en el ${pct1(onField.acceptedShare!)} de los casos y acierta en el ${pct1(onField.accuracyAccepted!)} de esas veces`,
    );
    await page.getByRole('link', { name: 'Visualizar resultados del diagnóstico' }).click();

    // /Get_predict
    await expect(page).toHaveURL(/\/Get_predict$/);
    await expect(page.getByRole('button', { name: 'Cerrar sesión' }).last()).toBeDisabled();
    await page.getByRole('button', { name: 'Mostrar el diagnóstico' }).click();
    const rows = page.getByTestId('diagnosis-row');
    await expect(rows).toHaveCount(2);
    for (const row of await rows.all()) {
      // a percentage, as a person reads it (the API keeps the 0-1 number)
      await expect(row.getByTestId('row-probability')).toHaveText(/^\d{1,3}\.\d%$/);
      await expect(row.getByTestId('row-top3').locator('li')).toHaveCount(3);
      const heat = row.getByTestId('heatmap');
      await expect
        .poll(() => heat.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
        .toBeGreaterThan(0);
    }
    await expectAccessible(page, '/Get_predict');
    await shot(page, 'diagnosis-results-es');

    // start anew: rows deleted, back to /Custom
    await page.getByRole('button', { name: 'Iniciar nueva identificación' }).click();
    await expect(page).toHaveURL(/\/Custom$/);
    // the model chosen above stays chosen (the server's default is the ensemble)
    await expect(page.getByLabel('Modelos')).toHaveValue('tomato_leaf_cnn_mobilenet');
    // and stays accepted: 'Subir imágenes' at once, no second 'Enviar configuración'
    await expect(page.getByRole('link', { name: 'Subir imágenes' })).toHaveAttribute(
      'href',
      '/upload',
    );
    await expect(page.getByTestId('custom-kept')).toBeVisible();
    const after = await page.request.get('/diagrodl/posts/');
    expect(await after.json()).toEqual([]);

    // the history keeps the past diagnoses
    await page.goto('/Historial');
    const historyRows = page.getByTestId('history-item');
    await expect(historyRows).toHaveCount(2);
    // on a phone each diagnosis is a card that fits: nothing scrolls sideways
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(historyRows.first().getByRole('button', { name: /^Olvidar/ })).toBeInViewport();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    await expectAccessible(page, '/Historial 390');
    await page.setViewportSize({ width: 1280, height: 720 });
    // forgetting asks first: cancelled, nothing goes; one forgotten; then all
    const dialog = page.getByRole('dialog', { name: 'Olvidar diagnósticos' });
    await historyRows
      .first()
      .getByRole('button', { name: /^Olvidar/ })
      .click();
    await expect(dialog.getByTestId('forget-question')).toHaveText(
      '¿Olvidar este diagnóstico? Se borra de tu historial con su miniatura y no se puede deshacer.',
    );
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await expect(dialog).toBeHidden();
    await expect(historyRows).toHaveCount(2);
    await historyRows
      .first()
      .getByRole('button', { name: /^Olvidar/ })
      .click();
    await dialog.getByRole('button', { name: 'Olvidar', exact: true }).click();
    await expect(historyRows).toHaveCount(1);
    await page.getByRole('button', { name: 'Olvidar todo' }).click();
    await expect(dialog.getByTestId('forget-question')).toContainText(
      '¿Olvidar todos tus diagnósticos?',
    );
    await dialog.getByRole('button', { name: 'Olvidar todo' }).click();
    await expect(page.getByText('Aún no tienes diagnósticos guardados.')).toBeVisible();
    expect(await (await page.request.get('/diagrodl/history/')).json()).toEqual([]);
  });

  test("a user never sees another user's images or rows", async ({ browser }) => {
    const a = await browser.newContext();
    const b = await browser.newContext();
    const [ua, ub] = [uniqueUserName('iso'), uniqueUserName('iso')];
    createUser(ua, 'Clave-Segura-2026');
    createUser(ub, 'Clave-Segura-2026');
    await loginViaApi(a.request, ua, 'Clave-Segura-2026');
    await loginViaApi(b.request, ub, 'Clave-Segura-2026');
    const pa = await a.newPage();
    await pa.goto('/upload');
    await pa.getByLabel(/Elige una o varias fotos/).setInputFiles(LEAVES[0]!);
    await pa.getByRole('button', { name: 'Subir imágenes seleccionadas' }).click();
    await expect(pa.getByTestId('uploaded-list').locator('tbody tr')).toHaveCount(1);
    const src = await pa.getByTestId('uploaded-list').locator('img').first().getAttribute('src');
    expect((await a.request.get(src!)).status()).toBe(200);
    expect((await b.request.get(src!)).status()).toBeGreaterThanOrEqual(403);
    expect(await (await b.request.get('/diagrodl/pending/')).json()).toEqual([]);
    await a.close();
    await b.close();
  });

  test('a visitor is sent to log in, and the API answers 401', async ({ page }) => {
    await page.goto('/upload');
    await expect(page).toHaveURL(/\/Login_session\?next=%2Fupload$/);
    expect((await page.request.get('/diagrodl/posts/')).status()).toBe(401);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { type ReliabilityRow, fieldRowOf } from '../packages/contracts/src/reliability.ts';
import { TREATMENT_SECTION } from '../packages/contracts/src/classes.ts';
import { ROUTES } from '../packages/contracts/src/routes.ts';
import { expect, expectAccessible, pct1, setLanguage, shot, test } from './fixtures.ts';

const root = path.resolve(import.meta.dirname, '..');
const contentDir = path.join(root, 'apps/web/src/features/diseases/content');

interface Content {
  name: string;
  images: { file: string; alt: string }[];
}
function content(file: string, lang: 'es' | 'en'): Content {
  return JSON.parse(fs.readFileSync(path.join(contentDir, `${file}.${lang}.json`), 'utf8'));
}

/** The nine pages in the specification's selector order, with their image folders. */
const DISEASES = [
  { route: '/Bacterial_spot', slug: 'bacterial_spot', folder: 'BacterialSpot' },
  { route: '/Early_blight', slug: 'early_blight', folder: 'EarlyBlight' },
  { route: '/Late_blight', slug: 'late_blight', folder: 'LateBlight' },
  { route: '/Leaf_mold', slug: 'leaf_mold', folder: 'LeafMold' },
  { route: '/Septoria_leaf_spot', slug: 'septoria_leaf_spot', folder: 'SeptoriaLeafSpot' },
  { route: '/Spider_mites', slug: 'spider_mites', folder: 'SpiderMites' },
  { route: '/Target_spot', slug: 'target_spot', folder: 'TargetSpot' },
  { route: '/Mosaic_virus', slug: 'mosaic_virus', folder: 'MosaicVirus' },
  { route: '/Tylcv', slug: 'tylcv', folder: 'Tylcv' },
] as const;

const FULL_ES = [
  'Nombre científico',
  'Nombre común',
  'Importancia económica',
  'Biología y hábitos',
  'Daño',
  'Síntomas específicos',
  'Condiciones ambientales favorables',
  'Métodos de diagnóstico',
  'Estrategias de prevención',
  'Herramientas tecnológicas',
  'Ejemplo de imágenes',
  'Herramienta IA',
  'Referencias',
];
const FULL_EN = [
  'Scientific name',
  'Common name',
  'Economic importance',
  'Biology and habits',
  'Damage',
  'Specific symptoms',
  'Favourable environmental conditions',
  'Diagnostic methods',
  'Prevention strategies',
  'Technological tools',
  'Example images',
  'AI tool',
  'References',
];
const REDUCED_ES = [
  'Nombre científico',
  'Nombre común',
  'Importancia económica',
  'Biología y hábitos',
  'Daño',
  'Ejemplo de imágenes',
  'Herramienta IA',
  'Referencias',
];
const TRAINED_HEADING =
  'DiAgroDL actualmente ha sido entrenado para poder identificar y diagnosticar las siguientes enfermedades:';

const ALL_PAGES = [...DISEASES.map((d) => d.route), ROUTES.tomatoCrops, ROUTES.aboutTool];

async function sectionHeadings(page: Page): Promise<string[]> {
  return page.locator('article.disease-article h2').allTextContents();
}

async function openDisease(page: Page, route: string): Promise<void> {
  await page.goto(route);
  await expect(page.locator('article.disease-article h1')).toBeVisible();
}

/**
 * Record the duration of every carousel slide animation as it starts. Reading getAnimations()
 * after a slide change misses the 1 s transition when a loaded machine takes longer than that to
 * get there, and would let a "no animation" check pass for the wrong reason.
 */
async function recordSlideAnimations(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { slideDurations: unknown[] };
    w.slideDurations = [];
    const animate = Element.prototype.animate;
    Element.prototype.animate = function (this: Element, keyframes, options) {
      if (this.classList.contains('dg-carousel-slide'))
        w.slideDurations.push(typeof options === 'number' ? options : options?.duration);
      return animate.call(this, keyframes, options);
    };
  });
}

async function slideAnimationDurations(page: Page): Promise<unknown[]> {
  return page.evaluate(() => (window as unknown as { slideDurations: unknown[] }).slideDurations);
}

test.describe('disease pages', () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 1400, height: 900 });
  });

  test('every page has the heading, the selector and its sections in the specified order', async ({
    page,
  }) => {
    for (const d of DISEASES) {
      await openDisease(page, d.route);
      const es = content(d.slug, 'es');
      await expect(page.locator('article h1')).toHaveText(es.name.replace(/\*/g, ''));
      await expect(page.getByRole('heading', { name: TRAINED_HEADING, exact: true })).toBeVisible();
      const selector = page.getByTestId('disease-selector');
      expect(
        await selector.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href'))),
      ).toEqual(DISEASES.map((x) => x.route));
      const healthy = selector.getByTestId('healthy-disabled');
      await expect(healthy).toHaveText(/Tomato healthy/);
      await expect(healthy).toHaveAttribute('aria-disabled', 'true');
      await expect(healthy).not.toHaveAttribute('href');
      expect(await sectionHeadings(page), d.route).toEqual(
        d.slug === 'spider_mites' ? REDUCED_ES : FULL_ES,
      );
      // Ten example images from the product's own host, size set, Spanish alt text from the content.
      const imgs = page.locator('#images').locator('xpath=..').locator('img');
      await expect(imgs).toHaveCount(10);
      for (let i = 0; i < 10; i += 1) {
        const img = imgs.nth(i);
        await expect(img).toHaveAttribute('src', `/Disease/${d.folder}/IMG${i + 1}.jpg`);
        await expect(img).toHaveAttribute('alt', es.images[i]!.alt);
        await expect(img).toHaveAttribute('width', '256');
        await expect(img).toHaveAttribute('height', '256');
        if (i > 0) await expect(img).toHaveAttribute('loading', 'lazy');
      }
      const credit = page.getByTestId('image-credit');
      await expect(credit).toContainText('PlantVillage');
      await expect(credit.getByRole('link', { name: 'CC BY-SA 3.0' })).toHaveAttribute(
        'href',
        'https://creativecommons.org/licenses/by-sa/3.0/',
      );
      // Herramienta IA: intro, the clickable icon to /Custom and the instruction.
      const tool = page.locator('section', { has: page.locator('#ai-tool') });
      expect((await tool.locator('p').first().textContent())?.length).toBeGreaterThan(40);
      await expect(page.getByTestId('tool-icon')).toHaveAttribute('href', '/Custom');
      await expect(page.getByTestId('tool-icon').locator('svg')).toBeVisible();
      await expect(tool).toContainText('Haga clic en el icono para iniciar');
      // References with DOI/URL links; plain text where the work has neither.
      expect(await page.locator('ol.references > li').count()).toBeGreaterThan(2);
      expect(await page.locator('ol.references a').count()).toBeGreaterThan(0);
    }
  });

  test('the selector and the side navigation reach every disease', async ({ page }) => {
    await openDisease(page, '/Bacterial_spot');
    for (const d of DISEASES) {
      await page.getByTestId('disease-selector').locator(`a[href="${d.route}"]`).click();
      await expect(page).toHaveURL(new RegExp(`${d.route}$`));
      await expect(page.locator('article h1')).toHaveText(content(d.slug, 'es').name);
      await expect(
        page.getByTestId('disease-selector').locator(`a[href="${d.route}"]`),
      ).toHaveAttribute('aria-current', 'page');
    }
    const side = page.getByRole('navigation', { name: 'Páginas de enfermedades y plagas' });
    for (const d of [...DISEASES].reverse()) {
      await side.locator(`a[href="${d.route}"]`).click();
      await expect(page).toHaveURL(new RegExp(`${d.route}$`));
      await expect(page.locator('article h1')).toHaveText(content(d.slug, 'es').name);
      await expect(side.locator(`a[href="${d.route}"]`)).toHaveAttribute('aria-current', 'page');
    }
    await side.getByRole('link', { name: 'El cultivo de tomate' }).click();
    await expect(page).toHaveURL(/\/Tomato_crops$/);
    await side.getByRole('link', { name: 'Acerca de DiAgroDL' }).click();
    await expect(page).toHaveURL(/\/About_DiAgroDL$/);
  });

  test('the spider mite carousel wraps both ways, has dots and keyboard arrows', async ({
    page,
  }) => {
    await openDisease(page, '/Spider_mites');
    const carousel = page.getByTestId('carousel');
    await expect(carousel).toHaveAttribute('aria-roledescription', 'carrusel');
    await expect(carousel).toHaveAttribute('aria-label', /^Ejemplo de imágenes/);
    await carousel.scrollIntoViewIfNeeded();
    await carousel.hover(); // pauses the autoplay
    const current = carousel.locator('.dg-carousel-slide.is-current');
    await expect(current).toHaveAttribute('aria-label', '1 de 10');
    await recordSlideAnimations(page);
    await carousel.getByRole('button', { name: 'Imagen anterior' }).click();
    await expect(current).toHaveAttribute('aria-label', '10 de 10');
    const durations = await slideAnimationDurations(page);
    expect(durations).toContain(1000);
    expect(durations.every((d) => d === 1000)).toBe(true);
    await carousel.getByRole('button', { name: 'Imagen siguiente' }).click();
    await expect(current).toHaveAttribute('aria-label', '1 de 10');
    await carousel.getByRole('button', { name: 'Imagen siguiente' }).click();
    await expect(current).toHaveAttribute('aria-label', '2 de 10');
    const dots = carousel.getByRole('group', { name: 'Elegir una imagen' }).getByRole('button');
    await expect(dots).toHaveCount(10);
    await dots.nth(6).click();
    await expect(current).toHaveAttribute('aria-label', '7 de 10');
    await expect(dots.nth(6)).toHaveAttribute('aria-current', 'true');
    await page.keyboard.press('ArrowRight');
    await expect(current).toHaveAttribute('aria-label', '8 de 10');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await expect(current).toHaveAttribute('aria-label', '6 de 10');
    await expect(current.locator('img')).toHaveAttribute('src', '/Disease/SpiderMites/IMG6.jpg');
    await expect(current.locator('img')).toBeVisible();
    await shot(page, 'diseases-spider-mites-carousel-es');
  });

  test('the carousel autoplays, pauses on hover, and keeps still with reduced motion', async ({
    page,
  }) => {
    await openDisease(page, '/Spider_mites');
    const carousel = page.getByTestId('carousel');
    await page.mouse.move(0, 0);
    await expect(carousel).toHaveAttribute('data-rotating', 'true');
    await carousel.hover();
    await expect(carousel).toHaveAttribute('data-rotating', 'false');
    await expect(
      carousel.getByRole('button', { name: 'Detener el avance automático' }),
    ).toBeVisible();

    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.reload();
    await page.mouse.move(0, 0);
    const still = page.getByTestId('carousel');
    await expect(still).toHaveAttribute('data-rotating', 'false');
    await expect(still.getByRole('button', { name: 'Detener el avance automático' })).toHaveCount(
      0,
    );
    await recordSlideAnimations(page);
    await still.getByRole('button', { name: 'Imagen siguiente' }).click();
    await expect(still.locator('.dg-carousel-slide.is-current')).toHaveAttribute(
      'aria-label',
      '2 de 10',
    );
    expect(await slideAnimationDurations(page)).toEqual([]);
  });

  test('the table of contents lists the sections and highlights the one in view', async ({
    page,
  }) => {
    await openDisease(page, '/Late_blight');
    const toc = page.getByRole('navigation', { name: 'Contenido de esta página' });
    expect(await toc.getByRole('link').allTextContents()).toEqual(FULL_ES);
    await expect(toc.getByRole('link', { name: 'Nombre científico' })).toHaveAttribute(
      'aria-current',
      'location',
    );
    for (const [id, name] of [
      ['damage', 'Daño'],
      ['diagnosis', 'Métodos de diagnóstico'],
      ['economic-importance', 'Importancia económica'],
    ] as const) {
      await page.evaluate((hid) => {
        const h = document.getElementById(hid)!;
        window.scrollTo({
          top: h.getBoundingClientRect().top + window.scrollY - 40,
          behavior: 'instant',
        });
      }, id);
      await expect(toc.getByRole('link', { name, exact: true })).toHaveAttribute(
        'aria-current',
        'location',
      );
      await expect(toc.locator('[aria-current]')).toHaveCount(1);
    }
    // Scrolling into the middle of a long section (its heading above the viewport, the next
    // heading still low on the screen) keeps that section highlighted.
    const long = await page.evaluate(() => {
      const hs = Array.from(document.querySelectorAll<HTMLElement>('article h2'));
      const y = (el: HTMLElement) => el.getBoundingClientRect().top + window.scrollY;
      for (let i = 0; i < hs.length - 1; i += 1) {
        if (y(hs[i + 1]!) - y(hs[i]!) > window.innerHeight * 0.7) {
          window.scrollTo({ top: y(hs[i]!) + 60, behavior: 'instant' });
          return hs[i]!.textContent;
        }
      }
      return null;
    });
    expect(long).not.toBeNull();
    await expect(toc.getByRole('link', { name: long!, exact: true })).toHaveAttribute(
      'aria-current',
      'location',
    );
    // Following a link scrolls smoothly to the heading.
    await toc.getByRole('link', { name: 'Estrategias de prevención' }).click();
    await expect(page).toHaveURL(/#prevention$/);
    await expect(page.locator('#prevention')).toBeInViewport();
    await expect(page.locator('#prevention')).toBeFocused();
    await expect(toc.getByRole('link', { name: 'Estrategias de prevención' })).toHaveAttribute(
      'aria-current',
      'location',
    );
  });

  test("'Qué hacer' lands on the treatment, on a phone too", async ({ userPage: page }) => {
    // the diagnosis links here (whatToDoHref): the section on what to do is at the top of the view
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/Late_blight#${TREATMENT_SECTION}`);
    const heading = page.getByRole('heading', { level: 2, name: 'Estrategias de prevención' });
    await expect(heading).toBeInViewport();
    const top = await heading.evaluate((el) => el.getBoundingClientRect().top);
    expect(top).toBeLessThan(200);
    // the signed-in shell stays around the page
    await expect(page.locator('[data-shell="disease"]')).toHaveClass(/shell-auth/);
  });

  test('the tool icon leads to /Custom (a visitor is asked to log in first)', async ({ page }) => {
    await openDisease(page, '/Target_spot');
    await page.getByTestId('tool-icon').click();
    await expect(page).toHaveURL(/\/Login_session\?next=%2FCustom$/);
  });

  test('the tool icon opens /Custom for a logged-in user', async ({ userPage }) => {
    await userPage.goto('/Leaf_mold');
    await userPage.getByTestId('tool-icon').click();
    await expect(userPage).toHaveURL(/\/Custom$/);
  });

  test('the English toggle shows the English content', async ({ page }) => {
    await openDisease(page, '/Target_spot');
    await page.getByTestId('language-toggle').click();
    await expect(page.locator('article h1')).toHaveText(content('target_spot', 'en').name);
    expect(await sectionHeadings(page)).toEqual(FULL_EN);
    await expect(
      page.getByRole('heading', {
        name: 'DiAgroDL has currently been trained to identify and diagnose the following diseases:',
      }),
    ).toBeVisible();
    await expect(
      page.locator('#images').locator('xpath=..').locator('img').first(),
    ).toHaveAttribute('alt', content('target_spot', 'en').images[0]!.alt);
    await expect(page.getByTestId('healthy-disabled')).toHaveText('Tomato healthy');
    await expect(page.getByTestId('tool-icon')).toContainText('Start DiAgroDL');
    // The choice persists on the next page.
    await page.getByTestId('disease-selector').locator('a[href="/Spider_mites"]').click();
    await expect(page.locator('article h1')).toHaveText(content('spider_mites', 'en').name);
    await expect(page.getByTestId('carousel')).toHaveAttribute('aria-roledescription', 'carousel');
    await page.getByTestId('language-toggle').click();
    await expect(page.locator('article h1')).toHaveText(content('spider_mites', 'es').name);
  });

  test('the tomato crop page lists the 10 trained classes, each linking to its page', async ({
    page,
  }) => {
    await page.goto(ROUTES.tomatoCrops);
    const list = page.getByTestId('class-list');
    await expect(list.locator('li')).toHaveCount(10);
    const hrefs = await list
      .locator('a')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs.slice(0, 9).sort()).toEqual(DISEASES.map((d) => d.route).sort());
    expect(hrefs[9]).toMatch(/^#/);
    await expect(list.locator('li').last()).toHaveText('Sana (hoja sin enfermedad)');
    const note = page.getByTestId('coverage-note');
    // what the tool covers, with no internal note about earlier texts
    await expect(note).not.toContainText('textos anteriores');
    await expect(note).toContainText('10 clases');
    await expect(note).toContainText('cenicilla');
    await list.getByRole('link', { name: 'Mancha objetivo' }).click();
    await expect(page).toHaveURL(/\/Target_spot$/);
    await page.goto(ROUTES.tomatoCrops);
    await expect(page.locator('#images').locator('xpath=..').locator('img')).toHaveCount(8);
  });

  test('the tool description page: diseases, three architectures, accuracy from the server', async ({
    page,
  }) => {
    await page.goto(ROUTES.aboutTool);
    await expect(page.locator('article h1')).toHaveText('Acerca de DiAgroDL');
    await expect(page.getByRole('heading', { name: TRAINED_HEADING })).toBeVisible();
    for (const id of ['vgg16', 'resnet50', 'mobilenet']) {
      const card = page.getByTestId(`arch-${id}`);
      await expect(card.getByRole('heading', { name: 'Para productores' })).toBeVisible();
      await expect(card.getByRole('heading', { name: 'Para investigadores' })).toBeVisible();
    }
    await expect(page.getByTestId('tool-icon')).toHaveAttribute('href', '/Custom');
    const health = (await (await page.request.get('/api/health')).json()) as {
      models: { id: string; accuracy: number | null }[];
    };
    if (health.models.length === 0) {
      await expect(page.getByTestId('no-models')).toHaveText('Aún no hay modelos cargados');
    } else {
      const list = page.getByTestId('model-accuracy');
      await expect(list.locator('li')).toHaveCount(health.models.length);
      for (const m of health.models) {
        if (m.accuracy === null) continue;
        await expect(list).toContainText(pct1(m.accuracy));
      }
      // and, where the card measured them, the figures on real field photos
      const models = (await (await page.request.get('/diagrodl/models/')).json()) as {
        id: string;
        reliability: ReliabilityRow[];
      }[];
      // the set the configuration page's summary reads too (the held-out ones when measured)
      const onField = models
        .map((m) => fieldRowOf(m.reliability))
        .filter((r) => r?.acceptedShare && r.accuracyAccepted !== undefined);
      expect(onField.length).toBeGreaterThan(0);
      await expect(list.getByTestId('model-field')).toHaveCount(onField.length);
      for (const r of onField)
        await expect(list).toContainText(
          `en fotos reales de campo da un diagnóstico en el ${pct1(r!.acceptedShare!)} de los casos y acierta en el ${pct1(r!.accuracyAccepted!)} de esas veces`,
        );
    }
  });

  test('the accuracy list shows what /api/health reports (never a typed number)', async ({
    page,
  }) => {
    await page.route('**/api/health', (route) =>
      route.fulfill({
        json: {
          status: 'OK',
          database: { ok: true, kind: 'sqlite' },
          maintenance: false,
          models: [
            { id: 'mobilenet', accuracy: 0.9234 },
            { id: 'vgg16', accuracy: null },
          ],
          uptimeSeconds: 1,
        },
      }),
    );
    await page.goto(ROUTES.aboutTool);
    const list = page.getByTestId('model-accuracy');
    await expect(list).toContainText('MobileNet: 92.3');
    await expect(list).toContainText('VGG16: exactitud aún no medida');
  });

  test('the print stylesheet keeps the text and one image per section', async ({ page }) => {
    await openDisease(page, '/Early_blight');
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByTestId('disease-selector')).toBeHidden();
    await expect(page.getByTestId('disease-sidenav')).toBeHidden();
    await expect(page.getByTestId('toc')).toBeHidden();
    await expect(page.locator('.disease-topnav')).toBeHidden();
    const gallery = page.getByTestId('gallery');
    await expect(gallery.locator('img:visible')).toHaveCount(1);
    await expect(page.locator('#references')).toBeVisible();
    await openDisease(page, '/Spider_mites');
    await expect(page.locator('.dg-carousel-arrow').first()).toBeHidden();
    await expect(page.locator('.dg-carousel-dots')).toBeHidden();
    await expect(page.locator('.dg-carousel-slide img:visible')).toHaveCount(1);
  });

  for (const route of ALL_PAGES) {
    test(`no serious or critical accessibility violations on ${route}`, async ({ page }) => {
      await page.goto(route);
      await expect(page.locator('article.disease-article h1')).toBeVisible();
      await expectAccessible(page, `${route} es`);
    });
  }

  test('no serious or critical accessibility violations on a phone', async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 360, height: 780 });
    for (const route of ['/Target_spot', '/Spider_mites', ROUTES.tomatoCrops, ROUTES.aboutTool]) {
      await page.goto(route);
      await expect(page.locator('article.disease-article h1')).toBeVisible();
      await expectAccessible(page, `${route} phone`);
    }
  });

  test('no serious or critical accessibility violations in English', async ({ page }) => {
    test.setTimeout(120_000);
    await setLanguage(page, 'en');
    for (const route of ['/Late_blight', '/Spider_mites', ROUTES.tomatoCrops, ROUTES.aboutTool]) {
      await page.goto(route);
      await expect(page.locator('article.disease-article h1')).toBeVisible();
      await expectAccessible(page, `${route} en`);
    }
  });

  test('no broken image or link on any page', async ({ page }) => {
    test.setTimeout(180_000);
    const checked = new Map<string, number>();
    for (const lang of ['es', 'en'] as const) {
      await setLanguage(page, lang);
      for (const route of ALL_PAGES) {
        await page.goto(route);
        await expect(page.locator('article.disease-article h1')).toBeVisible();
        const urls = await page.evaluate(() => [
          ...Array.from(document.querySelectorAll('a[href]')).map((a) => ({
            kind: 'href',
            raw: a.getAttribute('href')!,
            abs: (a as HTMLAnchorElement).href,
          })),
          ...Array.from(document.querySelectorAll('img[src], source[src], video[src]')).map(
            (el) => ({
              kind: 'src',
              raw: el.getAttribute('src')!,
              abs: (el as HTMLImageElement).src,
            }),
          ),
        ]);
        const origin = new URL(page.url()).origin;
        for (const u of urls) {
          const url = new URL(u.abs);
          if (url.origin === origin) {
            const key = url.pathname + url.search;
            if (!checked.has(key)) {
              const res = await page.request.get(key, { maxRedirects: 0 });
              checked.set(key, res.status());
            }
            expect(checked.get(key), `${route} (${lang}): ${u.kind} ${u.raw}`).toBe(200);
          } else {
            // External reference links cannot be fetched here: they must be well-formed https URLs.
            expect(url.protocol, `${route}: ${u.raw}`).toBe('https:');
            expect(url.hostname, `${route}: ${u.raw}`).toMatch(/^[a-z0-9.-]+\.[a-z]{2,}$/);
            expect(u.raw, `${route}: ${u.raw}`).not.toMatch(/\s/);
          }
        }
        // Every image on the page decodes once loaded (lazy ones are forced to load first).
        await page.evaluate(async () => {
          const imgs = Array.from(document.images);
          for (const img of imgs) img.loading = 'eager';
          await Promise.all(
            imgs.map((img) =>
              img.complete
                ? null
                : new Promise((resolve) => {
                    img.addEventListener('load', resolve, { once: true });
                    img.addEventListener('error', resolve, { once: true });
                  }),
            ),
          );
        });
        const broken = await page.evaluate(() =>
          Array.from(document.images)
            .filter((img) => !img.complete || img.naturalWidth === 0)
            .map((img) => img.getAttribute('src')),
        );
        expect(broken, `${route} (${lang})`).toEqual([]);
      }
    }
    // Every disease image folder is complete.
    for (const d of DISEASES) {
      for (let i = 1; i <= 10; i += 1) {
        expect(checked.get(`/Disease/${d.folder}/IMG${i}.jpg`), `${d.folder} IMG${i}`).toBe(200);
      }
    }
  });

  test('the landing page does not load the disease content', async ({ page }) => {
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    await page.goto('/');
    await page.waitForLoadState('networkidle');
    expect(
      requested.filter((u) => /target_spot|late_blight|about_tool|DiseasePage/.test(u)),
    ).toEqual([]);
  });
});

test.describe('screenshots', () => {
  for (const lang of ['es', 'en'] as const) {
    for (const [name, width, height] of [
      ['desktop', 1400, 900],
      ['phone', 360, 780],
    ] as const) {
      test(`disease pages ${name} ${lang}`, async ({ page }) => {
        await setLanguage(page, lang);
        await page.emulateMedia({ reducedMotion: 'reduce' });
        await page.setViewportSize({ width, height });
        for (const [route, label] of [
          ['/Target_spot', 'target-spot'],
          ['/Spider_mites', 'spider-mites'],
          [ROUTES.tomatoCrops, 'tomato-crops'],
          [ROUTES.aboutTool, 'about-tool'],
        ] as const) {
          await page.goto(route);
          await expect(page.locator('article.disease-article h1')).toBeVisible();
          // Load the lazy images now and wait until each is decoded (or has failed to load).
          await page.evaluate(async () => {
            const images = Array.from(document.images);
            for (const img of images) img.loading = 'eager';
            await Promise.all(images.map((img) => img.decode().catch(() => undefined)));
          });
          await shot(page, `diseases-${label}-${name}-${lang}`);
        }
      });
    }
  }
});

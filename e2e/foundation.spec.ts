import { DISEASE_ROUTES, PROTECTED_ROUTES, ROUTES } from '../packages/contracts/src/routes.ts';
import { MAINTENANCE_PORT } from './playwright.config.ts';
import { expect, expectAccessible, setLanguage, shot, test } from './fixtures.ts';

const OPEN = [ROUTES.home, ROUTES.about, ROUTES.contact, ROUTES.login, ROUTES.createAccount];

test.describe('shells for a visitor', () => {
  // each test walks many routes with full page loads (no service worker: blocked outside the offline spec)
  test.describe.configure({ timeout: 180_000 });

  test('open routes use the public shell with the top bar', async ({ page }) => {
    for (const route of OPEN) {
      await page.goto(route);
      await expect(page.locator('[data-shell="public"]'), route).toBeVisible();
      const bar = page.getByRole('navigation', { name: 'Navegación para visitantes' });
      await expect(bar.getByRole('link', { name: 'Inicia sesión', exact: true })).toHaveAttribute(
        'href',
        '/Login_session',
      );
      await expect(
        bar.getByRole('link', { name: 'Crear una cuenta', exact: true }),
      ).toHaveAttribute('href', '/Create_account');
      await expect(bar.getByRole('link', { name: 'Contactar', exact: true })).toHaveAttribute(
        'href',
        '/Contact_us',
      );
      await expect(bar.getByRole('link', { name: /Video tutorial/ })).toBeVisible();
    }
  });

  test('disease pages use the disease shell with its top navigation', async ({ page }) => {
    for (const route of DISEASE_ROUTES) {
      await page.goto(route);
      await expect(page.locator('[data-shell="disease"]'), route).toBeVisible();
      await expect(page.locator('.disease-topnav')).toBeVisible();
    }
    // on a phone the language switch stays in sight, not folded into the bar's menu
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/Late_blight');
    await expect(page.getByTestId('language-toggle')).toBeInViewport();
  });

  test('tools send a visitor to the login page with an explanation', async ({ page }) => {
    for (const route of PROTECTED_ROUTES) {
      await page.goto(route);
      await expect(page).toHaveURL(
        new RegExp(`/Login_session\\?next=${encodeURIComponent(route)}`),
      );
      await expect(page.locator('[data-shell="public"]')).toBeVisible();
      await expect(page.getByTestId('login-required')).toContainText(
        'Inicia sesión para usar esta herramienta',
      );
    }
  });
});

test.describe('shells for a logged-in user', () => {
  test('every route renders the right shell', async ({ userPage: page }) => {
    // about 30 full page loads: 15 s here, more on a loaded two-core machine (the service worker
    // is blocked outside the offline spec, so no precache download slows them)
    test.setTimeout(180_000);
    for (const route of [
      ...OPEN.filter((r) => r !== ROUTES.login && r !== ROUTES.createAccount),
      ...PROTECTED_ROUTES,
    ]) {
      await page.goto(route);
      await expect(page.locator('[data-shell="auth"]'), route).toBeVisible();
      await expect(page).toHaveURL(new RegExp(`${route}$`));
    }
    for (const route of DISEASE_ROUTES) {
      await page.goto(route);
      await expect(page.locator('[data-shell="disease"]'), route).toBeVisible();
    }
    // a disease page keeps the signed-in shell: the sidebar and the greeting around the top bar
    await page.setViewportSize({ width: 1280, height: 900 });
    await expect(page.getByRole('navigation', { name: 'Menú principal' })).toBeVisible();
    await expect(page.locator('.disease-topnav')).toBeVisible();
    await expect(page.locator('[data-shell="disease"]')).toContainText('Hola,');
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByTestId('language-toggle')).toBeInViewport();
  });

  test('the sidebar has the specified entries in 2 of 12 columns', async ({ userPage: page }) => {
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.goto('/About');
    const nav = page.getByRole('navigation', { name: 'Menú principal' });
    await expect(nav.getByRole('link', { name: 'Inicio' })).toHaveAttribute('href', '/');
    await expect(nav.getByRole('link', { name: 'Acerca de', exact: true })).toHaveAttribute(
      'href',
      '/About',
    );
    await expect(nav.getByRole('link', { name: 'Contáctanos' })).toHaveAttribute(
      'href',
      '/Contact_us',
    );
    for (const [name, href] of [
      ['Conversor universal de unidades', '/Universal_conversor'],
      ['Diseño de línea principal', '/Principal_designer'],
      ['Diseño de línea secundaria', '/Secondary_designer'],
      ['Diseño de línea lateral', '/Lateral_designer'],
      ['Programación del riego', '/Irrigation_scheduling'],
      ['Calendario de la temporada', '/Season_calendar'],
      ['DiAgroDL: diagnóstico de hojas de tomate', '/DiAgroDL'],
      ['Enfermedades del tomate', '/Tomato_crops'],
      ['Acerca de DiAgroDL', '/About_DiAgroDL'],
      ['Mis datos', '/Mis_datos'],
    ] as const) {
      await expect(nav.getByRole('link', { name })).toHaveAttribute('href', href);
    }
    await expect(nav.getByText('Próximamente')).toHaveAttribute('aria-disabled', 'true');
    const aside = await page.locator('aside.sidebar').boundingBox();
    const main = await page.locator('main#main').boundingBox();
    expect(aside!.width / (aside!.width + main!.width)).toBeCloseTo(2 / 12, 1);
    await page.getByTestId('engineering-tools').click();
    await expect(nav.getByRole('link', { name: 'Diseño de línea lateral' })).toBeHidden();
    await page.getByTestId('engineering-tools').click();
    await expect(nav.getByRole('link', { name: 'Diseño de línea lateral' })).toBeVisible();
    await shot(page, 'auth-shell-es');
  });

  test('on a phone the menu opens, and closes once a link in it is followed', async ({
    userPage: page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/About');
    const nav = page.getByRole('navigation', { name: 'Menú principal' });
    await expect(nav).toBeHidden();
    await page.getByRole('button', { name: /Abrir el menú/ }).click();
    await nav.getByRole('link', { name: 'Contáctanos' }).click();
    await expect(page).toHaveURL(/\/Contact_us$/);
    await expect(nav).toBeHidden();
  });

  test('logout ends the session and goes home, also from a tool page', async ({
    userPage: page,
  }) => {
    await page.goto('/Change_password');
    await page.getByRole('button', { name: 'Cerrar sesión' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.locator('[data-shell="public"]')).toBeVisible();
    const session = await (await page.request.get('/api/session/')).json();
    expect(session.isAuthenticated).toBe(false);
  });

  test('the welcome variant offers the manual PDF and the tutorial video', async ({
    userPage: page,
  }) => {
    await page.goto('/');
    await expect(page.getByTestId('welcome-variant')).toBeVisible();
    const link = page.getByRole('link', { name: 'Descargar el manual de usuario (PDF)' });
    await expect(link).toHaveAttribute('href', '/user_manual.pdf');
    await expect(
      page.getByTestId('welcome-variant').getByRole('link', {
        name: 'Conoce las enfermedades del tomate',
      }),
    ).toHaveAttribute('href', '/Tomato_crops');
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const file = await download.path();
    const fs = await import('node:fs');
    const bytes = fs.readFileSync(file!);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.length).toBeGreaterThan(5000);
    const video = page.locator('video.tutorial-video source');
    const src = await video.getAttribute('src');
    expect((await page.request.get(src!)).status()).toBe(200);
    await shot(page, 'landing-welcome-es');
  });
});

test.describe('landing page', () => {
  test('banner video, heading and five tool icons', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('BIENVENIDO / WELCOME');
    const video = page.locator('video.welcome-video');
    await expect(video).toHaveJSProperty('muted', true);
    await expect(video).toHaveJSProperty('loop', true);
    await expect(video).toHaveJSProperty('autoplay', true);
    const icons = page.getByRole('list', { name: 'Herramientas' }).getByRole('link');
    await expect(icons).toHaveCount(5);
    const hrefs = await icons.evaluateAll((els) => els.map((e) => e.getAttribute('href')));
    expect(hrefs).toEqual([
      '/Universal_conversor',
      '/Lateral_designer',
      '/Secondary_designer',
      '/Principal_designer',
      '/DiAgroDL',
    ]);
    await shot(page, 'landing-es');
  });

  test('the banner video pauses and plays again, and waits with reduced motion', async ({
    page,
    browser,
  }) => {
    await page.goto('/');
    const video = page.locator('video.welcome-video');
    const toggle = page.getByTestId('welcome-video-toggle');
    await expect(toggle).toHaveText('Pausar el video');
    await toggle.click();
    await expect(toggle).toHaveText('Reproducir el video');
    await expect(video).toHaveJSProperty('paused', true);
    await toggle.click();
    await expect(toggle).toHaveText('Pausar el video');
    await expect(video).toHaveJSProperty('paused', false);

    const reduced = await browser.newContext({ reducedMotion: 'reduce' });
    const still = await reduced.newPage();
    await still.goto('/');
    const stillVideo = still.locator('video.welcome-video');
    await expect(stillVideo).toHaveJSProperty('autoplay', false);
    await expect(stillVideo).toHaveJSProperty('paused', true);
    await expect(still.getByTestId('welcome-video-toggle')).toHaveText('Reproducir el video');
    await reduced.close();
  });

  test('icons follow the mouse with a spring, and stay still with reduced motion', async ({
    page,
    browser,
  }) => {
    await page.goto('/');
    const first = page.locator('.spring-icon').first();
    const box = (await first.boundingBox())!;
    // The moves are made again on each poll: a move made before the page attached its listeners (a slow
    // hydration under load) would otherwise be lost, and the icon would wait still for a mouse already gone.
    await expect
      .poll(async () => {
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        await page.mouse.move(box.x + box.width * 3, box.y + box.height * 2, { steps: 5 });
        return first.evaluate((el) => el.style.transform);
      })
      .toMatch(/translate\((?!0px, 0px)/);

    const reduced = await browser.newContext({ reducedMotion: 'reduce' });
    const still = await reduced.newPage();
    await still.goto('/');
    const icon = still.locator('.spring-icon').first();
    // Count the moves the icons' list receives, so the check below runs after them.
    await still.locator('.spring-icons').evaluate((list) => {
      list.dataset.moves = '0';
      list.addEventListener('pointermove', () => {
        list.dataset.moves = String(Number(list.dataset.moves) + 1);
      });
    });
    const b = (await icon.boundingBox())!;
    await still.mouse.move(b.x + 5, b.y + 5);
    await still.mouse.move(b.x + 300, b.y + 200, { steps: 5 });
    await expect(still.locator('.spring-icons')).not.toHaveAttribute('data-moves', '0');
    // A moving spring writes its transform in the first animation frame after a move: wait for
    // two frames after the moves were received, then nothing may have moved.
    await still.evaluate(
      () =>
        new Promise<void>((resolve) =>
          requestAnimationFrame(() => requestAnimationFrame(() => resolve())),
        ),
    );
    expect(await icon.evaluate((el) => el.style.transform)).toBe('');
    await reduced.close();
  });
});

test.describe('disease top navigation bar', () => {
  test('the Cultivos dropdown opens and closes by click, Escape, outside click, arrows and Tab', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1366, height: 800 });
    await page.goto('/Tomato_crops');
    const toggle = page.getByRole('button', { name: 'Cultivos' });
    const menu = page.locator(
      '#crops-dropdown + .dropdown-menu, [aria-labelledby="crops-dropdown"]',
    );

    await toggle.click();
    await expect(menu).toBeVisible();
    await expect(
      page.getByRole('button', { name: 'Fresa' }).or(page.getByText('Fresa')),
    ).toHaveClass(/disabled/);
    await toggle.click();
    await expect(menu).toBeHidden();

    await toggle.click();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(toggle).toBeFocused();

    await toggle.click();
    await page
      .locator('h1, main')
      .first()
      .click({ position: { x: 5, y: 5 } });
    await expect(menu).toBeHidden();

    await toggle.focus();
    await page.keyboard.press('ArrowDown');
    await expect(menu).toBeVisible();
    const focusedInMenu = () =>
      page.evaluate(
        () =>
          document.activeElement?.closest('.dropdown-menu') != null &&
          document.activeElement?.textContent,
      );
    if (!(await focusedInMenu())) await page.keyboard.press('ArrowDown');
    await expect.poll(focusedInMenu).toBe('Tomate');

    await page.keyboard.press('Tab');
    await expect(menu).toBeHidden();
  });

  test('the bar collapses below lg and after a selection', async ({ page }) => {
    await page.setViewportSize({ width: 800, height: 900 });
    await page.goto('/Tomato_crops');
    const topnav = page.locator('.disease-topnav');
    const toggler = topnav.getByRole('button', { name: 'Mostrar u ocultar la navegación' });
    const about = topnav.getByRole('link', { name: 'Acerca de DiAgroDL' });
    await expect(toggler).toBeVisible();
    await expect(about).toBeHidden();
    await toggler.click();
    await expect(about).toBeVisible();
    await about.click();
    await expect(page).toHaveURL(/About_DiAgroDL$/);
    await expect(about).toBeHidden();

    await page.setViewportSize({ width: 1366, height: 900 });
    await expect(toggler).toBeHidden();
    for (const [name, href] of [
      ['Inicio', '/DiAgroDL'],
      ['Acerca de DiAgroDL', '/About_DiAgroDL'],
      ['Iniciar DiAgroDL', '/Custom'],
      ['Contactar', '/Contact_us'],
    ] as const) {
      await expect(
        page.locator('.disease-topnav').getByRole('link', { name, exact: true }),
      ).toHaveAttribute('href', href);
    }
  });
});

test.describe('language', () => {
  test('the English toggle switches the interface and persists', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('lang', 'es-MX');
    await page.getByTestId('language-toggle').click();
    await expect(page.getByRole('link', { name: 'Log in' }).first()).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
    await page.reload();
    await expect(page.getByRole('link', { name: 'Create an account' }).first()).toBeVisible();
    await shot(page, 'landing-en');
    await page.getByTestId('language-toggle').click();
    await expect(page.getByRole('link', { name: 'Inicia sesión' }).first()).toBeVisible();
  });
});

test.describe('404 and maintenance', () => {
  test('an unknown address shows the Spanish 404 page with a way home', async ({ page }) => {
    const res = await page.goto('/esto/no/existe');
    expect(res!.status()).toBe(404);
    await expect(page.getByTestId('not-found')).toContainText('Página no encontrada');
    await shot(page, 'not-found-es');
    await page.getByRole('link', { name: 'Volver al inicio' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('an unknown address in English', async ({ page }) => {
    await setLanguage(page, 'en');
    await page.goto('/missing-page');
    await expect(page.getByTestId('not-found')).toContainText('Page not found');
    await shot(page, 'not-found-en');
  });

  test('with MAINTENANCE=1 every route shows the maintenance notice', async ({ page }) => {
    for (const route of ['/', '/About', '/DiAgroDL', '/Bacterial_spot']) {
      await page.goto(`http://127.0.0.1:${MAINTENANCE_PORT}${route}`);
      await expect(
        page.getByRole('heading', { name: 'Website currently in maintenance' }),
      ).toBeVisible();
    }
    const res = await page.request.get(`http://127.0.0.1:${MAINTENANCE_PORT}/api/session/`);
    expect(res.status()).toBe(503);
    expect((await res.json()).detail).toBe('Website currently in maintenance');
  });
});

test.describe('accessibility', () => {
  // one test per page: on two busy cores the whole list did not fit one test's time
  for (const route of [...OPEN, '/no-such-page', ROUTES.tomatoCrops]) {
    test(`visitor page ${route} has no serious or critical violations`, async ({ page }) => {
      await page.goto(route);
      await page.waitForLoadState('networkidle');
      await expectAccessible(page, route);
    });
  }

  test('logged-in pages have no serious or critical violations', async ({ userPage: page }) => {
    for (const route of [ROUTES.home, ROUTES.about, ROUTES.converter]) {
      await page.goto(route);
      await page.waitForLoadState('networkidle');
      await expectAccessible(page, route);
    }
  });
});

test.describe('screenshots for review', () => {
  for (const lang of ['es', 'en'] as const) {
    for (const [label, width] of [
      ['desktop', 1366],
      ['phone', 360],
    ] as const) {
      test(`landing, shells and 404 (${lang}, ${label})`, async ({ userPage: page, browser }) => {
        await page.setViewportSize({ width, height: 800 });
        await setLanguage(page, lang);
        await page.goto('/');
        await expect(page.getByTestId('welcome-variant')).toBeVisible();
        await shot(page, `auth-landing-${lang}-${label}`);
        await page.goto('/About');
        await shot(page, `auth-about-${lang}-${label}`);

        const visitor = await browser.newContext({ viewport: { width, height: 800 } });
        const v = await visitor.newPage();
        await setLanguage(v, lang);
        await v.goto('/');
        await expect(v.locator('[data-shell="public"]')).toBeVisible();
        await shot(v, `public-landing-${lang}-${label}`);
        await v.goto('/Tomato_crops');
        await shot(v, `disease-shell-${lang}-${label}`);
        await v.goto('/nowhere');
        await expect(v.getByTestId('not-found')).toBeVisible();
        await shot(v, `not-found-${lang}-${label}`);
        await visitor.close();
      });
    }
  }
});

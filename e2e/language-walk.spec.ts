// Every route at 390 px, in each language: no word of the other language anywhere in the page
// (text, options, screen-reader names, alternative texts, placeholders), also after a form is sent
// empty; no sideways scrolling; axe clean. Text marked as another language (lang="…": a reference's
// title, the language switch's own word) is left out: a screen reader reads it in that language.
import type { Page } from '@playwright/test';
import {
  DISEASE_ROUTES,
  OPEN_ROUTES,
  PROTECTED_ROUTES,
  ROUTES,
} from '../packages/contracts/src/routes.ts';
import { expect, expectAccessible, setLanguage, test } from './fixtures.ts';

type Lang = 'es' | 'en';

/**
 * Words that never belong on a page of the other language. Chosen so that none is also a word of
 * the page's language or a name the product keeps in every language (DiAgroDL, MobileNet, the
 * specification's code names such as D_LL or Hf_admin_perc).
 */
export const FORBIDDEN: Record<Lang, readonly string[]> = {
  // English on a Spanish page
  es: [
    'the',
    'and',
    'with',
    'your',
    'you',
    'cannot',
    'Please',
    'please',
    'Select',
    'Submit',
    'Clear',
    'View',
    'Close',
    'Loading',
    'Download',
    'Upload',
    'Calculate',
    'Status Here',
    'Reset',
    'Delete',
    'Show',
    'Save',
    'should',
    'must',
    'empty',
    'field',
    'value',
    'Log in',
    'Log out',
    'Sign in',
    'Home',
    'About',
    'Contact',
    'Settings',
    'Language',
    'Toggle navigation',
    'characters',
    'Accept',
    'Terms',
    'successfully',
    'equivalent',
    'conversions',
    'numeric',
    'slope',
    'pressure',
    'flow',
    'length',
    'diameter',
    'Pipe',
    'section',
    'Results',
    'Photo',
    'image',
    'images',
    'Leaf',
    'leaves',
    'disease',
    'Healthy',
    'healthy',
    'Diagnose',
    'Irrigation',
    'irrigation',
    'Tools',
    'Account',
    'Password',
    'password',
    'User Name',
    'Email',
  ],
  // Spanish on an English page
  en: [
    'el',
    'la',
    'los',
    'las',
    'del',
    'para',
    'con',
    'una',
    'que',
    'Calcular',
    'Limpiar',
    'Borrar',
    'Descargar',
    'Subir',
    'Enviar',
    'Cerrar',
    'Hola',
    'Inicio',
    'contraseña',
    'Contraseña',
    'usuario',
    'Diagnosticar',
    'diagnóstico',
    'Diagnóstico',
    'imágenes',
    'imagen',
    'Olvidar',
    'Tizón',
    'Mancha',
    'hoja',
    'hojas',
    'riego',
    'Riego',
    'Programación',
    'Calendario',
    'temporada',
    'línea',
    'Herramientas',
    'Cultivos',
    'Acerca',
    'Contactar',
    'Iniciar',
    'Selecciona',
    'campo',
    'vacío',
    'debe',
    'Guardar',
    'Abrir',
    'Cargando',
    'Aceptar',
    'Cancelar',
    'Próximamente',
    'Sección',
    'tubería',
    'Presión',
    'Caudal',
    'Longitud',
    'Pendiente',
    'Fecha',
    'Modelo',
    'Probabilidad',
  ],
};

/** The page's words as a person or a screen reader meets them, leaving out other-language marks. */
async function pageText(page: Page, lang: Lang): Promise<string[]> {
  return page.evaluate((lang) => {
    const out: string[] = [];
    const foreign = (el: Element | null): boolean => {
      const marked = el?.closest('[lang]');
      return (
        !!marked &&
        marked !== document.documentElement &&
        !marked.getAttribute('lang')!.startsWith(lang)
      );
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const parent = n.parentElement;
      if (!parent || parent.closest('script, style, template, noscript')) continue;
      if (foreign(parent) || !n.textContent?.trim()) continue;
      out.push(n.textContent.trim());
    }
    const labelled = document.body.querySelectorAll(
      '[aria-label], [title], [alt], [placeholder], [aria-description]',
    );
    for (const el of Array.from(labelled)) {
      if (foreign(el)) continue;
      for (const a of ['aria-label', 'title', 'alt', 'placeholder', 'aria-description']) {
        const v = el.getAttribute(a)?.trim();
        if (v) out.push(v);
      }
    }
    out.push(document.title);
    return out;
  }, lang);
}

function foreignWords(texts: string[], lang: Lang): string[] {
  const found: string[] = [];
  for (const word of FORBIDDEN[lang]) {
    const re = new RegExp(`(?<![\\p{L}\\p{N}_])${word}(?![\\p{L}\\p{N}_])`, 'u');
    const hit = texts.find((t) => re.test(t));
    if (hit) found.push(`"${word}" in "${hit.slice(0, 120)}"`);
  }
  return found;
}

/** Opens `route`, waits for its heading, checks words, width and axe; then sends its form empty. */
async function walk(page: Page, route: string, lang: Lang, problems: string[]): Promise<void> {
  await page.goto(route);
  await expect(page.locator('main h1').first(), route).toBeVisible();
  const check = async (when: string) => {
    for (const w of foreignWords(await pageText(page, lang), lang)) {
      problems.push(`${route} (${when}): ${w}`);
    }
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    if (width > 390) problems.push(`${route} (${when}): ${width} px wide`);
  };
  await check('opened');
  await expectAccessible(page, `${route} ${lang} 390`);
  const submit = page.locator('main form button[type="submit"]').first();
  if (SEND_EMPTY.has(route) && (await submit.count())) {
    await submit.click();
    await expect(
      page.locator('main .invalid-feedback:visible, main [role="alert"]').first(),
    ).toBeVisible();
    await check('sent empty');
  }
  // a tool calculated as it opens: its results, or the messages of its empty fields
  const calculate = page
    .getByRole('button', { name: lang === 'es' ? 'Calcular' : 'Calculate', exact: true })
    .first();
  if (await calculate.count()) {
    await calculate.click();
    await expect(
      page.locator('main [role="alert"], main [data-testid$="-status"], main table').first(),
    ).toBeVisible();
    await check('calculated');
  }
}

/** Forms whose empty sending shows messages and changes nothing stored. */
const SEND_EMPTY = new Set<string>([
  ROUTES.login,
  ROUTES.createAccount,
  ROUTES.contact,
  ROUTES.resetPassword,
  ROUTES.changePassword,
]);

for (const lang of ['es', 'en'] as const) {
  test.describe(`every route at 390 px in ${lang === 'es' ? 'Spanish' : 'English'}`, () => {
    test.describe.configure({ timeout: 300_000 });
    test.use({ viewport: { width: 390, height: 844 } });

    test('a visitor', async ({ page }) => {
      await setLanguage(page, lang);
      const problems: string[] = [];
      for (const route of [...OPEN_ROUTES, ...DISEASE_ROUTES])
        await walk(page, route, lang, problems);
      expect(problems).toEqual([]);
    });

    test('a signed-in user', async ({ userPage: page }) => {
      await setLanguage(page, lang);
      const problems: string[] = [];
      for (const route of [ROUTES.home, ROUTES.about, ROUTES.contact, ...PROTECTED_ROUTES]) {
        await walk(page, route, lang, problems);
      }
      expect(problems).toEqual([]);
    });
  });
}

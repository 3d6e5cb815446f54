import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../locales/en.json';
import es from '../locales/es.json';

export const LANGUAGES = ['es', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const LANGUAGE_KEY = 'diagrodl.lang';
/** BCP 47 tags used for <html lang> and Intl formatting. */
export const LOCALE_TAG: Record<Language, string> = { es: 'es-MX', en: 'en-US' };

function storedLanguage(): Language {
  try {
    const v = localStorage.getItem(LANGUAGE_KEY);
    return v === 'en' ? 'en' : 'es';
  } catch {
    return 'es';
  }
}

type Tree = { [key: string]: unknown };

function deepMerge(target: Tree, source: Tree): Tree {
  for (const [k, v] of Object.entries(source)) {
    const current = target[k];
    if (v && typeof v === 'object' && !Array.isArray(v) && current && typeof current === 'object') {
      deepMerge(current as Tree, v as Tree);
    } else {
      target[k] = v;
    }
  }
  return target;
}

/**
 * Shared strings live in src/locales; each feature keeps its own strings in
 * src/features/<feature>/locales/{es,en}.json (under a top-level key of its own).
 */
const featureLocales = import.meta.glob<Tree>('../features/*/locales/*.json', {
  eager: true,
  import: 'default',
});
const resources: Record<Language, Tree> = {
  es: structuredClone(es) as Tree,
  en: structuredClone(en) as Tree,
};
for (const [file, strings] of Object.entries(featureLocales)) {
  const lang = /\/(es|en)\.json$/.exec(file)?.[1] as Language | undefined;
  if (lang) deepMerge(resources[lang], strings);
}

void i18n.use(initReactI18next).init({
  resources: { es: { translation: resources.es }, en: { translation: resources.en } },
  lng: storedLanguage(),
  fallbackLng: 'es',
  interpolation: { escapeValue: false },
  returnNull: false,
});

i18n.on('languageChanged', (lng) => {
  const lang: Language = lng === 'en' ? 'en' : 'es';
  try {
    localStorage.setItem(LANGUAGE_KEY, lang);
  } catch {
    // storage may be unavailable (private mode); the toggle still works for this page
  }
  if (typeof document !== 'undefined') document.documentElement.lang = LOCALE_TAG[lang];
});
if (typeof document !== 'undefined') {
  document.documentElement.lang = LOCALE_TAG[i18n.language === 'en' ? 'en' : 'es'];
}

export function currentLanguage(): Language {
  return i18n.language === 'en' ? 'en' : 'es';
}

export default i18n;

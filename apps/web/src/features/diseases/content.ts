import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Language } from '@/lib/i18n.ts';
import type { TextSectionKey } from './catalog.ts';

/** A paragraph or a bullet list; `*text*` marks italics (scientific names). */
export type Block = { p: string } | { ul: string[] };

export interface Reference {
  authors: string;
  year: number | string;
  title: string;
  source: string;
  doi?: string;
  url?: string;
  /** The language of the title and source, when not English (the literature's usual language). */
  lang?: 'es' | 'en';
}

export interface ImageItem {
  file: string;
  alt: string;
}

export interface DiseaseContent {
  slug: string;
  name: string;
  summary: string;
  sections: Partial<Record<TextSectionKey, Block[]>>;
  images: ImageItem[];
  references: Reference[];
}

export interface TextSection {
  id: string;
  heading: string;
  blocks: Block[];
}

export interface TomatoContent {
  title: string;
  summary: string;
  sections: TextSection[];
  trainedIntro: string;
  coverageNote: string;
  images: ImageItem[];
  references: Reference[];
}

export interface Architecture {
  id: string;
  name: string;
  forGrowers: Block[];
  forResearchers: Block[];
}

export interface AboutContent {
  title: string;
  summary: string;
  sections: TextSection[];
  architectures: Architecture[];
  references: Reference[];
}

/**
 * One lazily loaded chunk per content file (`content/<name>.<lang>.json`), so the landing
 * bundle carries none of them and a page loads only its own language.
 */
const loaders = import.meta.glob('./content/*.json', { import: 'default' }) as Record<
  string,
  () => Promise<unknown>
>;
const loaded = new Map<string, unknown>();

interface State<T> {
  key: string;
  data: T | null;
  error: boolean;
}

/**
 * The content file `name` in the active language. While another file loads (language
 * toggle) the previous content stays on screen instead of a spinner.
 */
export function useContent<T>(name: string): { data: T | null; error: boolean; lang: Language } {
  const { i18n } = useTranslation();
  const lang: Language = i18n.language === 'en' ? 'en' : 'es';
  const key = `./content/${name}.${lang}.json`;
  const [state, setState] = useState<State<T>>(() => ({
    key,
    data: (loaded.get(key) as T | undefined) ?? null,
    error: false,
  }));

  useEffect(() => {
    let alive = true;
    const cached = loaded.get(key) as T | undefined;
    if (cached) {
      setState({ key, data: cached, error: false });
      return;
    }
    const load = loaders[key];
    if (!load) {
      setState({ key, data: null, error: true });
      return;
    }
    load().then(
      (data) => {
        loaded.set(key, data);
        if (alive) setState({ key, data: data as T, error: false });
      },
      () => {
        if (alive) setState((s) => ({ ...s, key, error: true }));
      },
    );
    return () => {
      alive = false;
    };
  }, [key]);

  return { data: state.data, error: state.error && state.key === key, lang };
}

import { LOCALE_TAG, type Language } from './i18n.ts';

/** Numbers shown to people go through Intl.NumberFormat for the active locale. */
export function formatNumber(
  value: number,
  lang: Language,
  options: Intl.NumberFormatOptions = { maximumFractionDigits: 6 },
): string {
  if (!Number.isFinite(value)) return '—';
  return new Intl.NumberFormat(LOCALE_TAG[lang], options).format(value);
}

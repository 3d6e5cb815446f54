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

/** How a share (0..1) is shown: a percentage with one decimal. */
export const PERCENT_ONE_DECIMAL: Intl.NumberFormatOptions = {
  style: 'percent',
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
};

/** A share (0..1) as a percentage with one decimal for the active locale ("98.1%"). */
export function formatPercent(value: number, lang: Language): string {
  return formatNumber(value, lang, PERCENT_ONE_DECIMAL);
}

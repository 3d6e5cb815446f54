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

/**
 * Parses a number typed by a person: decimal comma or point, optional spaces and
 * thousands separators are not guessed (an ambiguous "1.234,5" is read as written per locale).
 * Returns null for anything that is not a finite number.
 */
export function parseDecimal(raw: string): number | null {
  const s = raw.trim().replace(/\s+/g, '');
  if (!s) return null;
  let normalised = s;
  if (s.includes(',') && s.includes('.')) {
    // The last separator is the decimal one: 1.234,5 or 1,234.5
    normalised =
      s.lastIndexOf(',') > s.lastIndexOf('.')
        ? s.replace(/\./g, '').replace(',', '.')
        : s.replace(/,/g, '');
  } else if (s.includes(',')) {
    normalised = s.replace(',', '.');
  }
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(normalised)) return null;
  const n = Number(normalised);
  return Number.isFinite(n) ? n : null;
}

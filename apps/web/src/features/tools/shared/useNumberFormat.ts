import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '@/lib/format.ts';
import type { Language } from '@/lib/i18n.ts';

/** Formats with exactly `digits` decimals for the active locale. */
export type FixedFormatter = (value: number, digits?: number) => string;

/** The active language and a formatter bound to it (Intl.NumberFormat through formatNumber). */
export function useNumberFormat(): { lang: Language; fmt: FixedFormatter } {
  const { i18n } = useTranslation();
  const lang: Language = i18n.language === 'en' ? 'en' : 'es';
  const fmt = useCallback<FixedFormatter>(
    (value, digits = 2) =>
      formatNumber(value, lang, {
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      }),
    [lang],
  );
  return { lang, fmt };
}

/**
 * Numbers inside the specification's status messages ('HF:x < HFp:y'): at most three decimals,
 * three significant digits below 0.001, no grouping, in the active locale.
 */
export function messageNumber(lang: Language): (value: number) => string {
  return (value) =>
    value !== 0 && Math.abs(value) < 0.001
      ? formatNumber(value, lang, { maximumSignificantDigits: 3, useGrouping: false })
      : formatNumber(value, lang, { maximumFractionDigits: 3, useGrouping: false });
}

import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { ambiguousCommaReadings } from '@diagrodl/hydraulics';
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
 * Numbers inside the specification's status messages ('HF:x < HFp:y'): at most three decimals
 * (`digits`: more when the message needs them to tell two numbers apart), three significant digits
 * below 0.001, no grouping, in the active locale.
 */
export function messageNumber(lang: Language): (value: number, digits?: number) => string {
  return (value, digits = 3) =>
    value !== 0 && Math.abs(value) < 10 ** -digits
      ? formatNumber(value, lang, { maximumSignificantDigits: 3, useGrouping: false })
      : formatNumber(value, lang, { maximumFractionDigits: digits, useGrouping: false });
}

/**
 * The message for a number typed with a comma that groups thousands as well as it marks decimals
 * ("2,500": 2500 or 2.5), in the active language with both readings, or null for any other text.
 * The engine refuses such a number; the fields show this message as it is typed.
 */
export function useAmbiguousComma(): (raw: string) => string | null {
  const { t } = useTranslation();
  const { lang } = useNumberFormat();
  return useCallback(
    (raw) => {
      const readings = ambiguousCommaReadings(raw);
      if (!readings) return null;
      const plain = (v: number) => formatNumber(v, lang, { useGrouping: false });
      return t('numberInput.ambiguousComma', {
        value: raw.trim(),
        thousands: plain(readings.thousands),
        decimal: plain(readings.decimal),
      });
    },
    [t, lang],
  );
}

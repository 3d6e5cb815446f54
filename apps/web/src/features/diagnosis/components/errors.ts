import type { TFunction } from 'i18next';
import { ApiError } from '@/lib/api-client.ts';

/** A failed call as a sentence for the person (the original only logged failures). */
export function errorText(err: unknown, t: TFunction): string {
  if (err instanceof ApiError) {
    if (err.status === 0) return t('diagnosis.errors.network');
    return err.detail;
  }
  return t('diagnosis.errors.generic', { detail: String(err) });
}

/** A failed identification: the on-device model not kept yet, or a failed call. */
export function identifyErrorText(err: unknown, t: TFunction): string {
  return err instanceof Error && err.message === 'offline-not-ready'
    ? t('diagnosis.device.unavailable')
    : errorText(err, t);
}

import type { TFunction } from 'i18next';
import { ApiError } from '@/lib/api-client.ts';
import { DeviceModelError } from '../device/run.ts';
import { isQuotaError } from '../device/store.ts';

/** A failed call as a sentence for the person (the original only logged failures). */
export function errorText(err: unknown, t: TFunction): string {
  // the device's storage is full (a photo kept on the device, a result, the model)
  if (isQuotaError(err)) return t('diagnosis.errors.storageFull');
  if (err instanceof ApiError) {
    if (err.status === 0) return t('diagnosis.errors.network');
    return err.detail;
  }
  return t('diagnosis.errors.generic', { detail: String(err) });
}

/**
 * A failed identification: the on-device model not kept yet or not loaded, the device full, or
 * a failed call.
 */
export function identifyErrorText(err: unknown, t: TFunction): string {
  if (err instanceof Error && err.message === 'offline-not-ready') {
    return t('diagnosis.device.unavailable');
  }
  if (err instanceof DeviceModelError) return t('diagnosis.device.loadFailed');
  return errorText(err, t);
}

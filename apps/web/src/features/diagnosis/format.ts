import { PERCENT_ONE_DECIMAL } from '@/lib/format.ts';

const SIZE_UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'];

/** Human-readable file size with 2 decimals, Bytes to YB (1 KB = 1024 bytes), as the original. */
export function humanFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const i = Math.min(SIZE_UNITS.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  return `${(bytes / 1024 ** i).toFixed(2)} ${SIZE_UNITS[i]}`;
}

/** Last-modified date of a picked file in the en-IN format the original used. */
export function lastModifiedText(ms: number): string {
  return new Date(ms).toLocaleString('en-IN');
}

const PREVIEWABLE = /\.(jpe?g|png|gif|svg)$/i;

/** The preview shows the image only for these extensions; otherwise a generic file icon. */
export function isPreviewable(fileName: string): boolean {
  return PREVIEWABLE.test(fileName);
}

/**
 * A probability as a person reads it: a percentage with one decimal in the locale's format
 * ("99.8%"). The API, the CSV and the JSON keep the 0-1 number.
 */
export function probabilityText(p: number, locale: string): string {
  return new Intl.NumberFormat(locale, PERCENT_ONE_DECIMAL).format(p);
}

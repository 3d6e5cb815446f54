import { describe, expect, it } from 'vitest';
import { humanFileSize, isPreviewable, lastModifiedText, probabilityText } from './format.ts';

describe('humanFileSize', () => {
  it('uses Bytes to YB with two decimals', () => {
    expect(humanFileSize(0)).toBe('0 Bytes');
    expect(humanFileSize(512)).toBe('512.00 Bytes');
    expect(humanFileSize(1024)).toBe('1.00 KB');
    expect(humanFileSize(1536)).toBe('1.50 KB');
    expect(humanFileSize(15 * 1024 * 1024)).toBe('15.00 MB');
    expect(humanFileSize(1024 ** 8 * 3)).toBe('3.00 YB');
    expect(humanFileSize(1024 ** 9)).toBe('1024.00 YB');
  });
});

describe('isPreviewable', () => {
  it('previews jpg, jpeg, png, gif and svg only', () => {
    for (const n of ['a.jpg', 'b.JPEG', 'c.png', 'd.gif', 'e.svg'])
      expect(isPreviewable(n)).toBe(true);
    for (const n of ['a.webp', 'b.txt', 'jpg', 'c.jpg.exe']) expect(isPreviewable(n)).toBe(false);
  });
});

describe('dates and probabilities', () => {
  it('formats the last-modified date in en-IN', () => {
    const ms = Date.UTC(2026, 10, 21, 10, 30, 0);
    expect(lastModifiedText(ms)).toBe(new Date(ms).toLocaleString('en-IN'));
    expect(lastModifiedText(ms)).toMatch(/^21\/11\/2026/);
  });
  it('shows probabilities as percentages with one decimal in the locale', () => {
    expect(probabilityText(0.9979, 'es-MX')).toBe('99.8%');
    expect(probabilityText(1, 'en-US')).toBe('100.0%');
    expect(probabilityText(0.41, 'en-US')).toBe('41.0%');
    // a locale with a decimal comma and a space before the sign
    expect(probabilityText(0.9979, 'es-ES')).toBe('99,8\u00a0%');
  });
});

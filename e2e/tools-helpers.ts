import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures.ts';

/** A number as the page shows it (es-MX / en-US: comma grouping, point decimal, maybe E-notation). */
export function num(text: string | null): number {
  const clean = (text ?? '').replace(/[,\s\u00a0\u202f]/g, '').replace('−', '-');
  const value = Number(clean);
  if (!Number.isFinite(value) || clean === '') throw new Error(`not a number: '${text}'`);
  return value;
}

/** Asserts that a displayed number equals the engine's value rounded to `digits` decimals. */
export function expectRounded(shown: string | null, engine: number, digits: number): void {
  const tolerance = 0.5 * 10 ** -digits + Math.abs(engine) * 1e-12;
  expect(Math.abs(num(shown) - engine), `${shown} vs ${engine}`).toBeLessThanOrEqual(tolerance);
}

export interface Downloaded {
  name: string;
  file: string;
  text: string;
}

/** Clicks `button` and returns the file it downloads. */
export async function download(page: Page, button: Locator): Promise<Downloaded> {
  const [dl] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tools-e2e-'));
  const file = path.join(dir, dl.suggestedFilename());
  await dl.saveAs(file);
  return { name: dl.suggestedFilename(), file, text: fs.readFileSync(file, 'utf8') };
}

/** RFC 4180 rows of a CSV file: the app's own parser (apps/web/src/features/tools/shared/export.ts). */
export { parseCsv as csvRows } from '../apps/web/src/features/tools/shared/export.ts';

/**
 * Renders the PDF's pages to PNG with pdftoppm; asserts exactly one page and returns the PNG path
 * (kept next to the screenshots so it can be looked at).
 */
export function pdfToPng(file: string, outDir: string, name: string): string {
  expect(fs.readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');
  fs.mkdirSync(outDir, { recursive: true });
  const prefix = path.join(outDir, name);
  for (const f of fs.readdirSync(outDir)) {
    if (f.startsWith(`${name}-`) || f === `${name}.png`) fs.rmSync(path.join(outDir, f));
  }
  execFileSync('pdftoppm', ['-png', '-r', '60', file, prefix]);
  const pages = fs
    .readdirSync(outDir)
    .filter((f) => f.startsWith(`${name}-`) && f.endsWith('.png'));
  expect(pages, 'a one-page PDF').toHaveLength(1);
  const png = path.join(outDir, pages[0]!);
  expect(fs.statSync(png).size).toBeGreaterThan(5000);
  return png;
}

/** Phone and desktop screenshots of the current page. */
export async function shotBoth(
  page: Page,
  name: string,
  shot: (page: Page, name: string) => Promise<void>,
): Promise<void> {
  await page.setViewportSize({ width: 1366, height: 900 });
  await shot(page, `${name}-desktop`);
  await page.setViewportSize({ width: 360, height: 780 });
  await shot(page, `${name}-phone`);
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, `${name}: no horizontal scroll on a 360 px phone`).toBeLessThanOrEqual(1);
  await page.setViewportSize({ width: 1366, height: 900 });
}

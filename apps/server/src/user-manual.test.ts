// The user manual PDF the product serves (/user_manual.pdf, built by scripts/build-manual.mjs from
// docs/manual): every page laid out without words drawn over each other (list markers included).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from './config.ts';
import { overlappingWords, wordBoxes } from './testing/pdf-words.ts';

describe('user manual PDF', () => {
  let dir = '';
  let file = '';
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'diagrodl-manual-'));
    file = path.join(dir, 'manual.pdf');
    execFileSync(process.execPath, [path.join(repoRoot, 'scripts', 'build-manual.mjs'), file]);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('has no two words over each other on any page, and each list item starts right of its marker', () => {
    const info = execFileSync('pdfinfo', [file]).toString();
    const pages = Number(/^Pages:\s+(\d+)/m.exec(info)![1]);
    expect(pages).toBeGreaterThan(3);
    let markers = 0;
    for (let page = 1; page <= pages; page++) {
      const boxes = wordBoxes(file, page);
      expect(overlappingWords(boxes, 1), `page ${page}`).toEqual([]);
      for (const [i, box] of boxes.entries()) {
        if (!/^(•|\d+\.)$/.test(box.word)) continue;
        const next = boxes[i + 1];
        if (!next || Math.abs(next.y0 - box.y0) > 2) continue;
        markers++;
        expect(next.x0, `page ${page}: '${box.word} ${next.word}'`).toBeGreaterThan(box.x1);
      }
    }
    expect(markers).toBeGreaterThan(20);
  });
});

// The report and 'start anew' at the same time: whichever order they run in, no report PDF
// outlives the rows it shows.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { DIAGNOSIS_MESSAGES as M } from '@diagrodl/contracts';
import type { DiagnosisRepository } from '../diagnosis.repository.ts';
import { MediaStore } from '../media.ts';
import { ReportService } from './report.service.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const row = {
  id: 7,
  user_id: 1,
  name_img: 'hoja.jpg',
  file: 'p7.jpg',
  label: 'early_blight',
  probability: 0.97,
  accepted: 1,
  top3: JSON.stringify([{ label: 'early_blight', probability: 0.97 }]),
  model: 'mobilenet',
  heatmap_file: null,
  reason: null,
  leaf_probability: 0.999,
  lab_like: 0.9,
  status: 'done',
};

/** A repository whose rows are gone from the `goneAfter`-th read of them on (0: never gone). */
function service(goneAfter: number) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'report-race-'));
  dirs.push(root);
  const media = new MediaStore(root);
  let reads = 0;
  const repo = {
    listDone: async () => (goneAfter && ++reads >= goneAfter ? [] : [row]),
    userLanguage: async () => ({ language: 'es', userName: 'ana01' }),
  } as unknown as DiagnosisRepository;
  const models = { accuracy: () => 0.98, list: () => [], thumbnail: async () => null } as never;
  return { svc: new ReportService(repo, media, models), reports: () => media.dir('reports', 1) };
}

const files = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir) : []);

it('keeps the report when the rows are still there', async () => {
  const { svc, reports } = service(0);
  const { url } = await svc.makeReport(1, 'http://x');
  expect(files(reports())).toEqual([path.basename(url)]);
});

it("leaves no report when 'start anew' removed the rows while it was being made", async () => {
  const { svc, reports } = service(2); // read once to make it, gone when checked after writing
  await expect(svc.makeReport(1, 'http://x')).rejects.toMatchObject({
    statusCode: 400,
    detail: M.noRows,
  });
  expect(files(reports())).toEqual([]);
});

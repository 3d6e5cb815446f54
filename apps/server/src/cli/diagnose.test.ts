// The diagnose CLI (npm run -s diagnose) on a tiny model: --json output, --eval, errors.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NOT_LEAF, NOT_LEAF_HINT } from '@diagrodl/contracts';
import { CLASS_IDS } from '@diagrodl/contracts/classes';
import { repoRoot } from '../config.ts';
import { NOT_RECOGNISED_ADVICE } from '../modules/diagnosis/report/advice.ts';
import { leafPhoto, runDiagnoseCli } from '../testing/diagnosis.ts';
import { makeModelsDir } from '../testing/tiny-model.ts';
import { adviceOf, collectImages } from './diagnose-rows.ts';

const TSX = path.join(repoRoot, 'node_modules', '.bin', 'tsx');
const CLI = path.join(repoRoot, 'apps', 'server', 'src', 'cli', 'diagnose.ts');

describe('diagnose CLI', { timeout: 180_000 }, () => {
  let models = '';
  let notLeafModels = '';
  let work = '';
  const runWith = runDiagnoseCli;
  const run = (...args: string[]) => runWith(models, ...args);

  beforeAll(async () => {
    models = makeModelsDir(['mobilenet', 'resnet50']);
    // a model whose leaf output says 'not a tomato leaf' for every photo
    notLeafModels = makeModelsDir(['mobilenet'], {
      leafBias: { mobilenet: -1000 },
      leafThreshold: { mobilenet: 0.5 },
    });
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'diagrodl-cli-'));
    fs.mkdirSync(path.join(work, 'photos', 'sub'), { recursive: true });
    fs.writeFileSync(path.join(work, 'photos', 'a.jpg'), await leafPhoto({ seed: 1 }));
    fs.writeFileSync(
      path.join(work, 'photos', 'sub', 'b.png'),
      await leafPhoto({ seed: 2, format: 'png' }),
    );
    fs.writeFileSync(path.join(work, 'photos', 'notes.txt'), 'not an image');
    const pv = path.join(work, 'pv');
    for (const [folder, n] of [
      ['Tomato___Late_blight', 2],
      ['Tomato___healthy', 3],
    ] as const) {
      fs.mkdirSync(path.join(pv, folder), { recursive: true });
      for (let i = 0; i < n; i++) {
        fs.writeFileSync(path.join(pv, folder, `${i}.jpg`), await leafPhoto({ seed: 10 + i }));
      }
    }
  });
  afterAll(() => {
    fs.rmSync(work, { recursive: true, force: true });
    fs.rmSync(models, { recursive: true, force: true });
    fs.rmSync(notLeafModels, { recursive: true, force: true });
  });

  it('prints one JSON result per image of the given files and folders', () => {
    const r = run('--json', path.join(work, 'photos'));
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.map((x: { file: string }) => path.relative(work, x.file))).toEqual([
      path.join('photos', 'a.jpg'),
      path.join('photos', 'sub', 'b.png'),
    ]);
    for (const x of out) {
      expect(Object.keys(x).sort()).toEqual([
        'accepted',
        'advice',
        'field_photo',
        'file',
        'lab_like',
        'label',
        'leaf_probability',
        'probability',
        'reason',
        'top3',
      ]);
      expect(x.accepted).toBe(true);
      expect(x.reason).toBeNull();
      expect(x.advice).toBeNull(); // a diagnosis: its advice is the disease page
      expect(x.leaf_probability).toBeNull(); // the tiny model has no leaf output
      expect(x.lab_like).toBeNull(); // nor a lab_like output: no field-photo caution
      expect(x.field_photo).toBe(false);
      expect(CLASS_IDS).toContain(x.label);
      expect(x.top3).toHaveLength(3);
      expect(x.top3[0]).toEqual({ label: x.label, probability: x.probability });
    }
    const ens = JSON.parse(
      run('--json', '--model', 'ensemble', path.join(work, 'photos', 'a.jpg')).stdout,
    );
    expect(ens[0].probability).toBeCloseTo(out[0].probability, 5);
  });

  it('--eval prints accuracy, per-class recall, the confusion matrix and the share not accepted', () => {
    const r = run('--eval', path.join(work, 'pv'));
    expect(r.status, r.stderr).toBe(0);
    const e = JSON.parse(r.stdout);
    expect(e.n).toBe(5);
    expect(e.model).toBe('mobilenet');
    expect(e.confusion_matrix).toHaveLength(CLASS_IDS.length);
    const rowSum = (id: string) =>
      (e.confusion_matrix[CLASS_IDS.indexOf(id as never)] as number[]).reduce((a, b) => a + b, 0);
    expect(rowSum('late_blight')).toBe(2);
    expect(rowSum('healthy')).toBe(3);
    expect(e.accuracy).toBeGreaterThanOrEqual(0);
    expect(e.accuracy).toBeLessThanOrEqual(1);
    expect(Object.keys(e.per_class_recall)).toEqual([...CLASS_IDS]);
    expect(e.per_class_recall.bacterial_spot).toBeNull();
    expect(e.not_accepted_share).toBe(0); // the tiny model's card threshold is 0
    expect(e.not_leaf_share).toBe(0);
    expect(e.low_confidence_share).toBe(0);
    // no lab_like output: no field-photo caution, no figures by photo kind
    expect(e.field_photo_share).toBe(0);
    expect(e).not.toHaveProperty('by_photo_kind');
  });

  it("reports 'not_leaf' (JSON, text and --eval) for a model whose leaf output refuses the photo", () => {
    const json = runWith(notLeafModels, '--json', path.join(work, 'photos', 'a.jpg'));
    expect(json.status, json.stderr).toBe(0);
    const [entry] = JSON.parse(json.stdout);
    expect(entry).toMatchObject({
      accepted: false,
      reason: 'not_leaf',
      leaf_probability: 0,
      field_photo: false,
    });
    // the advice of the results screen and the report: this tool diagnoses tomato leaves only
    expect(entry.advice).toEqual({ es: NOT_LEAF_HINT.es, en: NOT_LEAF_HINT.en });
    expect(entry.advice.es).toContain('solo diagnostica hojas de tomate');
    expect(entry.advice.en).toContain('diagnoses tomato leaves only');
    const text = runWith(notLeafModels, path.join(work, 'photos', 'a.jpg'));
    expect(text.stdout).toContain(`\t${NOT_LEAF.es}\t`);
    // the hint is the line's last column, as the field-photo caution is for a diagnosis
    expect(text.stdout.trimEnd().split('\t').at(-1)).toBe(NOT_LEAF_HINT.es);
    const e = JSON.parse(runWith(notLeafModels, '--eval', path.join(work, 'pv')).stdout);
    expect(e).toMatchObject({ not_accepted_share: 1, not_leaf_share: 1, low_confidence_share: 0 });
  });

  it('gives each refusal its own advice; only the not-leaf one speaks of tomato leaves only', () => {
    expect(adviceOf('not_leaf')).toEqual({ es: NOT_LEAF_HINT.es, en: NOT_LEAF_HINT.en });
    const unsure = adviceOf('low_confidence');
    expect(unsure).toEqual({
      es: NOT_RECOGNISED_ADVICE.es.join(' '),
      en: NOT_RECOGNISED_ADVICE.en.join(' '),
    });
    expect(unsure!.es).not.toMatch(/otro cultivo|solo diagnostica/);
    expect(unsure!.en).not.toMatch(/another crop|leaves only/);
    expect(adviceOf(null)).toBeNull();
  });

  it('takes 600 long file arguments through npm run, streams --jsonl with progress, and error entries', async () => {
    // ~110-character paths, as a shell glob over a folder of field photos gives them: a command
    // line of ~66 KB made onnxruntime overflow its stack (SIGSEGV, exit 139, nothing printed)
    const dir = path.join(work, 'field-campaign-2026-with-a-long-folder-name', 'plot-07-north');
    fs.mkdirSync(dir, { recursive: true });
    const photo = await leafPhoto({ seed: 3 });
    const files: string[] = [];
    for (let i = 0; i < 598; i++) {
      const f = path.join(dir, `IMG_20260412_${String(i).padStart(4, '0')}_field.jpg`);
      fs.writeFileSync(f, photo);
      files.push(f);
    }
    const junk = path.join(dir, 'IMG_junk.jpg');
    fs.writeFileSync(junk, 'not a photo at all');
    const missing = path.join(dir, 'IMG_gone.jpg');
    files.splice(100, 0, junk);
    files.splice(400, 0, missing);
    expect(files).toHaveLength(600);
    expect(files[0]!.length).toBeGreaterThan(90);

    const npm = spawnSync(
      'npm',
      ['run', '-s', 'diagnose', '--', '--model', 'mobilenet', '--jsonl', ...files],
      { cwd: repoRoot, env: { ...process.env, MODELS_DIR: models }, encoding: 'utf8' },
    );
    expect(npm.signal).toBeNull();
    expect(npm.status, npm.stderr).toBe(1); // two entries are errors
    const lines = npm.stdout.trim().split('\n');
    expect(lines).toHaveLength(600);
    const entries = lines.map((l) => JSON.parse(l));
    expect(entries.map((e: { file: string }) => e.file)).toEqual(files);
    expect(entries[100]).toEqual({ file: junk, error: expect.stringMatching(/cannot be read/) });
    expect(entries[400]).toEqual({ file: missing, error: 'no such file or folder' });
    expect(entries.filter((e: { error?: string }) => e.error)).toHaveLength(2);
    expect(entries[0]).toMatchObject({ file: files[0], accepted: true, reason: null });
    expect(npm.stderr).toContain('diagnose: 600/600 photos');

    // the same list on stdin (--files-from -), as --json: one array
    const json = spawnSync(TSX, [CLI, '--json', '--files-from', '-'], {
      cwd: repoRoot,
      env: { ...process.env, MODELS_DIR: models },
      input: files.join('\0'),
      encoding: 'utf8',
    });
    expect(json.status, json.stderr).toBe(1);
    const arr = JSON.parse(json.stdout);
    expect(arr).toHaveLength(600);
    expect(arr[100].error).toMatch(/cannot be read/);
  });

  it('gives a broken link named like a photo an error entry and diagnoses the rest of the folder', async () => {
    const dir = path.join(work, 'with-broken-link');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'good.jpg'), await leafPhoto({ seed: 4 }));
    fs.symlinkSync(path.join(dir, 'deleted-long-ago.jpg'), path.join(dir, 'broken.jpg'));
    const r = run('--json', dir);
    expect(r.status, r.stderr).toBe(1); // one entry is an error
    const out = JSON.parse(r.stdout);
    expect(out).toEqual([
      { file: path.join(dir, 'broken.jpg'), error: 'no such file or folder' },
      expect.objectContaining({ file: path.join(dir, 'good.jpg'), accepted: true }),
    ]);
  });

  it('lists a subfolder that cannot be read (for its error entry) and the rest of the folder', () => {
    const dir = path.join(work, 'with-locked-folder');
    fs.mkdirSync(path.join(dir, 'locked'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'open'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'named.jpg')); // a folder named like a photo: no entry
    for (const f of ['a.jpg', 'locked/b.jpg', 'open/c.png', 'open/notes.txt']) {
      fs.writeFileSync(path.join(dir, f), 'x');
    }
    const locked = path.join(dir, 'locked');
    // as root, chmod 000 does not keep readdir out: the refusal is made here
    const readdir = fs.readdirSync.bind(fs) as (p: fs.PathLike, o?: unknown) => unknown;
    const spy = vi.spyOn(fs, 'readdirSync').mockImplementation(((p: fs.PathLike, o?: unknown) => {
      if (path.resolve(String(p)) === locked) {
        throw Object.assign(new Error(`EACCES: permission denied, scandir '${locked}'`), {
          code: 'EACCES',
        });
      }
      return readdir(p, o);
    }) as typeof fs.readdirSync);
    try {
      expect(collectImages([dir])).toEqual([
        path.join(dir, 'a.jpg'),
        locked,
        path.join(dir, 'open', 'c.png'),
      ]);
    } finally {
      spy.mockRestore();
    }
  });

  it('fails clearly on a model that is not loaded, a bad option or a missing path', () => {
    const missing = run('--model', 'vgg16', path.join(work, 'photos'));
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/model vgg16 is not available/);
    expect(run('--model', 'alexnet', 'x').status).toBe(2);
    expect(run(path.join(work, 'nothing-here')).stderr).toMatch(/no such file or folder/);
    expect(run().stderr).toMatch(/usage/);
  });
});

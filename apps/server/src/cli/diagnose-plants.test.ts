// The diagnose CLI's plants (issue 68): --plants DIR, --plant FILE..., the text form, bad input.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAVES_DISAGREE_HINT, NOT_LEAF_HINT, PLANT_RULE } from '@diagrodl/contracts';
import { CLASS_IDS } from '@diagrodl/contracts/classes';
import { decideOne } from '@diagrodl/contracts/inference/decision';
import type { Classification } from '../inference/classifier.ts';
import { leafPhoto, runDiagnoseCli } from '../testing/diagnosis.ts';
import { makeModelsDir } from '../testing/tiny-model.ts';
import { plantJsonEntry, plantResult } from './diagnose-plants.ts';
import type { FileResult } from './diagnose-rows.ts';

describe('diagnose CLI, plants', { timeout: 180_000 }, () => {
  let models = '';
  let notLeafModels = '';
  let work = '';
  const run = (...args: string[]) => runDiagnoseCli(models, ...args);
  const plants = () => path.join(work, 'plants');

  beforeAll(async () => {
    models = makeModelsDir(['mobilenet']);
    notLeafModels = makeModelsDir(['mobilenet'], {
      leafBias: { mobilenet: -1000 },
      leafThreshold: { mobilenet: 0.5 },
    });
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'diagrodl-plants-'));
    // plant "a": one photo three times (its leaves agree); plant "b": one other photo
    const a = await leafPhoto({ seed: 3 });
    fs.mkdirSync(path.join(plants(), 'a'), { recursive: true });
    fs.mkdirSync(path.join(plants(), 'b'), { recursive: true });
    for (const name of ['1.jpg', '2.jpg', '3.jpg'])
      fs.writeFileSync(path.join(plants(), 'a', name), a);
    fs.writeFileSync(
      path.join(plants(), 'b', 'leaf.png'),
      await leafPhoto({ seed: 4, format: 'png' }),
    );
    fs.writeFileSync(path.join(plants(), 'notes.txt'), 'not a photo, not a plant');
  });
  afterAll(() => {
    fs.rmSync(work, { recursive: true, force: true });
    fs.rmSync(models, { recursive: true, force: true });
    fs.rmSync(notLeafModels, { recursive: true, force: true });
  });

  it('--json --plants prints one answer per subfolder, with its leaves as today', () => {
    const r = run('--json', '--plants', plants());
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.map((p: { plant: string }) => p.plant)).toEqual(['a', 'b']);
    const [a, b] = out;
    const today = JSON.parse(run('--json', path.join(plants(), 'a', '1.jpg')).stdout)[0];
    expect(a.leaves).toHaveLength(3);
    expect(a.leaves[0]).toEqual(today);
    // three identical leaves: the geometric mean is the leaf's own probabilities
    expect(a).toMatchObject({ label: today.label, agreeing: 3, voting: 3 });
    expect(a.probability).toBeCloseTo(today.probability, 6);
    // a diagnosis when the leaves each are one (of the same class) or when they are sure together
    const confident = today.accepted || a.probability >= PLANT_RULE.threshold;
    expect(a.outcome).toBe(confident ? 'diagnosis' : 'low_confidence');
    expect(a.accepted).toBe(confident);
    expect(a.reason).toBe(confident ? null : 'low_confidence');
    // one photo: exactly that photo's answer
    const [leaf] = b.leaves;
    expect(b).toMatchObject({
      label: leaf.label,
      probability: leaf.probability,
      accepted: leaf.accepted,
      reason: leaf.reason,
      top3: leaf.top3,
      advice: leaf.advice,
      agreeing: 1,
      voting: 1,
    });
    expect(b.outcome).toBe(leaf.accepted ? 'diagnosis' : 'low_confidence');
    expect(Object.keys(b).sort()).toEqual(
      [
        'accepted',
        'advice',
        'agreeing',
        'label',
        'leaves',
        'outcome',
        'plant',
        'probability',
        'reason',
        'top3',
        'voting',
      ].sort(),
    );
  });

  it('prints plants as text, and --plant takes the files given as one plant', () => {
    const text = run('--plants', plants());
    expect(text.status, text.stderr).toBe(0);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[0]).toMatch(/^a\t.+\t0\.\d{4}\t3 de 3 hojas\t\(/);
    expect(lines.slice(1, 4).every((l) => l.startsWith(`  ${path.join(plants(), 'a')}`))).toBe(
      true,
    );
    expect(lines[4]).toMatch(/^b\t.+\t1 de 1 hojas\t/);
    const one = run(
      '--jsonl',
      '--plant',
      path.join(plants(), 'a', '1.jpg'),
      path.join(plants(), 'b'),
    );
    expect(one.status, one.stderr).toBe(0);
    const rows = one.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ plant: null, voting: 2 });
    expect(rows[0].leaves).toHaveLength(2);
  });

  it('calls a plant of photos that are not tomato leaves not a tomato plant', () => {
    const r = runDiagnoseCli(notLeafModels, '--json', '--plants', plants());
    expect(r.status, r.stderr).toBe(0);
    for (const p of JSON.parse(r.stdout)) {
      expect(p).toMatchObject({ outcome: 'not_tomato', accepted: false, reason: 'not_leaf' });
      expect(p).toMatchObject({ voting: 0, agreeing: 0 });
      expect(p.advice).toEqual({ es: NOT_LEAF_HINT.es, en: NOT_LEAF_HINT.en });
    }
  });

  it('fails clearly, with exit code 2, on input that is not a plant', () => {
    const bad = path.join(work, 'bad');
    fs.mkdirSync(path.join(bad, 'empty'), { recursive: true });
    let r = run('--json', '--plants', bad);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/plant empty: no JPEG, PNG or WebP photos/);
    fs.rmdirSync(path.join(bad, 'empty'));
    const six = path.join(bad, 'six');
    fs.mkdirSync(six);
    for (let i = 0; i < 6; i++)
      fs.copyFileSync(path.join(plants(), 'a', '1.jpg'), path.join(six, `${i}.jpg`));
    r = run('--plants', bad);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/plant six: 6 photos; a plant takes 1 to 5/);
    r = run('--plant', ...fs.readdirSync(six).map((f) => path.join(six, f)));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/6 photos/);
    r = run('--plants', path.join(plants(), 'b', 'leaf.png'));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/not a folder/);
    r = run('--plants', path.join(plants(), 'b'));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/leaf\.png is not in a plant's subfolder/);
    r = run('--plants', path.join(work, 'no-such-folder'));
    expect(r.status).toBe(2);
  });
});

describe('a plant entry', () => {
  const RULE = { threshold: 0.54, field_threshold: 0.718, leaf_threshold: 0.3923 };
  const result = (label: number, p: number): Classification => {
    const probabilities = CLASS_IDS.map((_, i) => (i === label ? p : (1 - p) / 9));
    return {
      ...decideOne(RULE, { probabilities, leaf: 0.9, labLike: 0.1 }),
      cam: { width: 1, height: 1, data: new Float32Array(1) },
    } as unknown as Classification;
  };

  it('names the diseases of leaves that disagree, and skips a photo that cannot be read', () => {
    const leaves: FileResult[] = [
      { file: 'x.jpg', result: result(1, 0.9) },
      { file: 'y.jpg', result: result(4, 0.8) },
      { file: 'z.jpg', result: null, error: 'cannot be read as an image (bad)' },
    ];
    const e = plantJsonEntry(
      plantResult({ plant: 'p', files: ['x.jpg', 'y.jpg', 'z.jpg'] }, leaves),
    );
    expect(e).toMatchObject({
      plant: 'p',
      outcome: 'disagree',
      accepted: false,
      reason: 'disagree',
      voting: 2,
      diseases: [
        { label: 'early_blight', leaves: 1, probability: 0.9 },
        { label: 'septoria_leaf_spot', leaves: 1, probability: 0.8 },
      ],
      advice: { es: LEAVES_DISAGREE_HINT.es, en: LEAVES_DISAGREE_HINT.en },
    });
    expect(e.leaves).toEqual([
      expect.objectContaining({ file: 'x.jpg', label: 'early_blight' }),
      expect.objectContaining({ file: 'y.jpg', label: 'septoria_leaf_spot' }),
      { file: 'z.jpg', error: 'cannot be read as an image (bad)' },
    ]);
    const none = plantJsonEntry(plantResult({ plant: 'q', files: ['z.jpg'] }, [leaves[2]!]));
    expect(none).toMatchObject({ plant: 'q', error: 'none of its photos can be read' });
  });
});

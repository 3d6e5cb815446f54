// The plant's answer from its leaves' rows (issue 68).
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLASS_IDS, type ClassId } from './classes.ts';
import { decideOne, type RejectionRule } from './inference/decision.ts';
import { parseEnsembleCard } from './model-card.ts';
import {
  MAX_PLANT_LEAVES,
  PLANT_RULE,
  type PlantLeaf,
  combinePlant,
  combineProbabilities,
} from './plant.ts';

/** The shipped ensemble's single-photo rule (models/ensemble.card.json `rejection`). */
const RULE: RejectionRule = { threshold: 0.54, field_threshold: 0.718, leaf_threshold: 0.3923 };

/** Probabilities with `p` on `label` and the rest spread evenly. */
function probs(label: ClassId, p: number, second?: [ClassId, number]): number[] {
  const rest = 1 - p - (second?.[1] ?? 0);
  const others = CLASS_IDS.length - (second ? 2 : 1);
  return CLASS_IDS.map((id) => (id === label ? p : id === second?.[0] ? second[1] : rest / others));
}

/** A leaf's row as the single-photo decision gives it (a field-like photo). */
function leaf(label: ClassId, p: number, leafP = 0.95, second?: [ClassId, number]) {
  return decideOne(RULE, { probabilities: probs(label, p, second), leaf: leafP, labLike: 0.1 });
}

describe('combinePlant', () => {
  it('gives one photo exactly its own answer: accepted, low_confidence and not_leaf', () => {
    const cases: [ReturnType<typeof leaf>, string][] = [
      [leaf('early_blight', 0.8), 'diagnosis'],
      [leaf('early_blight', 0.6), 'low_confidence'],
      [leaf('early_blight', 0.9, 0.2), 'not_tomato'],
    ];
    for (const [row, outcome] of cases) {
      const a = combinePlant([row]);
      expect(a).toMatchObject({ outcome, label: row.label, probability: row.probability });
      expect(a.top3).toEqual(row.top3);
      expect(a.probabilities).toEqual(row.probabilities);
      expect(a.leaves).toBe(1);
      expect(a.voting).toBe(row.reason === 'not_leaf' ? 0 : 1);
      expect(a.diseases).toBeUndefined();
    }
  });

  it('gives leaves that agree one diagnosis, even when none is confident alone', () => {
    const rows = [
      leaf('late_blight', 0.6, 0.95, ['early_blight', 0.2]),
      leaf('late_blight', 0.6, 0.95, ['septoria_leaf_spot', 0.2]),
      leaf('late_blight', 0.55, 0.95, ['leaf_mold', 0.2]),
    ];
    expect(rows.every((r) => !r.accepted)).toBe(true);
    const a = combinePlant(rows);
    expect(a).toMatchObject({ outcome: 'diagnosis', label: 'late_blight', agreeing: 3, voting: 3 });
    expect(a.probability).toBeGreaterThanOrEqual(PLANT_RULE.threshold);
    expect(a.top3[0]).toEqual({ label: 'late_blight', probability: a.probability });
  });

  it('keeps weak agreement below the threshold as low_confidence', () => {
    const a = combinePlant([leaf('leaf_mold', 0.35), leaf('leaf_mold', 0.4)]);
    expect(a).toMatchObject({ outcome: 'low_confidence', label: 'leaf_mold', agreeing: 2 });
  });

  it('never withholds the class every voting leaf is a diagnosis of alone', () => {
    // lab-like leaves are held to the lower threshold (0.54): each is a diagnosis alone
    const lab = (p: number) =>
      decideOne(RULE, { probabilities: probs('mosaic_virus', p), leaf: 0.95, labLike: 0.9 });
    const rows = [lab(0.56), lab(0.57), lab(0.58)];
    expect(rows.every((r) => r.accepted)).toBe(true);
    const a = combinePlant(rows);
    expect(a.probability).toBeLessThan(PLANT_RULE.threshold);
    expect(a).toMatchObject({ outcome: 'diagnosis', label: 'mosaic_virus', agreeing: 3 });
    // one of them not sure alone: the threshold decides
    expect(combinePlant([lab(0.56), lab(0.57), lab(0.5)]).outcome).toBe('low_confidence');
  });

  it('names the diseases of leaves that confidently disagree', () => {
    const a = combinePlant([
      leaf('early_blight', 0.9),
      leaf('septoria_leaf_spot', 0.85),
      leaf('early_blight', 0.8),
      leaf('yellow_leaf_curl_virus', 0.3),
    ]);
    expect(a.outcome).toBe('disagree');
    expect(a.probability).toBeLessThan(PLANT_RULE.threshold);
    expect(a.diseases).toEqual([
      { label: 'early_blight', leaves: 2, probability: 0.9 },
      { label: 'septoria_leaf_spot', leaves: 1, probability: 0.85 },
    ]);
    expect(a).toMatchObject({ voting: 4, leaves: 4, label: 'early_blight', agreeing: 2 });
  });

  it('lets a photo refused as not a leaf not vote', () => {
    const notLeaf = leaf('bacterial_spot', 0.99, 0.05);
    const a = combinePlant([leaf('leaf_mold', 0.65), leaf('leaf_mold', 0.7), notLeaf]);
    expect(a).toMatchObject({ outcome: 'diagnosis', label: 'leaf_mold', voting: 2, leaves: 3 });
    const without = combinePlant([leaf('leaf_mold', 0.65), leaf('leaf_mold', 0.7)]);
    expect(a.probabilities).toEqual(without.probabilities);
    // one voting leaf left: that leaf's own answer
    const one = leaf('leaf_mold', 0.65);
    expect(combinePlant([one, notLeaf])).toMatchObject({
      outcome: 'low_confidence',
      label: 'leaf_mold',
      probability: one.probability,
      voting: 1,
    });
  });

  it('calls a plant whose photos are mostly not tomato leaves not_tomato', () => {
    const rows = [
      leaf('early_blight', 0.95),
      leaf('late_blight', 0.9, 0.1),
      leaf('late_blight', 0.9, 0.2),
    ];
    expect(combinePlant(rows)).toMatchObject({ outcome: 'not_tomato', voting: 1, leaves: 3 });
    // half of them: the leaves still vote
    expect(combinePlant([...rows, leaf('early_blight', 0.9)]).outcome).toBe('diagnosis');
  });

  it('takes 1 to MAX_PLANT_LEAVES photos', () => {
    const row = leaf('healthy', 0.9);
    expect(() => combinePlant([])).toThrow(RangeError);
    expect(combinePlant(new Array<PlantLeaf>(MAX_PLANT_LEAVES).fill(row)).outcome).toBe(
      'diagnosis',
    );
    expect(() => combinePlant(new Array<PlantLeaf>(MAX_PLANT_LEAVES + 1).fill(row))).toThrow(
      RangeError,
    );
  });
});

describe('combineProbabilities', () => {
  it('renormalises the geometric mean and survives a zero', () => {
    const g = combineProbabilities(
      [
        [0.5, 0.5, 0],
        [0.8, 0.2, 0],
      ],
      'geometric_mean',
    );
    expect(g.reduce((s, p) => s + p, 0)).toBeCloseTo(1, 12);
    expect(g[0]! / g[1]!).toBeCloseTo(Math.sqrt(0.4) / Math.sqrt(0.1), 9);
    const m = combineProbabilities(
      [
        [0.2, 0.8],
        [0.6, 0.4],
      ],
      'mean',
    );
    expect(m[0]).toBeCloseTo(0.4, 12);
    expect(m[1]).toBeCloseTo(0.6, 12);
  });
});

describe("the ensemble card's plant block", () => {
  it('holds the rule the code ships', () => {
    const url = new URL('../../../models/ensemble.card.json', import.meta.url);
    const card = parseEnsembleCard(JSON.parse(fs.readFileSync(url, 'utf8')));
    expect(card.plant?.rule).toEqual(PLANT_RULE);
  });
});

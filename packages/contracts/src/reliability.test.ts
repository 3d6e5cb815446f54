import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ModelCard, parseEnsembleCard, parseModelCard } from './model-card.ts';
import {
  RELIABILITY_SETS,
  ensembleReliabilityOf,
  fieldRowOf,
  fieldTop1Of,
  reliabilityOf,
} from './reliability.ts';

const MODELS = path.resolve(import.meta.dirname, '../../../models');
const read = (name: string): unknown =>
  JSON.parse(fs.readFileSync(path.join(MODELS, `${name}.card.json`), 'utf8'));

describe('reliabilityOf (the shipped cards)', () => {
  it("reads every set's figures from the MobileNet card, in the order the page shows them", () => {
    const card = parseModelCard(read('mobilenet'));
    const ev = card.out_of_distribution.evaluation!;
    const rows = reliabilityOf(card);
    expect(rows.map((r) => r.set)).toEqual([
      'lab_test',
      'lab_new_leaves',
      'field_val',
      'field_val_all',
      'field_holdout',
      'stress',
      'negatives_holdout',
      'other_crop_holdout',
    ]);
    const [lab, fresh, field, fieldAll, heldOut, stress, negatives, otherCrops] = rows;
    expect(lab).toEqual({
      set: 'lab_test',
      n: card.metrics.n,
      top1: card.metrics.accuracy,
      // the interval over the split's groups, wider than the photo-by-photo one
      top1Ci95: card.metrics.accuracy_ci95_by_group,
      acceptedShare: ev.lab_test!.accepted_share,
      accuracyAccepted: ev.lab_test!.accuracy_accepted,
      accuracyAcceptedCi95: ev.lab_test!.accuracy_accepted_ci95,
    });
    expect(fresh).toEqual({
      set: 'lab_new_leaves',
      n: card.metrics.without_near_twins!.n,
      top1: card.metrics.without_near_twins!.accuracy,
      top1Ci95: card.metrics.without_near_twins!.accuracy_ci95_by_group,
    });
    for (const [row, e] of [
      [field, ev.field_val!],
      [fieldAll, ev.field_val_all!],
      [heldOut, ev.field_holdout!],
      [stress, ev.stress_from_lab_test!],
    ] as const) {
      expect(row).toEqual({
        set: row!.set,
        n: e.n,
        top1: e.top1,
        top1Ci95: e.top1_ci95,
        acceptedShare: e.accepted_share,
        accuracyAccepted: e.accuracy_accepted,
        accuracyAcceptedCi95: e.accuracy_accepted_ci95,
      });
    }
    expect(negatives).toEqual({
      set: 'negatives_holdout',
      n: ev.negatives_holdout!.n,
      refusedShare: ev.negatives_holdout!.refused_share,
      refusedCi95: ev.negatives_holdout!.refused_ci95,
    });
    // other crops' leaves: refused, and how many of them as "not a tomato leaf"
    expect(otherCrops).toEqual({
      set: 'other_crop_holdout',
      n: ev.other_crop_holdout!.n,
      refusedShare: ev.other_crop_holdout!.refused_share,
      refusedCi95: ev.other_crop_holdout!.refused_ci95,
      notLeafShare: ev.other_crop_holdout!.not_leaf_share,
    });
    // "on field photos" is the held-out photos' row: never trained on, never used for a choice
    expect(fieldRowOf(rows)).toBe(heldOut);
    expect(fieldTop1Of(card)).toBe(ev.field_holdout!.top1);
  });

  it('gives the ResNet50 and VGG16 cards their field figures too', () => {
    for (const name of ['resnet50', 'vgg16']) {
      const card = parseModelCard(read(name));
      const ev = card.out_of_distribution.evaluation!;
      const rows = reliabilityOf(card);
      const field = rows.find((r) => r.set === 'field_val');
      expect(field?.accuracyAccepted).toBe(ev.field_val!.accuracy_accepted);
      // "on field photos": the held-out photos where the card has them (the VGG16's has not)
      const preferred = ev.field_holdout ? 'field_holdout' : 'field_val';
      expect(fieldRowOf(rows)?.set, name).toBe(preferred);
      expect(fieldRowOf(rows)?.accuracyAccepted).toBe(ev[preferred]!.accuracy_accepted);
    }
  });

  it("reads the ensemble card's lab figures and nothing it did not measure", () => {
    const card = parseEnsembleCard(read('ensemble'));
    const rows = ensembleReliabilityOf(card);
    // the lab rows, then a row for each set the card's field evaluation holds, in the page's order
    const fe = card.field_evaluation ?? {};
    // the stress set's row reads the card's stress_from_lab_test, as for a network's card
    const keyOf = (set: string) => (set === 'stress' ? 'stress_from_lab_test' : set);
    const measured = RELIABILITY_SETS.filter(
      (set) => set !== 'lab_test' && set !== 'lab_new_leaves' && fe[keyOf(set)] !== undefined,
    );
    expect(rows.map((r) => r.set)).toEqual(['lab_test', 'lab_new_leaves', ...measured]);
    expect(measured).toEqual(expect.arrayContaining(['stress', 'negatives_holdout']));
    for (const row of rows.slice(2)) {
      const e = fe[keyOf(row.set)]!;
      expect(row, row.set).toMatchObject({ n: e.n });
      if (e.top1 !== undefined)
        expect(row).toMatchObject({
          top1: e.top1,
          acceptedShare: e.accepted_share,
          accuracyAccepted: e.accuracy_accepted,
        });
      else expect(row).toMatchObject({ refusedShare: e.refused_share });
    }
    expect(rows[0]).toEqual({
      set: 'lab_test',
      n: card.metrics.n,
      top1: card.metrics.accuracy,
      top1Ci95: card.metrics.accuracy_ci95_by_group,
      acceptedShare: card.metrics.coverage,
      accuracyAccepted: card.metrics.accuracy_accepted,
    });
    const { accuracy_ci95_by_group: _g, without_near_twins: _w, ...older } = card.metrics;
    const { field_evaluation: _f, ...labOnly } = card;
    const oldRows = ensembleReliabilityOf({ ...labOnly, metrics: older });
    expect(oldRows.map((r) => r.set)).toEqual(['lab_test']);
    expect(oldRows[0]!.top1Ci95).toEqual(card.metrics.accuracy_ci95);
  });
});

describe('reliabilityOf (older and partial cards)', () => {
  const shipped = () => structuredClone(read('mobilenet')) as ModelCard;

  it('falls back to the rejection figures of a card measured on the lab test split only', () => {
    const c = shipped();
    delete c.out_of_distribution.evaluation;
    delete c.metrics.without_near_twins;
    delete c.metrics.accuracy_ci95_by_group;
    expect(reliabilityOf(parseModelCard(c))).toEqual([
      {
        set: 'lab_test',
        n: c.metrics.n,
        top1: c.metrics.accuracy,
        acceptedShare: c.rejection.test_coverage,
        accuracyAccepted: c.rejection.test_accuracy_accepted,
      },
    ]);
  });

  it('leaves out a set with no photos and a figure the card does not hold', () => {
    const c = shipped();
    const ev = c.out_of_distribution.evaluation!;
    ev.stress_from_lab_test = { n: 0 };
    ev.field_val = { n: 12, top1: 0.5, accepted_share: 0, accuracy_accepted: null };
    const rows = reliabilityOf(parseModelCard(c));
    expect(rows.map((r) => r.set)).not.toContain('stress');
    expect(rows.find((r) => r.set === 'field_val')).toEqual({
      set: 'field_val',
      n: 12,
      top1: 0.5,
      acceptedShare: 0,
    });
  });

  it('refuses a card whose evaluation set holds an interval upside down', () => {
    const c = shipped();
    c.out_of_distribution.evaluation!.field_val!.top1_ci95 = [0.7, 0.4];
    expect(() => parseModelCard(c)).toThrow(
      /^invalid model card at out_of_distribution\.evaluation\.field_val\.top1_ci95:/,
    );
  });
});

/** The sets cards written since 2026-11-28 may add, as ml/diagrodl_ml/transfer.py set_report writes them. */
const labelled = (n: number, top1: number, given: number, right: number) => ({
  n,
  accepted_share: given,
  not_leaf_share: 0.05,
  refused_share: Math.round((1 - given) * 1e4) / 1e4,
  top1,
  top1_ci95: [top1 - 0.07, top1 + 0.07],
  top3: 0.85,
  top3_ci95: [0.78, 0.9],
  accuracy_accepted: right,
  accuracy_accepted_ci95: [right - 0.08, right + 0.06],
  right_and_accepted: 0.3,
  per_class: { late_blight: { n: 20, top1: 0.7, accepted: 0.5 } },
});
const unlabelled = (n: number, refused: number, notLeaf: number) => ({
  n,
  accepted_share: Math.round((1 - refused) * 1e4) / 1e4,
  not_leaf_share: notLeaf,
  refused_share: refused,
  refused_ci95: [refused - 0.04, Math.min(1, refused + 0.02)],
});
const NEW_SETS = {
  field2_val: labelled(90, 0.5, 0.45, 0.7),
  field_val_all: labelled(181, 0.55, 0.4, 0.75),
  field_holdout: labelled(105, 0.52, 0.38, 0.72),
  field_holdout_1: labelled(52, 0.54, 0.4, 0.74),
  field_holdout_2: labelled(53, 0.5, 0.36, 0.7),
  other_crop_val: unlabelled(140, 0.93, 0.81),
  other_crop_holdout: unlabelled(150, 0.94, 0.83),
};

describe('reliabilityOf (cards with both field sources and the other crops)', () => {
  const shipped = () => structuredClone(read('mobilenet')) as ModelCard;
  const withNewSets = () => {
    const c = shipped();
    Object.assign(c.out_of_distribution.evaluation!, structuredClone(NEW_SETS));
    return parseModelCard(c);
  };

  it("adds rows for both sources' validation, the held-out field photos and the other crops", () => {
    const card = withNewSets();
    const rows = reliabilityOf(card);
    // the second source's held-out photos get no row of their own beside both sources'
    expect(rows.map((r) => r.set)).toEqual(RELIABILITY_SETS.filter((s) => s !== 'field_holdout_2'));
    const bySet = new Map(rows.map((r) => [r.set, r]));
    // the first source's validation part keeps its row, as before
    expect(bySet.get('field_val')).toEqual(
      reliabilityOf(parseModelCard(shipped())).find((r) => r.set === 'field_val'),
    );
    for (const set of ['field_val_all', 'field_holdout'] as const) {
      const e = NEW_SETS[set];
      expect(bySet.get(set)).toEqual({
        set,
        n: e.n,
        top1: e.top1,
        top1Ci95: e.top1_ci95,
        acceptedShare: e.accepted_share,
        accuracyAccepted: e.accuracy_accepted,
        accuracyAcceptedCi95: e.accuracy_accepted_ci95,
      });
    }
    expect(bySet.get('other_crop_holdout')).toEqual({
      set: 'other_crop_holdout',
      n: 150,
      refusedShare: 0.94,
      refusedCi95: NEW_SETS.other_crop_holdout.refused_ci95,
      notLeafShare: 0.83,
    });
    // the everyday photos' row stays as it was: no not-leaf share there
    expect(bySet.get('negatives_holdout')).not.toHaveProperty('notLeafShare');
  });

  it('gives exactly the rows it gave before to a card without the new sets', () => {
    // the shipped card as cards were before 2026-11-28: the new sets' keys deleted
    const c = shipped();
    const ev = c.out_of_distribution.evaluation!;
    for (const set of Object.keys(NEW_SETS)) delete ev[set];
    expect(Object.keys(ev).sort()).toEqual([
      'field_val',
      'lab_test',
      'negatives_holdout',
      'stress_from_lab_test',
      'synthetic_non_leaf_fresh_seed',
    ]);
    const before = reliabilityOf(parseModelCard(c));
    expect(before.map((r) => r.set)).toEqual([
      'lab_test',
      'lab_new_leaves',
      'field_val',
      'stress',
      'negatives_holdout',
    ]);
    expect(before.some((r) => 'notLeafShare' in r)).toBe(false);
    // "on field photos" falls back to the first source's validation photos
    expect(fieldRowOf(before)?.set).toBe('field_val');
    // and the new sets change none of those rows
    for (const card of [parseModelCard(shipped()), withNewSets()]) {
      const again = reliabilityOf(card).filter((r) => before.some((b) => b.set === r.set));
      expect(again).toEqual(before);
    }
  });

  it('leaves out a new set with no photos, and the other crops without a refused share', () => {
    const c = shipped();
    const ev = c.out_of_distribution.evaluation!;
    Object.assign(ev, structuredClone(NEW_SETS));
    ev.field_holdout = { n: 0 };
    delete ev.other_crop_holdout!.refused_share;
    const sets = reliabilityOf(parseModelCard(c)).map((r) => r.set);
    expect(sets).toContain('field_val_all');
    expect(sets).not.toContain('field_holdout');
    expect(sets).not.toContain('other_crop_holdout');
  });

  it('takes "on field photos" from the held-out photos, else both sources, else the first one', () => {
    const card = withNewSets();
    expect(fieldTop1Of(card)).toBe(NEW_SETS.field_holdout.top1);
    expect(fieldRowOf(reliabilityOf(card))?.set).toBe('field_holdout');
    const ev = card.out_of_distribution.evaluation!;
    delete ev.field_holdout;
    // not from the second source's held-out photos alone (the easier source): from validation
    expect(fieldTop1Of(card)).toBe(NEW_SETS.field_val_all.top1);
    delete ev.field_val_all;
    expect(fieldTop1Of(card)).toBe(ev.field_val!.top1);
    delete ev.field_val;
    expect(fieldTop1Of(card)).toBeNull();
    expect(fieldRowOf(reliabilityOf(card))).toBeUndefined();
  });

  it("adds the ensemble's field and other-crop rows when its card has a field evaluation", () => {
    const { field_evaluation: _f, ...labOnly } = structuredClone(read('ensemble')) as Record<
      string,
      unknown
    >;
    const plain = parseEnsembleCard(labOnly);
    expect(plain.field_evaluation).toBeUndefined();
    expect(fieldTop1Of(plain)).toBeNull();
    const { field_val_all, field_holdout, other_crop_holdout } = NEW_SETS;
    const card = parseEnsembleCard({
      ...labOnly,
      field_evaluation: {
        ...structuredClone({ field_val_all, field_holdout, other_crop_holdout }),
        // beside the sets, as the pipeline writes them: the members' figures and the comparison
        members_field_val_all: { mobilenet: { top1: 0.5, accepted_share: 0.4 } },
        beats_each_member_on_field_val_top1: true,
      },
    });
    const rows = ensembleReliabilityOf(card);
    expect(rows.map((r) => r.set)).toEqual([
      ...ensembleReliabilityOf(plain).map((r) => r.set),
      'field_val_all',
      'field_holdout',
      'other_crop_holdout',
    ]);
    expect(rows.slice(0, -3)).toEqual(ensembleReliabilityOf(plain));
    expect(rows.at(-2)).toMatchObject({ n: 105, top1: 0.52, accuracyAccepted: 0.72 });
    expect(rows.at(-1)).toEqual({
      set: 'other_crop_holdout',
      n: 150,
      refusedShare: 0.94,
      refusedCi95: other_crop_holdout.refused_ci95,
      notLeafShare: 0.83,
    });
    expect(fieldTop1Of(card)).toBe(0.52);
  });

  it("gives an ensemble with a member that trained on the first source's held-out photos the second's alone", () => {
    const { field_evaluation: _f, ...labOnly } = structuredClone(read('ensemble')) as Record<
      string,
      unknown
    >;
    const { field_val_all, field_holdout_2 } = NEW_SETS;
    const card = parseEnsembleCard({
      ...labOnly,
      field_evaluation: {
        ...structuredClone({ field_val_all, field_holdout_2 }),
        field_holdout_sources: [2],
        beats_each_member_on_field_val_top1: true,
      },
    });
    const rows = ensembleReliabilityOf(card);
    expect(rows.map((r) => r.set).slice(-2)).toEqual(['field_val_all', 'field_holdout_2']);
    expect(rows.at(-1)).toMatchObject({ n: 53, top1: 0.5 });
    // its row is shown, but "on field photos" stays both sources' validation photos
    expect(fieldTop1Of(card)).toBe(field_val_all.top1);
    expect(() =>
      parseEnsembleCard({ ...labOnly, field_evaluation: { field_holdout_sources: ['2'] } }),
    ).toThrow(/field_evaluation\.field_holdout_sources/);
  });
});

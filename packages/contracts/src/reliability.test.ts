import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ModelCard, parseEnsembleCard, parseModelCard } from './model-card.ts';
import { ensembleReliabilityOf, reliabilityOf } from './reliability.ts';

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
      'stress',
      'negatives_holdout',
    ]);
    const [lab, fresh, field, stress, negatives] = rows;
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
    // the figures the field goals are about, as the card states them today
    expect(field).toMatchObject({ n: 91, top1: 0.5934, accuracyAccepted: 0.8 });
  });

  it('gives the ResNet50 and VGG16 cards their field figures too', () => {
    for (const name of ['resnet50', 'vgg16']) {
      const card = parseModelCard(read(name));
      const field = reliabilityOf(card).find((r) => r.set === 'field_val');
      expect(field?.accuracyAccepted).toBe(
        card.out_of_distribution.evaluation!.field_val!.accuracy_accepted,
      );
    }
  });

  it("reads the ensemble card's lab figures and nothing it did not measure", () => {
    const card = parseEnsembleCard(read('ensemble'));
    const rows = ensembleReliabilityOf(card);
    expect(rows.map((r) => r.set)).toEqual(['lab_test', 'lab_new_leaves']);
    expect(rows[0]).toEqual({
      set: 'lab_test',
      n: card.metrics.n,
      top1: card.metrics.accuracy,
      top1Ci95: card.metrics.accuracy_ci95_by_group,
      acceptedShare: card.metrics.coverage,
      accuracyAccepted: card.metrics.accuracy_accepted,
    });
    const { accuracy_ci95_by_group: _g, without_near_twins: _w, ...older } = card.metrics;
    const oldRows = ensembleReliabilityOf({ ...card, metrics: older });
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

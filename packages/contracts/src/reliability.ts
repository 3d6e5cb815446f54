/**
 * What a model's card says of how often it is right, set by set, in the shape the configuration
 * page shows (GET /diagrodl/models/ `reliability`, beyond the spec): the lab test split, its photos
 * of leaves no training photo shows, the real field photos of the validation part, the lab test
 * leaves made field-like, and the held-out photos that are not tomato leaves. Every figure is read
 * from the card as the pipeline measured it on the exported file; none is computed here.
 */
import type { EnsembleCard, ModelCard } from './model-card.ts';

export type Interval = [number, number];

export const RELIABILITY_SETS = [
  'lab_test',
  'lab_new_leaves',
  'field_val',
  'stress',
  'negatives_holdout',
] as const;
export type ReliabilitySet = (typeof RELIABILITY_SETS)[number];

/** One set's figures; a figure the card does not hold is absent. */
export interface ReliabilityRow {
  set: ReliabilitySet;
  /** Photos in the set. */
  n: number;
  /** Share of every photo of the set whose most probable class is the right one, and its 95 % interval. */
  top1?: number;
  top1Ci95?: Interval;
  /** Share of the set given a diagnosis (neither "not a tomato leaf" nor "not recognised"). */
  acceptedShare?: number;
  /** Share right among the photos given a diagnosis, and its 95 % interval. */
  accuracyAccepted?: number;
  accuracyAcceptedCi95?: Interval;
  /** For photos that are not tomato leaves: share refused (no diagnosis), and its 95 % interval. */
  refusedShare?: number;
  refusedCi95?: Interval;
}

/** `key: value` when value is defined, else nothing (for spreading optional fields). */
function some<K extends string, V>(key: K, value: V | null | undefined): { [P in K]?: V } {
  return value === undefined || value === null ? {} : ({ [key]: value } as { [P in K]?: V });
}

/** The lab test photos without a training photo of their leaf (`metrics.without_near_twins`). */
function newLeaves(m: ModelCard['metrics'] | EnsembleCard['metrics']): ReliabilityRow[] {
  const w = m.without_near_twins;
  return w
    ? [{ set: 'lab_new_leaves', n: w.n, top1: w.accuracy, top1Ci95: w.accuracy_ci95_by_group }]
    : [];
}

/** Top-1 on the real field photos of the card's field validation part (null: not measured). */
export function fieldTop1Of(card: ModelCard): number | null {
  return card.out_of_distribution.evaluation?.field_val?.top1 ?? null;
}

/**
 * A model card's figures. The lab top-1's interval is the one over the split's groups when the card
 * has it (photos of one leaf are not independent), else the evaluation set's own.
 */
export function reliabilityOf(card: ModelCard): ReliabilityRow[] {
  const ev = card.out_of_distribution.evaluation ?? {};
  const m = card.metrics;
  const lab = ev.lab_test;
  const rows: ReliabilityRow[] = [
    {
      set: 'lab_test',
      n: m.n,
      top1: m.accuracy,
      ...some('top1Ci95', m.accuracy_ci95_by_group ?? lab?.top1_ci95),
      acceptedShare: lab?.accepted_share ?? card.rejection.test_coverage,
      accuracyAccepted: lab?.accuracy_accepted ?? card.rejection.test_accuracy_accepted,
      ...some('accuracyAcceptedCi95', lab?.accuracy_accepted_ci95),
    },
    ...newLeaves(m),
  ];
  for (const [set, key] of [
    ['field_val', 'field_val'],
    ['stress', 'stress_from_lab_test'],
  ] as const) {
    const e = ev[key];
    if (!e || e.n === 0) continue;
    rows.push({
      set,
      n: e.n,
      ...some('top1', e.top1),
      ...some('top1Ci95', e.top1_ci95),
      ...some('acceptedShare', e.accepted_share),
      ...some('accuracyAccepted', e.accuracy_accepted),
      ...some('accuracyAcceptedCi95', e.accuracy_accepted_ci95),
    });
  }
  const neg = ev.negatives_holdout;
  if (neg && neg.n > 0 && neg.refused_share !== undefined)
    rows.push({
      set: 'negatives_holdout',
      n: neg.n,
      refusedShare: neg.refused_share,
      ...some('refusedCi95', neg.refused_ci95),
    });
  return rows;
}

/** The ensemble card's figures: it was measured on the lab test split only. */
export function ensembleReliabilityOf(card: EnsembleCard): ReliabilityRow[] {
  const m = card.metrics;
  return [
    {
      set: 'lab_test',
      n: m.n,
      top1: m.accuracy,
      top1Ci95: m.accuracy_ci95_by_group ?? m.accuracy_ci95,
      acceptedShare: m.coverage,
      accuracyAccepted: m.accuracy_accepted,
    },
    ...newLeaves(m),
  ];
}

/**
 * What a model's card says of how often it is right, set by set, in the shape the configuration
 * page shows (GET /diagrodl/models/ `reliability`, beyond the spec): the lab test split, its photos
 * of leaves no training photo shows, the real field photos (the validation part of the first field
 * source, of both sources together, and both sources' held-out part), the lab test leaves made
 * field-like, the held-out photos that are not tomato leaves and the held-out field photos of other
 * crops' leaves. Every figure is read from the card as the pipeline measured it on the exported
 * file; none is computed here.
 */
import type { EnsembleCard, EvaluationSet, ModelCard } from './model-card.ts';

export type Interval = [number, number];

/** The sets in the order the page shows them. */
export const RELIABILITY_SETS = [
  'lab_test',
  'lab_new_leaves',
  'field_val',
  'field_val_all',
  'field_holdout',
  'field_holdout_2',
  'stress',
  'negatives_holdout',
  'other_crop_holdout',
] as const;
export type ReliabilitySet = (typeof RELIABILITY_SETS)[number];

/** Sets of photos that are not tomato leaves: their one figure is the share refused. */
export const REFUSAL_SETS = [
  'negatives_holdout',
  'other_crop_holdout',
] as const satisfies readonly ReliabilitySet[];

/**
 * The field sets, the one whose figures stand for "on field photos" first: the held-out part of
 * both sources (never trained on, never used for a choice, as the lab figure is the test split's),
 * else the validation part of both sources, else that of the first source (cards before
 * 2026-11-28). The second source's held-out photos alone (an ensemble with a member that trained on
 * the first source's) are not among them: that source is the easier one (the MobileNet is right on
 * 81 % of them against 70 % of both sources'), so its figure would not compare with the others'.
 */
export const FIELD_SETS_BY_PREFERENCE = [
  'field_holdout',
  'field_val_all',
  'field_val',
] as const satisfies readonly ReliabilitySet[];

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
  /**
   * For the other crops' leaves: share of every photo of the set refused as "not a tomato leaf"
   * (the rest of the refused ones got "not recognised").
   */
  notLeafShare?: number;
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

type Evaluation = Partial<Record<string, EvaluationSet>>;

/**
 * The rows of the evaluation sets beyond the lab test split, in the page's order: each set the card
 * holds with photos in it; for the sets that are not tomato leaves, only when the card says how many
 * it refused.
 */
function evaluationRows(ev: Evaluation): ReliabilityRow[] {
  const rows: ReliabilityRow[] = [];
  for (const [set, key] of [
    ['field_val', 'field_val'],
    ['field_val_all', 'field_val_all'],
    ['field_holdout', 'field_holdout'],
    ['field_holdout_2', 'field_holdout_2'],
    ['stress', 'stress_from_lab_test'],
  ] as const) {
    const e = ev[key];
    if (!e || e.n === 0) continue;
    // the second source's held-out photos alone stand in only where both sources' are not there
    if (set === 'field_holdout_2' && ev.field_holdout) continue;
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
  for (const set of REFUSAL_SETS) {
    const e = ev[set];
    if (!e || e.n === 0 || e.refused_share === undefined) continue;
    rows.push({
      set,
      n: e.n,
      refusedShare: e.refused_share,
      ...some('refusedCi95', e.refused_ci95),
      // the everyday photos' rows stay as they were before the other crops came
      ...(set === 'other_crop_holdout' ? some('notLeafShare', e.not_leaf_share) : {}),
    });
  }
  return rows;
}

/**
 * A model card's figures. The lab top-1's interval is the one over the split's groups when the card
 * has it (photos of one leaf are not independent), else the evaluation set's own.
 */
export function reliabilityOf(card: ModelCard): ReliabilityRow[] {
  const ev = card.out_of_distribution.evaluation ?? {};
  const m = card.metrics;
  const lab = ev.lab_test;
  return [
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
    ...evaluationRows(ev),
  ];
}

/**
 * The ensemble card's figures: the lab test split's, and those of the field and other-crop sets its
 * `field_evaluation` holds (cards written since 2026-11-28 may have it).
 */
export function ensembleReliabilityOf(card: EnsembleCard): ReliabilityRow[] {
  const m = card.metrics;
  // the members' figures and the comparison with them are not sets of the ensemble's
  const {
    members_field_val_all: _members,
    beats_each_member_on_field_val_top1: _beats,
    field_holdout_sources: _sources,
    ...sets
  } = card.field_evaluation ?? {};
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
    ...evaluationRows(sets),
  ];
}

/** The row whose figures stand for "on field photos" (FIELD_SETS_BY_PREFERENCE); none: not measured. */
export function fieldRowOf(rows: readonly ReliabilityRow[]): ReliabilityRow | undefined {
  for (const set of FIELD_SETS_BY_PREFERENCE) {
    const row = rows.find((r) => r.set === set);
    if (row) return row;
  }
  return undefined;
}

/** Top-1 on the card's real field photos, from fieldRowOf's set (null: not measured). */
export function fieldTop1Of(card: ModelCard | EnsembleCard): number | null {
  const rows = 'out_of_distribution' in card ? reliabilityOf(card) : ensembleReliabilityOf(card);
  return fieldRowOf(rows)?.top1 ?? null;
}

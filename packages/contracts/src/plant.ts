/**
 * A plant: 1 to 5 photos of leaves of one plant, and the one answer a grower acts on (issue 68).
 * One piece of code for every side that shows a plant (the server, the browser and the device,
 * the diagnose CLI): each leaf's row as the single-photo decision gives it in (decision.ts:
 * probabilities in CLASS_IDS order, accepted, reason), the plant's answer out.
 *
 * The rule (PLANT_RULE; chosen on validation groups of both field sources' validation photos by
 * bench/plant/choose.ts, its figures in models/ensemble.card.json `plant` and ml/LOG.md):
 * - a photo refused as not a leaf does not vote; more than half of the photos refused so: not_tomato;
 * - one photo, or one voting leaf: that photo's own answer, exactly as today;
 * - otherwise the voting leaves' probabilities are combined (geometric mean, renormalised): the
 *   combined top class at or above the threshold (0.62), or the class every voting leaf is a
 *   diagnosis of alone, is the diagnosis; otherwise, two voting leaves that are each a diagnosis
 *   alone but name different classes: disagree (the classes named: a plant can have two); else
 *   low_confidence.
 */
import type { ClassId } from './classes.ts';
import type { DiagnosisReason } from './diagnosis.ts';
import { type ClassProbability, decide } from './inference/decision.ts';

/** The most photos one plant takes. */
export const MAX_PLANT_LEAVES = 5;

export type PlantOutcome = 'diagnosis' | 'low_confidence' | 'disagree' | 'not_tomato';

/** One photo of the plant: its row as the single-photo decision gave it. */
export interface PlantLeaf {
  /** Calibrated probabilities in CLASS_IDS order. */
  probabilities: readonly number[];
  accepted: boolean;
  reason: DiagnosisReason | null;
}

export interface PlantRule {
  /** How the voting leaves' probabilities are combined (each renormalised to sum 1). */
  combine: 'geometric_mean' | 'mean';
  /** The combined top probability at or above which two or more voting leaves give a diagnosis. */
  threshold: number;
  /**
   * When two voting leaves that are each a diagnosis alone name different classes, the plant's
   * leaves disagree: always ('confident_leaves'), or only when the combined top probability is
   * below the threshold ('below_threshold'; above it the combined class is the diagnosis).
   */
  disagree: 'confident_leaves' | 'below_threshold';
}

/** The shipped rule (models/ensemble.card.json `plant` says how it was chosen and its figures). */
export const PLANT_RULE: Readonly<PlantRule> = {
  combine: 'geometric_mean',
  threshold: 0.62,
  disagree: 'below_threshold',
};

/** A class that leaves named with confidence, in a plant whose leaves disagree. */
export interface PlantDisagreement {
  label: ClassId;
  /** How many voting leaves were a diagnosis of it alone. */
  leaves: number;
  /** The highest probability one of them gave it. */
  probability: number;
}

export interface PlantAnswer {
  outcome: PlantOutcome;
  /**
   * The plant's top class over the voting leaves' combined probabilities (over every photo when
   * none votes): the diagnosis when `outcome` is 'diagnosis', otherwise shown only as a hint, as a
   * refused photo's label is today.
   */
  label: ClassId;
  probability: number;
  top3: ClassProbability[];
  /** The combined probabilities in CLASS_IDS order. */
  probabilities: number[];
  /** Voting leaves whose own top class is `label` ("3 de 3 hojas": agreeing of voting). */
  agreeing: number;
  /** Photos that vote: those not refused as not a tomato leaf. */
  voting: number;
  /** Photos in the plant. */
  leaves: number;
  /** For 'disagree': the classes the leaves named with confidence, most leaves first. */
  diseases?: PlantDisagreement[];
}

/** The outcome a single photo's row has today. */
function photoOutcome(leaf: PlantLeaf): PlantOutcome {
  if (leaf.accepted) return 'diagnosis';
  return leaf.reason === 'not_leaf' ? 'not_tomato' : 'low_confidence';
}

/** The voting leaves' probabilities combined by the rule, renormalised to sum 1. */
export function combineProbabilities(
  rows: readonly (readonly number[])[],
  combine: PlantRule['combine'],
): number[] {
  const k = rows[0]?.length ?? 0;
  const out = new Array<number>(k).fill(0);
  for (let c = 0; c < k; c++) {
    if (combine === 'mean') {
      out[c] = rows.reduce((s, r) => s + (r[c] ?? 0), 0) / rows.length;
    } else {
      // a zero probability would veto a class outright: floor it at float32's smallest normal
      const logs = rows.reduce((s, r) => s + Math.log(Math.max(r[c] ?? 0, 1.2e-38)), 0);
      out[c] = Math.exp(logs / rows.length);
    }
  }
  const sum = out.reduce((a, b) => a + b, 0);
  return sum > 0 ? out.map((p) => p / sum) : out;
}

/**
 * The plant's answer from the rows of its 1 to MAX_PLANT_LEAVES photos (throws a RangeError
 * outside that). One photo gives exactly that photo's answer.
 */
export function combinePlant(
  leaves: readonly PlantLeaf[],
  rule: Readonly<PlantRule> = PLANT_RULE,
): PlantAnswer {
  if (leaves.length < 1 || leaves.length > MAX_PLANT_LEAVES) {
    throw new RangeError(`a plant has 1 to ${MAX_PLANT_LEAVES} photos (got ${leaves.length})`);
  }
  const voters = leaves.filter((l) => l.reason !== 'not_leaf');
  const answer = (
    outcome: PlantOutcome,
    probabilities: number[],
    extra: Partial<PlantAnswer> = {},
  ): PlantAnswer => {
    const d = decide(probabilities, Infinity);
    return {
      outcome,
      label: d.label,
      probability: d.probability,
      top3: d.top3,
      probabilities: d.probabilities,
      agreeing: voters.filter((l) => decide(l.probabilities, Infinity).label === d.label).length,
      voting: voters.length,
      leaves: leaves.length,
      ...extra,
    };
  };
  const first = leaves[0] as PlantLeaf;
  if (leaves.length === 1) return answer(photoOutcome(first), [...first.probabilities]);
  if (voters.length * 2 < leaves.length) {
    const all = combineProbabilities(
      leaves.map((l) => l.probabilities),
      rule.combine,
    );
    return answer('not_tomato', all);
  }
  const only = voters[0] as PlantLeaf;
  if (voters.length === 1) return answer(photoOutcome(only), [...only.probabilities]);
  const combined = combineProbabilities(
    voters.map((l) => l.probabilities),
    rule.combine,
  );
  const named = new Map<ClassId, PlantDisagreement>();
  for (const l of voters) {
    if (!l.accepted) continue;
    const d = decide(l.probabilities, Infinity);
    const seen = named.get(d.label);
    named.set(d.label, {
      label: d.label,
      leaves: (seen?.leaves ?? 0) + 1,
      probability: Math.max(seen?.probability ?? 0, d.probability),
    });
  }
  const top = Math.max(...combined);
  if (named.size >= 2 && (rule.disagree === 'confident_leaves' || top < rule.threshold)) {
    const diseases = [...named.values()].sort(
      (a, b) => b.leaves - a.leaves || b.probability - a.probability,
    );
    return answer('disagree', combined, { diseases });
  }
  // every voting leaf a diagnosis of the same class alone: the plant is too (its combined top
  // probability is then at least the lowest of theirs, though it may be below the threshold)
  const allAgree = named.size === 1 && voters.every((l) => l.accepted);
  return answer(top >= rule.threshold || allAgree ? 'diagnosis' : 'low_confidence', combined);
}

/** The answer of a plant whose leaves disagree ("say which diseases, and that a plant can have two"). */
export const LEAVES_DISAGREE = {
  es: 'Las hojas no coinciden',
  en: 'The leaves do not agree',
} as const;

/** Its advice. */
export const LEAVES_DISAGREE_HINT = {
  es: 'Las hojas muestran enfermedades distintas y una planta puede tener dos a la vez. Fotografíe de cerca más hojas afectadas de esta planta.',
  en: 'The leaves show different diseases, and a plant can have two at once. Photograph more affected leaves of this plant, close up.',
} as const;

/** The answer of a plant most of whose photos are not tomato leaves. */
export const NOT_TOMATO_PLANT = {
  es: 'No parece una planta de tomate',
  en: 'This does not look like a tomato plant',
} as const;

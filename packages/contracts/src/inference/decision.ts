/**
 * The decision rule, one piece of code for every side that runs a model (the server's
 * classifier and the browser's on-device diagnosis): calibrated probabilities, the model's
 * `leaf` and `energy` outputs and its card's thresholds in; the outcome out.
 */
import { CLASS_IDS, type ClassId } from '../classes.ts';
import { type DiagnosisReason, LAB_LIKE_CUT } from '../diagnosis.ts';

export interface ClassProbability {
  label: ClassId;
  probability: number;
}

/** The not-leaf rule's inputs: the model's `leaf` output and its card's leaf_threshold. */
export interface LeafEvidence {
  /** null: the model has no `leaf` output. */
  probability: number | null;
  /** undefined: the card has no leaf_threshold (the rule is off). */
  threshold?: number | undefined;
}

export interface Decision {
  /** Calibrated probabilities in CLASS_IDS order. */
  probabilities: number[];
  label: ClassId;
  probability: number;
  top3: ClassProbability[];
  /** False when the photo is not a diagnosis: see `reason`. */
  accepted: boolean;
  /**
   * Why it is not accepted: 'not_leaf' ('No parece una hoja de tomate') when the model's `leaf`
   * output is below its card's leaf_threshold; otherwise 'low_confidence' ('No reconocido con
   * confianza') when the top probability is below the model's threshold or the model's energy
   * output is below its card's energy_threshold; null when accepted.
   */
  reason: DiagnosisReason | null;
  /** The model's `leaf` output (probability of a tomato leaf); null for graphs without one. */
  leafProbability: number | null;
  /** The model's `lab_like` output (how much the photo looks like a lab photo); null without one. */
  labLike: number | null;
  /** The confidence threshold this photo was held to (see thresholdFor). */
  threshold: number;
  /** Index of the predicted class (its CAM is the one shown). */
  index: number;
}

/**
 * Builds the decision from calibrated probabilities (shared by single models and the ensemble).
 * `recognised` is false when the model's energy floor says the photo looks like none of its classes.
 * First rule: a leaf probability below the leaf threshold is 'not_leaf'; then a top probability
 * below `threshold` (or not `recognised`) is 'low_confidence'; otherwise accepted.
 */
export function decide(
  probabilities: ArrayLike<number>,
  threshold: number,
  recognised = true,
  leaf: LeafEvidence = { probability: null },
  labLike: number | null = null,
): Decision {
  const probs = Array.from(probabilities, Number);
  const order = probs.map((p, i) => [p, i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  const top = order[0] ?? [0, 0];
  const top3 = order.slice(0, 3).map(([p, i]) => ({
    label: CLASS_IDS[i] as ClassId,
    probability: p,
  }));
  const notLeaf =
    leaf.threshold !== undefined && leaf.probability !== null && leaf.probability < leaf.threshold;
  const reason: DiagnosisReason | null = notLeaf
    ? 'not_leaf'
    : recognised && top[0] >= threshold
      ? null
      : 'low_confidence';
  return {
    probabilities: probs,
    label: CLASS_IDS[top[1]] as ClassId,
    probability: top[0],
    top3,
    accepted: reason === null,
    reason,
    leafProbability: leaf.probability,
    labLike,
    threshold,
    index: top[1],
  };
}

/** A model card's rejection rule (its `rejection` block). */
export interface RejectionRule {
  threshold: number;
  /**
   * The confidence threshold for field-like photos (`lab_like` below LAB_LIKE_CUT), when the card
   * has one; `threshold` then holds for the other photos. Absent: `threshold` for every photo.
   */
  field_threshold?: number | undefined;
  energy_threshold?: number | undefined;
  leaf_threshold?: number | undefined;
}

/**
 * The confidence threshold one photo is held to: the rule's field_threshold for a field-like
 * photo (its `lab_like` below LAB_LIKE_CUT) when the rule has one, otherwise its threshold. A model
 * is right far less often on field-like photos, so one threshold for both would either withhold
 * many right lab answers or give many wrong field ones.
 */
export function thresholdFor(
  rule: Pick<RejectionRule, 'threshold' | 'field_threshold'>,
  labLike: number | null | undefined,
): number {
  const fieldLike = labLike !== null && labLike !== undefined && labLike < LAB_LIKE_CUT;
  return fieldLike && rule.field_threshold !== undefined ? rule.field_threshold : rule.threshold;
}

/** The graph output each optional rule of a card reads: a card with the rule needs that output. */
const RULE_OUTPUTS = [
  ['energy_threshold', 'energy'],
  ['leaf_threshold', 'leaf'],
  ['field_threshold', 'lab_like'],
] as const;

/**
 * The first optional rule of `rule` whose graph output is not among `outputNames` (undefined: none
 * is missing), with its name and article for a message ("an energy_threshold").
 */
export function missingRuleOutput(
  rule: RejectionRule,
  outputNames: readonly string[],
): { rule: string; output: string; phrase: string } | undefined {
  for (const [key, output] of RULE_OUTPUTS) {
    if (rule[key] !== undefined && !outputNames.includes(output)) {
      return { rule: key, output, phrase: `${/^[aeiou]/.test(key) ? 'an' : 'a'} ${key}` };
    }
  }
  return undefined;
}

/** Whether one image's `energy` output clears the card's floor (always, without a floor). */
export function recognisedBy(rule: RejectionRule, energy: number | undefined): boolean {
  return rule.energy_threshold === undefined || (energy ?? -Infinity) >= rule.energy_threshold;
}

/** One image's outputs of one model, decided by that model's card. */
export function decideOne(
  rule: RejectionRule,
  outputs: {
    probabilities: ArrayLike<number>;
    energy?: number | undefined;
    leaf: number | null;
    labLike?: number | null | undefined;
  },
): Decision {
  return decide(
    outputs.probabilities,
    thresholdFor(rule, outputs.labLike),
    recognisedBy(rule, outputs.energy),
    { probability: outputs.leaf, threshold: rule.leaf_threshold },
    outputs.labLike ?? null,
  );
}

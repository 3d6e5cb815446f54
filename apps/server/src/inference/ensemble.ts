/**
 * The ensemble of the loaded models (EnsembleModel, below, says how it decides) and its label.
 * The registry (registry.ts) builds it from two or more models and the ensemble card.
 */
import { CLASS_IDS } from '@diagrodl/contracts/classes';
import { inSelectorOrder } from '@diagrodl/contracts';
import type { EnsembleCard } from '@diagrodl/contracts/model-card';
import { thresholdFor } from '@diagrodl/contracts/inference/decision';
import { type Classification, type Classifier, decide, resizeMap } from './classifier.ts';
import { type OnnxModel, type RawOutput, camOf, probsOf } from './onnx-model.ts';
import {
  type PhotoInput,
  type PreprocessCache,
  preprocessAll,
  releaseInputs,
} from './preprocess.ts';

/**
 * The ensemble: the weighted mean of the members' calibrated probabilities (the card's weights;
 * equal without a card); its CAM is the mean of the members' CAMs for the ensemble's predicted
 * class, with the same weights, each resized to the largest member map.
 * A photo is not recognised when any member's energy floor turns it away. Its leaf probability is
 * the mean of the members' `leaf` outputs (members without one are left out; null if none), and a
 * photo is 'not_leaf' when that mean is below the leaf threshold. Its `lab_like` is likewise the
 * mean of the members' that have one.
 *
 * With its card (models/ensemble.card.json, used only when it describes exactly these member
 * files), the confidence and leaf thresholds are the card's, chosen on validation for the
 * ensemble's own outputs, and its test accuracy is the card's. Without one, the threshold is the
 * mean of the members' thresholds and the leaf threshold the mean of the members' leaf thresholds
 * (the rule is off when no member's card has one), neither tuned on validation, and the test
 * accuracy is null (not measured).
 */
export class EnsembleModel implements Classifier {
  readonly id = 'ensemble';
  readonly threshold: number;
  /** The card's leaf threshold, or the mean of the members' (undefined: no card, no member has one). */
  readonly leafThreshold: number | undefined;
  /** The card's threshold for field-like photos (undefined: `threshold` for every photo). */
  readonly fieldThreshold: number | undefined;
  /** The card's test accuracy (null without a card: not measured). */
  readonly testAccuracy: number | null;
  /** Each member's share of the mean (the card's weights over their sum; equal without a card). */
  readonly shares: readonly number[];
  constructor(
    readonly members: readonly OnnxModel[],
    readonly card?: EnsembleCard,
  ) {
    const weights = members.map((m) => card?.members.find((c) => c.id === m.id)?.weight ?? 1);
    const total = weights.reduce((a, b) => a + b, 0);
    this.shares = weights.map((w) => w / total);
    this.threshold = card?.rejection.threshold ?? (mean(members.map((m) => m.threshold)) as number);
    this.leafThreshold = card
      ? card.rejection.leaf_threshold
      : mean(members.map((m) => m.leafThreshold).filter((t): t is number => t !== undefined));
    this.fieldThreshold = card?.rejection.field_threshold;
    this.testAccuracy = card?.metrics.accuracy ?? null;
  }

  async classify(images: readonly PhotoInput[]): Promise<Classification[]> {
    if (!images.length) return [];
    const cache: PreprocessCache = new Map();
    const raws: RawOutput[] = [];
    try {
      for (const m of this.members) {
        raws.push(await m.runRaw(await preprocessAll(images, m.inputSize, cache)));
      }
    } finally {
      await releaseInputs(cache);
    }
    const k = CLASS_IDS.length;
    const camH = Math.max(...raws.map((r) => r.camH));
    const camW = Math.max(...raws.map((r) => r.camW));
    return images.map((_, n) => {
      const probs = new Float64Array(k);
      raws.forEach((r, j) => {
        const p = probsOf(r, n);
        const share = this.shares[j] as number;
        for (let i = 0; i < k; i++) probs[i] = (probs[i] as number) + (p[i] as number) * share;
      });
      const recognised = this.members.every((m, i) => m.recognised(raws[i] as RawOutput, n));
      // the mean of one output over the members that have it (null if none has)
      const membersMean = (pick: (m: OnnxModel, raw: RawOutput) => number | null) =>
        mean(
          this.members
            .map((m, i) => pick(m, raws[i] as RawOutput))
            .filter((p): p is number => p !== null),
        ) ?? null;
      const labLike = membersMean((m, raw) => m.labLike(raw, n));
      const d = decide(
        probs,
        thresholdFor({ threshold: this.threshold, field_threshold: this.fieldThreshold }, labLike),
        recognised,
        {
          probability: membersMean((m, raw) => m.leafProbability(raw, n)),
          threshold: this.leafThreshold,
        },
        labLike,
      );
      const cam = new Float32Array(camH * camW);
      raws.forEach((r, j) => {
        const m = resizeMap(camOf(r, n, d.index), camW, camH);
        const share = this.shares[j] as number;
        for (let i = 0; i < cam.length; i++)
          cam[i] = (cam[i] as number) + (m.data[i] as number) * share;
      });
      const { index: _index, ...rest } = d;
      return { ...rest, cam: { width: camW, height: camH, data: cam } };
    });
  }
}

/**
 * The ensemble's label, its members named in the selector's order ('Ensemble (ResNet50 +
 * MobileNet)'): the configuration page's option and the report's list of models give it.
 */
export function ensembleLabel(members: readonly OnnxModel[]): string {
  const names = inSelectorOrder(members.map((m) => m.id)).map((v) => v.label.replace(/ v\d+$/, ''));
  return `Ensemble (${names.join(' + ')})`;
}

/** The mean of some numbers (undefined for none). */
function mean(values: readonly number[]): number | undefined {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : undefined;
}

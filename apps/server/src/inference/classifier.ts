/**
 * The one small interface behind which inference lives: JPEG/PNG/WebP bytes in, calibrated
 * probabilities, the decision and the predicted class's activation map out. Today it runs
 * in-process (onnxruntime-node); it could move to a worker or another process unchanged.
 */
import { CLASS_IDS, type ClassId } from '@diagrodl/contracts/classes';
import type { DiagnosisReason } from '@diagrodl/contracts';

export interface ClassProbability {
  label: ClassId;
  probability: number;
}

/** A class activation map (row-major, values in [0, 1]) for the predicted class. */
export interface CamMap {
  width: number;
  height: number;
  data: Float32Array;
}

export interface Classification {
  /** Calibrated probabilities in CLASS_IDS order. */
  probabilities: number[];
  label: ClassId;
  probability: number;
  top3: ClassProbability[];
  /**
   * False when the photo is not a diagnosis: see `reason`.
   */
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
  threshold: number;
  /** The predicted class's CAM over the model's input square (the photo's centre square crop). */
  cam: CamMap;
}

export interface Classifier {
  /** Model id ('mobilenet', 'resnet50', 'vgg16' or 'ensemble'). */
  readonly id: string;
  readonly threshold: number;
  /** Below this `leaf` output a photo is 'not_leaf' (undefined: the model has no such rule). */
  readonly leafThreshold: number | undefined;
  /** One result per image, in order. Throws if an image cannot be decoded. */
  classify(images: readonly Buffer[]): Promise<Classification[]>;
}

/** The not-leaf rule's inputs: the model's `leaf` output and its card's leaf_threshold. */
export interface LeafEvidence {
  /** null: the model has no `leaf` output. */
  probability: number | null;
  /** undefined: the card has no leaf_threshold (the rule is off). */
  threshold?: number | undefined;
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
): Omit<Classification, 'cam'> & { index: number } {
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
    threshold,
    index: top[1],
  };
}

/** Bilinear resize of a single-channel map (align-corners=false, like the usual upsampling). */
export function resizeMap(src: CamMap, width: number, height: number): CamMap {
  if (src.width === width && src.height === height) return src;
  const out = new Float32Array(width * height);
  const sx = src.width / width;
  const sy = src.height / height;
  for (let y = 0; y < height; y++) {
    const fy = Math.min(Math.max((y + 0.5) * sy - 0.5, 0), src.height - 1);
    const y0 = Math.floor(fy);
    const y1 = Math.min(y0 + 1, src.height - 1);
    const wy = fy - y0;
    for (let x = 0; x < width; x++) {
      const fx = Math.min(Math.max((x + 0.5) * sx - 0.5, 0), src.width - 1);
      const x0 = Math.floor(fx);
      const x1 = Math.min(x0 + 1, src.width - 1);
      const wx = fx - x0;
      const a = src.data[y0 * src.width + x0] as number;
      const b = src.data[y0 * src.width + x1] as number;
      const c = src.data[y1 * src.width + x0] as number;
      const d = src.data[y1 * src.width + x1] as number;
      out[y * width + x] = (a * (1 - wx) + b * wx) * (1 - wy) + (c * (1 - wx) + d * wx) * wy;
    }
  }
  return { width, height, data: out };
}

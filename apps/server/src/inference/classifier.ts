/**
 * The one small interface behind which inference lives: JPEG/PNG/WebP bytes in, calibrated
 * probabilities, the decision and the predicted class's activation map out. Today it runs
 * in-process (onnxruntime-node); it could move to a worker or another process unchanged.
 */
import type { ClassId } from '@diagrodl/contracts/classes';
import type { DiagnosisReason } from '@diagrodl/contracts';
import type { CamMap } from '@diagrodl/contracts/inference/cam';
import type { ClassProbability } from '@diagrodl/contracts/inference/decision';

// The decision rule and the map arithmetic are one piece of code shared with the browser's
// on-device diagnosis (packages/contracts/src/inference/).
export { type CamMap, resizeMap } from '@diagrodl/contracts/inference/cam';
export {
  type ClassProbability,
  type LeafEvidence,
  decide,
  decideOne,
} from '@diagrodl/contracts/inference/decision';

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

/**
 * The one small interface behind which inference lives: JPEG/PNG/WebP bytes (or an image already
 * decoded by preprocess.ts decodeRgb) in, calibrated probabilities, the decision and the predicted
 * class's activation map out. The server and the CLI run it in a worker thread
 * (src/worker/model-worker.ts); tests and benches may run it in-process.
 */
import type { ClassId } from '@diagrodl/contracts/classes';
import type { DiagnosisReason, LoadedModelDetails } from '@diagrodl/contracts';
import type { ModelCard } from '@diagrodl/contracts/model-card';
import type { CamMap } from '@diagrodl/contracts/inference/cam';
import type { ClassProbability } from '@diagrodl/contracts/inference/decision';
import type { PhotoInput } from './preprocess.ts';

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
  /** The model's `lab_like` output (how much the photo looks like a lab photo); null without one. */
  labLike: number | null;
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
  /** The threshold of field-like photos, instead of `threshold` (undefined: none; thresholdFor). */
  readonly fieldThreshold?: number | undefined;
  /** One result per image, in order. Throws if an image cannot be decoded. */
  classify(images: readonly PhotoInput[]): Promise<Classification[]>;
}

/** A model as /api/health describes it. */
export interface ModelHealth {
  id: string;
  accuracy: number | null;
  status: 'loaded' | 'refused';
  reason?: string;
}

/**
 * Everything the server and the CLI need from inference: the loaded models. ModelRegistry does
 * it in the calling thread; ModelWorker (src/worker/model-worker.ts) does the same in a worker
 * thread, off the server's event loop, together with the image work (src/images/).
 */
export interface Inference {
  get(id: string): Classifier | undefined;
  has(id: string): boolean;
  /** GET /diagrodl/models/ */
  list(): LoadedModelDetails[];
  health(): ModelHealth[];
  /** Test accuracy of a model from its card (null for the ensemble without its card: not measured). */
  accuracy(id: string): number | null;
  /** The card of a loaded model file (undefined for the ensemble and models not loaded). */
  card(id: string): ModelCard | undefined;
  close(): Promise<void>;
}

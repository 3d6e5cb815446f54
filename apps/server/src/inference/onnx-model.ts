/**
 * One ONNX model (models/<id>.onnx) and its card: onnxruntime runs its batches (MAX_BATCH at a
 * time, one run at a time per process: Mutex) and the card's rejection rules decide each photo.
 * The registry (registry.ts) loads it; the ensemble (ensemble.ts) runs its members' raw outputs.
 */
import * as ort from 'onnxruntime-node';
import { CLASS_IDS } from '@diagrodl/contracts/classes';
import type { ModelCard } from '@diagrodl/contracts/model-card';
import { recognisedBy } from '@diagrodl/contracts/inference/decision';
import { type CamMap, type Classification, type Classifier, decideOne } from './classifier.ts';
import {
  type PhotoInput,
  type PreprocessCache,
  type PreprocessedImage,
  batchTensors,
  preprocessAll,
  releaseInputs,
} from './preprocess.ts';

/** Model ids a file may have (models/<id>.onnx); the ensemble is built, never loaded. */
export const FILE_MODEL_IDS = ['mobilenet', 'resnet50', 'vgg16'] as const;
export type FileModelId = (typeof FILE_MODEL_IDS)[number];

/**
 * Images per onnxruntime call. Bounds memory (VGG16 at 224 px uses ~100 MB per 16 images), and
 * 8 is faster than 16 for the MobileNet (bench/diagnosis, a batch of 20, 2026-11-25: 182, 189 and
 * 186 images/s against 155, 173 and 172, alternating; ResNet50 and VGG16 within 3 %).
 */
export const MAX_BATCH = 8;

/** A serial queue: one inference at a time per process keeps latencies predictable on 2 cores. */
export class Mutex {
  private tail: Promise<void> = Promise.resolve();
  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.tail.then(fn);
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}

export interface RawOutput {
  probabilities: Float32Array;
  /** [n], logsumexp(logits / T); empty for graphs without an `energy` output */
  energy: Float32Array;
  /** [n], calibrated probability of a tomato leaf; empty for graphs without a `leaf` output */
  leaf: Float32Array;
  /** [n], how much the photo looks like a lab photo; empty for graphs without a `lab_like` output */
  labLike: Float32Array;
  /** [n, classes, h, w] */
  cam: Float32Array;
  camH: number;
  camW: number;
}

/** One ONNX model and its card. */
export class OnnxModel implements Classifier {
  readonly threshold: number;
  /** The card's energy floor (undefined: the top probability alone decides). */
  readonly energyThreshold: number | undefined;
  /** The card's leaf threshold (undefined: no 'not_leaf' outcome). */
  readonly leafThreshold: number | undefined;
  /** The card's threshold for field-like photos (undefined: `threshold` for every photo). */
  readonly fieldThreshold: number | undefined;
  constructor(
    readonly id: FileModelId,
    readonly card: ModelCard,
    private readonly session: ort.InferenceSession,
    private readonly mutex: Mutex,
  ) {
    this.threshold = card.rejection.threshold;
    this.energyThreshold = card.rejection.energy_threshold;
    this.leafThreshold = card.rejection.leaf_threshold;
    this.fieldThreshold = card.rejection.field_threshold;
  }

  /** Whether image n of a batch clears the energy floor (always, without one). */
  recognised(raw: RawOutput, n: number): boolean {
    return recognisedBy(this.card.rejection, raw.energy[n]);
  }

  /** Image n's `leaf` output (null for a graph without one). */
  leafProbability(raw: RawOutput, n: number): number | null {
    return raw.leaf.length > n ? (raw.leaf[n] as number) : null;
  }

  /** Image n's `lab_like` output (null for a graph without one). */
  labLike(raw: RawOutput, n: number): number | null {
    return raw.labLike.length > n ? (raw.labLike[n] as number) : null;
  }

  async release(): Promise<void> {
    await this.session.release();
  }

  get inputSize(): number {
    return this.card.input.size;
  }

  /** Raw outputs for already preprocessed images (batched by MAX_BATCH). */
  async runRaw(items: readonly PreprocessedImage[]): Promise<RawOutput> {
    const size = this.inputSize;
    const k = CLASS_IDS.length;
    const probs: Float32Array[] = [];
    const cams: Float32Array[] = [];
    const energies: Float32Array[] = [];
    const leaves: Float32Array[] = [];
    const labLikes: Float32Array[] = [];
    let camH = 0;
    let camW = 0;
    for (let start = 0; start < items.length; start += MAX_BATCH) {
      const chunk = items.slice(start, start + MAX_BATCH);
      const input = new ort.Tensor('float32', batchTensors(chunk), [chunk.length, 3, size, size]);
      const res = await this.mutex.run(() => this.session.run({ input }));
      const p = res.probabilities as ort.Tensor;
      const c = res.cam as ort.Tensor;
      if (p.dims[1] !== k) throw new Error(`model ${this.id} gave ${p.dims[1]} classes`);
      camH = Number(c.dims[2]);
      camW = Number(c.dims[3]);
      probs.push(new Float32Array(p.data as Float32Array));
      cams.push(new Float32Array(c.data as Float32Array));
      const e = res.energy as ort.Tensor | undefined;
      if (e) energies.push(new Float32Array(e.data as Float32Array));
      const l = res.leaf as ort.Tensor | undefined;
      if (l) leaves.push(new Float32Array(l.data as Float32Array));
      const g = res.lab_like as ort.Tensor | undefined;
      if (g) labLikes.push(new Float32Array(g.data as Float32Array));
    }
    const concat = (parts: Float32Array[]) => {
      const out = new Float32Array(parts.reduce((a, b) => a + b.length, 0));
      let o = 0;
      for (const part of parts) {
        out.set(part, o);
        o += part.length;
      }
      return out;
    };
    return {
      probabilities: concat(probs),
      energy: concat(energies),
      leaf: concat(leaves),
      labLike: concat(labLikes),
      cam: concat(cams),
      camH,
      camW,
    };
  }

  async classify(images: readonly PhotoInput[]) {
    const cache: PreprocessCache = new Map();
    let pre: PreprocessedImage[];
    let raw: RawOutput;
    try {
      pre = await preprocessAll(images, this.inputSize, cache);
      if (!pre.length) return [];
      raw = await this.runRaw(pre);
    } finally {
      await releaseInputs(cache);
    }
    return pre.map((_, n) => {
      const d = decideOne(this.card.rejection, {
        probabilities: probsOf(raw, n),
        energy: raw.energy[n],
        leaf: this.leafProbability(raw, n),
        labLike: this.labLike(raw, n),
      });
      const { index: _index, ...rest } = d;
      return { ...rest, cam: camOf(raw, n, d.index) } satisfies Classification;
    });
  }
}

export function probsOf(raw: RawOutput, n: number): Float32Array {
  const k = CLASS_IDS.length;
  return raw.probabilities.subarray(n * k, (n + 1) * k);
}

export function camOf(raw: RawOutput, n: number, cls: number): CamMap {
  const k = CLASS_IDS.length;
  const plane = raw.camH * raw.camW;
  const off = (n * k + cls) * plane;
  return { width: raw.camW, height: raw.camH, data: raw.cam.slice(off, off + plane) };
}

/**
 * The model registry: every models/<id>.onnx with its card models/<id>.card.json, loaded once
 * at start. A model whose card does not parse, does not match its file (sha256, size) or does
 * not describe this server's classes and preprocessing is refused, with the reason logged and
 * reported by /api/health; the server starts anyway. With two or more models the registry builds
 * the ensemble, which takes its thresholds and test accuracy from models/ensemble.card.json when
 * that card describes exactly the loaded files (otherwise it is ignored, with the reason logged);
 * a card that says the ensemble does not beat each member on field validation leaves it out
 * (reported as refused).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { diagnosisSessionOptions } from './ort-session.mjs';
import { CLASS_IDS } from '@diagrodl/contracts/classes';
import {
  MODEL_VERSIONS,
  type LoadedModelDetails,
  type ModelId,
  type ReliabilityRow,
  ensembleReliabilityOf,
  fieldTop1Of,
  inSelectorOrder,
  reliabilityOf,
} from '@diagrodl/contracts';
import {
  type EnsembleCard,
  type ModelCard,
  parseEnsembleCard,
  parseModelCard,
} from '@diagrodl/contracts/model-card';
import {
  missingRuleOutput,
  recognisedBy,
  thresholdFor,
} from '@diagrodl/contracts/inference/decision';
import { inputProblem } from '@diagrodl/contracts/inference/preprocess';
import {
  type CamMap,
  type Classification,
  type Classifier,
  type Inference,
  type ModelHealth,
  decide,
  decideOne,
  resizeMap,
} from './classifier.ts';
import {
  type DecodedRgb,
  type PhotoInput,
  type PreprocessedImage,
  INPUT_SIZE,
  InputBufferPool,
  batchTensors,
  decodeRgb,
  preprocessDecoded,
} from './preprocess.ts';

/** Model ids a file may have (models/<id>.onnx); the ensemble is built, never loaded. */
export const FILE_MODEL_IDS = ['mobilenet', 'resnet50', 'vgg16'] as const;
export type FileModelId = (typeof FILE_MODEL_IDS)[number];

/** The ensemble's card, beside the model files. */
export const ENSEMBLE_CARD = 'ensemble.card.json';

/**
 * Images per onnxruntime call. Bounds memory (VGG16 at 224 px uses ~100 MB per 16 images), and
 * 8 is faster than 16 for the MobileNet (bench/diagnosis, a batch of 20, 2026-11-25: 182, 189 and
 * 186 images/s against 155, 173 and 172, alternating; ResNet50 and VGG16 within 3 %).
 */
export const MAX_BATCH = 8;

export interface RefusedModel {
  id: string;
  reason: string;
}

interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
}

/** A serial queue: one inference at a time per process keeps latencies predictable on 2 cores. */
class Mutex {
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

/**
 * One request's preprocessed images per input size (so the ensemble decodes each photo once), and
 * the pooled buffer each size's inputs are written into; releaseInputs gives the buffers back.
 */
type PreprocessCache = Map<number, { images: Promise<PreprocessedImage[]>; buffer: Float32Array }>;

/** Pooled input buffers: up to 32 photos at the input size (224 px: 19 MB), two kept. */
const INPUT_POOL = new InputBufferPool(32 * 3 * INPUT_SIZE * INPUT_SIZE);

/** Gives a request's input buffers back to the pool, once nothing writes into them any more. */
async function releaseInputs(cache: PreprocessCache): Promise<void> {
  for (const { images, buffer } of cache.values()) {
    await images.catch(() => undefined);
    INPUT_POOL.give(buffer);
  }
  cache.clear();
}

function preprocessAll(
  images: readonly PhotoInput[],
  size: number,
  cache: PreprocessCache,
): Promise<PreprocessedImage[]> {
  let entry = cache.get(size);
  if (!entry) {
    // The next photo is decoded (sharp, on libuv's threads) while this one is cropped and resized
    // on the main thread; at most two decoded photos are held at once.
    const decode = (img: PhotoInput): Promise<DecodedRgb> => {
      const d = Buffer.isBuffer(img) ? decodeRgb(img) : Promise.resolve(img);
      d.catch(() => undefined); // a photo that fails is reported when its turn comes, not as unhandled
      return d;
    };
    // Every photo's input is written into one pooled buffer, so runRaw hands onnxruntime views
    // of it instead of copies, and a request allocates nothing large (InputBufferPool says why).
    const per = 3 * size * size;
    const all = INPUT_POOL.take(per * images.length);
    const p = (async () => {
      const out: PreprocessedImage[] = [];
      let next = images.length ? decode(images[0] as PhotoInput) : undefined;
      for (let i = 0; i < images.length; i++) {
        const current = await next!;
        next = i + 1 < images.length ? decode(images[i + 1] as PhotoInput) : undefined;
        out.push(preprocessDecoded(current, size, all.subarray(i * per, (i + 1) * per)));
      }
      return out;
    })();
    entry = { images: p, buffer: all };
    cache.set(size, entry);
  }
  return entry.images;
}

interface RawOutput {
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

function probsOf(raw: RawOutput, n: number): Float32Array {
  const k = CLASS_IDS.length;
  return raw.probabilities.subarray(n * k, (n + 1) * k);
}

function camOf(raw: RawOutput, n: number, cls: number): CamMap {
  const k = CLASS_IDS.length;
  const plane = raw.camH * raw.camW;
  const off = (n * k + cls) * plane;
  return { width: raw.camW, height: raw.camH, data: raw.cam.slice(off, off + plane) };
}

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
function ensembleLabel(members: readonly OnnxModel[]): string {
  const names = inSelectorOrder(members.map((m) => m.id)).map((v) => v.label.replace(/ v\d+$/, ''));
  return `Ensemble (${names.join(' + ')})`;
}

/** The mean of some numbers (undefined for none). */
function mean(values: readonly number[]): number | undefined {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : undefined;
}

function sha256File(file: string): { sha256: string; size: number } {
  const bytes = fs.readFileSync(file);
  return { sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length };
}

/** Why a file is not the one a card names (`which`: 'its card', ...), or null. */
function fileProblem(
  actual: { sha256: string; size: number },
  named: { sha256: string; size_bytes: number },
  which: string,
): string | null {
  if (named.size_bytes !== actual.size) {
    return `the file has ${actual.size} bytes but ${which} says ${named.size_bytes}`;
  }
  if (named.sha256 !== actual.sha256) {
    return `the file's sha256 is ${actual.sha256} but ${which} says ${named.sha256}`;
  }
  return null;
}

/** Why a card does not fit this server, or null. */
function cardProblem(id: string, card: ModelCard, file: string): string | null {
  const problem = fileProblem(sha256File(file), card.file, 'its card');
  if (problem) return problem;
  if (card.name !== id) return `the card describes model '${card.name}', not '${id}'`;
  if (card.classes.join() !== CLASS_IDS.join()) return 'the card lists other classes or order';
  return inputProblem(card.input);
}

/**
 * Why the ensemble card cannot be used with the `loaded` models, or null: each member it names must
 * be loaded and be the same file (a loaded model it does not name is simply not a member). A loaded
 * model's own card names its file's sha256 and size, already checked against the file
 * (cardProblem), so the files are not hashed again.
 */
function ensembleCardProblem(card: EnsembleCard, loaded: readonly OnnxModel[]): string | null {
  const missing = card.members.filter((named) => !loaded.some((m) => m.id === named.id));
  if (missing.length) {
    return `it names the member(s) ${missing.map((m) => m.id).join(', ')}, not loaded (loaded: ${loaded.map((m) => m.id).join(', ')})`;
  }
  for (const named of card.members) {
    const { file } = loaded.find((m) => m.id === named.id)!.card;
    const problem = fileProblem(
      { sha256: file.sha256, size: file.size_bytes },
      named,
      'the ensemble card',
    );
    if (problem) return `member ${named.id}: ${problem}`;
  }
  return null;
}

/**
 * Why the ensemble is not offered, or null: it is slower than any member, so it is offered only
 * while its card says it beats each member on field validation top-1 (a card written before that
 * figure existed says nothing, and the ensemble stays).
 */
function ensembleNotBetter(card: EnsembleCard): string | null {
  const fe = card.field_evaluation;
  if (fe?.beats_each_member_on_field_val_top1 !== false) return null;
  const members = Object.entries(fe.members_field_val_all ?? {})
    .map(([id, m]) => `${id} ${m?.top1}`)
    .join(', ');
  return `its card says it does not beat each member on field validation top-1 (ensemble ${fe.field_val_all?.top1 ?? '?'}; ${members || 'members not listed'})`;
}

/**
 * The ensemble card in `modelsDir` if its members are among the `loaded` models; undefined when
 * there is none (silently) or it cannot be used (with a warning saying why).
 */
function loadEnsembleCard(
  modelsDir: string,
  loaded: readonly OnnxModel[],
  log: Logger,
): EnsembleCard | undefined {
  const ignore = (reason: string) => {
    log.warn(
      `Ensemble card ${ENSEMBLE_CARD} ignored: ${reason} (the ensemble is every loaded model, weighed the same, with the mean of their thresholds and no test accuracy)`,
    );
    return undefined;
  };
  let card: EnsembleCard;
  try {
    card = parseEnsembleCard(
      JSON.parse(fs.readFileSync(path.join(modelsDir, ENSEMBLE_CARD), 'utf8')),
    );
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return ignore(`it cannot be used: ${(err as Error).message}`);
  }
  const problem = ensembleCardProblem(card, loaded);
  if (problem) return ignore(`it does not match the loaded models: ${problem}`);
  log.info(
    `Ensemble card used (test accuracy ${card.metrics.accuracy}, threshold ${card.rejection.threshold}, leaf threshold ${card.rejection.leaf_threshold})`,
  );
  return card;
}

export class ModelRegistry implements Inference {
  private constructor(
    readonly models: ReadonlyMap<FileModelId, OnnxModel>,
    readonly refused: readonly RefusedModel[],
    readonly ensemble: EnsembleModel | null,
  ) {}

  /** Loads every models/<id>.onnx once (2 intra-op threads each, CPU). */
  static async load(
    modelsDir: string,
    log: Logger = { info: () => undefined, warn: () => undefined },
  ): Promise<ModelRegistry> {
    const models = new Map<FileModelId, OnnxModel>();
    const refused: RefusedModel[] = [];
    const mutex = new Mutex();
    let files: string[] = [];
    try {
      files = fs.readdirSync(modelsDir).filter((f) => f.endsWith('.onnx'));
    } catch {
      log.warn(`No models folder at ${modelsDir}: the diagnosis tool has no model.`);
    }
    for (const f of files.sort()) {
      const id = f.slice(0, -'.onnx'.length);
      const file = path.join(modelsDir, f);
      const refuse = (reason: string) => {
        refused.push({ id, reason });
        log.warn(`Model ${id} refused: ${reason}`);
      };
      if (!(FILE_MODEL_IDS as readonly string[]).includes(id)) {
        refuse(`unknown model id (expected one of ${FILE_MODEL_IDS.join(', ')})`);
        continue;
      }
      const cardFile = path.join(modelsDir, `${id}.card.json`);
      let card: ModelCard;
      try {
        card = parseModelCard(JSON.parse(fs.readFileSync(cardFile, 'utf8')));
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        refuse(
          code === 'ENOENT'
            ? `no card ${id}.card.json beside the file`
            : `its card cannot be used: ${(err as Error).message}`,
        );
        continue;
      }
      const problem = cardProblem(id, card, file);
      if (problem) {
        refuse(`its card does not match the file: ${problem}`);
        continue;
      }
      try {
        const session = await ort.InferenceSession.create(file, diagnosisSessionOptions());
        if (!session.inputNames.includes('input') || !session.outputNames.includes('cam')) {
          refuse("the ONNX graph lacks the 'input' / 'probabilities' / 'cam' names");
          continue;
        }
        const missing = missingRuleOutput(card.rejection, session.outputNames);
        if (missing) {
          refuse(
            `its card has ${missing.phrase} but the ONNX graph has no '${missing.output}' output`,
          );
          continue;
        }
        models.set(id as FileModelId, new OnnxModel(id as FileModelId, card, session, mutex));
        log.info(
          `Model ${id} loaded (test accuracy ${card.metrics.accuracy}, threshold ${card.rejection.threshold}` +
            (card.rejection.field_threshold === undefined
              ? ')'
              : `, field-photo threshold ${card.rejection.field_threshold})`),
        );
      } catch (err) {
        refuse(`onnxruntime could not load it: ${(err as Error).message}`);
      }
    }
    const loaded = FILE_MODEL_IDS.map((id) => models.get(id)).filter(
      (m): m is OnnxModel => m !== undefined,
    );
    if (loaded.length < 2) return new ModelRegistry(models, refused, null);
    const card = loadEnsembleCard(modelsDir, loaded, log);
    // the card's members (in FILE_MODEL_IDS order), else every loaded model
    const members = card ? loaded.filter((m) => card.members.some((c) => c.id === m.id)) : loaded;
    const notBetter = card && ensembleNotBetter(card);
    if (notBetter) {
      refused.push({ id: 'ensemble', reason: notBetter });
      log.warn(`Model ensemble not offered: ${notBetter}`);
      return new ModelRegistry(models, refused, null);
    }
    return new ModelRegistry(models, refused, new EnsembleModel(members, card));
  }

  /** Frees the onnxruntime sessions. */
  async close(): Promise<void> {
    for (const m of this.models.values()) await m.release().catch(() => undefined);
  }

  get(id: string): Classifier | undefined {
    if (id === 'ensemble') return this.ensemble ?? undefined;
    return this.models.get(id as FileModelId);
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  /**
   * The model a person gets without choosing one: the ensemble when its card says so (`default`:
   * it beats each network on field validation and runs fast enough, gpufinish.ensemble_card), else
   * the MobileNet, else the first loaded model in the configuration page's order.
   */
  defaultId(): ModelId | undefined {
    if (this.ensemble?.card?.default === true) return 'ensemble';
    const loaded = MODEL_VERSIONS.filter((v) => this.has(v.modelId));
    return (loaded.find((v) => v.modelId === 'mobilenet') ?? loaded[0])?.modelId;
  }

  /** GET /diagrodl/models/ */
  list(): LoadedModelDetails[] {
    const out: LoadedModelDetails[] = [];
    const byDefault = this.defaultId();
    for (const v of MODEL_VERSIONS) {
      const m = this.get(v.modelId);
      if (!m) continue;
      out.push({
        id: v.modelId as ModelId,
        modeloVersion: v.value,
        label: m instanceof EnsembleModel ? ensembleLabel(m.members) : v.label,
        testAccuracy: this.accuracy(v.modelId),
        fieldAccuracy: this.fieldAccuracy(v.modelId),
        reliability: this.reliability(v.modelId),
        ...(v.modelId === byDefault ? { isDefault: true } : {}),
        threshold: m.threshold,
        ...(m instanceof EnsembleModel ? { members: m.members.map((x) => x.id) } : {}),
        ...(m.leafThreshold === undefined ? {} : { leafThreshold: m.leafThreshold }),
        ...(m.fieldThreshold === undefined ? {} : { fieldThreshold: m.fieldThreshold }),
      });
    }
    return out;
  }

  card(id: string): ModelCard | undefined {
    return this.models.get(id as FileModelId)?.card;
  }

  /** /api/health: loaded models with their card test accuracy, then the refused ones. */
  health(): ModelHealth[] {
    return [
      ...this.list().map((m) => ({
        id: m.id,
        accuracy: m.testAccuracy,
        status: 'loaded' as const,
      })),
      ...this.refused.map((r) => ({
        id: r.id,
        accuracy: null,
        status: 'refused' as const,
        reason: r.reason,
      })),
    ];
  }

  /** Test accuracy of a model from its card (the ensemble's from its card; null without one). */
  accuracy(id: string): number | null {
    const m = this.get(id);
    if (m instanceof OnnxModel) return m.card.metrics.accuracy;
    return m instanceof EnsembleModel ? m.testAccuracy : null;
  }

  /**
   * Top-1 on the card's real field photos (contracts fieldTop1Of: the held-out ones when the card has
   * them); the ensemble's from its card's `field_evaluation`; null: not measured or no card.
   */
  fieldAccuracy(id: string): number | null {
    const m = this.get(id);
    if (m instanceof OnnxModel) return fieldTop1Of(m.card);
    return m instanceof EnsembleModel && m.card ? fieldTop1Of(m.card) : null;
  }

  /** What the model's card says of how often it is right, set by set (empty without a card). */
  reliability(id: string): ReliabilityRow[] {
    const m = this.get(id);
    if (m instanceof OnnxModel) return reliabilityOf(m.card);
    return m instanceof EnsembleModel && m.card ? ensembleReliabilityOf(m.card) : [];
  }

  /** Display label of a model id ('MobileNet v1', ...). */
  static label(id: string): string {
    return MODEL_VERSIONS.find((v) => v.modelId === id)?.label ?? id;
  }
}

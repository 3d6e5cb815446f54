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
import fs from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { diagnosisSessionOptions } from './ort-session.mjs';
import {
  MODEL_VERSIONS,
  type LoadedModelDetails,
  type ModelId,
  type ReliabilityRow,
  ensembleReliabilityOf,
  fieldTop1Of,
  reliabilityOf,
} from '@diagrodl/contracts';
import {
  type EnsembleCard,
  type ModelCard,
  parseEnsembleCard,
  parseModelCard,
} from '@diagrodl/contracts/model-card';
import { missingRuleOutput } from '@diagrodl/contracts/inference/decision';
import { cardProblem, ensembleCardProblem, ensembleNotBetter } from './card-checks.ts';
import type { Classifier, Inference, ModelHealth } from './classifier.ts';
import { EnsembleModel, ensembleLabel } from './ensemble.ts';
import { FILE_MODEL_IDS, type FileModelId, Mutex, OnnxModel } from './onnx-model.ts';

/** The ensemble's card, beside the model files. */
export const ENSEMBLE_CARD = 'ensemble.card.json';

export interface RefusedModel {
  id: string;
  reason: string;
}

interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
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

/**
 * The model card JSON written beside each ONNX file (models/<name>.card.json) by the
 * training pipeline (ml/diagrodl_ml/card.py). The server refuses a model whose card does
 * not parse or whose sha256/size do not match the file. Also the ensemble's card
 * (models/ensemble.card.json, below).
 */
import { z } from 'zod';
import { CLASS_IDS } from './classes.ts';

const classId = z.enum(CLASS_IDS);
const rate = z.number().min(0).max(1);
/** A 95 % interval of a rate: [lower, upper]. */
const interval = z
  .tuple([rate, rate])
  .refine(([lo, hi]) => lo <= hi, 'the lower bound is above the upper one');
const sha256 = z.string().regex(/^[0-9a-f]{64}$/);
const dim = z.union([z.number().int().positive(), z.string()]);

/**
 * The lab test photos that have no training photo of the same class and source within `twin_gap`
 * source numbers (often the same leaf photographed again: ml/diagrodl_ml/data.py near_twins), and
 * their figures (cards written since 2026-11-27).
 */
const withoutNearTwinsSchema = z.object({
  twin_gap: z.number().int().nonnegative(),
  n: z.number().int().positive(),
  accuracy: rate,
  accuracy_ci95_by_group: interval,
  min_recall: rate,
});

export const perClassMetricSchema = z.object({
  id: classId,
  precision: rate,
  recall: rate,
  f1: rate,
  support: z.number().int().nonnegative(),
});

export const testMetricsSchema = z.object({
  split: z.literal('test'),
  evaluated_with: z.string(),
  n: z.number().int().nonnegative(),
  accuracy: rate,
  macro_f1: rate,
  min_recall: rate,
  /**
   * Photos of one leaf or session form a group that goes to one split whole (ml/diagrodl_ml/data.py
   * source_group); the number of groups in the test split, and the top-1's 95 % interval by a
   * bootstrap that draws whole groups (cards written since 2026-11-27).
   */
  groups: z.number().int().positive().optional(),
  accuracy_ci95_by_group: interval.optional(),
  without_near_twins: withoutNearTwinsSchema.optional(),
  per_class: z.array(perClassMetricSchema).length(CLASS_IDS.length),
  /** rows: true class, columns: predicted class, both in CLASS_IDS order */
  confusion_matrix: z
    .array(z.array(z.number().int().nonnegative()).length(CLASS_IDS.length))
    .length(CLASS_IDS.length),
});

export const oodSetSchema = z.object({
  n: z.number().int().nonnegative(),
  rejected_share: rate,
  mean_top_probability: rate,
  most_predicted: classId.optional(),
  accuracy: rate.optional(),
  accuracy_accepted: rate.nullable().optional(),
});

/**
 * One set of a card's `out_of_distribution.evaluation` (ml/diagrodl_ml/transfer.py set_report,
 * through fieldtrain.evaluate_export): the fields the product reads; a card may hold more (per
 * class, by kind of photo). Shares are of every photo of the set; `accuracy_accepted` is the top-1
 * among the photos given a diagnosis, null when none was.
 */
export const evaluationSetSchema = z.looseObject({
  n: z.number().int().nonnegative(),
  top1: rate.optional(),
  top1_ci95: interval.optional(),
  accepted_share: rate.optional(),
  accuracy_accepted: rate.nullable().optional(),
  accuracy_accepted_ci95: interval.optional(),
  refused_share: rate.optional(),
  refused_ci95: interval.optional(),
  /** Share of every photo of the set refused as "not a tomato leaf" (a part of the refused ones). */
  not_leaf_share: rate.optional(),
});
export type EvaluationSet = z.infer<typeof evaluationSetSchema>;

export const modelCardSchema = z.object({
  schema_version: z.literal(1),
  /** 'mobilenet' | 'resnet50' | 'vgg16' */
  name: z.string().min(1),
  display_name: z.string().min(1),
  version: z.string(),
  architecture: z.string(),
  head: z.string(),
  parameters: z.number().int().positive(),
  created_at: z.string(),
  framework: z.object({ torch: z.string(), torchvision: z.string(), onnx_opset: z.number().int() }),
  file: z.object({
    name: z.string().min(1),
    sha256,
    size_bytes: z.number().int().positive(),
    /** int8: QDQ, trunk convolutions int8 (the card's `quantization` says how). */
    weights_dtype: z.enum(['float32', 'float16', 'int8']),
  }),
  input: z.object({
    name: z.literal('input'),
    layout: z.literal('NCHW'),
    dtype: z.literal('float32'),
    shape: z.array(dim).length(4),
    size: z.number().int().positive(),
    color: z.literal('RGB'),
    resize: z.string(),
    scale: z.string(),
    mean: z.array(z.number()).length(3),
    std: z.array(z.number()).length(3),
  }),
  outputs: z.object({
    probabilities: z.object({ shape: z.array(dim), description: z.string() }),
    cam: z.object({ shape: z.array(dim).length(4), description: z.string() }),
    /** Optional: [N], the calibrated probability that the photo shows a tomato leaf. */
    leaf: z.object({ shape: z.array(dim), description: z.string() }).optional(),
  }),
  classes: z.array(classId).length(CLASS_IDS.length),
  data: z.object({
    source: z.string(),
    license: z.string(),
    n_images: z.number().int().nonnegative(),
    split: z.object({
      method: z.string(),
      seed: z.number().int(),
      fractions: z.record(z.string(), z.number()),
      counts: z.object({ train: z.number().int(), val: z.number().int(), test: z.number().int() }),
      per_class: z.record(z.string(), z.record(z.string(), z.number().int())),
      file_list_sha256: z.object({ train: sha256, val: sha256, test: sha256 }),
      file_lists: z.string(),
    }),
  }),
  training: z.object({
    epochs: z.number().int().nonnegative(),
    epochs_planned: z.number().int().nonnegative(),
    time_budget_minutes: z.number().nonnegative(),
    schedule: z.array(z.object({ size: z.number().int(), epochs: z.number().int() })),
    batch_size: z.number().int().positive(),
    optimizer: z.string(),
    loss: z.string(),
    augmentation: z.array(z.string()),
    seed: z.number().int(),
    device: z.string(),
    time_seconds: z.number().nonnegative(),
    history: z.array(z.record(z.string(), z.number())),
    /** A warm-started run: the earlier export it continued from and that run's training summary. */
    initialised_from: z.looseObject({ file: z.string(), sha256: sha256.nullable() }).optional(),
  }),
  calibration: z.object({
    method: z.string(),
    temperature: z.number().positive(),
    /** Bias-corrected temperature scaling: per-class biases b in softmax(logits / T + b), in class order. */
    class_bias: z.array(z.number()).length(10).optional(),
    bins: z.number().int().positive(),
    val_ece_before: rate,
    val_ece_after: rate,
    val_nll_before: z.number(),
    val_nll_after: z.number(),
    test_ece_before: rate,
    test_ece_after: rate,
  }),
  rejection: z.object({
    /** Below this top calibrated probability the UI shows 'No reconocido con confianza'. */
    threshold: rate,
    /**
     * When present, the threshold for field-like photos (the graph's `lab_like` output below
     * LAB_LIKE_CUT) instead of `threshold`, which then holds for lab-like photos. The server refuses
     * a card with this field for a graph without a `lab_like` output.
     */
    field_threshold: rate.optional(),
    /**
     * Second rule, when present: the graph's `energy` output (logsumexp of logits / T, blind to class
     * biases) below this also means 'No reconocido con confianza'.
     */
    energy_threshold: z.number().optional(),
    /**
     * Third outcome, when present: the graph's `leaf` output (calibrated probability that the photo
     * shows a tomato leaf) below this means 'No parece una hoja de tomate' (reason 'not_leaf').
     * The server refuses a card with this field for a graph without a `leaf` output.
     */
    leaf_threshold: rate.optional(),
    /** Optional wording of the not-leaf outcome and its hint (the server uses NOT_LEAF / NOT_LEAF_HINT). */
    label_not_leaf: z.object({ es: z.string(), en: z.string() }).optional(),
    hint_not_leaf: z.object({ es: z.string(), en: z.string() }).optional(),
    method: z.string(),
    val_coverage: rate,
    val_accuracy_accepted: rate,
    val_correct_rejected: rate,
    val_errors_rejected: rate,
    val_errors: z.number().int().nonnegative(),
    test_coverage: rate,
    test_accuracy_accepted: rate,
    label_below_threshold: z.object({ es: z.string(), en: z.string() }),
  }),
  metrics: testMetricsSchema,
  out_of_distribution: z.object({
    note: z.string(),
    sets: z.record(z.string(), oodSetSchema).optional(),
    /**
     * Every evaluation set measured on the exported file. field_val: the validation part of the first
     * field-photo source (field-tomato-dev); since 2026-11-28 also field2_val (the second source's),
     * field_val_all (both sources' validation parts), field_holdout (both sources' held-out parts,
     * never trained on nor used for a choice; field_holdout_1 / _2 per source), other_crop_val and
     * other_crop_holdout (field photos of other crops' leaves, which should be refused).
     */
    evaluation: z.record(z.string(), evaluationSetSchema).optional(),
  }),
  goals: z.object({
    top1_accuracy: rate,
    min_class_recall: rate,
    ece_after: rate,
    met: z.object({
      top1_accuracy: z.boolean(),
      min_class_recall: z.boolean(),
      ece_after: z.boolean(),
    }),
  }),
  notes: z.array(z.string()),
});

export type ModelCard = z.infer<typeof modelCardSchema>;
export type PerClassMetric = z.infer<typeof perClassMetricSchema>;

/**
 * The ensemble's card (models/ensemble.card.json), written by the training pipeline beside the
 * member files: its members (the files it was measured on, each with its weight), the thresholds
 * chosen on validation for the weighted mean of the members' calibrated probabilities (and the
 * mean of their leaf outputs), and its test metrics. The server uses it only when every member is
 * a loaded file (id, sha256, size); a loaded network the card does not name is not a member.
 */
export const ensembleCardSchema = z.object({
  schema_version: z.literal(1),
  name: z.literal('ensemble'),
  display_name: z.string().min(1),
  created_at: z.string(),
  combination: z.string(),
  members: z
    .array(
      z.object({
        /** A model file id ('mobilenet' | 'resnet50' | 'vgg16'). */
        id: z.string().min(1),
        sha256,
        size_bytes: z.number().int().positive(),
        /** Its weight in the mean of the probabilities (cards before 2026-11-28: none, 1). */
        weight: z.number().positive().finite().optional(),
      }),
    )
    .min(2)
    .refine((ms) => new Set(ms.map((m) => m.id)).size === ms.length, 'member ids repeat'),
  rejection: z.object({
    /** Below this top mean probability: 'No reconocido con confianza'. */
    threshold: rate,
    /** When present, the threshold for field-like photos (mean `lab_like` below LAB_LIKE_CUT). */
    field_threshold: rate.optional(),
    /** Below this mean `leaf` output: 'No parece una hoja de tomate'. */
    leaf_threshold: rate,
    method: z.string(),
    val_coverage: rate,
  }),
  metrics: z.object({
    split: z.literal('test'),
    n: z.number().int().nonnegative(),
    accuracy: rate,
    accuracy_ci95: interval,
    /** As in a model card's metrics: the test split's groups and the interval over them. */
    groups: z.number().int().positive().optional(),
    accuracy_ci95_by_group: interval.optional(),
    without_near_twins: withoutNearTwinsSchema.optional(),
    min_recall: rate,
    per_class_recall: z.partialRecord(classId, rate),
    coverage: rate,
    accuracy_accepted: rate,
    ece: rate,
    evaluated_with: z.string(),
  }),
  /**
   * Optional (cards written since 2026-11-28): the ensemble's figures on the field and other-crop
   * sets, keyed and shaped as a model card's `out_of_distribution.evaluation` (field_val_all,
   * field_holdout, other_crop_holdout, ...), and beside them the members' figures on the first set
   * and whether the ensemble beats each of them there (ml/diagrodl_ml/gpufinish.py
   * ensemble_field_evaluation).
   */
  field_evaluation: z
    .object({
      /**
       * Each member's own figures (at its own card's thresholds) on the ensemble's first set, both
       * field sources' validation photos: top1, accepted_share, accuracy_accepted, ...
       */
      members_field_val_all: z
        .record(
          z.string(),
          z.looseObject({
            top1: rate.optional(),
            accepted_share: rate.optional(),
            accuracy_accepted: rate.nullable().optional(),
          }),
        )
        .optional(),
      /** Whether the ensemble's field validation top-1 is above every member's. */
      beats_each_member_on_field_val_top1: z.boolean().optional(),
      /**
       * The field sources (1, 2) whose held-out photos no member trained on: the held-out set is
       * `field_holdout` for both, `field_holdout_2` for the second alone (an ensemble with the
       * VGG16, which trained on the first source's photos held out since).
       */
      field_holdout_sources: z.array(z.number().int().positive()).optional(),
    })
    // every other key is an evaluation set
    .catchall(evaluationSetSchema)
    .optional(),
  /**
   * Optional (cards written since 2026-11-29): how fast the members' graphs ran on the CPU that
   * wrote the card, each alone and the ensemble (one after the other on each photo), without
   * decoding and preprocessing (bench/diagnosis measures those too).
   */
  speed: z
    .looseObject({
      cpu: z.string(),
      members_images_per_s: z.record(z.string(), z.number().positive()),
      images_per_s: z.number().positive(),
      min_for_default: z.number().positive(),
      /**
       * Cards written since 2026-12-01: the share of the CPU other processes used while each
       * member was timed (the card is written only when each is at most 0.1).
       */
      others_cpu_share: z.record(z.string(), z.number().min(0).max(1)).optional(),
    })
    .optional(),
  /**
   * Optional: whether the server's default model is the ensemble (it beats each network on field
   * validation top-1 and its members run at `speed.min_for_default` images per second or more);
   * absent or false: the MobileNet.
   */
  default: z.boolean().optional(),
  /**
   * Optional (cards written since 2026-11-29): the goals of the lab test split, the field sets and
   * the refusals, and whether the ensemble meets each, as a model card's `goals` says them.
   */
  goals: z
    .looseObject({
      top1_accuracy: rate,
      min_class_recall: rate,
      ece_after: rate,
      met: z.record(z.string(), z.boolean()),
    })
    .optional(),
  /**
   * Optional (cards since 2026-12-07, issue 68): the rule that combines the photos of one plant
   * (packages/contracts/src/plant.ts PLANT_RULE, chosen by bench/plant/choose.ts on validation
   * groups of both field sources), how it was chosen, and its figures: `figures.val` and
   * `figures.holdout`, each per field source (field, field2) and group ('1', '2', '3', '5',
   * 'mixed'), the shares of plants right, given a diagnosis, right when given, ...
   */
  plant: z
    .looseObject({
      rule: z.object({
        combine: z.enum(['geometric_mean', 'mean']),
        threshold: rate,
        disagree: z.enum(['confident_leaves', 'below_threshold']),
      }),
      method: z.string(),
      figures: z.record(
        z.string(),
        z.record(z.string(), z.record(z.string(), z.record(z.string(), z.number()))),
      ),
    })
    .optional(),
  notes: z.array(z.string()),
});

export type EnsembleCard = z.infer<typeof ensembleCardSchema>;

/** Parses with `schema`, throwing a readable error naming `what` and the first bad field. */
function parseCard<T>(schema: z.ZodType<T>, what: string, json: unknown): T {
  const r = schema.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new Error(
      `invalid ${what} at ${issue ? issue.path.join('.') || '(root)' : '?'}: ${issue?.message ?? ''}`,
    );
  }
  return r.data;
}

/** Parses a card, throwing a readable error naming the first bad field. */
export function parseModelCard(json: unknown): ModelCard {
  return parseCard(modelCardSchema, 'model card', json);
}

/** Parses an ensemble card, throwing a readable error naming the first bad field. */
export function parseEnsembleCard(json: unknown): EnsembleCard {
  return parseCard(ensembleCardSchema, 'ensemble card', json);
}

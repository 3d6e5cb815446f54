/**
 * A tiny, untrained model for tests (the shipped models' accuracy is never relied on):
 * the training pipeline's own `tiny-reference` export (ml/README.md; the same path the
 * onnx-export test uses), with a valid model card written here. It is built once per
 * version of the ml sources and cached in the system temp folder.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLASS_IDS } from '@diagrodl/contracts/classes';
import type { ModelCard } from '@diagrodl/contracts/model-card';
import { repoRoot } from '../config.ts';
import { MEAN, STD } from '../inference/preprocess.ts';
import { addLeafOutput } from './leaf-output.ts';

const PYTHON = '/usr/bin/python3';
export const TINY_SIZE = 64;

function mlSourcesHash(): string {
  const h = createHash('sha256');
  const dir = path.join(repoRoot, 'ml', 'diagrodl_ml');
  for (const f of fs.readdirSync(dir).sort()) {
    if (f.endsWith('.py')) h.update(f).update(fs.readFileSync(path.join(dir, f)));
  }
  return h.digest('hex').slice(0, 16);
}

/** Path of a cached tiny ONNX export (mobilenet architecture, 64 px input). */
export function tinyOnnx(): string {
  const cacheDir = path.join(os.tmpdir(), `diagrodl-tiny-${mlSourcesHash()}`);
  const onnx = path.join(cacheDir, 'model.onnx');
  if (fs.existsSync(onnx)) return onnx;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'diagrodl-tiny-build-'));
  try {
    execFileSync(
      PYTHON,
      [
        '-m',
        'diagrodl_ml.cli',
        'tiny-reference',
        '--out',
        work,
        '--arch',
        'mobilenet',
        '--size',
        String(TINY_SIZE),
      ],
      {
        cwd: repoRoot,
        env: { ...process.env, PYTHONPATH: path.join(repoRoot, 'ml'), OMP_NUM_THREADS: '2' },
        stdio: 'pipe',
      },
    );
  } catch (err) {
    fs.rmSync(work, { recursive: true, force: true });
    throw new Error(
      `Could not build the tiny test model with ${PYTHON} (Debian python3-torch/onnx; run bash ml/setup.sh): ${(err as Error).message}`,
    );
  }
  try {
    fs.renameSync(work, cacheDir);
  } catch {
    // another test worker built it first
    fs.rmSync(work, { recursive: true, force: true });
  }
  return onnx;
}

/** A card that passes the schema and describes `file` (sha256, size) as model `name`. */
export function tinyCard(
  file: string,
  name: string,
  opts: {
    threshold?: number;
    accuracy?: number;
    energyThreshold?: number;
    leafThreshold?: number;
  } = {},
): ModelCard {
  const bytes = fs.readFileSync(file);
  const zeros = CLASS_IDS.map(() => CLASS_IDS.map(() => 0));
  const sha = createHash('sha256').update(bytes).digest('hex');
  return {
    schema_version: 1,
    name,
    display_name: `${name} (tiny test model)`,
    version: 'test',
    architecture: 'mobilenet_v3_small',
    head: 'global average pooling + dropout + one linear layer to 10 classes',
    parameters: 1000,
    created_at: new Date().toISOString(),
    framework: { torch: 'test', torchvision: 'test', onnx_opset: 17 },
    file: {
      name: path.basename(file),
      sha256: sha,
      size_bytes: bytes.length,
      weights_dtype: 'float32',
    },
    input: {
      name: 'input',
      layout: 'NCHW',
      dtype: 'float32',
      shape: ['N', 3, TINY_SIZE, TINY_SIZE],
      size: TINY_SIZE,
      color: 'RGB',
      resize: 'centre square crop; exact area-average resize',
      scale: 'x / 255',
      mean: [...MEAN],
      std: [...STD],
    },
    outputs: {
      probabilities: { shape: ['N', 10], description: 'calibrated' },
      cam: { shape: ['N', 10, 2, 2], description: 'cam' },
    },
    classes: [...CLASS_IDS],
    data: {
      source: 'synthetic',
      license: 'none',
      n_images: 0,
      split: {
        method: 'none',
        seed: 0,
        fractions: {},
        counts: { train: 0, val: 0, test: 0 },
        per_class: {},
        file_list_sha256: { train: sha, val: sha, test: sha },
        file_lists: 'none',
      },
    },
    training: {
      epochs: 0,
      epochs_planned: 0,
      time_budget_minutes: 0,
      schedule: [],
      batch_size: 1,
      optimizer: 'none',
      loss: 'none',
      augmentation: [],
      seed: 0,
      device: 'cpu',
      time_seconds: 0,
      history: [],
    },
    calibration: {
      method: 'temperature',
      temperature: 1.7,
      bins: 15,
      val_ece_before: 0,
      val_ece_after: 0,
      val_nll_before: 0,
      val_nll_after: 0,
      test_ece_before: 0,
      test_ece_after: 0,
    },
    rejection: {
      threshold: opts.threshold ?? 0,
      ...(opts.energyThreshold === undefined ? {} : { energy_threshold: opts.energyThreshold }),
      ...(opts.leafThreshold === undefined ? {} : { leaf_threshold: opts.leafThreshold }),
      method: 'test',
      val_coverage: 1,
      val_accuracy_accepted: 0,
      val_correct_rejected: 0,
      val_errors_rejected: 0,
      val_errors: 0,
      test_coverage: 1,
      test_accuracy_accepted: 0,
      label_below_threshold: { es: 'No reconocido con confianza', en: 'Not recognised' },
    },
    metrics: {
      split: 'test',
      evaluated_with: 'none',
      n: 0,
      accuracy: opts.accuracy ?? 0.5,
      macro_f1: 0,
      min_recall: 0,
      per_class: CLASS_IDS.map((id) => ({ id, precision: 0, recall: 0, f1: 0, support: 0 })),
      confusion_matrix: zeros,
    },
    out_of_distribution: { note: 'none' },
    goals: {
      top1_accuracy: 0.98,
      min_class_recall: 0.95,
      ece_after: 0.02,
      met: { top1_accuracy: false, min_class_recall: false, ece_after: false },
    },
    notes: ['tiny untrained model for tests'],
  };
}

/**
 * A fresh models folder holding the tiny export under each of `ids` with a matching card.
 * `threshold` per id lets a test make rows accepted (0) or not accepted (1). `leafBias` per id
 * gives that model a `leaf` output, Sigmoid(energy + bias): +1000 always a leaf (1), -1000 never
 * (0); `leafThreshold` per id puts a leaf_threshold in its card.
 */
export function makeModelsDir(
  ids: readonly string[] = ['mobilenet'],
  opts: {
    threshold?: Record<string, number>;
    accuracy?: Record<string, number>;
    energyThreshold?: Record<string, number>;
    leafBias?: Record<string, number>;
    leafThreshold?: Record<string, number>;
  } = {},
): string {
  const src = tinyOnnx();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'diagrodl-models-'));
  for (const id of ids) {
    const file = path.join(dir, `${id}.onnx`);
    const bias = opts.leafBias?.[id];
    if (bias === undefined) fs.copyFileSync(src, file);
    else fs.writeFileSync(file, addLeafOutput(fs.readFileSync(src), bias));
    const card = tinyCard(file, id, {
      threshold: opts.threshold?.[id] ?? 0,
      accuracy: opts.accuracy?.[id] ?? 0.5,
      energyThreshold: opts.energyThreshold?.[id],
      leafThreshold: opts.leafThreshold?.[id],
    });
    fs.writeFileSync(path.join(dir, `${id}.card.json`), JSON.stringify(card, null, 2));
  }
  return dir;
}

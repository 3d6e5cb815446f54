/**
 * A tiny, untrained model for tests (the shipped models' accuracy is never relied on): the
 * training pipeline's own `fixtures tiny-reference` export (`tiny_cnn`, 64 px, 9.8 KB), committed with its card in
 * fixtures/tiny-model/ so the server tests need no PyTorch. ml/tests/test_tiny_fixture.py checks
 * it still matches what the pipeline builds; fixtures/tiny-model/README.md says how to rebuild it.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EnsembleCard, ModelCard } from '@diagrodl/contracts/model-card';
import { addLeafOutput } from './leaf-output.ts';

export const TINY_DIR = path.join(import.meta.dirname, 'fixtures', 'tiny-model');
export const TINY_SIZE = 64;

/** Path of the committed tiny ONNX export. */
export function tinyOnnx(): string {
  return path.join(TINY_DIR, 'model.onnx');
}

/** The sha256 and size of a file, as a card names them. */
function fileFacts(file: string): { sha256: string; size_bytes: number } {
  const bytes = fs.readFileSync(file);
  return { sha256: createHash('sha256').update(bytes).digest('hex'), size_bytes: bytes.length };
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
    fieldThreshold?: number;
  } = {},
): ModelCard {
  const base = JSON.parse(fs.readFileSync(path.join(TINY_DIR, 'card.json'), 'utf8')) as ModelCard;
  const { energy_threshold: _energy, leaf_threshold: _leaf, ...rejection } = base.rejection;
  return {
    ...base,
    name,
    display_name: `${name} (tiny test model)`,
    file: {
      ...base.file,
      name: path.basename(file),
      ...fileFacts(file),
    },
    rejection: {
      ...rejection,
      threshold: opts.threshold ?? 0,
      ...(opts.energyThreshold === undefined ? {} : { energy_threshold: opts.energyThreshold }),
      ...(opts.leafThreshold === undefined ? {} : { leaf_threshold: opts.leafThreshold }),
      ...(opts.fieldThreshold === undefined ? {} : { field_threshold: opts.fieldThreshold }),
    },
    metrics: { ...base.metrics, accuracy: opts.accuracy ?? 0.5 },
  };
}

/**
 * A fresh models folder holding the tiny export under each of `ids` with a matching card.
 * `threshold` per id lets a test make rows accepted (0) or not accepted (1). `leafBias` per id
 * gives that model a `leaf` output, Sigmoid(energy + bias): +1000 always a leaf (1), -1000 never
 * (0); `leafThreshold` per id puts a leaf_threshold in its card, `fieldThreshold` a field_threshold.
 */
export function makeModelsDir(
  ids: readonly string[] = ['mobilenet'],
  opts: {
    threshold?: Record<string, number>;
    accuracy?: Record<string, number>;
    energyThreshold?: Record<string, number>;
    leafBias?: Record<string, number>;
    leafThreshold?: Record<string, number>;
    fieldThreshold?: Record<string, number>;
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
      fieldThreshold: opts.fieldThreshold?.[id],
    });
    fs.writeFileSync(path.join(dir, `${id}.card.json`), JSON.stringify(card, null, 2));
  }
  return dir;
}

/**
 * Writes models/ensemble.card.json into `dir` describing the model files already there under
 * `ids` (their sha256 and size), with the given thresholds and test accuracy.
 */
export function writeEnsembleCard(
  dir: string,
  ids: readonly string[],
  opts: { threshold: number; leafThreshold: number; accuracy: number },
): EnsembleCard {
  const card: EnsembleCard = {
    schema_version: 1,
    name: 'ensemble',
    display_name: 'Ensemble (tiny test models)',
    created_at: '2026-11-24T21:30:00Z',
    combination: "mean of the members' calibrated probabilities",
    members: ids.map((id) => ({ id, ...fileFacts(path.join(dir, `${id}.onnx`)) })),
    rejection: {
      threshold: opts.threshold,
      leaf_threshold: opts.leafThreshold,
      method: 'test',
      val_coverage: 1,
    },
    metrics: {
      split: 'test',
      n: 10,
      accuracy: opts.accuracy,
      accuracy_ci95: [0, 1],
      min_recall: 0,
      per_class_recall: {},
      coverage: 1,
      accuracy_accepted: opts.accuracy,
      ece: 0,
      evaluated_with: 'nothing: a test card',
    },
    notes: [],
  };
  fs.writeFileSync(path.join(dir, 'ensemble.card.json'), JSON.stringify(card, null, 2));
  return card;
}

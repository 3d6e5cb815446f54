// The model registry, the classifier interface, the ensemble and the heatmaps, on a tiny
// untrained export from the training pipeline (no shipped model needed).
import fs from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLASS_IDS } from '@diagrodl/contracts/classes';
import { leafPhoto } from '../testing/diagnosis.ts';
import { json, startTestServer } from '../testing/harness.ts';
import { TINY_SIZE, makeModelsDir, tinyCard, writeEnsembleCard } from '../testing/tiny-model.ts';
import { type Classification, decide, resizeMap } from './classifier.ts';
import { jet } from '@diagrodl/contracts/inference/cam';
import { EnsembleModel } from './ensemble.ts';
import { OnnxModel } from './onnx-model.ts';
import { ModelRegistry } from './registry.ts';
import { decodeRgb, preprocessImage } from './preprocess.ts';

describe('model registry', () => {
  let dir = '';
  let registry: ModelRegistry;
  beforeAll(async () => {
    dir = makeModelsDir(['mobilenet', 'resnet50'], {
      threshold: { mobilenet: 0.2, resnet50: 0.4 },
    });
    registry = await ModelRegistry.load(dir);
  });
  afterAll(async () => {
    await registry.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('loads every matching model once and offers the ensemble', () => {
    expect([...registry.models.keys()]).toEqual(['mobilenet', 'resnet50']);
    expect(registry.refused).toEqual([]);
    expect(registry.list().map((m) => m.id)).toEqual(['resnet50', 'mobilenet', 'ensemble']);
    expect(registry.get('ensemble')?.threshold).toBeCloseTo(0.3, 10);
    expect(registry.get('vgg16')).toBeUndefined();
  });

  it('classifies like a direct onnxruntime run on the shared preprocessing', async () => {
    const photos = [await leafPhoto({ seed: 1 }), await leafPhoto({ seed: 2, format: 'png' })];
    const model = registry.get('mobilenet') as OnnxModel;
    const results = await model.classify(photos);
    expect(results).toHaveLength(2);
    const session = await ort.InferenceSession.create(path.join(dir, 'mobilenet.onnx'));
    for (let n = 0; n < photos.length; n++) {
      const r = results[n]!;
      const pre = await preprocessImage(photos[n]!, TINY_SIZE);
      const out = await session.run({
        input: new ort.Tensor('float32', pre.tensor, [1, 3, TINY_SIZE, TINY_SIZE]),
      });
      const p = Array.from((out.probabilities as ort.Tensor).data as Float32Array);
      for (let i = 0; i < CLASS_IDS.length; i++) expect(r.probabilities[i]).toBeCloseTo(p[i]!, 5);
      expect(r.probabilities.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 4);
      expect(r.top3.map((t) => t.probability)).toEqual(
        [...r.top3.map((t) => t.probability)].sort((a, b) => b - a),
      );
      expect(r.label).toBe(r.top3[0]!.label);
      expect(r.accepted).toBe(r.probability >= 0.2);
      const camDims = (out.cam as ort.Tensor).dims;
      expect([r.cam.height, r.cam.width]).toEqual([camDims[2], camDims[3]]);
      for (const v of r.cam.data) expect(v).toBeGreaterThanOrEqual(0);
    }
    await session.release();
    // a photo already decoded (the worker decodes each photo once) gives the same result
    const decoded = await model.classify(await Promise.all(photos.map((b) => decodeRgb(b))));
    expect(decoded).toEqual(results);
  });

  it('the ensemble averages the members (identical members give the same probabilities)', async () => {
    const photos = [await leafPhoto({ seed: 3 })];
    const single = await registry.get('mobilenet')!.classify(photos);
    const ens = await registry.get('ensemble')!.classify(photos);
    for (let i = 0; i < CLASS_IDS.length; i++) {
      expect(ens[0]!.probabilities[i]).toBeCloseTo(single[0]!.probabilities[i]!, 6);
    }
    expect(Array.from(ens[0]!.cam.data)).toEqual(Array.from(single[0]!.cam.data));
    expect(ens[0]!.threshold).toBeCloseTo(0.3, 10);
  });

  it('refuses an undecodable image with an error (the caller decides what to do)', async () => {
    await expect(registry.get('mobilenet')!.classify([Buffer.from('no')])).rejects.toThrow();
  });

  it('decodes the next photo while resizing this one: same answers; a bad photo anywhere is an error', async () => {
    const photos = await Promise.all([4, 5, 6].map((seed) => leafPhoto({ seed })));
    const model = registry.get('mobilenet')!;
    const together = await model.classify(photos);
    const alone = [];
    for (const p of photos) alone.push(...(await model.classify([p])));
    expect(together).toEqual(alone);
    // the bad photo is decoded while the first is resized; the error comes from classify, in its turn
    await expect(model.classify([photos[0]!, Buffer.from('no'), photos[2]!])).rejects.toThrow();
    await expect(model.classify([Buffer.from('no'), photos[1]!])).rejects.toThrow();
    expect(await model.classify([photos[1]!])).toEqual([alone[1]]); // and the model still works
  });

  it('gives the same answers with its reused input buffers, requests at once and one after another', async () => {
    // each request's inputs go into a pooled buffer that the next request reuses: requests that
    // overlap must not write into each other's, and a long request is run in several batches
    const photos = await Promise.all([7, 8, 9, 10].map((seed) => leafPhoto({ seed })));
    const model = registry.get('mobilenet')!;
    const alone: Classification[] = [];
    for (const p of photos) alone.push(...(await model.classify([p])));
    const [a, b, c] = await Promise.all([
      model.classify([photos[0]!, photos[1]!]),
      model.classify([photos[2]!]),
      registry.get('ensemble')!.classify([photos[3]!, photos[0]!]),
    ]);
    expect(a).toEqual([alone[0], alone[1]]);
    expect(b).toEqual([alone[2]]);
    const ensembleAlone: Classification[] = [];
    for (const p of [photos[3]!, photos[0]!])
      ensembleAlone.push(...(await registry.get('ensemble')!.classify([p])));
    expect(c).toEqual(ensembleAlone);
    const many = Array.from({ length: 20 }, (_, i) => photos[i % 4]!); // three batches of up to 8
    const manyOut = await model.classify(many);
    manyOut.forEach((r, i) => expect(r).toEqual(alone[i % 4]));
  });
});

describe('the energy floor', () => {
  it("turns a photo away when the card's energy_threshold says it looks like no class", async () => {
    // both members accept any top probability (threshold 0); only resnet50 has an unreachable floor
    const dir = makeModelsDir(['mobilenet', 'resnet50'], {
      energyThreshold: { mobilenet: -1e6, resnet50: 1e6 },
    });
    const registry = await ModelRegistry.load(dir);
    try {
      const photos = [await leafPhoto({ seed: 4 })];
      const low = await registry.get('mobilenet')!.classify(photos);
      const high = await registry.get('resnet50')!.classify(photos);
      const ens = await registry.get('ensemble')!.classify(photos);
      expect(low[0]!.accepted).toBe(true);
      expect(high[0]!.accepted).toBe(false);
      expect(high[0]!.probabilities).toEqual(low[0]!.probabilities); // same file: only the rule differs
      expect(ens[0]!.accepted).toBe(false); // any member's floor turns it away
      // the floor is compared with the graph's third output
      const session = await ort.InferenceSession.create(path.join(dir, 'mobilenet.onnx'));
      expect(session.outputNames).toEqual(['probabilities', 'cam', 'energy']);
      await session.release();
    } finally {
      await registry.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The registry of `dir` with the warnings it logged while loading. */
async function loadWithWarnings(
  dir: string,
): Promise<{ registry: ModelRegistry; warnings: string[] }> {
  const warnings: string[] = [];
  const registry = await ModelRegistry.load(dir, {
    info: () => undefined,
    warn: (m) => warnings.push(m),
  });
  return { registry, warnings };
}

describe("the leaf output ('No parece una hoja de tomate')", () => {
  it('a leaf output below the card leaf_threshold is not_leaf, before the confidence rules', async () => {
    // mobilenet: leaf 0 (never a leaf); resnet50: leaf 1 (always); vgg16: no leaf output.
    // resnet50 accepts nothing by its top probability (threshold 1): low confidence, not not_leaf.
    const dir = makeModelsDir(['mobilenet', 'resnet50', 'vgg16'], {
      threshold: { mobilenet: 0, resnet50: 1, vgg16: 0 },
      leafBias: { mobilenet: -1000, resnet50: 1000 },
      leafThreshold: { mobilenet: 0.5, resnet50: 0.5 },
    });
    const registry = await ModelRegistry.load(dir);
    try {
      expect(registry.refused).toEqual([]);
      const photos = [await leafPhoto({ seed: 5 })];
      const [notLeaf] = await registry.get('mobilenet')!.classify(photos);
      const [leaf] = await registry.get('resnet50')!.classify(photos);
      const [none] = await registry.get('vgg16')!.classify(photos);
      expect(notLeaf).toMatchObject({ accepted: false, reason: 'not_leaf', leafProbability: 0 });
      expect(leaf).toMatchObject({ accepted: false, reason: 'low_confidence', leafProbability: 1 });
      expect(none).toMatchObject({ accepted: true, reason: null, leafProbability: null });
      // the probabilities and the label are still there (the rule only decides)
      expect(notLeaf!.probabilities).toEqual(none!.probabilities);
      expect(notLeaf!.label).toBe(none!.label);
      // ensemble: mean leaf of the members that have one (0 and 1: 0.5), vgg16 left out; the
      // threshold is the mean of the members' leaf thresholds (0.5): 0.5 is a leaf
      const [ens] = await registry.get('ensemble')!.classify(photos);
      expect(ens!.leafProbability).toBeCloseTo(0.5, 6);
      expect(ens!.reason).not.toBe('not_leaf');
      const listed = Object.fromEntries(registry.list().map((m) => [m.id, m.leafThreshold]));
      expect(listed).toEqual({ vgg16: undefined, resnet50: 0.5, mobilenet: 0.5, ensemble: 0.5 });
    } finally {
      await registry.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the ensemble is not_leaf when the mean leaf output is below the mean leaf threshold', async () => {
    const dir = makeModelsDir(['mobilenet', 'resnet50'], {
      leafBias: { mobilenet: -1000, resnet50: 1000 },
      leafThreshold: { mobilenet: 0.6, resnet50: 0.7 },
    });
    const registry = await ModelRegistry.load(dir);
    try {
      const [ens] = await registry.get('ensemble')!.classify([await leafPhoto({ seed: 6 })]);
      expect(ens).toMatchObject({ accepted: false, reason: 'not_leaf' });
      expect(ens!.leafProbability).toBeCloseTo(0.5, 6);
    } finally {
      await registry.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a leaf output without a leaf_threshold is reported but decides nothing', async () => {
    const dir = makeModelsDir(['mobilenet'], { leafBias: { mobilenet: -1000 } });
    const registry = await ModelRegistry.load(dir);
    try {
      const [r] = await registry.get('mobilenet')!.classify([await leafPhoto({ seed: 7 })]);
      expect(r).toMatchObject({ accepted: true, reason: null, leafProbability: 0 });
      const session = await ort.InferenceSession.create(path.join(dir, 'mobilenet.onnx'));
      expect(session.outputNames).toEqual(['probabilities', 'cam', 'energy', 'leaf']);
      await session.release();
    } finally {
      await registry.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses a card with a leaf_threshold for a graph without a 'leaf' output, and says why", async () => {
    const dir = makeModelsDir(['mobilenet', 'resnet50'], { leafThreshold: { resnet50: 0.5 } });
    const { registry, warnings } = await loadWithWarnings(dir);
    await registry.close();
    expect([...registry.models.keys()]).toEqual(['mobilenet']);
    const reason = "its card has a leaf_threshold but the ONNX graph has no 'leaf' output";
    expect(registry.refused).toEqual([{ id: 'resnet50', reason }]);
    expect(warnings).toContain(`Model resnet50 refused: ${reason}`);
    const s = await startTestServer('sqlite', { MODELS_DIR: dir });
    try {
      const health = await json(await fetch(`${s.baseUrl}/api/health`));
      expect(health.models).toContainEqual({
        id: 'resnet50',
        accuracy: null,
        status: 'refused',
        reason,
      });
    } finally {
      await s.app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
  it("refuses a card with a field_threshold for a graph without a 'lab_like' output", async () => {
    const dir = makeModelsDir(['mobilenet', 'resnet50'], { fieldThreshold: { resnet50: 0.9 } });
    try {
      const { registry, warnings } = await loadWithWarnings(dir);
      await registry.close();
      expect([...registry.models.keys()]).toEqual(['mobilenet']);
      const reason = "its card has a field_threshold but the ONNX graph has no 'lab_like' output";
      expect(registry.refused).toEqual([{ id: 'resnet50', reason }]);
      expect(warnings).toContain(`Model resnet50 refused: ${reason}`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the ensemble card (models/ensemble.card.json)', () => {
  // Members' own rules: thresholds 0.2 and 0.4 (mean 0.3), leaf thresholds 0.4 and 0.4 (mean 0.4);
  // leaf outputs 0 and 1 (mean 0.5: a leaf by the members' mean, not by a card's 0.6).
  const members = () =>
    makeModelsDir(['mobilenet', 'resnet50'], {
      threshold: { mobilenet: 0.2, resnet50: 0.4 },
      accuracy: { mobilenet: 0.8, resnet50: 0.7 },
      leafBias: { mobilenet: -1000, resnet50: 1000 },
      leafThreshold: { mobilenet: 0.4, resnet50: 0.4 },
    });
  const CARD = { threshold: 0.77, leafThreshold: 0.6, accuracy: 0.913 };

  /** The ensemble's rules and accuracy as every view of the registry reports them. */
  async function ensembleSeenIn(registry: ModelRegistry) {
    const ens = registry.get('ensemble')!;
    const [row] = await ens.classify([await leafPhoto({ seed: 8 })]);
    return {
      threshold: ens.threshold,
      leafThreshold: ens.leafThreshold,
      rowThreshold: row!.threshold,
      reason: row!.reason,
      listed: registry.list().find((m) => m.id === 'ensemble'),
      accuracy: registry.accuracy('ensemble'),
      health: registry.health().find((m) => m.id === 'ensemble'),
    };
  }

  it('a card for exactly the loaded files gives the thresholds and the test accuracy', async () => {
    const dir = members();
    writeEnsembleCard(dir, ['resnet50', 'mobilenet'], CARD); // any order
    const { registry, warnings } = await loadWithWarnings(dir);
    try {
      expect(warnings).toEqual([]);
      const seen = await ensembleSeenIn(registry);
      expect(seen).toMatchObject({
        threshold: 0.77,
        leafThreshold: 0.6,
        rowThreshold: 0.77,
        reason: 'not_leaf', // mean leaf output 0.5 is below the card's 0.6
        accuracy: 0.913,
        health: { id: 'ensemble', accuracy: 0.913, status: 'loaded' },
      });
      expect(seen.listed).toMatchObject({
        testAccuracy: 0.913,
        threshold: 0.77,
        leafThreshold: 0.6,
        members: ['mobilenet', 'resnet50'],
      });
      // the members keep their own cards' rules and accuracy
      expect(registry.get('mobilenet')!.threshold).toBe(0.2);
      expect(registry.accuracy('mobilenet')).toBe(0.8);
    } finally {
      await registry.close();
    }
    // the server (model worker thread) reports it too
    const s = await startTestServer('sqlite', { MODELS_DIR: dir });
    try {
      const health = await json(await fetch(`${s.baseUrl}/api/health`));
      expect(health.models).toContainEqual({ id: 'ensemble', accuracy: 0.913, status: 'loaded' });
      const models = await json(await fetch(`${s.baseUrl}/diagrodl/models/`));
      expect(models.find((m: { id: string }) => m.id === 'ensemble')).toMatchObject({
        testAccuracy: 0.913,
        threshold: 0.77,
        leafThreshold: 0.6,
      });
    } finally {
      await s.app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a card's field evaluation gives the ensemble field figures and rows", async () => {
    const dir = members();
    const card = writeEnsembleCard(dir, ['mobilenet', 'resnet50'], CARD);
    const fieldEvaluation = {
      field_val_all: { n: 181, top1: 0.6, accepted_share: 0.4, accuracy_accepted: 0.8 },
      field_holdout: { n: 105, top1: 0.55, top1_ci95: [0.45, 0.64], accepted_share: 0.38 },
      other_crop_holdout: {
        n: 150,
        refused_share: 0.94,
        refused_ci95: [0.9, 0.97],
        not_leaf_share: 0.8,
      },
    };
    fs.writeFileSync(
      path.join(dir, 'ensemble.card.json'),
      JSON.stringify({ ...card, field_evaluation: fieldEvaluation }),
    );
    const { registry, warnings } = await loadWithWarnings(dir);
    try {
      expect(warnings).toEqual([]);
      // the held-out field photos stand for "on field photos"
      expect(registry.fieldAccuracy('ensemble')).toBe(0.55);
      expect(registry.reliability('ensemble').map((r) => r.set)).toEqual([
        'lab_test',
        'field_val_all',
        'field_holdout',
        'other_crop_holdout',
      ]);
      expect(registry.reliability('ensemble').at(-1)).toEqual({
        set: 'other_crop_holdout',
        n: 150,
        refusedShare: 0.94,
        refusedCi95: [0.9, 0.97],
        notLeafShare: 0.8,
      });
      expect(registry.list().find((m) => m.id === 'ensemble')?.fieldAccuracy).toBe(0.55);
    } finally {
      await registry.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is not offered when its card says it does not beat each member on field validation', async () => {
    const dir = members();
    const card = writeEnsembleCard(dir, ['mobilenet', 'resnet50'], CARD);
    const fieldEvaluation = (beats: boolean) => ({
      field_val_all: { n: 181, top1: 0.6354 },
      members_field_val_all: { mobilenet: { top1: 0.6464 }, resnet50: { top1: 0.6243 } },
      beats_each_member_on_field_val_top1: beats,
    });
    for (const beats of [false, true]) {
      fs.writeFileSync(
        path.join(dir, 'ensemble.card.json'),
        JSON.stringify({ ...card, field_evaluation: fieldEvaluation(beats) }),
      );
      const { registry, warnings } = await loadWithWarnings(dir);
      try {
        const ids = registry.list().map((m) => m.id);
        if (beats) {
          expect(warnings).toEqual([]);
          expect(ids).toContain('ensemble');
          continue;
        }
        expect(ids).toEqual(['resnet50', 'mobilenet']);
        expect(registry.get('ensemble')).toBeUndefined();
        expect(registry.health()).toContainEqual({
          id: 'ensemble',
          accuracy: null,
          status: 'refused',
          reason: expect.stringMatching(
            /does not beat each member on field validation top-1 \(ensemble 0\.6354; mobilenet 0\.6464, resnet50 0\.6243\)/,
          ),
        });
        expect(warnings).toEqual([expect.stringMatching(/^Model ensemble not offered: /)]);
      } finally {
        await registry.close();
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is the default model when its card says so, else the MobileNet is', async () => {
    const dir = members();
    const card = writeEnsembleCard(dir, ['mobilenet', 'resnet50'], CARD);
    const defaults = (r: ModelRegistry) =>
      r
        .list()
        .filter((m) => m.isDefault)
        .map((m) => m.id);
    try {
      for (const flag of [undefined, false, true]) {
        fs.writeFileSync(
          path.join(dir, 'ensemble.card.json'),
          JSON.stringify(flag === undefined ? card : { ...card, default: flag }),
        );
        const { registry, warnings } = await loadWithWarnings(dir);
        try {
          expect(warnings).toEqual([]);
          const expected = flag ? 'ensemble' : 'mobilenet';
          expect(registry.defaultId()).toBe(expected);
          expect(defaults(registry)).toEqual([expected]);
        } finally {
          await registry.close();
        }
      }
      // the server (model worker thread) lists it
      const s = await startTestServer('sqlite', { MODELS_DIR: dir });
      try {
        const models = await json(await fetch(`${s.baseUrl}/diagrodl/models/`));
        expect(
          models
            .filter((m: { isDefault?: boolean }) => m.isDefault)
            .map((m: { id: string }) => m.id),
        ).toEqual(['ensemble']);
      } finally {
        await s.app.close();
      }
      // a card the server cannot use makes no default of an ensemble built without it
      fs.writeFileSync(
        path.join(dir, 'ensemble.card.json'),
        JSON.stringify({ ...card, default: true, members: card.members.slice(0, 1) }),
      );
      const { registry } = await loadWithWarnings(dir);
      try {
        expect(registry.defaultId()).toBe('mobilenet');
      } finally {
        await registry.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('its members are the ones the card names, each weighed as the card says', async () => {
    // three identical files: the card leaves vgg16 out and weighs mobilenet 3 times resnet50
    const dir = makeModelsDir(['mobilenet', 'resnet50', 'vgg16'], {
      leafBias: { mobilenet: 1000, resnet50: -1000, vgg16: 1000 },
    });
    const card = writeEnsembleCard(dir, ['mobilenet', 'resnet50'], CARD);
    card.members[0]!.weight = 3;
    fs.writeFileSync(path.join(dir, 'ensemble.card.json'), JSON.stringify(card));
    const { registry, warnings } = await loadWithWarnings(dir);
    try {
      expect(warnings).toEqual([]);
      const ens = registry.get('ensemble') as EnsembleModel;
      expect(ens.members.map((m) => m.id)).toEqual(['mobilenet', 'resnet50']);
      expect(ens.shares).toEqual([0.75, 0.25]);
      expect(registry.list().find((m) => m.id === 'ensemble')).toMatchObject({
        label: 'Ensemble (ResNet50 + MobileNet)',
        members: ['mobilenet', 'resnet50'],
      });
      const photos = [await leafPhoto({ seed: 5 })];
      const [row] = await ens.classify(photos);
      const [single] = await registry.get('mobilenet')!.classify(photos);
      for (let i = 0; i < CLASS_IDS.length; i++)
        expect(row!.probabilities[i]).toBeCloseTo(single!.probabilities[i]!, 6);
      // the leaf output is the plain mean of the two members' (1 and 0), below the card's 0.6
      // (with vgg16's 1 it would be 2/3, above)
      expect(row!.reason).toBe('not_leaf');
    } finally {
      await registry.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  /** The members' means, no accuracy: what the ensemble does without a usable card. */
  const WITHOUT_CARD = {
    threshold: expect.closeTo(0.3, 10),
    leafThreshold: 0.4,
    rowThreshold: expect.closeTo(0.3, 10),
    accuracy: null,
    health: { id: 'ensemble', accuracy: null, status: 'loaded' },
  };

  it("without a card: the mean of the members' thresholds and no test accuracy, silently", async () => {
    const dir = members();
    const { registry, warnings } = await loadWithWarnings(dir);
    try {
      expect(warnings).toEqual([]);
      const seen = await ensembleSeenIn(registry);
      expect(seen).toMatchObject(WITHOUT_CARD);
      expect(seen.reason).not.toBe('not_leaf'); // mean leaf output 0.5 is above the mean 0.4
      expect(seen.listed).toMatchObject({ testAccuracy: null, leafThreshold: 0.4 });
    } finally {
      await registry.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    [
      "a member's sha256 differs",
      (dir: string) => {
        const card = writeEnsembleCard(dir, ['mobilenet', 'resnet50'], CARD);
        card.members[1]!.sha256 = 'f'.repeat(64);
        return card;
      },
      /^Ensemble card ensemble\.card\.json ignored: it does not match the loaded models: member resnet50: the file's sha256 is [0-9a-f]{64} but the ensemble card says f{64} \(the ensemble is every loaded model, weighed the same, with the mean of their thresholds and no test accuracy\)$/,
    ],
    [
      "a member's size differs",
      (dir: string) => {
        const card = writeEnsembleCard(dir, ['mobilenet', 'resnet50'], CARD);
        card.members[0]!.size_bytes += 1;
        return card;
      },
      /ignored: it does not match the loaded models: member mobilenet: the file has \d+ bytes but the ensemble card says \d+/,
    ],
    [
      'it names another member set',
      (dir: string) => {
        fs.copyFileSync(path.join(dir, 'mobilenet.onnx'), path.join(dir, 'vgg16.onnx'));
        const card = writeEnsembleCard(dir, ['mobilenet', 'resnet50', 'vgg16'], CARD);
        fs.rmSync(path.join(dir, 'vgg16.onnx'));
        return card;
      },
      /ignored: it does not match the loaded models: it names the member\(s\) vgg16, not loaded \(loaded: mobilenet, resnet50\)/,
    ],
    [
      'it does not parse',
      (dir: string) => {
        const card = writeEnsembleCard(dir, ['mobilenet', 'resnet50'], CARD);
        return { ...card, metrics: { ...card.metrics, accuracy: 2 } };
      },
      /ignored: it cannot be used: invalid ensemble card at metrics\.accuracy:/,
    ],
    ['it is not JSON', () => '{ "schema_version": 1,', /ignored: it cannot be used: .*JSON/],
  ])('ignored with a warning when %s', async (_what, write, warning) => {
    const dir = members();
    const card = write(dir);
    fs.writeFileSync(
      path.join(dir, 'ensemble.card.json'),
      typeof card === 'string' ? card : JSON.stringify(card),
    );
    const { registry, warnings } = await loadWithWarnings(dir);
    try {
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(warning);
      expect(await ensembleSeenIn(registry)).toMatchObject(WITHOUT_CARD);
    } finally {
      await registry.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('model card checks', () => {
  it('refuses a model whose card does not match its file, says why, and loads the rest', async () => {
    const dir = makeModelsDir(['mobilenet', 'resnet50', 'vgg16']);
    // resnet50: one byte of the file changed (sha256 mismatch, same size)
    const r = path.join(dir, 'resnet50.onnx');
    const bytes = fs.readFileSync(r);
    bytes[bytes.length - 1] = (bytes[bytes.length - 1]! + 1) % 256;
    fs.writeFileSync(r, bytes);
    // vgg16: card lists the wrong size
    const vCard = JSON.parse(fs.readFileSync(path.join(dir, 'vgg16.card.json'), 'utf8'));
    vCard.file.size_bytes += 1;
    fs.writeFileSync(path.join(dir, 'vgg16.card.json'), JSON.stringify(vCard));
    // an unknown name and a model without a card
    fs.copyFileSync(path.join(dir, 'mobilenet.onnx'), path.join(dir, 'other.onnx'));
    fs.mkdirSync(path.join(dir, 'nocard'));
    const { registry, warnings } = await loadWithWarnings(dir);
    expect([...registry.models.keys()]).toEqual(['mobilenet']);
    expect(registry.ensemble).toBeNull();
    const why = Object.fromEntries(registry.refused.map((x) => [x.id, x.reason]));
    expect(why.resnet50).toMatch(
      /does not match the file: the file's sha256 is [0-9a-f]{64} but its card says/,
    );
    expect(why.vgg16).toMatch(/does not match the file: the file has \d+ bytes but its card says/);
    expect(why.other).toMatch(/unknown model id/);
    expect(warnings.join('\n')).toMatch(/Model resnet50 refused/);
    await registry.close();

    // an invalid card (schema) and a missing card
    fs.writeFileSync(path.join(dir, 'vgg16.card.json'), JSON.stringify({ ...vCard, classes: [] }));
    fs.rmSync(path.join(dir, 'resnet50.card.json'));
    const again = await ModelRegistry.load(dir);
    const why2 = Object.fromEntries(again.refused.map((x) => [x.id, x.reason]));
    expect(why2.vgg16).toMatch(/its card cannot be used: invalid model card at classes/);
    expect(why2.resnet50).toMatch(/no card resnet50.card.json/);
    await again.close();

    // the server still starts; /api/health lists the loaded and the refused models
    const s = await startTestServer('sqlite', { MODELS_DIR: dir });
    try {
      const health = await json(await fetch(`${s.baseUrl}/api/health`));
      expect(health.status).toBe('OK');
      expect(health.models).toContainEqual({ id: 'mobilenet', accuracy: 0.5, status: 'loaded' });
      expect(health.models).toContainEqual(
        expect.objectContaining({ id: 'vgg16', accuracy: null, status: 'refused' }),
      );
      const models = await json(await fetch(`${s.baseUrl}/diagrodl/models/`));
      expect(models.map((m: { id: string }) => m.id)).toEqual(['mobilenet']);
    } finally {
      await s.app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a card for another model name is refused', async () => {
    const dir = makeModelsDir(['mobilenet']);
    const file = path.join(dir, 'mobilenet.onnx');
    fs.writeFileSync(
      path.join(dir, 'mobilenet.card.json'),
      JSON.stringify(tinyCard(file, 'vgg16')),
    );
    const registry = await ModelRegistry.load(dir);
    expect(registry.refused[0]?.reason).toMatch(/describes model 'vgg16'/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('decisions and heatmaps', () => {
  it('decide: top 3 in order, threshold inclusive', () => {
    const p = [0.05, 0.5, 0.1, 0.2, 0.05, 0.02, 0.03, 0.02, 0.02, 0.01];
    const d = decide(p, 0.5);
    expect(d.label).toBe('early_blight');
    expect(d.top3.map((t) => t.label)).toEqual(['early_blight', 'leaf_mold', 'late_blight']);
    expect(d.accepted).toBe(true);
    expect(decide(p, 0.51).accepted).toBe(false);
    expect(decide(p, 0.5, false).accepted).toBe(false); // below the energy floor
    expect(decide(p, 0.5, false).label).toBe('early_blight');
  });

  it('decide: three outcomes, not_leaf first, the leaf threshold inclusive', () => {
    const p = [0.05, 0.5, 0.1, 0.2, 0.05, 0.02, 0.03, 0.02, 0.02, 0.01];
    const pick = (d: ReturnType<typeof decide>) => [d.accepted, d.reason, d.leafProbability];
    // no leaf output, no rule
    expect(pick(decide(p, 0.5))).toEqual([true, null, null]);
    expect(pick(decide(p, 0.6))).toEqual([false, 'low_confidence', null]);
    expect(pick(decide(p, 0.5, false))).toEqual([false, 'low_confidence', null]);
    // a leaf output without a threshold: reported, decides nothing
    expect(pick(decide(p, 0.5, true, { probability: 0.1 }))).toEqual([true, null, 0.1]);
    // below the leaf threshold: not_leaf, even when confident, and before low confidence
    const leaf = (probability: number) => ({ probability, threshold: 0.4 });
    expect(pick(decide(p, 0.5, true, leaf(0.39)))).toEqual([false, 'not_leaf', 0.39]);
    expect(pick(decide(p, 0.6, false, leaf(0.39)))).toEqual([false, 'not_leaf', 0.39]);
    // at or above it, the other rules decide
    expect(pick(decide(p, 0.5, true, leaf(0.4)))).toEqual([true, null, 0.4]);
    expect(pick(decide(p, 0.6, true, leaf(0.9)))).toEqual([false, 'low_confidence', 0.9]);
    expect(decide(p, 0.5, true, leaf(0.1)).label).toBe('early_blight');
  });

  it('resizes maps bilinearly and colour-maps from blue to red', () => {
    const m = resizeMap({ width: 2, height: 1, data: new Float32Array([0, 1]) }, 4, 1);
    expect(Array.from(m.data)).toEqual([0, 0.25, 0.75, 1]);
    expect(jet(0)[2]).toBeGreaterThan(100);
    expect(jet(0)[0]).toBe(0);
    expect(jet(1)[0]).toBeGreaterThan(100);
    expect(jet(1)[2]).toBe(0);
  });
});

/**
 * Diagnosis speed, per loaded model (MODELS_DIR, default models/), on a 20-image batch of
 * PlantVillage JPEGs (two per class from ../shared/data; synthetic leaves when absent):
 *   - images per second for the whole batch, JPEG bytes -> label (decode, preprocessing,
 *     onnxruntime-node with 2 intra-op threads, decision), the server's exact path;
 *   - p50 / p95 latency of one image at a time (JPEG bytes -> label);
 *   - how many full garbage collections ran during the batches (each one's marking threads take
 *     CPU from onnxruntime's two threads; ModelRegistry reuses its input buffers to keep them rare);
 *   - p50 latency of one phone-size photo (a 4032x3024 JPEG, quality 90, made by enlarging the
 *     first photo: the size a grower's phone uploads, where decoding and the resize dominate);
 *   - the same architecture run by PyTorch (Debian's python3-torch, 2 threads) on the same
 *     files, preprocessing included (the training pipeline's preprocess_file + build_model;
 *     weights do not change the speed, so an untrained network is timed), and the ratio.
 * Heatmap rendering is not included (it is done once per stored row; bench/diagnosis/latency.ts
 * times identification with it: about 55 ms for a phone photo's heatmap, 2026-11-29).
 * Goals (issue 50): the server's default model (marked "default": ModelRegistry.defaultId) at least
 * 40 images/s end to end, the MobileNet at least 150, on two cores.
 * Run: npx tsx bench/diagnosis/run.ts [--no-torch]
 */
import { spawnSync } from 'node:child_process';
import sharp from 'sharp';
import fs from 'node:fs';
import path from 'node:path';
import {
  type PerformanceEntry,
  PerformanceObserver,
  constants as perfConstants,
} from 'node:perf_hooks';
import { FOLDER_TO_CLASS } from '../../packages/contracts/src/classes.ts';
import { loadConfig, repoRoot } from '../../apps/server/src/config.ts';
import { OnnxModel } from '../../apps/server/src/inference/onnx-model.ts';
import { ModelRegistry } from '../../apps/server/src/inference/registry.ts';
import { leafPhoto } from '../../apps/server/src/testing/diagnosis.ts';

const N = 20;
const ROUNDS = 5;
const PHONE_ROUNDS = 5;
const SHARED = path.resolve(repoRoot, '..', 'shared', 'data', 'plantvillage-tomato');

function quantile(values: number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo]! + (s[hi]! - s[lo]!) * (pos - lo);
}

async function images(): Promise<{ files: string[]; bytes: Buffer[]; source: string }> {
  if (fs.existsSync(SHARED)) {
    const files: string[] = [];
    for (const folder of Object.keys(FOLDER_TO_CLASS)) {
      const dir = path.join(SHARED, folder);
      if (!fs.existsSync(dir)) continue;
      files.push(
        ...fs
          .readdirSync(dir)
          .sort()
          .slice(0, 2)
          .map((f) => path.join(dir, f)),
      );
    }
    if (files.length >= N) {
      const chosen = files.slice(0, N);
      return { files: chosen, bytes: chosen.map((f) => fs.readFileSync(f)), source: SHARED };
    }
  }
  const dir = fs.mkdtempSync(path.join(fs.realpathSync('/tmp'), 'diagrodl-bench-'));
  const files: string[] = [];
  const bytes: Buffer[] = [];
  for (let i = 0; i < N; i++) {
    const b = await leafPhoto({ width: 256, height: 256, seed: i });
    const f = path.join(dir, `${i}.jpg`);
    fs.writeFileSync(f, b);
    files.push(f);
    bytes.push(b);
  }
  return { files, bytes, source: 'synthetic 256x256 JPEGs' };
}

const TORCH_SCRIPT = `
import json, sys, time
sys.path.insert(0, sys.argv[1])
import torch
from diagrodl_ml.models import build_model
from diagrodl_ml.preprocess import preprocess_file
torch.set_num_threads(2)
arch, size, rounds = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
files = sys.argv[5:]
model = build_model(arch).eval()
def batch():
    x = torch.stack([torch.from_numpy(preprocess_file(f, size)) for f in files])
    with torch.no_grad():
        return model(x).argmax(1)
batch()
times = []
for _ in range(rounds):
    t = time.perf_counter(); batch(); times.append(time.perf_counter() - t)
times.sort()
print(json.dumps({"median_s": times[len(times) // 2]}))
`;

function torchImagesPerSecond(arch: string, size: number, files: string[]): number | string {
  const r = spawnSync(
    '/usr/bin/python3',
    ['-c', TORCH_SCRIPT, path.join(repoRoot, 'ml'), arch, String(size), '3', ...files],
    { encoding: 'utf8', env: { ...process.env, OMP_NUM_THREADS: '2' }, timeout: 600_000 },
  );
  if (r.status !== 0)
    return `PyTorch run failed: ${(r.stderr || r.error?.message || '').trim().split('\n').pop()}`;
  const { median_s } = JSON.parse(r.stdout.trim().split('\n').pop() as string) as {
    median_s: number;
  };
  return files.length / median_s;
}

/** Start times of V8's full (mark-compact) collections, as the observer delivers them. */
const fullGcStarts: number[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const kind = (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
    if (kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR) fullGcStarts.push(e.startTime);
  }
}).observe({ entryTypes: ['gc'] });

async function main(): Promise<void> {
  const noTorch = process.argv.includes('--no-torch');
  const config = loadConfig();
  const registry = await ModelRegistry.load(config.modelsDir, {
    info: () => undefined,
    warn: (m) => console.error(m),
  });
  const ids = registry.list().map((m) => m.id);
  const byDefault = registry.defaultId();
  if (!ids.length) {
    console.log(`No loaded model in ${config.modelsDir}: nothing to measure.`);
    return;
  }
  const { files, bytes, source } = await images();
  const phonePhoto = await sharp(bytes[0])
    .resize(4032, 3024, { fit: 'fill' })
    .jpeg({ quality: 90 })
    .toBuffer();
  console.log(`Diagnosis bench: ${N} images from ${source}; ${ROUNDS} rounds; 2 intra-op threads.`);
  for (const id of ids) {
    const clf = registry.get(id)!;
    await clf.classify(bytes.slice(0, 2)); // warm-up
    const batchTimes: number[] = [];
    const batchesFrom = performance.now();
    for (let r = 0; r < ROUNDS; r++) {
      const t = performance.now();
      await clf.classify(bytes);
      batchTimes.push(performance.now() - t);
    }
    const batchesTo = performance.now();
    const single: number[] = [];
    for (let r = 0; r < 2; r++) {
      for (const b of bytes) {
        const t = performance.now();
        await clf.classify([b]);
        single.push(performance.now() - t);
      }
    }
    const phone: number[] = [];
    for (let r = 0; r < PHONE_ROUNDS; r++) {
      const t = performance.now();
      await clf.classify([phonePhoto]);
      phone.push(performance.now() - t);
    }
    const ips = N / (quantile(batchTimes, 0.5) / 1000);
    // counted by start time once the later awaits have let the observer deliver them
    const fullGcs = fullGcStarts.filter((t) => t >= batchesFrom && t <= batchesTo).length;
    let torch = 'not measured (--no-torch)';
    if (!noTorch && clf instanceof OnnxModel) {
      // the card's architecture is a pipeline arch name (mobilenet_v2, resnet50, ...): the same network
      const arch = clf.card.architecture;
      const t = torchImagesPerSecond(arch, clf.inputSize, files);
      torch =
        typeof t === 'number'
          ? `${t.toFixed(1)} img/s -> onnxruntime-node is ${(ips / t).toFixed(2)}x PyTorch`
          : t;
    } else if (!noTorch) {
      torch = 'not measured for the ensemble (sum of its members)';
    }
    console.log(
      `${(id === byDefault ? `${id} (default)` : id).padEnd(20)} batch of ${N}: ${ips.toFixed(1)} img/s (${quantile(batchTimes, 0.5).toFixed(0)} ms)` +
        ` | one image: p50 ${quantile(single, 0.5).toFixed(1)} ms, p95 ${quantile(single, 0.95).toFixed(1)} ms` +
        ` | phone photo: p50 ${quantile(phone, 0.5).toFixed(0)} ms` +
        ` | full GCs in the ${ROUNDS} batches: ${fullGcs}` +
        ` | PyTorch: ${torch}`,
    );
  }
  await registry.close();
}

await main();

/**
 * The default model's rows (the CLI's exact path: ModelWorker + classifyFiles) for the validation
 * and held-out photos of both field sources, once, into ml/.cache/plant-rows.json (git-ignored),
 * for bench/plant/choose.ts. Run: npx tsx bench/plant/cache.ts [--force]
 */
import fs from 'node:fs';
import path from 'node:path';
import { FOLDER_TO_CLASS } from '../../packages/contracts/src/classes.ts';
import { loadConfig, repoRoot } from '../../apps/server/src/config.ts';
import { classifyFiles } from '../../apps/server/src/cli/diagnose.ts';
import { ModelWorker } from '../../apps/server/src/worker/model-worker.ts';

export const CACHE = path.join(repoRoot, 'ml', '.cache', 'plant-rows.json');
const DATA = path.resolve(repoRoot, '..', 'shared', 'data');
export const SOURCES = {
  field: path.join(DATA, 'field-tomato-dev'),
  field2: path.join(DATA, 'field-tomato-dev-2'),
} as const;
export type Source = keyof typeof SOURCES;

export interface CachedRow {
  source: Source;
  split: 'val' | 'holdout';
  file: string;
  truth: string;
  probabilities: number[];
  label: string;
  probability: number;
  accepted: boolean;
  reason: 'not_leaf' | 'low_confidence' | null;
  leafProbability: number | null;
  labLike: number | null;
  threshold: number;
}

async function main(): Promise<void> {
  if (fs.existsSync(CACHE) && !process.argv.includes('--force')) {
    process.stdout.write(`${CACHE} exists (--force to redo)\n`);
    return;
  }
  const entries: Omit<
    CachedRow,
    | 'probabilities'
    | 'label'
    | 'probability'
    | 'accepted'
    | 'reason'
    | 'leafProbability'
    | 'labLike'
    | 'threshold'
  >[] = [];
  for (const source of Object.keys(SOURCES) as Source[]) {
    for (const split of ['val', 'holdout'] as const) {
      const list = path.join(repoRoot, 'ml', 'splits', `${source}_${split}.txt`);
      for (const rel of fs.readFileSync(list, 'utf8').split('\n').filter(Boolean)) {
        const truth = FOLDER_TO_CLASS[rel.split('/')[0] as string];
        if (!truth) throw new Error(`no class for ${rel}`);
        entries.push({ source, split, file: rel, truth });
      }
    }
  }
  const config = loadConfig();
  const registry = await ModelWorker.start(config.modelsDir, {
    info: () => undefined,
    warn: (m) => process.stderr.write(`${m}\n`),
  });
  try {
    const model = registry.list().find((m) => m.isDefault)?.id;
    const classifier = model ? registry.get(model) : undefined;
    if (!model || !classifier) throw new Error('no default model');
    const results = await classifyFiles(
      classifier,
      entries.map((e) => path.join(SOURCES[e.source], e.file)),
    );
    const rows: CachedRow[] = entries.map((e, i) => {
      const r = results[i]?.result;
      if (!r) throw new Error(`${e.file}: ${results[i]?.error}`);
      return {
        ...e,
        probabilities: r.probabilities,
        label: r.label,
        probability: r.probability,
        accepted: r.accepted,
        reason: r.reason,
        leafProbability: r.leafProbability,
        labLike: r.labLike,
        threshold: r.threshold,
      };
    });
    fs.mkdirSync(path.dirname(CACHE), { recursive: true });
    fs.writeFileSync(CACHE, JSON.stringify({ model, rows }));
    process.stdout.write(`${rows.length} rows of ${model} -> ${CACHE}\n`);
  } finally {
    await registry.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main().catch((err) => {
    process.stderr.write(`${(err as Error).stack}\n`);
    process.exit(1);
  });
}

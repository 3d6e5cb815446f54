/**
 * npm run -s diagnose -- [--model mobilenet|resnet50|vgg16|ensemble] [--json] <files or folders>
 * npm run -s diagnose -- [--model ...] --eval DIR
 *
 * Runs the server's inference path (same model registry, card checks, preprocessing and
 * threshold) on image files. `--eval DIR` takes one subfolder per class (PlantVillage folder
 * names or class ids) and prints accuracy, per-class recall, the confusion matrix and the
 * share not accepted (split into not a tomato leaf and low confidence), as JSON. Models come
 * from MODELS_DIR (default models/).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  CLASS_IDS,
  type ClassId,
  FOLDER_TO_CLASS,
  className,
  isClassId,
} from '@diagrodl/contracts/classes';
import { NOT_LEAF, NOT_RECOGNISED } from '@diagrodl/contracts';
import type { Classification, Classifier } from '../inference/classifier.ts';
import { ModelRegistry } from '../inference/models.ts';
import { loadConfig } from '../config.ts';

const IMAGE_RE = /\.(jpe?g|png|webp)$/i;
const BATCH = 16;

const USAGE = `usage: npm run -s diagnose -- [--model mobilenet|resnet50|vgg16|ensemble] [--json] <files or folders>
       npm run -s diagnose -- [--model ...] --eval DIR   (DIR/<PlantVillage class folder>/*.jpg)`;

function fail(message: string, code = 2): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

/** Image files under the given paths (folders recursively), in a stable order. */
export function collectImages(inputs: readonly string[]): string[] {
  const out: string[] = [];
  for (const input of inputs) {
    const stat = fs.statSync(input, { throwIfNoEntry: false });
    if (!stat) fail(`no such file or folder: ${input}`);
    if (stat.isDirectory()) {
      const found = (fs.readdirSync(input, { recursive: true }) as string[])
        .filter((f) => IMAGE_RE.test(f))
        .sort()
        .map((f) => path.join(input, f));
      out.push(...found.filter((f) => fs.statSync(f).isFile()));
    } else {
      out.push(input);
    }
  }
  return out;
}

interface FileResult {
  file: string;
  result: Classification | null;
  error?: string;
}

/** Classifies files in batches; an unreadable file gets an error, not a crash. */
export async function classifyFiles(
  classifier: Classifier,
  files: readonly string[],
  onProgress?: (done: number) => void,
): Promise<FileResult[]> {
  const out: FileResult[] = [];
  for (let i = 0; i < files.length; i += BATCH) {
    const chunk = files.slice(i, i + BATCH);
    const bytes = chunk.map((f) => fs.readFileSync(f));
    let results: (Classification | null)[];
    const errors: (string | undefined)[] = [];
    try {
      results = await classifier.classify(bytes);
    } catch {
      results = [];
      for (let k = 0; k < bytes.length; k++) {
        try {
          results.push((await classifier.classify([bytes[k] as Buffer]))[0] ?? null);
        } catch (err) {
          results.push(null);
          errors[k] = (err as Error).message;
        }
      }
    }
    chunk.forEach((file, k) =>
      out.push({ file, result: results[k] ?? null, ...(errors[k] ? { error: errors[k] } : {}) }),
    );
    onProgress?.(out.length);
  }
  return out;
}

function folderClass(name: string): ClassId | undefined {
  if (isClassId(name)) return name;
  return FOLDER_TO_CLASS[name];
}

export function evaluate(
  truth: readonly ClassId[],
  results: readonly (Classification | null)[],
): Record<string, unknown> {
  const k = CLASS_IDS.length;
  const confusion = CLASS_IDS.map(() => new Array<number>(k).fill(0));
  let correct = 0;
  let rejected = 0;
  let notLeaf = 0;
  let accepted = 0;
  let correctAccepted = 0;
  let failed = 0;
  results.forEach((r, i) => {
    const t = CLASS_IDS.indexOf(truth[i] as ClassId);
    if (!r) {
      failed++;
      return;
    }
    const p = CLASS_IDS.indexOf(r.label);
    (confusion[t] as number[])[p] = ((confusion[t] as number[])[p] as number) + 1;
    if (p === t) correct++;
    if (r.accepted) {
      accepted++;
      if (p === t) correctAccepted++;
    } else {
      rejected++;
      if (r.reason === 'not_leaf') notLeaf++;
    }
  });
  const n = results.length - failed;
  const round = (v: number) => Math.round(v * 1e6) / 1e6;
  return {
    n,
    unreadable: failed,
    accuracy: n ? round(correct / n) : null,
    per_class_recall: Object.fromEntries(
      CLASS_IDS.map((id, i) => {
        const row = confusion[i] as number[];
        const support = row.reduce((a, b) => a + b, 0);
        return [id, support ? round((row[i] as number) / support) : null];
      }),
    ),
    support: Object.fromEntries(
      CLASS_IDS.map((id, i) => [id, (confusion[i] as number[]).reduce((a, b) => a + b, 0)]),
    ),
    classes: [...CLASS_IDS],
    confusion_matrix: confusion,
    not_accepted_share: n ? round(rejected / n) : null,
    /** refused as 'No parece una hoja de tomate' (the model's leaf output) */
    not_leaf_share: n ? round(notLeaf / n) : null,
    /** refused as 'No reconocido con confianza' (threshold or energy floor) */
    low_confidence_share: n ? round((rejected - notLeaf) / n) : null,
    accuracy_accepted: accepted ? round(correctAccepted / accepted) : null,
  };
}

async function main(): Promise<void> {
  // `npm run` changes to the repository root; INIT_CWD is where the command was typed.
  if (process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
  let args;
  try {
    args = parseArgs({
      allowPositionals: true,
      options: {
        model: { type: 'string' },
        json: { type: 'boolean', default: false },
        eval: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    fail(`${(err as Error).message}\n${USAGE}`);
  }
  if (args.values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (!args.values.eval && !args.positionals.length) fail(USAGE);
  const asked = args.values.model;
  if (asked !== undefined && !['mobilenet', 'resnet50', 'vgg16', 'ensemble'].includes(asked)) {
    fail(`--model must be mobilenet, resnet50, vgg16 or ensemble (got ${asked})`);
  }
  const config = loadConfig();
  const registry = await ModelRegistry.load(config.modelsDir, {
    info: () => undefined,
    warn: (m) => process.stderr.write(`${m}\n`),
  });
  try {
    const wanted =
      args.values.model ?? (registry.has('mobilenet') ? 'mobilenet' : registry.list()[0]?.id);
    if (!wanted) fail(`no usable model in ${config.modelsDir}`, 1);
    const classifier = registry.get(wanted);
    if (!classifier) {
      fail(
        `model ${wanted} is not available in ${config.modelsDir} (loaded: ${
          registry
            .list()
            .map((m) => m.id)
            .join(', ') || 'none'
        })`,
        1,
      );
    }

    if (args.values.eval) {
      const dir = args.values.eval;
      if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) fail(`not a folder: ${dir}`);
      const files: string[] = [];
      const truth: ClassId[] = [];
      for (const sub of fs.readdirSync(dir).sort()) {
        const cls = folderClass(sub);
        if (!cls || !fs.statSync(path.join(dir, sub)).isDirectory()) continue;
        for (const f of collectImages([path.join(dir, sub)])) {
          files.push(f);
          truth.push(cls);
        }
      }
      if (!files.length) fail(`no images in class subfolders of ${dir}`);
      const tty = process.stderr.isTTY;
      const results = await classifyFiles(classifier, files, (d) => {
        if (tty) process.stderr.write(`\r${d}/${files.length}`);
      });
      if (tty) process.stderr.write('\n');
      const report = {
        model: wanted,
        threshold: classifier.threshold,
        ...evaluate(
          truth,
          results.map((r) => r.result),
        ),
      };
      process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      return;
    }

    const files = collectImages(args.positionals);
    if (!files.length) fail('no JPEG, PNG or WebP files found');
    const results = await classifyFiles(classifier, files);
    let errors = 0;
    if (args.values.json) {
      const out = results.flatMap((r) => {
        if (!r.result) {
          errors++;
          process.stderr.write(`${r.file}: cannot be read as an image (${r.error ?? 'error'})\n`);
          return [];
        }
        return [
          {
            file: r.file,
            label: r.result.label,
            probability: r.result.probability,
            top3: r.result.top3.map((t) => ({ label: t.label, probability: t.probability })),
            accepted: r.result.accepted,
            reason: r.result.reason,
            leaf_probability: r.result.leafProbability,
          },
        ];
      });
      process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    } else {
      for (const r of results) {
        if (!r.result) {
          errors++;
          process.stdout.write(`${r.file}\tERROR: cannot be read as an image\n`);
          continue;
        }
        const name =
          r.result.reason === 'not_leaf'
            ? NOT_LEAF.es
            : r.result.reason === 'low_confidence'
              ? NOT_RECOGNISED.es
              : className(r.result.label, 'es');
        const top = r.result.top3.map((t) => `${t.label} ${t.probability.toFixed(4)}`).join(', ');
        process.stdout.write(`${r.file}\t${name}\t${r.result.probability.toFixed(4)}\t(${top})\n`);
      }
    }
    if (errors) process.exitCode = 1;
  } finally {
    await registry.close();
  }
}

const invokedDirectly =
  process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename);
if (invokedDirectly) {
  main().catch((err) => fail(`diagnose failed: ${(err as Error).message}`, 1));
}

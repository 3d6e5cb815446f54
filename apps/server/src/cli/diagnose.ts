/**
 * npm run -s diagnose -- [--model mobilenet|resnet50|vgg16|ensemble] [--json|--jsonl]
 *                        [--files-from FILE|-] <files or folders>
 * npm run -s diagnose -- [--model ...] --eval DIR
 * npm run -s diagnose -- [--model ...] [--json|--jsonl] --plants DIR | --plant <files>
 *
 * Runs the server's inference path (same model worker, card checks, preprocessing and
 * threshold) on image files, streaming one result per photo as it is identified: `--jsonl`
 * one JSON line per photo, `--json` one JSON array, otherwise tab-separated text (a diagnosis of
 * a field-like photo, `field_photo` in JSON, has the field-photo caution as a last column; a photo
 * that is not a diagnosis has there the advice that the results screen and the report give it,
 * `advice` in JSON: for 'not_leaf', that the tool diagnoses tomato leaves only). A file that
 * cannot be read or decoded gets an entry with `error` (and exit code 1), never a crash.
 * Progress goes to stderr on long runs. `--files-from` reads more paths, one per line or
 * NUL-separated (`find … -print0`), from a file or stdin (`-`). `--eval DIR` takes one
 * subfolder per class (PlantVillage folder names or class ids) and prints accuracy, per-class
 * recall, the confusion matrix and the share not accepted (split into not a tomato leaf and
 * low confidence), the share given with the field-photo caution and, for a model with a
 * `lab_like` output, the figures of lab-like and field-like photos apart, as JSON. Models come
 * from MODELS_DIR (default models/); without --model, the server's default model (the one a
 * person gets without choosing: ModelRegistry.defaultId).
 *
 * `--plants DIR` diagnoses plants (issue 68): each subfolder of DIR is one plant of 1 to
 * MAX_PLANT_LEAVES photos, answered by the shared plant rule (packages/contracts/src/plant.ts
 * combinePlant): in JSON one object per plant with `plant` (the subfolder's name), `outcome`,
 * `label`, `probability`, `accepted`, `reason` ('not_leaf' for a plant that is not a tomato
 * plant, 'low_confidence', 'disagree' with `diseases`), `top3`, `agreeing` of `voting` leaves,
 * `advice` and `leaves` (each photo's entry as above); in text one line per plant and its photos'
 * lines indented. `--plant FILE...` takes the files given as one plant (`plant`: null). A folder
 * that is not one, a plant of no photos or of more than MAX_PLANT_LEAVES, exit with 2.
 *
 * Any number of paths: onnxruntime-node parses the process's command line
 * (/proc/self/cmdline) recursively when it starts, and a command line of some 30 KB (a shell
 * glob of ~500 photos with long paths) overflowed the stack: SIGSEGV, exit 139. So a long
 * command line is never the one of the process that runs inference: the CLI starts itself
 * again with the paths on stdin (`--files-from -`).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CLASS_IDS, type ClassId, FOLDER_TO_CLASS, isClassId } from '@diagrodl/contracts/classes';
import { LAB_LIKE_CUT, MAX_PLANT_LEAVES, isFieldPhoto } from '@diagrodl/contracts';
import type { Classification, Classifier } from '../inference/classifier.ts';
import { ModelWorker } from '../worker/model-worker.ts';
import { loadConfig } from '../config.ts';
import { type FileResult, collectImages, jsonEntry, textLine } from './diagnose-rows.ts';
import {
  type PlantInput,
  PlantInputError,
  checkPlant,
  plantJsonEntry,
  plantResult,
  plantText,
  plantsUnder,
} from './diagnose-plants.ts';

const BATCH = 16;
/** Above this many bytes of command line the CLI hands its paths to a fresh process on stdin. */
export const MAX_CMDLINE_BYTES = 8 * 1024;
/** Set in the process the CLI starts for a long command line (it never starts another). */
const RELAUNCHED = 'DIAGRODL_DIAGNOSE_RELAUNCHED';

const USAGE = `usage: npm run -s diagnose -- [--model mobilenet|resnet50|vgg16|ensemble] [--json|--jsonl] [--files-from FILE|-] <files or folders>
       npm run -s diagnose -- [--model ...] [--json|--jsonl] --plants DIR   (DIR/<plant>/: 1 to ${MAX_PLANT_LEAVES} photos of one plant)
       npm run -s diagnose -- [--model ...] [--json|--jsonl] --plant <1 to ${MAX_PLANT_LEAVES} photos of one plant>
       npm run -s diagnose -- [--model ...] --eval DIR   (DIR/<PlantVillage class folder>/*.jpg)`;

function fail(message: string, code = 2): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

/**
 * Classifies files in batches, handing each batch's results to `onBatch` as soon as they are
 * there; a file that cannot be read or decoded gets an error, not a crash.
 */
export async function classifyFiles(
  classifier: Classifier,
  files: readonly string[],
  onBatch?: (results: FileResult[], done: number) => void,
): Promise<FileResult[]> {
  const out: FileResult[] = [];
  for (let i = 0; i < files.length; i += BATCH) {
    const chunk = files.slice(i, i + BATCH);
    const errors: (string | undefined)[] = [];
    const bytes = chunk.map((f, k): Buffer | null => {
      try {
        return fs.readFileSync(f);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        errors[k] =
          code === 'ENOENT' ? 'no such file or folder' : `cannot be read (${code ?? String(err)})`;
        return null;
      }
    });
    const readable = bytes.filter((b): b is Buffer => b !== null);
    const results: (Classification | null)[] = [];
    let batch: Classification[] | null = null;
    try {
      batch = await classifier.classify(readable);
    } catch {
      // one bad image must not sink the others: one by one
    }
    let r = 0;
    for (let k = 0; k < chunk.length; k++) {
      const b = bytes[k];
      if (!b) {
        results.push(null);
        continue;
      }
      if (batch) {
        results.push(batch[r++] ?? null);
        continue;
      }
      try {
        results.push((await classifier.classify([b]))[0] ?? null);
      } catch (err) {
        results.push(null);
        errors[k] = `cannot be read as an image (${(err as Error).message})`;
      }
    }
    const done = chunk.map((file, k) => ({
      file,
      result: results[k] ?? null,
      ...(errors[k] ? { error: errors[k] } : {}),
    }));
    out.push(...done);
    onBatch?.(done, out.length);
  }
  return out;
}

/** Paths from a --files-from source: NUL-separated if it holds a NUL, else one per line. */
export function parseFileList(text: string): string[] {
  return text.split(text.includes('\0') ? '\0' : /\r?\n/).filter((p) => p.length > 0);
}

/** Length of this process's command line as the kernel keeps it (what onnxruntime parses). */
function cmdlineBytes(): number {
  try {
    return fs.readFileSync('/proc/self/cmdline').length;
  } catch {
    return process.argv.reduce((n, a) => n + Buffer.byteLength(a) + 1, 0);
  }
}

/**
 * Runs this CLI again with the same options and the paths on stdin (`--files-from -`), so the
 * process that runs inference has a short command line; resolves with its exit code.
 */
function relaunch(options: string[], paths: readonly string[]): Promise<number> {
  const script = process.argv[1] as string;
  const child = spawn(
    process.execPath,
    [...process.execArgv, script, ...options, '--files-from', '-'],
    { stdio: ['pipe', 'inherit', 'inherit'], env: { ...process.env, [RELAUNCHED]: '1' } },
  );
  child.stdin.end(paths.join('\0'));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      resolve(code ?? 128 + (signal ? (os.constants.signals[signal] ?? 0) : 0)),
    );
  });
}

/** Progress on stderr for runs longer than one batch: a live counter on a terminal, else lines. */
function progressReporter(total: number): (done: number) => void {
  if (total <= BATCH) return () => undefined;
  const tty = process.stderr.isTTY;
  const step = Math.max(BATCH, Math.ceil(total / 10 / BATCH) * BATCH);
  let next = step;
  return (done) => {
    if (tty) {
      process.stderr.write(`\r${done}/${total} photos${done === total ? '\n' : ''}`);
    } else if (done >= next || done === total) {
      process.stderr.write(`diagnose: ${done}/${total} photos\n`);
      next = done + step;
    }
  };
}

function folderClass(name: string): ClassId | undefined {
  if (isClassId(name)) return name;
  return FOLDER_TO_CLASS[name];
}

/** The --eval figures' precision: six decimals. */
const round = (v: number) => Math.round(v * 1e6) / 1e6;

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
    /** diagnoses shown with the field-photo caution (the model's lab_like below LAB_LIKE_CUT) */
    field_photo_share: n
      ? round(results.filter((r) => r && isFieldPhoto(r.accepted, r.labLike)).length / n)
      : null,
    ...byPhotoKind(truth, results),
  };
}

/**
 * For a model with a `lab_like` output: the figures of the lab-like photos and of the field-like
 * ones apart (n, top-1, share given a diagnosis, right when given), as the model card's
 * `by_photo_kind`. Nothing for a model without the output.
 */
function byPhotoKind(
  truth: readonly ClassId[],
  results: readonly (Classification | null)[],
): { by_photo_kind?: Record<'lab_like' | 'field_like', Record<string, number | null>> } {
  const read = results.flatMap((r, i) => (r && r.labLike !== null ? [{ r, t: truth[i] }] : []));
  if (!read.length) return {};
  const figures = (rows: typeof read) => {
    const right = rows.filter(({ r, t }) => r.label === t).length;
    const given = rows.filter(({ r }) => r.accepted);
    const rightGiven = given.filter(({ r, t }) => r.label === t).length;
    return {
      n: rows.length,
      accuracy: rows.length ? round(right / rows.length) : null,
      accepted_share: rows.length ? round(given.length / rows.length) : null,
      accuracy_accepted: given.length ? round(rightGiven / given.length) : null,
    };
  };
  const isLab = ({ r }: (typeof read)[number]) => (r.labLike as number) >= LAB_LIKE_CUT;
  return {
    by_photo_kind: {
      lab_like: figures(read.filter(isLab)),
      field_like: figures(read.filter((x) => !isLab(x))),
    },
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
        jsonl: { type: 'boolean', default: false },
        'files-from': { type: 'string' },
        eval: { type: 'string' },
        plants: { type: 'string' },
        plant: { type: 'boolean', default: false },
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
  if (args.values.json && args.values.jsonl)
    fail(`--json and --jsonl exclude each other\n${USAGE}`);
  const asked = args.values.model;
  if (asked !== undefined && !['mobilenet', 'resnet50', 'vgg16', 'ensemble'].includes(asked)) {
    fail(`--model must be mobilenet, resnet50, vgg16 or ensemble (got ${asked})`);
  }
  const inputs = [...args.positionals];
  const from = args.values['files-from'];
  if (from !== undefined) {
    let text: string;
    try {
      text = fs.readFileSync(from === '-' ? 0 : from, 'utf8');
    } catch (err) {
      fail(`cannot read --files-from ${from}: ${(err as Error).message}`);
    }
    inputs.push(...parseFileList(text));
  }
  const plantsDir = args.values.plants;
  if (plantsDir !== undefined && args.values.plant) fail('--plants and --plant exclude each other');
  const plantMode = plantsDir !== undefined || args.values.plant;
  if (plantMode && args.values.eval) fail('--eval and --plants / --plant exclude each other');
  if (plantsDir !== undefined && inputs.length) {
    fail(`--plants takes one folder (one subfolder per plant), not other paths: ${inputs[0]}`);
  }
  let plants: PlantInput[] = [];
  if (plantMode) {
    try {
      plants =
        plantsDir !== undefined
          ? plantsUnder(plantsDir)
          : [checkPlant({ plant: null, files: collectImages(inputs) })];
    } catch (err) {
      if (!(err instanceof PlantInputError)) throw err;
      fail(err.message);
    }
  }
  if (!args.values.eval && !plantMode && !inputs.length) fail(USAGE);
  if (
    !args.values.eval &&
    !plantMode &&
    !process.env[RELAUNCHED] &&
    cmdlineBytes() > MAX_CMDLINE_BYTES
  ) {
    const options = [
      ...(asked ? ['--model', asked] : []),
      ...(args.values.json ? ['--json'] : []),
      ...(args.values.jsonl ? ['--jsonl'] : []),
    ];
    process.exitCode = await relaunch(options, inputs);
    return;
  }
  const config = loadConfig();
  const registry = await ModelWorker.start(config.modelsDir, {
    info: () => undefined,
    warn: (m) => process.stderr.write(`${m}\n`),
  });
  try {
    const wanted = args.values.model ?? registry.list().find((m) => m.isDefault)?.id;
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
        if (!cls || !fs.statSync(path.join(dir, sub), { throwIfNoEntry: false })?.isDirectory()) {
          continue;
        }
        for (const f of collectImages([path.join(dir, sub)])) {
          files.push(f);
          truth.push(cls);
        }
      }
      if (!files.length) fail(`no images in class subfolders of ${dir}`);
      const progress = progressReporter(files.length);
      const results = await classifyFiles(classifier, files, (_, done) => progress(done));
      const report = {
        model: wanted,
        threshold: classifier.threshold,
        ...(classifier.fieldThreshold === undefined
          ? {}
          : { field_threshold: classifier.fieldThreshold }),
        ...evaluate(
          truth,
          results.map((r) => r.result),
        ),
      };
      process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      return;
    }

    if (plantMode) {
      const results = await classifyFiles(
        classifier,
        plants.flatMap((p) => p.files),
      );
      let at = 0;
      const answers = plants.map((p) => plantResult(p, results.slice(at, (at += p.files.length))));
      for (const r of results) {
        if (!r.result)
          process.stderr.write(`${r.file}: ${r.error ?? 'cannot be read as an image'}\n`);
      }
      const entries = answers.map(plantJsonEntry);
      process.stdout.write(
        args.values.json
          ? `[${entries.map((e) => `\n${JSON.stringify(e)}`).join(',')}\n]\n`
          : args.values.jsonl
            ? entries.map((e) => `${JSON.stringify(e)}\n`).join('')
            : answers.map(plantText).join(''),
      );
      if (results.some((r) => !r.result)) process.exitCode = 1;
      return;
    }

    const files = collectImages(inputs);
    if (!files.length) fail('no JPEG, PNG or WebP files found');
    const progress = progressReporter(files.length);
    let errors = 0;
    let first = true;
    if (args.values.json) process.stdout.write('[');
    await classifyFiles(classifier, files, (batch, done) => {
      let text = '';
      for (const r of batch) {
        if (!r.result) {
          errors++;
          process.stderr.write(`${r.file}: ${r.error ?? 'cannot be read as an image'}\n`);
        }
        if (args.values.json) {
          text += `${first ? '\n' : ',\n'}${JSON.stringify(jsonEntry(r))}`;
          first = false;
        } else if (args.values.jsonl) {
          text += `${JSON.stringify(jsonEntry(r))}\n`;
        } else {
          text += textLine(r);
        }
      }
      process.stdout.write(text);
      progress(done);
    });
    if (args.values.json) process.stdout.write(`${first ? '' : '\n'}]\n`);
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

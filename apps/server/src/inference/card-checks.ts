/**
 * Whether a card can be used: a model's card must name its file (sha256, size) and describe this
 * server's classes and preprocessing; the ensemble card must name loaded members' files, and
 * says whether the ensemble is offered at all. The registry (registry.ts) refuses or ignores a
 * card for the reason these give.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { CLASS_IDS } from '@diagrodl/contracts/classes';
import type { EnsembleCard, ModelCard } from '@diagrodl/contracts/model-card';
import { inputProblem } from '@diagrodl/contracts/inference/preprocess';
import type { OnnxModel } from './onnx-model.ts';

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
export function cardProblem(id: string, card: ModelCard, file: string): string | null {
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
export function ensembleCardProblem(
  card: EnsembleCard,
  loaded: readonly OnnxModel[],
): string | null {
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
export function ensembleNotBetter(card: EnsembleCard): string | null {
  const fe = card.field_evaluation;
  if (fe?.beats_each_member_on_field_val_top1 !== false) return null;
  const members = Object.entries(fe.members_field_val_all ?? {})
    .map(([id, m]) => `${id} ${m?.top1}`)
    .join(', ');
  return `its card says it does not beat each member on field validation top-1 (ensemble ${fe.field_val_all?.top1 ?? '?'}; ${members || 'members not listed'})`;
}

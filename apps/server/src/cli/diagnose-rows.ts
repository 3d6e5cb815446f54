/**
 * The diagnose CLI's photos and rows: the image files under the paths given, and each photo's
 * entry in JSON and in text (with the advice or the field-photo caution the results screen gives).
 */
import fs from 'node:fs';
import path from 'node:path';
import { className } from '@diagrodl/contracts/classes';
import {
  FIELD_PHOTO_CAUTION,
  NOT_LEAF,
  NOT_LEAF_HINT,
  NOT_RECOGNISED,
  isFieldPhoto,
} from '@diagrodl/contracts';
import type { Classification } from '../inference/classifier.ts';
import { NOT_RECOGNISED_ADVICE } from '../modules/diagnosis/report/advice.ts';

export const IMAGE_RE = /\.(jpe?g|png|webp)$/i;

/**
 * Image files under the given paths (folders recursively), in a stable order. A path that does
 * not exist stays in the list: it gets an error entry like any file that cannot be read. So does
 * a file of a folder that cannot be looked at (a broken symbolic link named *.jpg), and a
 * subfolder that cannot be read (its entry says why): the rest of the folder is still listed.
 */
export function collectImages(inputs: readonly string[]): string[] {
  const out: string[] = [];
  for (const input of inputs) {
    const stat = fs.statSync(input, { throwIfNoEntry: false });
    if (stat?.isDirectory()) {
      out.push(...imagesUnder(input).map((f) => path.join(input, f)));
    } else {
      out.push(input);
    }
  }
  return out;
}

/**
 * The images under a folder as paths relative to it, sorted; one folder read at a time, so that
 * one that cannot be read (EACCES) is listed itself (for its error entry) and the others are
 * read. Symbolic links are followed to files, not into folders (as readdir's `recursive`).
 */
function imagesUnder(root: string): string[] {
  const found: string[] = [];
  const visit = (rel: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(root, rel), { withFileTypes: true });
    } catch {
      if (rel)
        found.push(rel); // reading it again gives its error entry
      else found.push('.');
      return;
    }
    for (const entry of entries) {
      const child = rel ? path.join(rel, entry.name) : entry.name;
      if (entry.isDirectory()) {
        visit(child);
        continue;
      }
      if (!IMAGE_RE.test(entry.name)) continue;
      let target: fs.Stats | undefined;
      try {
        target = fs.statSync(path.join(root, child), { throwIfNoEntry: false });
      } catch {
        target = undefined; // a link loop (ELOOP), a folder that cannot be searched: an error entry
      }
      // a folder named like an image is no photo; anything else is tried (and may fail alone)
      if (!target?.isDirectory()) found.push(child);
    }
  };
  visit('');
  return found.sort();
}

export interface FileResult {
  file: string;
  result: Classification | null;
  error?: string;
}

/**
 * The advice a photo that is not a diagnosis gets, in both languages, as the results screen and
 * the PDF report give it: for 'not_leaf' NOT_LEAF_HINT (the tool diagnoses tomato leaves only;
 * photograph a tomato leaf), for 'low_confidence' the report's advice; null for a diagnosis.
 */
export function adviceOf(reason: Classification['reason']): { es: string; en: string } | null {
  if (reason === 'not_leaf') return { es: NOT_LEAF_HINT.es, en: NOT_LEAF_HINT.en };
  if (reason === 'low_confidence') {
    return { es: NOT_RECOGNISED_ADVICE.es.join(' '), en: NOT_RECOGNISED_ADVICE.en.join(' ') };
  }
  return null;
}

/** One entry of --json / --jsonl output. */
export function jsonEntry(r: FileResult): Record<string, unknown> {
  if (!r.result) return { file: r.file, error: r.error ?? 'cannot be read as an image' };
  return {
    file: r.file,
    label: r.result.label,
    probability: r.result.probability,
    top3: r.result.top3.map((t) => ({ label: t.label, probability: t.probability })),
    accepted: r.result.accepted,
    reason: r.result.reason,
    leaf_probability: r.result.leafProbability,
    lab_like: r.result.labLike,
    field_photo: isFieldPhoto(r.result.accepted, r.result.labLike),
    advice: adviceOf(r.result.reason),
  };
}

export function textLine(r: FileResult): string {
  if (!r.result) return `${r.file}\tERROR: ${r.error ?? 'cannot be read as an image'}\n`;
  const name =
    r.result.reason === 'not_leaf'
      ? NOT_LEAF.es
      : r.result.reason === 'low_confidence'
        ? NOT_RECOGNISED.es
        : className(r.result.label, 'es');
  const top = r.result.top3.map((t) => `${t.label} ${t.probability.toFixed(4)}`).join(', ');
  // last column: the caution of a field-like diagnosis, or the advice of a photo that is not one
  const advice = adviceOf(r.result.reason);
  const note = isFieldPhoto(r.result.accepted, r.result.labLike)
    ? `\t${FIELD_PHOTO_CAUTION.es}`
    : advice
      ? `\t${advice.es}`
      : '';
  return `${r.file}\t${name}\t${r.result.probability.toFixed(4)}\t(${top})${note}\n`;
}

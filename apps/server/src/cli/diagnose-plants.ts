/**
 * The diagnose CLI's plants (issue 68): the plants of --plants DIR (one per subfolder) and
 * --plant FILE..., their answers by the shared rule (combinePlant), in JSON and in text.
 */
import fs from 'node:fs';
import path from 'node:path';
import { className } from '@diagrodl/contracts/classes';
import {
  LEAVES_DISAGREE,
  LEAVES_DISAGREE_HINT,
  MAX_PLANT_LEAVES,
  NOT_RECOGNISED,
  NOT_TOMATO_PLANT,
  type PlantAnswer,
  type PlantOutcome,
  combinePlant,
} from '@diagrodl/contracts';
import {
  type FileResult,
  IMAGE_RE,
  adviceOf,
  collectImages,
  jsonEntry,
  textLine,
} from './diagnose-rows.ts';

/** One plant of --plants (its subfolder's name) or --plant (null), and its photos. */
export interface PlantInput {
  plant: string | null;
  files: string[];
}

/** Input that is not a plant: the CLI says why and exits with 2. */
export class PlantInputError extends Error {}

/** Throws a PlantInputError unless the plant has 1 to MAX_PLANT_LEAVES photos. */
export function checkPlant(p: PlantInput): PlantInput {
  const name = p.plant === null ? 'the plant' : `plant ${p.plant}`;
  if (!p.files.length) throw new PlantInputError(`${name}: no JPEG, PNG or WebP photos`);
  if (p.files.length > MAX_PLANT_LEAVES) {
    throw new PlantInputError(
      `${name}: ${p.files.length} photos; a plant takes 1 to ${MAX_PLANT_LEAVES} photos of one plant`,
    );
  }
  return p;
}

/**
 * The plants of --plants DIR: one per subfolder (sorted by name), its photos those under it. A DIR
 * that is not a folder, has no subfolder or holds photos outside them, and a plant of no photos or
 * of more than MAX_PLANT_LEAVES, throw a PlantInputError.
 */
export function plantsUnder(dir: string): PlantInput[] {
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
    throw new PlantInputError(`--plants: not a folder: ${dir}`);
  }
  const names = fs.readdirSync(dir).sort();
  const isDir = (name: string) =>
    fs.statSync(path.join(dir, name), { throwIfNoEntry: false })?.isDirectory() === true;
  const loose = names.find((name) => IMAGE_RE.test(name) && !isDir(name));
  if (loose !== undefined) {
    throw new PlantInputError(
      `--plants: ${loose} is not in a plant's subfolder: put each plant's photos in a subfolder of ${dir}`,
    );
  }
  const plants = names
    .filter(isDir)
    .map((name) => checkPlant({ plant: name, files: collectImages([path.join(dir, name)]) }));
  if (!plants.length) {
    throw new PlantInputError(`--plants: ${dir} has no subfolders (one subfolder per plant)`);
  }
  return plants;
}

/** A plant answer's `reason`, as a photo's: null for a diagnosis. */
function plantReason(outcome: PlantOutcome): 'not_leaf' | 'low_confidence' | 'disagree' | null {
  if (outcome === 'diagnosis') return null;
  return outcome === 'not_tomato' ? 'not_leaf' : outcome;
}

/** The advice of a plant answer that is not a diagnosis, in both languages (null for one). */
function plantAdvice(outcome: PlantOutcome): { es: string; en: string } | null {
  if (outcome === 'disagree') return { es: LEAVES_DISAGREE_HINT.es, en: LEAVES_DISAGREE_HINT.en };
  return adviceOf(plantReason(outcome) as 'not_leaf' | 'low_confidence' | null);
}

/** A plant's photos identified, and its answer (null when none of its photos could be read). */
export interface PlantResult {
  input: PlantInput;
  leaves: FileResult[];
  answer: PlantAnswer | null;
}

/** The plant's answer from its photos' results (combinePlant: the shared rule, packages/contracts). */
export function plantResult(input: PlantInput, leaves: FileResult[]): PlantResult {
  const read = leaves.flatMap((l) => (l.result ? [l.result] : []));
  return { input, leaves, answer: read.length ? combinePlant(read) : null };
}

/** One plant of --plants / --plant in --json / --jsonl: its answer and each photo's entry. */
export function plantJsonEntry({ input, leaves, answer: a }: PlantResult): Record<string, unknown> {
  const rows = leaves.map(jsonEntry);
  if (!a) return { plant: input.plant, error: 'none of its photos can be read', leaves: rows };
  return {
    plant: input.plant,
    outcome: a.outcome,
    label: a.label,
    probability: a.probability,
    accepted: a.outcome === 'diagnosis',
    reason: plantReason(a.outcome),
    top3: a.top3.map((t) => ({ label: t.label, probability: t.probability })),
    agreeing: a.agreeing,
    voting: a.voting,
    ...(a.diseases ? { diseases: a.diseases } : {}),
    advice: plantAdvice(a.outcome),
    leaves: rows,
  };
}

/** A plant in text: its answer on one line ("3 de 3 hojas"), then each photo's line, indented. */
export function plantText({ input, leaves, answer: a }: PlantResult): string {
  const name = input.plant ?? 'planta';
  const photos = leaves.map((l) => `  ${textLine(l)}`).join('');
  if (!a) return `${name}\tERROR: none of its photos can be read\n${photos}`;
  const answer =
    a.outcome === 'diagnosis'
      ? className(a.label, 'es')
      : a.outcome === 'low_confidence'
        ? NOT_RECOGNISED.es
        : a.outcome === 'not_tomato'
          ? NOT_TOMATO_PLANT.es
          : `${LEAVES_DISAGREE.es}: ${(a.diseases ?? []).map((d) => `${className(d.label, 'es')} (${d.leaves})`).join(', ')}`;
  const top = a.top3.map((t) => `${t.label} ${t.probability.toFixed(4)}`).join(', ');
  const advice = plantAdvice(a.outcome);
  return `${name}\t${answer}\t${a.probability.toFixed(4)}\t${a.agreeing} de ${a.voting} hojas\t(${top})${
    advice ? `\t${advice.es}` : ''
  }\n${photos}`;
}

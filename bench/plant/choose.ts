/**
 * Chooses the plant rule (packages/contracts/src/plant.ts) on validation groups and measures it
 * once on held-out groups (issue 68), from the default model's rows that bench/plant/cache.ts
 * keeps in ml/.cache/plant-rows.json (run it first).
 *
 * Groups, per field source and split, a fixed seed: plants of 1, 2, 3 and 5 photos of one class
 * (a class drawn uniformly among those with that many photos, then that many distinct photos),
 * and mixed plants of 3 photos of 3 different classes. Each candidate rule (combination, disagree
 * mode, threshold 0.30-0.95) is run through combinePlant itself. The choice, on validation only:
 * most of the safety goals met (3 photos of one class: right when given >= 0.90 on each source;
 * mixed: a diagnosis <= 0.20 on each), then most goals met (also right >= 0.70 and an answer for
 * >= 0.55 on each source), then the highest share right and given on the worse source, then the
 * higher threshold. The held-out groups are measured once, with the chosen rule.
 * Run: npx tsx bench/plant/choose.ts   (writes ml/.cache/plant-choice.json)
 */
import fs from 'node:fs';
import path from 'node:path';
import { combinePlant, type PlantRule } from '../../packages/contracts/src/plant.ts';
import { CACHE, type CachedRow, type Source } from './cache.ts';

const SEED = 68;
const GROUPS = 2000;
const SIZES = [1, 2, 3, 5] as const;
const OUT = path.join(path.dirname(CACHE), 'plant-choice.json');

/** mulberry32: a small seeded generator, so the groups are the same on every run. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sample<T>(items: readonly T[], k: number, rand: () => number): T[] {
  const pool = [...items];
  const out: T[] = [];
  for (let i = 0; i < k; i++) out.push(pool.splice(Math.floor(rand() * pool.length), 1)[0] as T);
  return out;
}

type Group = { truth: string | null; rows: CachedRow[] };

function groups(rows: readonly CachedRow[], size: number | 'mixed', rand: () => number): Group[] {
  const byClass = new Map<string, CachedRow[]>();
  for (const r of rows) byClass.set(r.truth, [...(byClass.get(r.truth) ?? []), r]);
  const out: Group[] = [];
  if (size === 1) return rows.map((r) => ({ truth: r.truth, rows: [r] })); // every photo once
  const classes = [...byClass.keys()].filter(
    (c) => size === 'mixed' || byClass.get(c)!.length >= size,
  );
  for (let g = 0; g < GROUPS; g++) {
    if (size === 'mixed') {
      const picked = sample(classes, 3, rand);
      out.push({ truth: null, rows: picked.map((c) => sample(byClass.get(c)!, 1, rand)[0]!) });
    } else {
      const c = classes[Math.floor(rand() * classes.length)]!;
      out.push({ truth: c, rows: sample(byClass.get(c)!, size, rand) });
    }
  }
  return out;
}

const r4 = (v: number) => Math.round(v * 1e4) / 1e4;

function figures(gs: readonly Group[], rule: PlantRule): Record<string, number> {
  let right = 0;
  let given = 0;
  let rightGiven = 0;
  let disagree = 0;
  let notTomato = 0;
  for (const g of gs) {
    const a = combinePlant(g.rows, rule);
    if (a.label === g.truth) right++;
    if (a.outcome === 'diagnosis') {
      given++;
      if (a.label === g.truth) rightGiven++;
    }
    if (a.outcome === 'disagree') disagree++;
    if (a.outcome === 'not_tomato') notTomato++;
  }
  const n = gs.length;
  return g0(gs)
    ? { n, given: r4(given / n), disagree: r4(disagree / n), not_tomato: r4(notTomato / n) }
    : {
        n,
        right: r4(right / n),
        given: r4(given / n),
        right_when_given: given ? r4(rightGiven / given) : 0,
        right_and_given: r4(rightGiven / n),
        disagree: r4(disagree / n),
        not_tomato: r4(notTomato / n),
      };
}
const g0 = (gs: readonly Group[]) => gs.length > 0 && gs[0]!.truth === null;

type Sets = Record<Source, Record<string, Group[]>>;

function build(rows: readonly CachedRow[], split: 'val' | 'holdout'): Sets {
  const rand = rng(SEED + (split === 'val' ? 0 : 1));
  const out = {} as Sets;
  for (const source of ['field', 'field2'] as const) {
    const mine = rows.filter((r) => r.source === source && r.split === split);
    out[source] = {};
    for (const size of [...SIZES, 'mixed'] as const)
      out[source][String(size)] = groups(mine, size, rand);
  }
  return out;
}

function measure(sets: Sets, rule: PlantRule) {
  const out: Record<string, Record<string, Record<string, number>>> = {};
  for (const [source, bySize] of Object.entries(sets)) {
    out[source] = {};
    for (const [size, gs] of Object.entries(bySize)) out[source]![size] = figures(gs, rule);
  }
  return out;
}

function goals(m: ReturnType<typeof measure>) {
  const sources = Object.keys(m);
  const safety = sources.flatMap((s) => [
    (m[s]!['3']!.right_when_given ?? 0) >= 0.9,
    (m[s]!.mixed!.given ?? 1) <= 0.2,
  ]);
  const others = sources.flatMap((s) => [m[s]!['3']!.right! >= 0.7, m[s]!['3']!.given! >= 0.55]);
  const worst = Math.min(...sources.map((s) => m[s]!['3']!.right_and_given!));
  return {
    safety: safety.filter(Boolean).length,
    all: [...safety, ...others].filter(Boolean).length,
    worst,
  };
}

function main(): void {
  const { model, rows } = JSON.parse(fs.readFileSync(CACHE, 'utf8')) as {
    model: string;
    rows: CachedRow[];
  };
  const val = build(rows, 'val');
  const candidates: PlantRule[] = [];
  for (const combine of ['geometric_mean', 'mean'] as const) {
    for (const disagree of ['confident_leaves', 'below_threshold'] as const) {
      for (let t = 30; t <= 95; t++) candidates.push({ combine, disagree, threshold: t / 100 });
    }
  }
  const scored = candidates.map((rule) => {
    const m = measure(val, rule);
    return { rule, m, g: goals(m) };
  });
  scored.sort(
    (a, b) =>
      b.g.safety - a.g.safety ||
      b.g.all - a.g.all ||
      b.g.worst - a.g.worst ||
      b.rule.threshold - a.rule.threshold,
  );
  const best = scored[0]!;
  // the best of each combination and disagree mode, for the log
  const perKind = new Map<string, (typeof scored)[number]>();
  for (const s of scored) {
    const key = `${s.rule.combine}/${s.rule.disagree}`;
    if (!perKind.has(key)) perKind.set(key, s);
  }
  const holdout = measure(build(rows, 'holdout'), best.rule);
  const result = {
    model,
    seed: SEED,
    groups_per_size: GROUPS,
    rule: best.rule,
    goals_met_on_val: best.g,
    val: best.m,
    holdout,
    holdout_goals: goals(holdout),
    best_of_each_kind: [...perKind.values()].map((s) => ({
      rule: s.rule,
      goals: s.g,
      val3: { field: s.m.field!['3'], field2: s.m.field2!['3'] },
      mixed: { field: s.m.field!.mixed, field2: s.m.field2!.mixed },
    })),
  };
  fs.writeFileSync(OUT, `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(result, null, 1)}\n`);
}

main();

/**
 * Hydraulics benchmarks: median wall time of
 *   - a default lateral design (goal < 1 ms),
 *   - a 20-section secondary design with nd = 5 (goal < 50 ms),
 *   - one 1000-outlet secondary section with nd = 5 (stress case, for information).
 * Run: npx tsx bench/hydraulics/run.ts
 */
import {
  designLateral,
  designSecondary,
  designSecondarySection,
  type SecondaryPipeType,
  type SecondarySectionInput,
} from '../../packages/hydraulics/src/index.ts';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function measure(name: string, runs: number, goalMs: number | null, work: () => unknown): number {
  for (let i = 0; i < Math.min(20, runs); i++) work(); // warm-up (JIT)
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    work();
    times.push(performance.now() - start);
  }
  const result = median(times);
  const goal =
    goalMs === null ? '' : `  (goal < ${goalMs} ms: ${result < goalMs ? 'met' : 'NOT met'})`;
  console.log(
    `${name.padEnd(46)} median ${result.toFixed(3).padStart(8)} ms  ` +
      `min ${Math.min(...times)
        .toFixed(3)
        .padStart(8)} ms  runs ${runs}${goal}`,
  );
  return result;
}

// Twenty realistic secondary sections (drip manifolds feeding laterals): 60-250 m, outlets every
// 1-3 m, 150-1500 L/h per outlet, HFp 1-4 m; chosen so that most need several diameters.
const PIPE_TYPES: SecondaryPipeType[] = ['PVC_CED40', 'PVC_RD26', 'Aluminum'];
const SECTIONS: SecondarySectionInput[] = Array.from({ length: 20 }, (_, i) => ({
  pipeType: PIPE_TYPES[i % 3]!,
  nd: 5,
  length: 60 + ((i * 37) % 191),
  qs: 150 + ((i * 271) % 1351),
  s0: 1 + (i % 3),
  se: 1 + (i % 5) * 0.5,
  hfp: 1 + (i % 4),
}));

const design = designSecondary(SECTIONS);
const outlets = design.sections.reduce((sum, s) => sum + s.outlets, 0);
const multi = design.sections.filter((s) => s.stretches.length > 1).length;
console.log(
  `secondary bench input: 20 sections, ${outlets} outlets in all, ` +
    `${multi} designed with several diameters, ` +
    `${design.sections.filter((s) => s.status === 'error').length} without a diameter`,
);

measure('lateral, default inputs (281 rows)', 2000, 1, () => designLateral());
measure('secondary, 20 sections, nd = 5', 50, 50, () => designSecondary(SECTIONS));
measure('secondary, 1 section of 1000 outlets, nd = 5', 20, null, () =>
  designSecondarySection({
    pipeType: 'PVC_RD26',
    nd: 5,
    length: 1000,
    qs: 200,
    s0: 1,
    se: 1,
    hfp: 5,
  }),
);

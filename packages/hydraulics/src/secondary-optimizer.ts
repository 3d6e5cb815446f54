/**
 * Exact optimiser of a multi-diameter secondary line (README.md, "Multi-diameter secondary design").
 *
 * The line is cut into N segments (inlet → outlet 1, outlet 1 → outlet 2, ...). A design gives
 * every segment a catalogue diameter, with diameters that never increase downstream and at most
 * `maxStretches` runs (stretches) of equal diameter; stretch boundaries therefore fall on outlets.
 * Minimise the pipe cost proxy Σ length × D² subject to Σ head loss <= hfp.
 *
 * With the loss budget this is a resource-constrained shortest path over the states
 * (outlet boundary i, diameter index d, stretches used j). It is solved exactly (see the README):
 *
 * 1. Lagrangian bound. For a multiplier λ >= 0 a backward dynamic programme over the states gives
 *    G_λ(i, d, j), the least cost + λ·loss of the segments after i. Walking the lower convex hull
 *    of (loss, cost) (λ is set to the slope between the best infeasible and the best feasible hull
 *    vertex found so far, until no vertex lies below) gives the best multiplier λ* and a lower
 *    bound LB on the optimum.
 * 2. Upper bound. The hull vertices are repaired and tightened by greedy moves of the stretch
 *    boundaries, giving a feasible design whose cost UB is usually within 1e-4 of the optimum.
 * 3. Label setting. A forward pass over the states keeps labels (cost, loss) of partial designs,
 *    drops dominated ones, and drops a label when
 *      loss + (least loss of the rest) > hfp                            (never feasible), or
 *      cost + λ·(loss − hfp) + G_λ(i, d, j) > limit   for λ in λ*·{1, 0.7, 0.85, 1.2, 1.5};
 *    the second test holds for any λ >= 0 because every feasible completion has
 *    rest-loss <= hfp − loss. The limit starts just above LB and grows fourfold up to UB
 *    (iterative deepening): when the best design found costs no more than the limit, every
 *    cheaper design would have survived, so it is optimal. Costs equal within 1e-12 (relative)
 *    are a tie, which the aluminium catalogue's evenly spaced sizes produce; ties go to the
 *    smaller loss.
 *
 * Losses are accumulated segment by segment in downstream order, so a design's loss here is
 * bit-for-bit the sum the caller reports.
 */

export interface StretchPlan {
  /** Index into the caller's diameter list (sorted by inner diameter, smallest first). */
  diameterIndex: number;
  /** First and last segment of the stretch, 0-based, inclusive. */
  firstSegment: number;
  lastSegment: number;
}

export interface StretchProblem {
  /** Number of catalogue diameters K. */
  diameters: number;
  /** Number of segments N (= outlets). */
  segments: number;
  /** Maximum number of stretches (nd). */
  maxStretches: number;
  /** Permissible head loss hfp, m. */
  hfp: number;
  /** Loss of segment i with diameter d at [i × K + d]; decreasing in d. */
  segmentLoss: Float64Array;
  /** Cost proxy of segment i with diameter d at [i × K + d]; increasing in d. */
  segmentCost: Float64Array;
  /** Cost proxy of the flowless pipe beyond the last outlet with diameter d, at [d]. */
  tailCost: Float64Array;
}

export interface StretchSolution {
  stretches: StretchPlan[];
  /** Cost proxy of the design (tail included). */
  cost: number;
  /** Total head loss of the design, m. */
  hf: number;
}

interface StretchNode {
  d: number;
  start: number;
  prev: StretchNode | null;
}

interface Label {
  d: number;
  j: number;
  cost: number;
  hf: number;
  node: StretchNode;
}

/** Pruning tests are loosened by this relative amount so rounding never drops the optimum. */
const RELATIVE_SLACK = 1e-9;
/** Costs this close (relative) are a tie; ties go to the smaller head loss. */
const TIE = 1e-12;

/** True when design a is better than b: cheaper, or as cheap with less head loss. */
function better(a: { cost: number; hf: number }, b: { cost: number; hf: number }): boolean {
  const tolerance = TIE * Math.abs(b.cost);
  return a.cost < b.cost - tolerance || (Math.abs(a.cost - b.cost) <= tolerance && a.hf < b.hf);
}

function toPlan(node: StretchNode, segments: number): StretchPlan[] {
  const plan: StretchPlan[] = [];
  let end = segments - 1;
  for (let n: StretchNode | null = node; n; n = n.prev) {
    plan.push({ diameterIndex: n.d, firstSegment: n.start, lastSegment: end });
    end = n.start - 1;
  }
  return plan.reverse();
}

/** Loss and cost of a plan, summed segment by segment in downstream order (tail included). */
function evaluate(p: StretchProblem, plan: StretchPlan[]): StretchSolution {
  const k = p.diameters;
  let cost = 0;
  let hf = 0;
  for (const stretch of plan) {
    const d = stretch.diameterIndex;
    for (let i = stretch.firstSegment; i <= stretch.lastSegment; i++) {
      cost += p.segmentCost[i * k + d]!;
      hf += p.segmentLoss[i * k + d]!;
    }
  }
  cost += p.tailCost[plan[plan.length - 1]!.diameterIndex]!;
  return { stretches: plan, cost, hf };
}

/**
 * Backward DP of cost + λ·loss. Fills g[(i·nd + j − 1)·K + d] and returns the minimising design
 * with its value cost + λ·loss.
 */
function lagrangeSolve(
  p: StretchProblem,
  lambda: number,
  g: Float64Array,
  v: Float64Array,
): StretchSolution & { value: number } {
  const { diameters: k, segments: n, maxStretches: nd } = p;
  const loss = p.segmentLoss;
  const cost = p.segmentCost;
  for (let x = 0; x < n * k; x++) v[x] = cost[x]! + lambda * loss[x]!;
  const layer = nd * k;

  const last = (n - 1) * layer;
  for (let j = 0; j < nd; j++) {
    for (let d = 0; d < k; d++) g[last + j * k + d] = p.tailCost[d]!;
  }
  for (let i = n - 2; i >= 0; i--) {
    const here = i * layer;
    const next = here + layer;
    const vNext = (i + 1) * k;
    for (let j = nd - 1; j >= 0; j--) {
      const row = here + j * k;
      const stayRow = next + j * k;
      const changeRow = stayRow + k;
      const canChange = j < nd - 1;
      // runMin: best switch to a diameter d' < d, which starts a new stretch.
      let runMin = Infinity;
      for (let d = 0; d < k; d++) {
        const vd = v[vNext + d]!;
        const stay = vd + g[stayRow + d]!;
        g[row + d] = runMin < stay ? runMin : stay;
        if (canChange) {
          const change = vd + g[changeRow + d]!;
          if (change < runMin) runMin = change;
        }
      }
    }
  }

  // Trace the minimiser forward.
  let d = 0;
  let best = Infinity;
  for (let dd = 0; dd < k; dd++) {
    const value = v[dd]! + g[dd]!;
    if (value < best) {
      best = value;
      d = dd;
    }
  }
  let j = 0;
  let node: StretchNode = { d, start: 0, prev: null };
  let totalCost = cost[d]!;
  let totalLoss = loss[d]!;
  for (let i = 1; i < n; i++) {
    const row = i * layer + j * k;
    let chosen = d;
    let chosenValue = v[i * k + d]! + g[row + d]!;
    if (j < nd - 1) {
      for (let dd = 0; dd < d; dd++) {
        const value = v[i * k + dd]! + g[row + k + dd]!;
        if (value < chosenValue) {
          chosenValue = value;
          chosen = dd;
        }
      }
    }
    if (chosen !== d) {
      d = chosen;
      j++;
      node = { d, start: i, prev: node };
    }
    totalCost += cost[i * k + d]!;
    totalLoss += loss[i * k + d]!;
  }
  totalCost += p.tailCost[d]!;
  return {
    stretches: toPlan(node, n),
    cost: totalCost,
    hf: totalLoss,
    value: totalCost + lambda * totalLoss,
  };
}

/**
 * Greedy boundary moves for a good upper bound (the exact search does not depend on its quality,
 * only its speed). Repair: while the loss exceeds hfp, move the boundary that removes the most loss
 * per unit of cost one outlet downstream (the larger stretch grows). Tighten: apply the move that
 * saves the most cost within hfp: one boundary one outlet upstream, or one boundary upstream and
 * another downstream. Returns a feasible design or null.
 */
function repairAndTighten(p: StretchProblem, start: StretchPlan[]): StretchSolution | null {
  const k = p.diameters;
  const plan = start.map((s) => ({ ...s }));
  const loss = (d: number, i: number) => p.segmentLoss[i * k + d]!;
  const cost = (d: number, i: number) => p.segmentCost[i * k + d]!;
  const limit = p.hfp * (1 - 1e-12);
  // Effect of moving boundary t (between stretch t and t + 1) one outlet downstream / upstream.
  const down = (t: number) => {
    const a = plan[t]!;
    const b = plan[t + 1]!;
    if (b.firstSegment === b.lastSegment) return null;
    const i = b.firstSegment;
    const da = a.diameterIndex;
    const db = b.diameterIndex;
    return { dHf: loss(da, i) - loss(db, i), dCost: cost(da, i) - cost(db, i) };
  };
  const up = (t: number) => {
    const a = plan[t]!;
    const b = plan[t + 1]!;
    if (a.firstSegment === a.lastSegment) return null;
    const i = a.lastSegment;
    const da = a.diameterIndex;
    const db = b.diameterIndex;
    return { dHf: loss(db, i) - loss(da, i), dCost: cost(db, i) - cost(da, i) };
  };
  const move = (t: number, downstream: boolean) => {
    const shift = downstream ? 1 : -1;
    plan[t]!.lastSegment += shift;
    plan[t + 1]!.firstSegment += shift;
  };
  const boundaries = plan.length - 1;
  let hf = evaluate(p, plan).hf;
  while (hf > p.hfp) {
    let bestT = -1;
    let bestRatio = 0;
    for (let t = 0; t < boundaries; t++) {
      const m = down(t);
      if (m && -m.dHf / m.dCost > bestRatio) {
        bestRatio = -m.dHf / m.dCost;
        bestT = t;
      }
    }
    if (bestT < 0) return null;
    hf += down(bestT)!.dHf;
    move(bestT, true);
  }
  for (let guard = 0; guard < 100_000; guard++) {
    let bestSaving = 0;
    let bestMove: { t: number; s: number; dHf: number } | null = null;
    for (let t = 0; t < boundaries; t++) {
      const u = up(t);
      if (!u) continue;
      if (hf + u.dHf <= limit && -u.dCost > bestSaving) {
        bestSaving = -u.dCost;
        bestMove = { t, s: -1, dHf: u.dHf };
      }
      for (let s = 0; s < boundaries; s++) {
        // Both moves must leave every stretch with an outlet: stretch t loses its last segment
        // to the up move, and also its first one when s = t − 1.
        const stretch = plan[t]!;
        if (s === t || (s === t - 1 && stretch.lastSegment - stretch.firstSegment < 2)) continue;
        const w = down(s);
        if (!w) continue;
        const saving = -(u.dCost + w.dCost);
        if (hf + u.dHf + w.dHf <= limit && saving > bestSaving) {
          bestSaving = saving;
          bestMove = { t, s, dHf: u.dHf + w.dHf };
        }
      }
    }
    if (!bestMove) break;
    move(bestMove.t, false);
    if (bestMove.s >= 0) move(bestMove.s, true);
    hf += bestMove.dHf;
  }
  const result = evaluate(p, plan);
  return result.hf <= p.hfp ? result : null;
}

/**
 * Dominance filter over all labels of one outlet boundary. Label A dominates B when it costs no
 * more, loses no more head, and every completion of B is open to A: same diameter and no more
 * stretches used, or a larger diameter and fewer stretches used (A may switch to B's diameter).
 */
function dominanceFilter(labels: Label[], k: number, nd: number): Label[] {
  labels.sort((a, b) => a.cost - b.cost || a.hf - b.hf || b.d - a.d || a.j - b.j);
  // same[d·nd + j]: least loss of kept labels at diameter d with j' <= j stretches.
  // larger[d·nd + j]: least loss of kept labels at a diameter > d with j' <= j stretches.
  const same = new Float64Array(k * nd).fill(Infinity);
  const larger = new Float64Array(k * nd).fill(Infinity);
  const kept: Label[] = [];
  for (const label of labels) {
    const { d, j } = label;
    const bySame = same[d * nd + j - 1]!;
    const byLarger = j >= 2 ? larger[d * nd + j - 2]! : Infinity;
    if (bySame <= label.hf || byLarger <= label.hf) continue;
    kept.push(label);
    for (let jj = j - 1; jj < nd; jj++) {
      if (label.hf < same[d * nd + jj]!) same[d * nd + jj] = label.hf;
      for (let dd = 0; dd < d; dd++) {
        if (label.hf < larger[dd * nd + jj]!) larger[dd * nd + jj] = label.hf;
      }
    }
  }
  return kept;
}

/** Multipliers (relative to λ*) of the extra Lagrangian bounds of the label search. */
const EXTRA_MULTIPLIERS = [0.7, 0.85, 1.2, 1.5];

interface LagrangianBound {
  lambda: number;
  /** G_λ(i, d, j) at [(i·nd + j − 1)·K + d]. */
  g: Float64Array;
}

/**
 * Forward label setting. Keeps the labels that may still lead to a feasible design costing at
 * most `limit` (within the rounding slack) and returns the best complete design found, or null.
 */
function labelSearch(
  p: StretchProblem,
  bounds: readonly LagrangianBound[],
  limit: number,
): StretchSolution | null {
  const { diameters: k, segments: n, maxStretches: nd, hfp } = p;
  const loss = p.segmentLoss;
  const cost = p.segmentCost;
  // minRest[i·K + d]: loss of the segments after i, all at diameter d (the largest still allowed).
  const minRest = new Float64Array(n * k);
  for (let d = 0; d < k; d++) {
    let rest = 0;
    for (let i = n - 1; i >= 0; i--) {
      minRest[i * k + d] = rest;
      rest += loss[i * k + d]!;
    }
  }
  const hfLimit = hfp + RELATIVE_SLACK * hfp;
  const costLimit = limit + RELATIVE_SLACK * Math.abs(limit);
  const layer = nd * k;
  const keep = (i: number, d: number, j: number, c: number, h: number) => {
    if (h + minRest[i * k + d]! > hfLimit) return false;
    const at = i * layer + (j - 1) * k + d;
    for (const bound of bounds) {
      if (c + bound.lambda * (h - hfp) + bound.g[at]! > costLimit) return false;
    }
    return true;
  };

  let labels: Label[] = [];
  for (let d = 0; d < k; d++) {
    const c = cost[d]!;
    const h = loss[d]!;
    if (keep(0, d, 1, c, h)) {
      labels.push({ d, j: 1, cost: c, hf: h, node: { d, start: 0, prev: null } });
    }
  }
  for (let i = 1; i < n && labels.length > 0; i++) {
    const next: Label[] = [];
    const row = i * k;
    for (const label of labels) {
      const { d, j } = label;
      const stayCost = label.cost + cost[row + d]!;
      const stayHf = label.hf + loss[row + d]!;
      if (keep(i, d, j, stayCost, stayHf)) {
        next.push({ d, j, cost: stayCost, hf: stayHf, node: label.node });
      }
      if (j < nd) {
        for (let dd = 0; dd < d; dd++) {
          const c = label.cost + cost[row + dd]!;
          const h = label.hf + loss[row + dd]!;
          if (keep(i, dd, j + 1, c, h)) {
            next.push({
              d: dd,
              j: j + 1,
              cost: c,
              hf: h,
              node: { d: dd, start: i, prev: label.node },
            });
          }
        }
      }
    }
    // At the last boundary no switch is left, so only the full cost (tail included) compares.
    labels = i < n - 1 ? dominanceFilter(next, k, nd) : next;
  }
  let best: StretchSolution | null = null;
  for (const label of labels) {
    const candidate = { cost: label.cost + p.tailCost[label.d]!, hf: label.hf };
    if (label.hf <= hfp && (!best || better(candidate, best))) {
      best = { stretches: toPlan(label.node, n), ...candidate };
    }
  }
  return best;
}

/**
 * The cheapest design within hfp (ties: smaller loss), or null when even the largest diameter
 * everywhere exceeds hfp. With one stretch allowed this is the smallest diameter within hfp.
 */
export function optimiseStretches(p: StretchProblem): StretchSolution | null {
  const { diameters: k, segments: n, maxStretches: nd, hfp } = p;
  const singles = Array.from({ length: k }, (_, d) =>
    evaluate(p, [{ diameterIndex: d, firstSegment: 0, lastSegment: n - 1 }]),
  );
  const largest = singles[k - 1]!;
  if (largest.hf > hfp) return null;

  // The best single-diameter design: the answer for nd = 1 and a first upper bound.
  let best = singles.find((s) => s.hf <= hfp)!;
  if (nd === 1 || k === 1 || n === 1 || best === singles[0]) return best;

  // Step 1: walk the lower convex hull of (loss, cost) for the best multiplier.
  let g = new Float64Array(n * nd * k);
  let bestG = new Float64Array(n * nd * k);
  const v = new Float64Array(n * k);
  let lambdaStar = 0;
  let lowerBound = -Infinity;
  let lo: StretchSolution = singles[0]!;
  let hi: StretchSolution = largest;
  for (let iteration = 0; iteration < 200; iteration++) {
    const lambda = (hi.cost - lo.cost) / (lo.hf - hi.hf);
    if (!(lambda > 0 && Number.isFinite(lambda))) break;
    const found = lagrangeSolve(p, lambda, g, v);
    const bound = found.value - lambda * hfp;
    if (bound > lowerBound) {
      lowerBound = bound;
      lambdaStar = lambda;
      [g, bestG] = [bestG, g];
    }
    if (found.hf <= hfp && better(found, best)) {
      best = { stretches: found.stretches, cost: found.cost, hf: found.hf };
    }
    const segmentValue = lo.cost + lambda * lo.hf;
    if (found.value >= segmentValue - 1e-12 * Math.abs(segmentValue)) break;
    if (found.hf > hfp) lo = found;
    else hi = found;
  }

  // Step 2: a good feasible design from the hull vertices.
  for (const start of [lo, hi]) {
    const improved = repairAndTighten(p, start.stretches);
    if (improved && better(improved, best)) best = improved;
  }

  // Step 3: label setting with dominance, feasibility and Lagrangian pruning. The Lagrangian
  // bound is taken at λ* and at a few multipliers around it (each is valid; their maximum is
  // tighter), and the cost limit grows from just above LB towards UB (iterative deepening).
  const bounds = [{ lambda: lambdaStar, g: bestG }];
  for (const factor of EXTRA_MULTIPLIERS) {
    const g = new Float64Array(n * nd * k);
    lagrangeSolve(p, lambdaStar * factor, g, v);
    bounds.push({ lambda: lambdaStar * factor, g });
  }
  let width = Math.max((best.cost - lowerBound) / 32, RELATIVE_SLACK * Math.abs(best.cost));
  for (;;) {
    const limit = Math.min(best.cost, lowerBound + width);
    const found = labelSearch(p, bounds, limit);
    if (found && better(found, best)) best = found;
    // Every design costing at most `limit` survived the search, so a best design within the
    // limit is optimal; at limit = UB the search covers everything that could beat UB.
    if (limit >= best.cost || (found && found.cost <= limit)) break;
    width *= 4;
  }
  return best;
}

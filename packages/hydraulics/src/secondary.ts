/**
 * Irrigation secondary-line designer (specification §3, §4, §5, §8, §9). The engineering checks (README.md) add
 * the friction formula (Hazen-Williams by default, or Darcy-Weisbach with Blasius' factor) and,
 * given the pressure the laterals need, the pressure at every outlet and at the section inlet.
 */
import {
  SECONDARY_CATALOGUES,
  SECONDARY_PIPE_TYPES,
  type SecondaryPipeType,
} from './data/secondary-catalogues';
import { HydraulicsInputError, type ValidationResult } from './errors';
import {
  blasiusLoss,
  hazenWilliamsLoss,
  isFrictionFormula,
  BLASIUS_MAX_DIAMETER,
  DEFAULT_FRICTION_FORMULA,
  type FrictionFormula,
} from './formulas';
import { SECONDARY_MESSAGES, type NumberFormatter } from './messages';
import {
  formatMessageNumber,
  isBlank,
  millimetresToMetres,
  parseDecimal,
  parseInteger,
} from './numbers';
import { optimiseStretches, type StretchPlan } from './secondary-optimizer';

/** At most 20 sections (specification §9). */
export const SECONDARY_MAX_SECTIONS = 20;
/** ND is an integer 1 to 5 (specification §9). */
export const SECONDARY_MAX_DIAMETERS = 5;
/** Beyond the specification: a section may have at most this many outlets. */
export const SECONDARY_MAX_OUTLETS = 10_000;
/** Length of one commercial pipe, m, and the 20 % allowance of the pipe accounting (§9). */
export const PIPE_LENGTH = 6;
export const PIPE_ALLOWANCE = 1.2;

/** L/h → m3/s (specification §9: × 0.001 / 3600). */
const LPH_TO_M3S = 0.001 / 3600;
/** Tolerance of floor/ceil on quotients that are integers in exact arithmetic (e.g. 99.8 / 0.2). */
const INTEGER_TOLERANCE = 1e-9;

export interface SecondarySectionInput {
  pipeType: SecondaryPipeType;
  /** Number of diameters ND, integer 1-5. */
  nd: number;
  /** Pipe length, m. */
  length: number;
  /** Flow of one outlet, L/h. */
  qs: number;
  /** Distance from the inlet to the first outlet, m. */
  s0: number;
  /** Distance between outlets, m. */
  se: number;
  /** Permissible head loss HFp, m. */
  hfp: number;
  /** Beyond the specification (README.md, "Engineering checks"): friction formula, Hazen-Williams by default. */
  formula?: FrictionFormula;
  /**
   * Beyond the specification (README.md, "Engineering checks"): pressure the farthest lateral needs at its inlet, m.
   * Given, the result has the pressure at every outlet and the section's inlet pressure.
   */
  pressure?: number;
}

/** The section form's raw strings, as typed (formula and pressure may be left out or blank). */
export type SecondarySectionRaw = { [K in keyof SecondarySectionInput]: string };

export interface SecondaryStretch {
  pipeType: SecondaryPipeType;
  /** Nominal diameter, mm (catalogue designation). */
  nominalDiameter: number;
  /** Inner diameter, m. */
  innerDiameter: number;
  /** Stretch length, m (the last stretch includes the pipe beyond the last outlet). */
  length: number;
  /** Outlets on the stretch. */
  outlets: number;
  /** Head loss of the stretch, m. */
  hf: number;
}

export type SecondaryStatus = 'ok' | 'danger' | 'error';

export interface SecondarySectionResult {
  /** Section number (1-based), as used in the messages. */
  section: number;
  /**
   * 'ok': a design within HFp. 'error': no catalogue diameter meets HFp (no design; hf and F are
   * those of the largest diameter, the smallest loss possible). The designer never returns
   * 'danger' (it never proposes a design over HFp); the type keeps it for screens that evaluate a
   * design of their own.
   */
  status: SecondaryStatus;
  /**
   * The answer: the 'Verify your data, you can use one diameter ...' or 'There is no diameter ...'
   * message when one applies, otherwise the status text.
   */
  message: string;
  /** The section status line: 'This section it's OK! HF:x < HFp:y' or the danger text. */
  statusText: string;
  /** The specification's alert for the case, or null. */
  alert: string | null;
  /** Number of outlets N = floor((length − s0)/se) + 1. */
  outlets: number;
  /** Total head loss, m. */
  hf: number;
  hfp: number;
  /** Equivalent multiple-outlet factor F of a single-diameter design; null for several stretches. */
  F: number | null;
  stretches: SecondaryStretch[];
  /** Pipe cost proxy Σ stretch length × inner diameter², m³ (0 without a design). */
  cost: number;
  /** The friction formula used. */
  formula: FrictionFormula;
  /**
   * Pressure needed at the section inlet so that the farthest outlet gets `pressure`: that plus
   * hf, m. Null without a design or without the input pressure.
   */
  inletPressure: number | null;
  /** Pressure at every outlet from the inlet (the last one is `pressure`), m; or null. */
  outletPressures: number[] | null;
  /** Blasius chosen with aluminium pipe or a pipe of 125 mm or more (outside its recommended range). */
  blasiusOutOfRange: boolean;
}

/** The pressure the main line must deliver at the inlet of each designed section (README.md, "Engineering checks"). */
export interface SecondaryPressureSummary {
  sections: { section: number; inletPressure: number }[];
  /** The largest of them (the main line must deliver at least this), or null when none. */
  required: { section: number; inletPressure: number } | null;
}

export interface SecondarySummaryRow {
  pipeType: SecondaryPipeType;
  nominalDiameter: number;
  /** Total length of this pipe type and diameter over all sections, m. */
  totalLength: number;
  /** Six-metre pipes to buy: ceil(1.2 × totalLength / 6). */
  adjustedLength: number;
}

export interface SecondaryDesign {
  sections: SecondarySectionResult[];
  summary: SecondarySummaryRow[];
  pressures: SecondaryPressureSummary;
}

export interface DesignOptions {
  /** Formats numbers inside messages; default: at most three decimals. */
  formatNumber?: NumberFormatter;
}

/** Field labels used in the alerts, as the specification names the inputs (§3). */
export const SECONDARY_FIELD_LABELS: { readonly [K in keyof SecondarySectionInput]: string } = {
  pipeType: 'Pipe type',
  nd: 'ND',
  length: 'Length',
  qs: 'qs',
  s0: 'S0',
  se: 'Se',
  hfp: 'HFp',
  formula: 'Friction formula',
  pressure: 'Lateral pressure',
};

const POSITIVE_FIELDS = ['length', 'qs', 's0', 'se', 'hfp'] as const;
const NUMERIC_FIELDS = ['nd', ...POSITIVE_FIELDS] as const;

/** Number of outlets N = floor((length − S0) / Se) + 1 (specification §9). */
export function countOutlets(length: number, s0: number, se: number): number {
  return Math.floor((length - s0) / se + INTEGER_TOLERANCE) + 1;
}

/** Six-metre pipes with the 20 % allowance: ceil(1.2 × total / 6) (specification §9). */
export function adjustedPipeCount(totalLength: number): number {
  const pipes = (PIPE_ALLOWANCE * totalLength) / PIPE_LENGTH;
  return Math.ceil(pipes - INTEGER_TOLERANCE * Math.max(1, pipes));
}

function isSecondaryPipeType(value: string): value is SecondaryPipeType {
  return (SECONDARY_PIPE_TYPES as readonly string[]).includes(value);
}

type Failure = { field: string; message: string };

/** Rules that need the numbers (shared by the form validation and the engine). */
function checkNumbers(values: SecondarySectionInput, section: number): Failure | null {
  if (!(Number.isInteger(values.nd) && values.nd >= 1 && values.nd <= SECONDARY_MAX_DIAMETERS)) {
    return { field: 'nd', message: SECONDARY_MESSAGES.ndInteger };
  }
  for (const field of POSITIVE_FIELDS) {
    const value = values[field];
    if (value < 0) return { field, message: SECONDARY_MESSAGES.noNegative };
    if (!(value > 0) || !Number.isFinite(value)) {
      return { field, message: SECONDARY_MESSAGES.floatPositive };
    }
  }
  if (values.pressure !== undefined) {
    if (values.pressure < 0) return { field: 'pressure', message: SECONDARY_MESSAGES.noNegative };
    if (!(values.pressure > 0) || !Number.isFinite(values.pressure)) {
      return { field: 'pressure', message: SECONDARY_MESSAGES.floatPositive };
    }
  }
  if (values.s0 > values.length) {
    return { field: 's0', message: SECONDARY_MESSAGES.s0BeyondLength(section) };
  }
  if (countOutlets(values.length, values.s0, values.se) > SECONDARY_MAX_OUTLETS) {
    return {
      field: 'se',
      message: SECONDARY_MESSAGES.tooManyOutlets(section, SECONDARY_MAX_OUTLETS),
    };
  }
  return null;
}

/**
 * Validates one section form's raw strings in the specification's order (§5): pipe type chosen,
 * nothing empty, ND an integer 1-5, the other five numbers > 0. Returns the parsed values or the
 * first failing field with the specification's alert text. Decimal commas are accepted.
 */
export function validateSecondarySection(
  raw: SecondarySectionRaw,
  section: number,
): ValidationResult<SecondarySectionInput> {
  const pipeType = (raw.pipeType ?? '').trim();
  if (!isSecondaryPipeType(pipeType)) {
    return {
      ok: false,
      field: 'pipeType',
      message: SECONDARY_MESSAGES.selectValue(SECONDARY_FIELD_LABELS.pipeType, section),
    };
  }
  for (const field of NUMERIC_FIELDS) {
    if (isBlank(raw[field])) {
      return {
        ok: false,
        field,
        message: SECONDARY_MESSAGES.empty(SECONDARY_FIELD_LABELS[field], section),
      };
    }
  }
  const nd = parseInteger(raw.nd);
  if (nd === null) return { ok: false, field: 'nd', message: SECONDARY_MESSAGES.ndInteger };
  const values: SecondarySectionInput = { pipeType, nd, length: 0, qs: 0, s0: 0, se: 0, hfp: 0 };
  for (const field of POSITIVE_FIELDS) {
    values[field] = parseDecimal(raw[field]) ?? Number.NaN;
  }
  // Engineering checks (README.md), after the specification's fields: blank means the default formula, no pressure.
  const formula = (raw.formula ?? '').trim();
  if (formula !== '') {
    if (!isFrictionFormula(formula)) {
      return {
        ok: false,
        field: 'formula',
        message: SECONDARY_MESSAGES.selectValue(SECONDARY_FIELD_LABELS.formula!, section),
      };
    }
    values.formula = formula;
  }
  if (!isBlank(raw.pressure)) values.pressure = parseDecimal(raw.pressure!) ?? Number.NaN;
  const failure = checkNumbers(values, section);
  return failure ? { ok: false, ...failure } : { ok: true, value: values };
}

/**
 * Alert when a section cannot be added: 'Only 20 sections are allowed, restart process!!' once
 * there are already 20; null otherwise.
 */
export function addSectionAlert(currentCount: number): string | null {
  return currentCount >= SECONDARY_MAX_SECTIONS ? SECONDARY_MESSAGES.maxSections : null;
}

/**
 * Alert for the pipe accounting: 'There must be at least one section or less than 21 sections!'
 * unless there are 1 to 20 sections; null otherwise.
 */
export function sectionCountAlert(count: number): string | null {
  return count >= 1 && count <= SECONDARY_MAX_SECTIONS ? null : SECONDARY_MESSAGES.sectionCount;
}

/**
 * Designs one section. Head loss is computed outlet by outlet: segment 1 runs from the inlet to
 * outlet 1 (length S0), segment i from outlet i−1 to outlet i (length Se) and carries
 * Q_i = (N − i + 1)·qs, with the Hazen-Williams loss of the specification. nd = 1: the smallest
 * catalogue diameter within HFp. nd > 1: the cheapest design with at most nd stretches of
 * non-increasing diameter (see secondary-optimizer.ts).
 * @throws HydraulicsInputError (field, specification message) for invalid values.
 */
export function designSecondarySection(
  input: SecondarySectionInput,
  section = 1,
  options: DesignOptions = {},
): SecondarySectionResult {
  const format = options.formatNumber ?? formatMessageNumber;
  if (!isSecondaryPipeType(input.pipeType)) {
    throw new HydraulicsInputError(
      'pipeType',
      SECONDARY_MESSAGES.selectValue(SECONDARY_FIELD_LABELS.pipeType, section),
    );
  }
  const failure = checkNumbers(input, section);
  if (failure) throw new HydraulicsInputError(failure.field, failure.message);
  const formula = input.formula ?? DEFAULT_FRICTION_FORMULA;
  if (!isFrictionFormula(formula)) {
    throw new HydraulicsInputError(
      'formula',
      SECONDARY_MESSAGES.selectValue(SECONDARY_FIELD_LABELS.formula!, section),
    );
  }

  const { pipeType, nd, length, qs, s0, se, hfp } = input;
  const catalogue = SECONDARY_CATALOGUES[pipeType];
  const diameters = catalogue.diameters;
  const k = diameters.length;
  const n = countOutlets(length, s0, se);
  const innerM = diameters.map((row) => millimetresToMetres(row.inner));

  const segmentLength = (i: number) => (i === 0 ? s0 : se);
  const segmentFlow = (i: number) => (n - i) * qs * LPH_TO_M3S;
  const loss = (flow: number, d: number, l: number) =>
    formula === 'hazen-williams'
      ? hazenWilliamsLoss(flow, catalogue.c, innerM[d]!, l)
      : blasiusLoss(flow, innerM[d]!, l);
  const segmentLoss = new Float64Array(k * n);
  const segmentCost = new Float64Array(k * n);
  const tailCost = new Float64Array(k);
  const tail = Math.max(0, length - s0 - (n - 1) * se);
  for (let d = 0; d < k; d++) {
    const area = innerM[d]! * innerM[d]!;
    for (let i = 0; i < n; i++) {
      segmentLoss[i * k + d] = loss(segmentFlow(i), d, segmentLength(i));
      segmentCost[i * k + d] = segmentLength(i) * area;
    }
    tailCost[d] = tail * area;
  }

  // Outlet positions along the pipe: outlet m (1-based) at s0 + (m − 1)·se.
  const position = (outlet: number) => s0 + (outlet - 1) * se;
  const toStretch = (plan: StretchPlan, last: boolean): SecondaryStretch => {
    const d = plan.diameterIndex;
    let hf = 0;
    for (let i = plan.firstSegment; i <= plan.lastSegment; i++) hf += segmentLoss[i * k + d]!;
    const start = plan.firstSegment === 0 ? 0 : position(plan.firstSegment);
    const end = last ? length : position(plan.lastSegment + 1);
    return {
      pipeType,
      nominalDiameter: diameters[d]!.nominal,
      innerDiameter: innerM[d]!,
      length: end - start,
      outlets: plan.lastSegment - plan.firstSegment + 1,
      hf,
    };
  };
  // F = hf / (loss of the full inlet flow Q_1 over s0 + (N − 1)·se) for one diameter (README.md, "Lateral-line calculator").
  const factorF = (d: number, hf: number) => hf / loss(segmentFlow(0), d, s0 + (n - 1) * se);
  const outOfRange = (diameterIndices: number[]) =>
    formula === 'darcy-weisbach-blasius' &&
    (pipeType === 'Aluminum' || diameterIndices.some((d) => innerM[d]! >= BLASIUS_MAX_DIAMETER));

  const optimum = optimiseStretches({
    diameters: k,
    segments: n,
    maxStretches: nd,
    hfp,
    segmentLoss,
    segmentCost,
    tailCost,
  });

  if (!optimum) {
    let hf = 0;
    for (let i = 0; i < n; i++) hf += segmentLoss[i * k + k - 1]!;
    const alert = SECONDARY_MESSAGES.noDiameter(section);
    return {
      section,
      status: 'error',
      message: alert,
      statusText: SECONDARY_MESSAGES.danger(section, hf, hfp, format),
      alert,
      outlets: n,
      hf,
      hfp,
      F: factorF(k - 1, hf),
      stretches: [],
      cost: 0,
      formula,
      inletPressure: null,
      outletPressures: null,
      blasiusOutOfRange: outOfRange([k - 1]),
    };
  }

  const stretches = optimum.stretches.map((plan, index, all) =>
    toStretch(plan, index === all.length - 1),
  );
  const single = optimum.stretches.length === 1 ? optimum.stretches[0]!.diameterIndex : null;
  const statusText = SECONDARY_MESSAGES.ok(optimum.hf, hfp, format);
  const alert = nd > 1 && single === 0 ? SECONDARY_MESSAGES.oneDiameter(section) : null;
  // Pressures, walking upstream from the farthest outlet, which gets exactly the input pressure:
  // head[0] is the section inlet, head[i] outlet i.
  let head: Float64Array | null = null;
  if (input.pressure !== undefined) {
    const segmentDiameter = new Int32Array(n);
    for (const plan of optimum.stretches) {
      segmentDiameter.fill(plan.diameterIndex, plan.firstSegment, plan.lastSegment + 1);
    }
    head = new Float64Array(n + 1);
    head[n] = input.pressure;
    for (let i = n - 1; i >= 0; i--) {
      head[i] = head[i + 1]! + segmentLoss[i * k + segmentDiameter[i]!]!;
    }
  }
  return {
    section,
    status: 'ok',
    message: alert ?? statusText,
    statusText,
    alert,
    outlets: n,
    hf: optimum.hf,
    hfp,
    F: single === null ? null : factorF(single, optimum.hf),
    stretches,
    cost: stretches.reduce((sum, s) => sum + s.length * s.innerDiameter * s.innerDiameter, 0),
    formula,
    inletPressure: head ? head[0]! : null,
    outletPressures: head ? Array.from(head.subarray(1)) : null,
    blasiusOutOfRange: outOfRange(optimum.stretches.map((plan) => plan.diameterIndex)),
  };
}

/**
 * The pressure the main line must deliver at the inlet of each designed section with a pressure
 * (README.md, "Engineering checks"), and the largest of them.
 */
export function summarizePressures(
  results: readonly SecondarySectionResult[],
): SecondaryPressureSummary {
  const sections = results.flatMap((r) =>
    r.inletPressure === null ? [] : [{ section: r.section, inletPressure: r.inletPressure }],
  );
  const required = sections.reduce<SecondaryPressureSummary['required']>(
    (max, s) => (max === null || s.inletPressure > max.inletPressure ? s : max),
    null,
  );
  return { sections, required };
}

/**
 * Pipe accounting (specification §9): per pipe type and nominal diameter, the total length over
 * the designed sections and the adjusted count of six-metre pipes ceil(1.2 × total / 6). Rows in
 * selector order of pipe type, then nominal diameter from largest to smallest.
 */
export function summarizePipes(results: readonly SecondarySectionResult[]): SecondarySummaryRow[] {
  const totals = new Map<string, { pipeType: SecondaryPipeType; nominal: number; total: number }>();
  for (const result of results) {
    for (const stretch of result.stretches) {
      const key = `${stretch.pipeType}|${stretch.nominalDiameter}`;
      const entry = totals.get(key) ?? {
        pipeType: stretch.pipeType,
        nominal: stretch.nominalDiameter,
        total: 0,
      };
      entry.total += stretch.length;
      totals.set(key, entry);
    }
  }
  return [...totals.values()]
    .sort(
      (a, b) =>
        SECONDARY_PIPE_TYPES.indexOf(a.pipeType) - SECONDARY_PIPE_TYPES.indexOf(b.pipeType) ||
        b.nominal - a.nominal,
    )
    .map((entry) => ({
      pipeType: entry.pipeType,
      nominalDiameter: entry.nominal,
      totalLength: entry.total,
      adjustedLength: adjustedPipeCount(entry.total),
    }));
}

/**
 * Designs 1 to 20 sections (numbered 1, 2, ... in order) and their pipe accounting.
 * @throws HydraulicsInputError ('sections', 'There must be at least one section or less than 21
 *   sections!') for 0 or more than 20 sections, or the first invalid section's error.
 */
export function designSecondary(
  sections: readonly SecondarySectionInput[],
  options: DesignOptions = {},
): SecondaryDesign {
  const countAlert = sectionCountAlert(sections.length);
  if (countAlert) throw new HydraulicsInputError('sections', countAlert);
  const results = sections.map((input, index) => designSecondarySection(input, index + 1, options));
  return {
    sections: results,
    summary: summarizePipes(results),
    pressures: summarizePressures(results),
  };
}

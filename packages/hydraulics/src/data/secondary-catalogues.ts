/**
 * Diameter catalogues of the irrigation secondary-line designer (nominal → inner diameter, mm) and
 * their Hazen-Williams C. Source for every row: the product specification, §9 "Irrigation
 * secondary design" (../../shared/spec/SPEC.md), which lists them verbatim:
 *   - PVC_CED40 (PVC Schedule 40, ASTM D1785 sizes), C = 145
 *   - PVC_RD26 (PVC SDR 26, ASTM D2241 sizes), C = 145
 *   - Aluminum (irrigation tube), nominal 200 down to 50 in steps of 10 plus 75, 65, 55; inner
 *     diameter 10 mm less than nominal, C = 150
 */

export type SecondaryPipeType = 'PVC_CED40' | 'PVC_RD26' | 'Aluminum';

export interface CatalogueDiameter {
  /** Nominal diameter, mm (the catalogue designation). */
  nominal: number;
  /** Inner diameter, mm. */
  inner: number;
}

export interface SecondaryCatalogue {
  pipeType: SecondaryPipeType;
  /** Hazen-Williams C. */
  c: number;
  /** Diameters sorted by inner diameter, smallest first. */
  diameters: readonly CatalogueDiameter[];
  source: string;
}

const SPEC_SOURCE = 'Specification §9, Irrigation secondary design, diameter catalogues';

function ascending(rows: [number, number][]): CatalogueDiameter[] {
  return rows
    .map(([nominal, inner]) => ({ nominal, inner }))
    .sort((a, b) => a.inner - b.inner);
}

const ALUMINUM_NOMINALS = [
  200, 190, 180, 170, 160, 150, 140, 130, 120, 110, 100, 90, 80, 70, 60, 50, 75, 65, 55,
];

/** The three catalogues, in the order of the pipe type selector. */
export const SECONDARY_CATALOGUES: { readonly [T in SecondaryPipeType]: SecondaryCatalogue } = {
  PVC_CED40: {
    pipeType: 'PVC_CED40',
    c: 145,
    source: SPEC_SOURCE,
    diameters: ascending([
      [400, 381],
      [350, 333.4],
      [300, 302],
      [250, 253.4],
      [200, 201.7],
      [150, 153.2],
      [100, 101.5],
      [75, 77.3],
      [64, 62.1],
      [50, 52],
      [38, 40.5],
      [32, 34.6],
      [25, 26.2],
      [19, 20.6],
      [13, 15.5],
    ]),
  },
  PVC_RD26: {
    pipeType: 'PVC_RD26',
    c: 145,
    source: SPEC_SOURCE,
    diameters: ascending([
      [300, 297.8],
      [250, 250.8],
      [200, 202.3],
      [150, 154.5],
      [100, 105],
      [75, 81.6],
      [64, 67.1],
      [50, 55.4],
      [38, 44.3],
      [32, 38.7],
    ]),
  },
  Aluminum: {
    pipeType: 'Aluminum',
    c: 150,
    source: SPEC_SOURCE,
    diameters: ascending(ALUMINUM_NOMINALS.map((nominal) => [nominal, nominal - 10])),
  },
};

/** Pipe types in the order of the secondary designer's selector. */
export const SECONDARY_PIPE_TYPES: readonly SecondaryPipeType[] = [
  'PVC_CED40',
  'PVC_RD26',
  'Aluminum',
];

/**
 * Inner-diameter catalogue of the main-line designer: pipe type × nominal diameter → inner
 * diameter (mm), or unavailable. Every row names its source.
 *
 * - PVC_RD26, PVC_CED40, Aluminum: the secondary catalogues of the specification (§9) where they
 *   have the size ("spec"). Sizes they lack are derived ("derived") from the outside diameter and
 *   minimum wall of the American standards the series follow:
 *     RD26: ASTM D2241 (PVC pressure-rated pipe, SDR series), IPS outside diameters, minimum wall
 *       t = OD / 26 (rounded to 0.001 in as in the standard's table); ID = OD − 2t.
 *     CED40: ASTM D1785 (PVC Schedule 40), outside diameters and Schedule 40 minimum walls of
 *       ASME B36.10 (18 in: 0.562 in, 20 in: 0.594 in); ID = OD − 2t.
 *   There is no 26 in (650 mm) size in either standard: unavailable. Aluminium irrigation tube in
 *   the specification's catalogue stops at 200 mm: 250 mm and up unavailable.
 * - PVC_CLASS_5/7/10: Mexican hydraulic PVC pipe, metric series (NMX-E-143), classes by working
 *   pressure 5, 7 and 10 kgf/cm². All rows are derived: outside diameter of the metric series
 *   (nominal designation 50→50, 75→80, 100→100, 150→160, 200→200, 250→250, 300→315, 350→355,
 *   400→400, 450→450, 500→500, 650→630 mm) and minimum wall e = OD·p / (2σ + p) with design stress
 *   σ = 100 kgf/cm² (≈10 MPa, PVC-U), i.e. SDR 41, 29.6 and 21, rounded up to 0.1 mm; ID = OD − 2e.
 *   The class 10 results coincide with published PN10 PVC inner diameters (50→45.2, 160→144.6,
 *   200→180.8). A derived wall below 1.5 mm (class 5 at 50 mm) is not a marketable pipe: unavailable.
 *   Check these rows against the manufacturer's catalogue in use before relying on them.
 */

export type MainlinePipeType =
  | 'PVC_RD26'
  | 'PVC_CED40'
  | 'Aluminum'
  | 'PVC_CLASS_5'
  | 'PVC_CLASS_7'
  | 'PVC_CLASS_10';

export interface MainlinePipeTypeInfo {
  /** The selector's numeric code (specification §9). */
  code: 1 | 2 | 3 | 4 | 5 | 6;
  id: MainlinePipeType;
  label: { es: string; en: string };
  /** Hazen-Williams C (specification §9: 145, aluminium 150). */
  c: number;
}

/** Pipe types 1-6 in the selector's order. */
export const MAINLINE_PIPE_TYPES: readonly MainlinePipeTypeInfo[] = [
  { code: 1, id: 'PVC_RD26', label: { es: 'PVC RD26', en: 'PVC RD26' }, c: 145 },
  { code: 2, id: 'PVC_CED40', label: { es: 'PVC cédula 40', en: 'PVC Schedule 40' }, c: 145 },
  { code: 3, id: 'Aluminum', label: { es: 'Aluminio', en: 'Aluminum' }, c: 150 },
  { code: 4, id: 'PVC_CLASS_5', label: { es: 'PVC clase 5', en: 'PVC class 5' }, c: 145 },
  { code: 5, id: 'PVC_CLASS_7', label: { es: 'PVC clase 7', en: 'PVC class 7' }, c: 145 },
  { code: 6, id: 'PVC_CLASS_10', label: { es: 'PVC clase 10', en: 'PVC class 10' }, c: 145 },
];

/** Nominal diameters of the main-line selector, mm (specification §9). */
export const MAINLINE_NOMINAL_DIAMETERS = [
  50, 75, 100, 150, 200, 250, 300, 350, 400, 450, 500, 650,
] as const;
export type MainlineNominalDiameter = (typeof MAINLINE_NOMINAL_DIAMETERS)[number];

export interface MainlineCatalogueRow {
  pipeType: MainlinePipeType;
  nominal: MainlineNominalDiameter;
  /** Inner diameter, mm; null when the combination does not exist. */
  inner: number | null;
  /** Where the value comes from. */
  source: string;
  /** True when computed from an outside diameter and a wall thickness rather than read from a table. */
  derived: boolean;
}

const SPEC = 'Specification §9 secondary catalogue';
const D2241 = (od: string, t: string) =>
  `Derived: ASTM D2241 SDR 26, OD ${od} in, min wall ${t} in (OD/26)`;
const D1785 = (od: string, t: string) =>
  `Derived: ASTM D1785 Schedule 40, OD ${od} in, min wall ${t} in (ASME B36.10)`;
const NMX = (od: number, sdr: string, e: string) =>
  `Derived: NMX-E-143 metric series, OD ${od} mm, SDR ${sdr}, min wall ${e} mm`;

type Row = [MainlineNominalDiameter, number | null, string, boolean];

function rows(pipeType: MainlinePipeType, list: Row[]): MainlineCatalogueRow[] {
  return list.map(([nominal, inner, source, derived]) => ({
    pipeType,
    nominal,
    inner,
    source,
    derived,
  }));
}

export const MAINLINE_CATALOGUE: readonly MainlineCatalogueRow[] = [
  ...rows('PVC_RD26', [
    [50, 55.4, SPEC, false],
    [75, 81.6, SPEC, false],
    [100, 105, SPEC, false],
    [150, 154.5, SPEC, false],
    [200, 202.3, SPEC, false],
    [250, 250.8, SPEC, false],
    [300, 297.8, SPEC, false],
    [350, 328.27, D2241('14.000', '0.538'), true],
    [400, 375.16, D2241('16.000', '0.615'), true],
    [450, 422.05, D2241('18.000', '0.692'), true],
    [500, 468.93, D2241('20.000', '0.769'), true],
    [650, null, 'Unavailable: no 26 in size in ASTM D2241', false],
  ]),
  ...rows('PVC_CED40', [
    [50, 52, SPEC, false],
    [75, 77.3, SPEC, false],
    [100, 101.5, SPEC, false],
    [150, 153.2, SPEC, false],
    [200, 201.7, SPEC, false],
    [250, 253.4, SPEC, false],
    [300, 302, SPEC, false],
    [350, 333.4, SPEC, false],
    [400, 381, SPEC, false],
    [450, 428.65, D1785('18.000', '0.562'), true],
    [500, 477.82, D1785('20.000', '0.594'), true],
    [650, null, 'Unavailable: no 26 in size in ASTM D1785', false],
  ]),
  ...rows('Aluminum', [
    [50, 40, SPEC, false],
    [75, 65, SPEC, false],
    [100, 90, SPEC, false],
    [150, 140, SPEC, false],
    [200, 190, SPEC, false],
    [250, null, 'Unavailable: aluminium catalogue ends at 200 mm', false],
    [300, null, 'Unavailable: aluminium catalogue ends at 200 mm', false],
    [350, null, 'Unavailable: aluminium catalogue ends at 200 mm', false],
    [400, null, 'Unavailable: aluminium catalogue ends at 200 mm', false],
    [450, null, 'Unavailable: aluminium catalogue ends at 200 mm', false],
    [500, null, 'Unavailable: aluminium catalogue ends at 200 mm', false],
    [650, null, 'Unavailable: aluminium catalogue ends at 200 mm', false],
  ]),
  ...rows('PVC_CLASS_5', [
    [50, null, 'Unavailable: derived wall 1.3 mm (OD 50, SDR 41) below 1.5 mm', false],
    [75, 76, NMX(80, '41', '2.0'), true],
    [100, 95, NMX(100, '41', '2.5'), true],
    [150, 152, NMX(160, '41', '4.0'), true],
    [200, 190.2, NMX(200, '41', '4.9'), true],
    [250, 237.8, NMX(250, '41', '6.1'), true],
    [300, 299.6, NMX(315, '41', '7.7'), true],
    [350, 337.6, NMX(355, '41', '8.7'), true],
    [400, 380.4, NMX(400, '41', '9.8'), true],
    [450, 428, NMX(450, '41', '11.0'), true],
    [500, 475.6, NMX(500, '41', '12.2'), true],
    [650, 599.2, NMX(630, '41', '15.4'), true],
  ]),
  ...rows('PVC_CLASS_7', [
    [50, 46.6, NMX(50, '29.6', '1.7'), true],
    [75, 74.4, NMX(80, '29.6', '2.8'), true],
    [100, 93.2, NMX(100, '29.6', '3.4'), true],
    [150, 149, NMX(160, '29.6', '5.5'), true],
    [200, 186.4, NMX(200, '29.6', '6.8'), true],
    [250, 233, NMX(250, '29.6', '8.5'), true],
    [300, 293.6, NMX(315, '29.6', '10.7'), true],
    [350, 330.8, NMX(355, '29.6', '12.1'), true],
    [400, 372.8, NMX(400, '29.6', '13.6'), true],
    [450, 419.4, NMX(450, '29.6', '15.3'), true],
    [500, 466, NMX(500, '29.6', '17.0'), true],
    [650, 587.2, NMX(630, '29.6', '21.4'), true],
  ]),
  ...rows('PVC_CLASS_10', [
    [50, 45.2, NMX(50, '21', '2.4'), true],
    [75, 72.2, NMX(80, '21', '3.9'), true],
    [100, 90.4, NMX(100, '21', '4.8'), true],
    [150, 144.6, NMX(160, '21', '7.7'), true],
    [200, 180.8, NMX(200, '21', '9.6'), true],
    [250, 226, NMX(250, '21', '12.0'), true],
    [300, 285, NMX(315, '21', '15.0'), true],
    [350, 321, NMX(355, '21', '17.0'), true],
    [400, 361.8, NMX(400, '21', '19.1'), true],
    [450, 407, NMX(450, '21', '21.5'), true],
    [500, 452.2, NMX(500, '21', '23.9'), true],
    [650, 570, NMX(630, '21', '30.0'), true],
  ]),
];

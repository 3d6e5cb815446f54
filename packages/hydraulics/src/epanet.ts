/**
 * Export of a main-line design as an EPANET input file (beyond the specification).
 *
 * The line becomes a reservoir R0 whose total head is the initial pressure (elevation 0), then
 * pipes P1..Pn in series between junctions J1..Jn. Pipe i has the section's length, inner
 * diameter (mm) and Hazen-Williams C; junction i sits at the elevation the slopes give
 * (z_i = z_{i−1} + length_i × slope_i) and draws the flow difference flow_i − flow_{i+1} (the last
 * draws flow_n), so pipe i carries exactly the section's flow. Options: flow units LPS (so lengths
 * in m, diameters in mm, heads in m) and the Hazen-Williams head-loss formula.
 *
 * EPANET's pipe head loss is friction only; ours adds length × slope, which EPANET sees as the
 * junction elevations. EPANET's Hazen-Williams coefficient is 10.667 (4.727 in US units) against
 * the specification's 10.648, so its friction losses are about 0.18 % higher.
 */
import { HydraulicsInputError } from './errors';
import { mainlineInnerDiameterMm, mainlinePipeTypeInfo, type MainlineDesign } from './mainline';

function number(value: number): string {
  return String(value);
}

/**
 * EPANET .inp text of a main-line design; every section needs an available diameter and a length
 * greater than 0 m (EPANET refuses a pipe of length 0 with input error 202, although the screen
 * accepts such a section).
 * @throws HydraulicsInputError for no sections, an unavailable diameter or a length <= 0.
 */
export function toEpanetInp(design: MainlineDesign): string {
  const { input, sections } = design;
  if (sections.length === 0) {
    throw new HydraulicsInputError('sections', 'The main line has no sections');
  }
  const junctions: string[] = [];
  const pipes: string[] = [];
  let elevation = 0;
  sections.forEach((result, index) => {
    const section = input.sections[index]!;
    const innerMm = mainlineInnerDiameterMm(section.pipeType, section.nominalDiameter);
    if (result.innerDiameter === null || innerMm === null) {
      throw new HydraulicsInputError(`sections[${index}].nominalDiameter`, result.message);
    }
    if (!(section.length > 0)) {
      throw new HydraulicsInputError(
        `sections[${index}].length`,
        `Section ${index + 1}: EPANET does not accept a pipe of length 0; the length must be greater than 0 m`,
      );
    }
    elevation += section.length * section.slope;
    const nextFlow = input.sections[index + 1]?.flow ?? 0;
    const demand = section.flow - nextFlow;
    const from = index === 0 ? 'R0' : `J${index}`;
    const c = mainlinePipeTypeInfo(section.pipeType).c;
    junctions.push(` J${index + 1}\t${number(elevation)}\t${number(demand)}`);
    pipes.push(
      ` P${index + 1}\t${from}\tJ${index + 1}\t${number(section.length)}\t` +
        `${number(innerMm)}\t${number(c)}\t0\tOpen`,
    );
  });
  return [
    '[TITLE]',
    'DiAgroDL main line (Hazen-Williams, flows in L/s)',
    '',
    '[JUNCTIONS]',
    ';ID\tElevation(m)\tDemand(L/s)',
    ...junctions,
    '',
    '[RESERVOIRS]',
    ';ID\tHead(m)',
    ` R0\t${number(input.initialPressure)}`,
    '',
    '[PIPES]',
    ';ID\tNode1\tNode2\tLength(m)\tDiameter(mm)\tRoughness(C)\tMinorLoss\tStatus',
    ...pipes,
    '',
    '[OPTIONS]',
    ' Units\tLPS',
    ' Headloss\tH-W',
    ' Accuracy\t0.000001',
    ' Trials\t200',
    '',
    '[REPORT]',
    ' Status\tNo',
    ' Summary\tNo',
    '',
    '[END]',
    '',
  ].join('\n');
}

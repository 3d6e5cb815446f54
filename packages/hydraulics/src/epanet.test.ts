import { LinkProperty, NodeProperty, Project, Workspace } from 'epanet-js';
import { describe, expect, it } from 'vitest';
import { toEpanetInp } from './epanet';
import { HydraulicsInputError } from './errors';
import { designMainline, type MainlineInput } from './mainline';

const LINE: MainlineInput = {
  initialPressure: 40,
  sections: [
    { pipeType: 'PVC_RD26', nominalDiameter: 150, flow: 30, length: 420.5, slope: 0.004 },
    { pipeType: 'PVC_CED40', nominalDiameter: 100, flow: 12.5, length: 250, slope: -0.01 },
    { pipeType: 'PVC_CLASS_7', nominalDiameter: 100, flow: 8, length: 310.25, slope: 0.02 },
    { pipeType: 'Aluminum', nominalDiameter: 75, flow: 4.2, length: 120, slope: 0 },
    { pipeType: 'PVC_CLASS_10', nominalDiameter: 75, flow: 6, length: 90, slope: 0.005 },
  ],
};

interface EpanetRun {
  headloss: number[];
  flow: number[];
  pressure: number[];
}

async function runEpanet(inp: string): Promise<EpanetRun> {
  const ws = new Workspace();
  await ws.loadModule();
  ws.writeFile('line.inp', inp);
  const model = new Project(ws);
  model.open('line.inp', 'line.rpt', 'line.out');
  model.solveH();
  const count = LINE.sections.length;
  const result: EpanetRun = { headloss: [], flow: [], pressure: [] };
  for (let i = 1; i <= count; i++) {
    const link = model.getLinkIndex(`P${i}`);
    result.headloss.push(model.getLinkValue(link, LinkProperty.Headloss));
    result.flow.push(model.getLinkValue(link, LinkProperty.Flow));
    result.pressure.push(model.getNodeValue(model.getNodeIndex(`J${i}`), NodeProperty.Pressure));
  }
  model.close();
  return result;
}

describe('toEpanetInp', () => {
  const design = designMainline(LINE);
  const inp = toEpanetInp(design);

  it('writes a reservoir, junctions, pipes and Hazen-Williams LPS options', () => {
    expect(inp).toContain('[RESERVOIRS]\n;ID\tHead(m)\n R0\t40\n');
    expect(inp).toContain(' P1\tR0\tJ1\t420.5\t154.5\t145\t0\tOpen');
    expect(inp).toContain(' P4\tJ3\tJ4\t120\t65\t150\t0\tOpen');
    expect(inp).toMatch(/ Units\tLPS\n Headloss\tH-W\n/);
    // demands are the flow differences; elevations follow the slopes
    expect(inp).toContain(` J1\t${420.5 * 0.004}\t17.5\n`);
    expect(inp).toContain(' J4\t');
    expect(inp.trimEnd().endsWith('[END]')).toBe(true);
  });

  it("agrees with EPANET's head losses within 0.5 %", async () => {
    const epanet = await runEpanet(inp);
    design.sections.forEach((section, i) => {
      const input = LINE.sections[i]!;
      expect(epanet.flow[i]).toBeCloseTo(input.flow, 6);
      // EPANET's pipe head loss is friction only; ours adds length × slope.
      const friction = section.hf! - input.length * input.slope;
      const ratio = epanet.headloss[i]! / friction;
      expect(Math.abs(ratio - 1)).toBeLessThan(0.005);
      // EPANET's SI Hazen-Williams coefficient (10.667) is 0.18 % above the specification's 10.648.
      expect(ratio).toBeGreaterThan(1.001);
      expect(ratio).toBeLessThan(1.003);
    });
    // pressure at the end of each section: initial pressure minus the cumulative hf
    let cumulative = 0;
    let friction = 0;
    design.sections.forEach((section, i) => {
      cumulative += section.hf!;
      friction += section.hf! - LINE.sections[i]!.length * LINE.sections[i]!.slope;
      const ours = LINE.initialPressure - cumulative;
      expect(Math.abs(epanet.pressure[i]! - ours)).toBeLessThan(0.005 * friction);
    });
  });

  it('refuses a design with an unavailable diameter', () => {
    const broken = designMainline({
      initialPressure: 10,
      sections: [{ pipeType: 'Aluminum', nominalDiameter: 650, flow: 5, length: 10, slope: 0 }],
    });
    expect(() => toEpanetInp(broken)).toThrow(HydraulicsInputError);
    expect(() => toEpanetInp({ ...broken, sections: [] })).toThrow('The main line has no sections');
  });

  it('refuses a section of length 0, which EPANET rejects (error 202)', () => {
    const zero = designMainline({
      initialPressure: 40,
      sections: [LINE.sections[0]!, { ...LINE.sections[1]!, length: 0 }],
    });
    // The section itself is valid for the main-line designer ...
    expect(zero.sections[1]!.innerDiameter).not.toBeNull();
    // ... but not for EPANET.
    expect(() => toEpanetInp(zero)).toThrow(HydraulicsInputError);
    expect(() => toEpanetInp(zero)).toThrow(
      expect.objectContaining({
        field: 'sections[1].length',
        message: expect.stringContaining('Section 2: EPANET does not accept a pipe of length 0'),
      }),
    );
  });
});

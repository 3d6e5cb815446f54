import { describe, expect, it } from 'vitest';
import * as hydraulics from './index';

describe('public API', () => {
  it('exports the engine functions and data', () => {
    const functions = [
      'convert',
      'equivalents',
      'designLateral',
      'designSecondary',
      'designSecondarySection',
      'validateSecondarySection',
      'summarizePipes',
      'addSectionAlert',
      'sectionCountAlert',
      'designMainline',
      'designMainlineSection',
      'validateMainlineSection',
      'validateInitialPressure',
      'toEpanetInp',
      'christiansenF',
      'hazenWilliamsLoss',
      'parseDecimal',
    ] as const;
    for (const name of functions) expect(typeof hydraulics[name]).toBe('function');
    expect(hydraulics.UNIT_CATALOGUE.flow.units).toHaveLength(7);
    expect(hydraulics.SECONDARY_PIPE_TYPES).toEqual(['PVC_CED40', 'PVC_RD26', 'Aluminum']);
    expect(hydraulics.MAINLINE_PIPE_TYPES).toHaveLength(6);
    expect(hydraulics.LATERAL_DEFAULTS.D).toBe(0.0139);
  });
});

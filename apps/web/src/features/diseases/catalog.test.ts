import { describe, expect, it } from 'vitest';
import { TREATMENT_SECTION } from '@diagrodl/contracts';
import { FULL_SECTIONS, REDUCED_SECTIONS, sectionId } from './catalog.ts';

describe('the treatment anchor of "Qué hacer"', () => {
  it('is the id of a full disease page section and absent from the reduced page', () => {
    expect(FULL_SECTIONS.map(sectionId)).toContain(TREATMENT_SECTION);
    expect((REDUCED_SECTIONS as readonly string[]).map((k) => sectionId(k as never))).not.toContain(
      TREATMENT_SECTION,
    );
  });
});

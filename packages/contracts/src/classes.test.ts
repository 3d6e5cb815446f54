import { describe, expect, it } from 'vitest';
import { CLASSES, TREATMENT_SECTION, classInfo, whatToDoHref } from './classes.ts';
import { ROUTES } from './routes.ts';

describe('whatToDoHref', () => {
  it('leads a disease to its treatment section', () => {
    expect(whatToDoHref(classInfo('late_blight').route)).toBe(`/Late_blight#${TREATMENT_SECTION}`);
    for (const c of CLASSES.filter((c) => c.isDisease && c.id !== 'spider_mites')) {
      expect(whatToDoHref(c.route)).toBe(`${c.route}#prevention`);
    }
  });

  it('opens the pages without a treatment section at their top', () => {
    expect(whatToDoHref(ROUTES.spiderMites)).toBe('/Spider_mites');
    expect(whatToDoHref(classInfo('healthy').route)).toBe(ROUTES.tomatoCrops);
    expect(whatToDoHref('/somewhere')).toBe('/somewhere');
  });
});

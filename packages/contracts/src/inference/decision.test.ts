// The decision rule's outcomes and the field-photo flag, as every side that runs a model uses them.
import { describe, expect, it } from 'vitest';
import { isFieldPhoto, LAB_LIKE_CUT } from '../diagnosis.ts';
import { decideOne, missingRuleOutput, thresholdFor } from './decision.ts';

const PROBS = [0.9, 0.05, 0.02, 0.01, 0.01, 0.01, 0, 0, 0, 0];
const RULE = { threshold: 0.6, leaf_threshold: 0.5 };

describe('decideOne', () => {
  it('carries the lab_like output through every outcome (null without one)', () => {
    const d = decideOne(RULE, { probabilities: PROBS, leaf: 0.99, labLike: 0.2 });
    expect(d).toMatchObject({
      accepted: true,
      reason: null,
      label: 'bacterial_spot',
      labLike: 0.2,
    });
    expect(decideOne(RULE, { probabilities: PROBS, leaf: 0.1, labLike: 0.2 })).toMatchObject({
      accepted: false,
      reason: 'not_leaf',
      labLike: 0.2,
    });
    expect(
      decideOne({ ...RULE, threshold: 0.95 }, { probabilities: PROBS, leaf: 0.99, labLike: 0.9 }),
    ).toMatchObject({ accepted: false, reason: 'low_confidence', labLike: 0.9 });
    expect(decideOne(RULE, { probabilities: PROBS, leaf: 0.99 }).labLike).toBeNull();
  });
});

describe('the field threshold', () => {
  const SPLIT = { ...RULE, threshold: 0.6, field_threshold: 0.95 };

  it('holds field-like photos to field_threshold and the others to threshold', () => {
    expect(thresholdFor(SPLIT, LAB_LIKE_CUT - 0.01)).toBe(0.95);
    expect(thresholdFor(SPLIT, LAB_LIKE_CUT)).toBe(0.6);
    expect(thresholdFor(SPLIT, null)).toBe(0.6);
    expect(thresholdFor(SPLIT, undefined)).toBe(0.6);
    expect(thresholdFor(RULE, 0.01)).toBe(0.6);
  });

  it('withholds a field-like photo that a lab-like one with the same probabilities gets', () => {
    const lab = decideOne(SPLIT, { probabilities: PROBS, leaf: 0.99, labLike: 0.8 });
    const field = decideOne(SPLIT, { probabilities: PROBS, leaf: 0.99, labLike: 0.2 });
    expect(lab).toMatchObject({ accepted: true, reason: null, threshold: 0.6 });
    expect(field).toMatchObject({
      accepted: false,
      reason: 'low_confidence',
      threshold: 0.95,
      label: 'bacterial_spot',
    });
    expect(field.top3.map((t) => t.label)).toEqual(lab.top3.map((t) => t.label));
  });

  it('leaves the not-leaf outcome first', () => {
    expect(decideOne(SPLIT, { probabilities: PROBS, leaf: 0.1, labLike: 0.2 }).reason).toBe(
      'not_leaf',
    );
  });
});

describe('missingRuleOutput', () => {
  it('names the first rule of the card whose graph output is missing', () => {
    const all = ['probabilities', 'cam', 'energy', 'leaf', 'lab_like'];
    const rule = { threshold: 0.6, energy_threshold: 1, leaf_threshold: 0.5, field_threshold: 0.9 };
    expect(missingRuleOutput(rule, all)).toBeUndefined();
    expect(missingRuleOutput({ threshold: 0.6 }, ['probabilities'])).toBeUndefined();
    expect(missingRuleOutput(rule, ['leaf', 'lab_like'])).toEqual({
      rule: 'energy_threshold',
      output: 'energy',
      phrase: 'an energy_threshold',
    });
    expect(missingRuleOutput(rule, ['energy', 'leaf'])).toMatchObject({
      output: 'lab_like',
      phrase: 'a field_threshold',
    });
  });
});

describe('isFieldPhoto', () => {
  it('is a diagnosis of a photo below the lab-like cut, never a refused one or one without lab_like', () => {
    expect(isFieldPhoto(true, LAB_LIKE_CUT - 0.01)).toBe(true);
    expect(isFieldPhoto(true, LAB_LIKE_CUT)).toBe(false);
    expect(isFieldPhoto(false, 0.01)).toBe(false);
    expect(isFieldPhoto(true, null)).toBe(false);
    expect(isFieldPhoto(true, undefined)).toBe(false);
  });
});

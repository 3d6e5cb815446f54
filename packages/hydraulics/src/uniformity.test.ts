import { describe, expect, it } from 'vitest';
import { HydraulicsInputError } from './errors';
import { uniformityStatusText } from './messages';
import { expectRelative } from './test-helpers';
import {
  checkEmitterInput,
  emissionUniformity,
  emitterCoefficient,
  emitterFlow,
  flowVariation,
  uniformity,
  EMITTER_DEFAULTS,
} from './uniformity';

describe('emitter law q = k·h^x', () => {
  it('takes k from the nominal flow at the operating pressure', () => {
    // 1.1 L/h at 10 m with x = 0.5: k = 1.1/√10 = 0.3478505426185217...; at 14 m q = k·√14 = 1.3015375522819155... (bc -l).
    const k = emitterCoefficient(1.1, 10, 0.5);
    expectRelative(k, 0.347850542618521726519878289887, 1e-15);
    expectRelative(emitterFlow(k, 14, 0.5), 1.301537552281915529364812224141, 1e-14);
    expect(emitterFlow(k, 10, 0.5)).toBeCloseTo(1.1, 15);
  });

  it('gives the same flow at any pressure when x = 0 (pressure compensating)', () => {
    expect(emitterFlow(2, 3, 0)).toBe(2);
    expect(emitterFlow(2, 30, 0)).toBe(2);
  });
});

describe('flow variation and Keller-Karmeli EU', () => {
  it('matches a hand computation', () => {
    // q = 1.00, 1.05, 1.10 L/h: qvar = 0.10/1.10 = 0.090909...; qavg = 1.05;
    // EU = 100·(1 − 1.27·0.05/√1)·1.00/1.05 = 93.65/1.05 = 89.190476190476...
    expectRelative(flowVariation(1, 1.1), 0.0909090909090909, 1e-14);
    expectRelative(emissionUniformity(0.05, 1, 1, 1.05), 89.1904761904761905, 1e-14);
    // Two emitters per plant: 100·(1 − 1.27·0.05/√2)/1.05 = 90.961782799490879...
    expectRelative(emissionUniformity(0.05, 2, 1, 1.05), 90.961782799490879257194893619714, 1e-12);
    const u = uniformity([1.05, 1, 1.1], EMITTER_DEFAULTS);
    expect(u).toMatchObject({ qMin: 1, qMax: 1.1, flowVariationOk: true, euOk: false });
    expectRelative(u.qAvg, 1.05, 1e-15);
    expectRelative(u.eu, 89.1904761904761905, 1e-14);
  });

  it('puts the 10 % and 90 % limits on the right side', () => {
    expect(uniformity([0.9, 1], { ...EMITTER_DEFAULTS, cv: 0 }).flowVariationOk).toBe(true);
    expect(uniformity([0.89, 1], { ...EMITTER_DEFAULTS, cv: 0 }).flowVariationOk).toBe(false);
    expect(uniformity([0.9, 1], { ...EMITTER_DEFAULTS, cv: 0 }).euOk).toBe(true);
  });

  it('says so in Spanish with the figure, and in English', () => {
    const bad = { flowVariation: 0.1234, eu: 86.04, flowVariationOk: false, euOk: false };
    expect(uniformityStatusText(bad)).toBe(
      'La variación de caudal es de 12.3 %, mayor que el 10 % admisible. La uniformidad de emisión (EU) es de 86.0 %, menor que el 90 % recomendado.',
    );
    expect(uniformityStatusText({ ...bad, flowVariationOk: true, flowVariation: 0.05 })).toBe(
      'La uniformidad de emisión (EU) es de 86.0 %, menor que el 90 % recomendado.',
    );
    const ok = { flowVariation: 0.0874, eu: 91.34, flowVariationOk: true, euOk: true };
    expect(uniformityStatusText(ok)).toBe(
      'La lateral cumple: variación de caudal de 8.7 % (máximo 10 %) y uniformidad de emisión (EU) de 91.3 % (mínimo 90 %).',
    );
    expect(uniformityStatusText(bad, 'en', (v, d) => v.toFixed(d).replace('.', ','))).toBe(
      'The flow variation is 12,3 %, above the permissible 10 %. The emission uniformity (EU) is 86,0 %, below the recommended 90 %.',
    );
  });

  it('rejects inputs it cannot use', () => {
    expect(() => checkEmitterInput({ x: 0.5, cv: 0.8, emittersPerPlant: 1 })).toThrow(
      HydraulicsInputError,
    );
    expect(() => checkEmitterInput({ x: 0.5, cv: Number.NaN, emittersPerPlant: 1 })).toThrow(
      'cv must be a finite number',
    );
    expect(() => uniformity([], EMITTER_DEFAULTS)).toThrow('no emitters');
  });
});

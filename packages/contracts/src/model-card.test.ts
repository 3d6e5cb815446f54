import { describe, expect, it } from 'vitest';
import { type EnsembleCard, parseEnsembleCard } from './model-card.ts';

const HEX = 'ab'.repeat(32);

/** The ensemble card as the pipeline writes it (ml/diagrodl_ml/gpufinish.py), extra fields included. */
function card(): EnsembleCard & Record<string, unknown> {
  return {
    schema_version: 1,
    name: 'ensemble',
    display_name: 'Ensemble',
    created_at: '2026-11-24T21:30:00Z',
    combination:
      "mean of the members' calibrated probabilities; leaf probability: mean of the members' leaf outputs",
    members: [
      { id: 'mobilenet', sha256: HEX, size_bytes: 6482295 },
      { id: 'resnet50', sha256: HEX, size_bytes: 47100000 },
      { id: 'vgg16', sha256: HEX, size_bytes: 29500000 },
    ],
    rejection: { threshold: 0.62, leaf_threshold: 0.9, method: 'text', val_coverage: 0.97 },
    metrics: {
      split: 'test',
      n: 1124,
      accuracy: 0.981,
      accuracy_ci95: [0.972, 0.987],
      min_recall: 0.95,
      per_class_recall: { bacterial_spot: 0.97 },
      coverage: 0.96,
      accuracy_accepted: 0.99,
      ece: 0.01,
      evaluated_with: 'text',
    },
    notes: ['text'],
  };
}

/** The card with one field replaced (`undefined`: removed), by a dotted path. */
function withField(at: string, value: unknown): unknown {
  const c = structuredClone(card()) as Record<string, unknown>;
  const keys = at.split('.');
  const last = keys.pop()!;
  let o = c;
  for (const k of keys) o = o[k] as Record<string, unknown>;
  if (value === undefined) delete o[last];
  else o[last] = value;
  return c;
}

describe('parseEnsembleCard', () => {
  it('accepts the documented card and keeps its figures (extra fields are allowed)', () => {
    const c = parseEnsembleCard({ ...card(), metrics: { ...card().metrics, not_leaf: 0.01 } });
    expect(c.members.map((m) => m.id)).toEqual(['mobilenet', 'resnet50', 'vgg16']);
    expect(c.rejection).toMatchObject({ threshold: 0.62, leaf_threshold: 0.9 });
    expect(c.metrics.accuracy).toBe(0.981);
    expect(c.metrics.accuracy_ci95).toEqual([0.972, 0.987]);
  });

  it("keeps the interval over the test split's groups and the figures without near twins", () => {
    const alone = {
      twin_gap: 3,
      n: 861,
      accuracy: 0.9768,
      accuracy_ci95_by_group: [0.9627, 0.9889],
      min_recall: 0.9506,
    };
    const metrics = {
      ...card().metrics,
      groups: 313,
      accuracy_ci95_by_group: [0.97, 0.991],
      without_near_twins: alone,
    };
    const c = parseEnsembleCard({ ...card(), metrics });
    expect(c.metrics.groups).toBe(313);
    expect(c.metrics.accuracy_ci95_by_group).toEqual([0.97, 0.991]);
    expect(c.metrics.without_near_twins).toEqual(alone);
  });

  it("accepts the optional field evaluation, keyed and shaped as a model card's evaluation", () => {
    const fieldEvaluation = {
      field_val_all: { n: 181, top1: 0.61, top1_ci95: [0.54, 0.68], accepted_share: 0.4 },
      other_crop_holdout: {
        n: 120,
        accepted_share: 0.05,
        not_leaf_share: 0.8,
        refused_share: 0.95,
      },
    };
    expect(parseEnsembleCard(card()).field_evaluation).toBeUndefined();
    const c = parseEnsembleCard({ ...card(), field_evaluation: fieldEvaluation });
    expect(c.field_evaluation).toEqual(fieldEvaluation);
  });

  it('accepts the speed block with the CPU share others took while each member was timed', () => {
    const speed = {
      cpu: 'x86_64 AVX-512 VNNI AMX',
      members_images_per_s: { mobilenet: 200.8, resnet50: 115.7, vgg16: 10.9 },
      images_per_s: 73.4,
      min_for_default: 40,
      others_cpu_share: { mobilenet: 0, resnet50: 0, vgg16: 0.042 },
      method: 'text',
    };
    expect(parseEnsembleCard({ ...card(), speed }).speed).toEqual(speed);
    const { others_cpu_share: _share, ...older } = speed; // cards written before 2026-12-01
    expect(parseEnsembleCard({ ...card(), speed: older }).speed).toEqual(older);
    expect(() =>
      parseEnsembleCard({ ...card(), speed: { ...speed, others_cpu_share: { mobilenet: 1.5 } } }),
    ).toThrow(/at speed\.others_cpu_share\.mobilenet:/);
  });

  it('accepts the plant block (issue 68) and refuses a rule it does not know', () => {
    const plant = {
      rule: { combine: 'geometric_mean', threshold: 0.62, disagree: 'below_threshold' },
      method: 'text',
      figures: { val: { field: { '3': { n: 2000, right: 0.69 } } } },
      goals_met: { val: { field_3: { 'right_0.70': false } } },
    };
    expect(parseEnsembleCard({ ...card(), plant }).plant).toEqual(plant);
    expect(parseEnsembleCard(card()).plant).toBeUndefined();
    expect(() =>
      parseEnsembleCard({
        ...card(),
        plant: { ...plant, rule: { ...plant.rule, combine: 'max' } },
      }),
    ).toThrow(/at plant\.rule\.combine:/);
    expect(() =>
      parseEnsembleCard({ ...card(), plant: { ...plant, rule: { ...plant.rule, threshold: 2 } } }),
    ).toThrow(/at plant\.rule\.threshold:/);
  });

  it("accepts beside the sets the members' own figures and whether the ensemble beats them", () => {
    const fieldEvaluation = {
      field_val_all: { n: 181, top1: 0.66, accepted_share: 0.5, accuracy_accepted: 0.86 },
      // as gpufinish.ensemble_field_evaluation writes them: no count, not sets of the ensemble
      members_field_val_all: {
        mobilenet: { top1: 0.6464, accepted_share: 0.4917, accuracy_accepted: 0.8539 },
        vgg16: { top1: 0.3867, accepted_share: 0.7569, accuracy_accepted: 0.4161 },
      },
      beats_each_member_on_field_val_top1: true,
    };
    const c = parseEnsembleCard({ ...card(), field_evaluation: fieldEvaluation });
    expect(c.field_evaluation).toEqual(fieldEvaluation);
    expect(() =>
      parseEnsembleCard({
        ...card(),
        field_evaluation: { ...fieldEvaluation, beats_each_member_on_field_val_top1: 'yes' },
      }),
    ).toThrow(/at field_evaluation\.beats_each_member_on_field_val_top1:/);
  });

  it.each([
    [
      'a field evaluation set without its count',
      'field_evaluation',
      { field_holdout: { top1: 0.5 } },
      /at field_evaluation\.field_holdout\.n:/,
    ],
    [
      'a field evaluation interval upside down',
      'field_evaluation',
      { field_holdout: { n: 105, top1: 0.5, top1_ci95: [0.6, 0.4] } },
      /at field_evaluation\.field_holdout\.top1_ci95:/,
    ],
    [
      'a not-leaf share above 1',
      'field_evaluation',
      { other_crop_holdout: { n: 10, not_leaf_share: 1.5 } },
      /at field_evaluation\.other_crop_holdout\.not_leaf_share:/,
    ],
    [
      'a missing field',
      'metrics.accuracy',
      undefined,
      /^invalid ensemble card at metrics\.accuracy:/,
    ],
    ['a missing section', 'rejection', undefined, /^invalid ensemble card at rejection:/],
    ['another schema version', 'schema_version', 2, /at schema_version:/],
    ['another name', 'name', 'mobilenet', /at name:/],
    ['an accuracy above 1', 'metrics.accuracy', 1.2, /at metrics\.accuracy:/],
    ['a threshold below 0', 'rejection.threshold', -0.1, /at rejection\.threshold:/],
    [
      'a leaf threshold as text',
      'rejection.leaf_threshold',
      '0.9',
      /at rejection\.leaf_threshold:/,
    ],
    ['another split', 'metrics.split', 'val', /at metrics\.split:/],
    [
      'an interval upside down',
      'metrics.accuracy_ci95',
      [0.99, 0.97],
      /at metrics\.accuracy_ci95:/,
    ],
    ['an interval of one number', 'metrics.accuracy_ci95', [0.97], /at metrics\.accuracy_ci95/],
    [
      'an interval over groups upside down',
      'metrics.accuracy_ci95_by_group',
      [0.991, 0.97],
      /at metrics\.accuracy_ci95_by_group:/,
    ],
    ['no groups', 'metrics.groups', 0, /at metrics\.groups:/],
    [
      'photos without near twins without their count',
      'metrics.without_near_twins',
      { twin_gap: 3, accuracy: 0.97, accuracy_ci95_by_group: [0.96, 0.98], min_recall: 0.95 },
      /at metrics\.without_near_twins\.n:/,
    ],
    ['an unknown class', 'metrics.per_class_recall', { rose: 0.9 }, /at metrics\.per_class_recall/],
    ['a short sha256', 'members.0.sha256', 'abc', /at members\.0\.sha256:/],
    ['a size of 0 bytes', 'members.1.size_bytes', 0, /at members\.1\.size_bytes:/],
    ['one member', 'members', [card().members[0]], /at members:/],
    [
      'a member twice',
      'members',
      [card().members[0], card().members[0]],
      /members: member ids repeat/,
    ],
  ])('refuses %s, naming the field', (_what, at, value, message) => {
    expect(() => parseEnsembleCard(withField(at, value))).toThrow(message);
  });

  it('refuses what is not a card at all', () => {
    expect(() => parseEnsembleCard(null)).toThrow(/^invalid ensemble card at \(root\):/);
    expect(() => parseEnsembleCard([])).toThrow(/^invalid ensemble card at \(root\):/);
  });
});

// The "Acerca de DiAgroDL" page describes the shipped networks; these checks tie its text to the
// model cards in models/, so that a model shipped with another start, head, size or figures cannot
// leave the page describing the one before it.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIELD_SETS_BY_PREFERENCE } from '@diagrodl/contracts';
import type { AboutContent, Block } from './content.ts';
import aboutEn from './content/about_tool.en.json';
import aboutEs from './content/about_tool.es.json';
import diagnosisEn from '../diagnosis/locales/en.json';
import diagnosisEs from '../diagnosis/locales/es.json';

const MODELS = path.resolve(import.meta.dirname, '../../../../../models');
const IDS = ['mobilenet', 'vgg16', 'resnet50'] as const;
type Id = (typeof IDS)[number];
const NAME: Record<Id, string> = { mobilenet: 'MobileNet', vgg16: 'VGG16', resnet50: 'ResNet50' };

interface Evaluation {
  n: number;
  top1?: number;
  accepted_share?: number;
  accuracy_accepted?: number;
  refused_share?: number;
  not_leaf_share?: number;
}

interface Part {
  source?: string;
  counts: { train: number };
}

interface Card {
  architecture: string;
  head: string;
  parameters: number;
  pretrained?: { weights: string };
  file: { size_bytes: number };
  outputs: Record<string, unknown>;
  rejection: { threshold: number; field_threshold?: number };
  goals: { field?: { accuracy_accepted_min?: number; met?: { accuracy_accepted?: boolean } } };
  metrics: { accuracy: number };
  data: { source: string; field: Part; field2?: Part; other_crop?: Part };
  out_of_distribution: { evaluation: Record<string, Evaluation | undefined> };
}

const card = (id: Id): Card =>
  JSON.parse(fs.readFileSync(path.join(MODELS, `${id}.card.json`), 'utf8')) as Card;

/** The ensemble's card: its `field_evaluation` (cards written since 2026-11-28) as the pipeline writes it. */
interface EnsembleCard {
  members: { id: Id; weight?: number }[];
  /** whether the server's default model is the ensemble (absent: the MobileNet is) */
  default?: boolean;
  metrics: { accuracy: number };
  rejection: { threshold: number; field_threshold?: number };
  field_evaluation?: {
    field_val_all?: Evaluation;
    field_holdout?: Evaluation;
    /** the second source's held-out photos, where a member trained on the first source's */
    field_holdout_2?: Evaluation;
    other_crop_holdout?: Evaluation;
    /** the held-out everyday photos (cards written since 2026-11-29) */
    negatives_holdout?: Evaluation;
    members_field_val_all?: Partial<Record<Id, { top1: number }>>;
    beats_each_member_on_field_val_top1?: boolean;
  };
}

const ensemble = (): EnsembleCard =>
  JSON.parse(fs.readFileSync(path.join(MODELS, 'ensemble.card.json'), 'utf8')) as EnsembleCard;

/** Whether the server offers the ensemble: not when its card says it does not beat each member. */
const ensembleOffered = () =>
  ensemble().field_evaluation?.beats_each_member_on_field_val_top1 !== false;

const evaluation = (id: Id, set: string): Evaluation | undefined =>
  card(id).out_of_distribution.evaluation[set];

/** The set whose figures stand for "on field photos" (the same preference as the server's). */
const fieldSet = (id: Id): string => {
  const set = FIELD_SETS_BY_PREFERENCE.find((s) => evaluation(id, s) !== undefined);
  expect(set, `${id}: no field figures`).toBeDefined();
  return set!;
};

/** A share as the page writes it: rounded as formatPercent does, one decimal, a space ("64.6 %"). */
const PERCENT = new Intl.NumberFormat('en', {
  style: 'percent',
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});
const pct = (x: number) => PERCENT.format(x).replace('%', ' %');

/** Every one-decimal percentage of a text. */
const percentages = (s: string) => [...s.matchAll(/\d+\.\d %/g)].map((m) => m[0]);

const text = (blocks: Block[]) => blocks.map((b) => ('p' in b ? b.p : b.ul.join('\n'))).join('\n');

const WORDS = {
  es: {
    sameAsVgg: 'igual a la de VGG16',
    belowMobileNet: 'inferior a la de MobileNet',
    highestLab: 'la más alta de los tres',
    fieldBelowMobileNet: 'algo menos a menudo que la de MobileNet',
    fieldBest: 'más a menudo que la de los otros dos',
    fieldWorst: 'el que menos acierta',
    pretrained: 'preentrenados en ImageNet',
    scratch: 'desde cero',
    outputs: (n: number) => `${n} salidas`,
    millions: (m: string) => `${m} millones de parámetros`,
    fieldItem: 'Fotos de campo:',
    ensemble: 'Conjunto de',
    byDefault: 'Es el modelo predeterminado',
    aboveEach: 'más que cualquiera de ellos',
    beatsEach: 'más a menudo que la de cada uno de los tres',
    onePhoto: 'una sola foto más',
    noCaution: 'no pone el aviso',
    goalMet: 'la cumplen',
    notOffered: 'no se ofrece en el selector',
    rightTimes: (n: number) => `${n} de cada 100 veces`,
  },
  en: {
    sameAsVgg: "the same as VGG16's",
    belowMobileNet: "lower than MobileNet's",
    highestLab: 'the highest of the three',
    fieldBelowMobileNet: "somewhat less often than MobileNet's",
    fieldBest: "more often than the other two's",
    fieldWorst: 'the least often right',
    pretrained: 'pre-trained on ImageNet',
    scratch: 'from scratch',
    outputs: (n: number) => `${n} outputs`,
    millions: (m: string) => `${m} million parameters`,
    fieldItem: 'Field photos:',
    ensemble: 'The ensemble of',
    byDefault: 'It is the model chosen by default',
    aboveEach: 'more than any of them',
    beatsEach: "more often than each of the three's",
    onePhoto: 'a single photo more',
    noCaution: 'shows no caution',
    goalMet: 'is met by',
    notOffered: 'is not offered in the selector',
    rightTimes: (n: number) => `${n} times in 100`,
  },
} as const;

/** The family name the page must use for a card's `architecture`. */
const FAMILY: Record<string, string> = {
  mobilenet_v2: 'MobileNetV2',
  vgg16_bn: 'vgg16_bn',
  resnet50: 'ResNet50',
};

/** The caution the results screen, the history and the report add to a field-like photo's diagnosis. */
const CAUTION = {
  es: diagnosisEs.diagnosis.results.fieldPhoto,
  en: diagnosisEn.diagnosis.results.fieldPhoto,
} as const;

/** Whether a card's model marks field-like photos: a `lab_like` output and their own threshold. */
const marksFieldPhotos = (id: Id) =>
  'lab_like' in card(id).outputs && card(id).rejection.field_threshold !== undefined;

describe.each([
  ['es', aboutEs as AboutContent],
  ['en', aboutEn as AboutContent],
] as const)('the tool page in %s describes the shipped networks', (lang, content) => {
  const words = WORDS[lang];
  const section = (id: string) => {
    const s = content.sections.find((x) => x.id === id);
    expect(s, id).toBeDefined();
    return s!;
  };
  const growers = (id: Id) => text(content.architectures.find((a) => a.id === id)!.forGrowers);

  it.each(IDS)('%s: start, head and size as its card says', (id) => {
    const c = card(id);
    const arch = content.architectures.find((a) => a.id === id);
    expect(arch, id).toBeDefined();
    const research = text(arch!.forResearchers);

    expect(FAMILY[c.architecture], c.architecture).toBeDefined();
    expect(research).toContain(FAMILY[c.architecture]);
    if (c.pretrained) {
      expect(research).toContain(words.pretrained);
      expect(research).not.toContain(words.scratch);
    } else {
      expect(research).toContain(words.scratch);
      expect(research).not.toContain(words.pretrained);
    }
    const outputs = /to (\d+) outputs/.exec(c.head);
    expect(outputs, c.head).not.toBeNull();
    expect(research).toContain(words.outputs(Number(outputs![1])));
    expect(research).toContain(words.millions((c.parameters / 1e6).toFixed(1)));
  });

  it('compares the models on lab and field photos as the cards do', () => {
    const lab = (id: Id) => card(id).metrics.accuracy;
    const res = growers('resnet50');
    // the page says "the same as VGG16's" only while the cards agree to the figure shown (4 decimals)
    expect(res.includes(words.sameAsVgg)).toBe(lab('resnet50') === lab('vgg16'));
    expect(res.includes(words.belowMobileNet)).toBe(lab('resnet50') < lab('mobilenet'));
    expect(res.includes(words.highestLab)).toBe(
      lab('resnet50') > lab('vgg16') && lab('resnet50') > lab('mobilenet'),
    );

    // on field photos: MobileNet and ResNet50 on the set both cards prefer, VGG16 on its own set
    // (the field validation part, which every card has)
    const shared = fieldSet('mobilenet');
    expect(fieldSet('resnet50')).toBe(shared);
    const top1 = (id: Id, set: string) => evaluation(id, set)!.top1!;
    const vggSet = fieldSet('vgg16');
    const resBelowMob = top1('resnet50', shared) < top1('mobilenet', shared);
    expect(res.includes(words.fieldBelowMobileNet)).toBe(resBelowMob);
    expect(growers('mobilenet').includes(words.fieldBest)).toBe(
      resBelowMob && top1('mobilenet', vggSet) > top1('vgg16', vggSet),
    );
    expect(growers('vgg16').includes(words.fieldWorst)).toBe(
      top1('vgg16', vggSet) < top1('mobilenet', vggSet) &&
        top1('vgg16', vggSet) < top1('resnet50', vggSet),
    );
    const size = `${(card('mobilenet').file.size_bytes / 1e6).toFixed(1)} MB`;
    expect(growers('mobilenet')).toContain(size);
  });

  it("quotes each model's lab, field and everyday-photo figures from its card", () => {
    const items = section('comparacion').blocks.flatMap((b) => ('ul' in b ? b.ul : []));
    const quoted = new Set<string>();
    for (const id of IDS) {
      const item = items.find((i) => i.startsWith(`${NAME[id]}:`));
      expect(item, id).toBeDefined();
      const set = fieldSet(id);
      const field = evaluation(id, set)!;
      const figures = [
        evaluation(id, 'lab_test')!.top1!,
        field.top1!,
        field.accepted_share!,
        field.accuracy_accepted!,
        evaluation(id, 'negatives_holdout')!.refused_share!,
      ].map(pct);
      // a model measured on its own set is compared with the others on that set
      if (set !== fieldSet('mobilenet'))
        for (const other of IDS.filter((o) => o !== id))
          figures.push(pct(evaluation(other, set)!.top1!));
      for (const f of figures) {
        expect(item, `${id}: ${f}`).toContain(f);
        quoted.add(f);
      }
      expect(item).toContain(`${field.n} `);
    }
    // the ensemble, once its card measured it on field photos: its figures, and why it is offered
    // (it beats each member on field validation top-1) only where its card says so
    const ens = ensemble();
    const fe = ens.field_evaluation;
    const ensHeld = fe?.field_holdout ?? fe?.field_holdout_2;
    const ensItem = items.find((i) => i.startsWith(words.ensemble));
    expect(ensItem !== undefined, 'the ensemble item').toBe(ensHeld !== undefined);
    if (fe && ensHeld && ensItem) {
      const [held, val, members] = [ensHeld, fe.field_val_all!, fe.members_field_val_all!];
      const figures = [
        ens.metrics.accuracy,
        held.top1!,
        held.accepted_share!,
        held.accuracy_accepted!,
        val.top1!,
        val.accepted_share!,
        val.accuracy_accepted!,
        ...IDS.map((id) => members[id]!.top1),
        // the held-out everyday photos, where its card measured them (since 2026-11-29)
        ...(fe.negatives_holdout ? [fe.negatives_holdout.refused_share!] : []),
      ].map(pct);
      for (const f of figures) {
        expect(ensItem, `ensemble: ${f}`).toContain(f);
        quoted.add(f);
      }
      expect(ensItem).toContain(`${held.n} `);
      expect(ensItem).toContain(`${val.n} `);
      // its members and their weights, as its card names them
      for (const m of ens.members) {
        expect(ensItem.slice(0, ensItem.indexOf(':')), m.id).toContain(NAME[m.id]);
        expect(ensItem, `${m.id} weight`).toContain(`${NAME[m.id]} ${m.weight ?? 1}`);
      }
      expect(ensItem.includes(words.beatsEach)).toBe(
        fe.beats_each_member_on_field_val_top1 === true,
      );
      expect(ensItem.includes(words.notOffered)).toBe(!ensembleOffered());
      expect(ensItem.includes(words.aboveEach)).toBe(
        IDS.every((id) => ens.metrics.accuracy > card(id).metrics.accuracy),
      );
      // "a single photo more" than the MobileNet, while that is what the two figures count
      const photos = (x: number) => Math.round(x * val.n);
      expect(ensItem.includes(words.onePhoto)).toBe(
        photos(val.top1!) - photos(members.mobilenet!.top1) === 1,
      );
    }
    // the default model: the ensemble where its card says so (and the server offers it), else the MobileNet
    const ensDefault = ens.default === true && ensembleOffered();
    expect(ensItem?.includes(words.byDefault) ?? false).toBe(ensDefault);
    const mobItem = items.find((i) => i.startsWith('MobileNet:'))!;
    expect(mobItem.includes(words.byDefault)).toBe(!ensDefault);
    // the field goal (right when given) is met, where a card says so, on both sources' validation
    // photos: the page says so with that figure, next to the held-out one
    const goals = items.find((i) => i.includes(words.goalMet));
    const meeting = IDS.filter((id) => card(id).goals.field?.met?.accuracy_accepted === true);
    expect(goals !== undefined, 'the field goal sentence').toBe(meeting.length > 0);
    for (const id of meeting) {
      const val = evaluation(id, 'field_val_all')!;
      for (const f of [val.accuracy_accepted!, evaluation(id, fieldSet(id))!.accuracy_accepted!]) {
        expect(goals, `${id}: ${pct(f)}`).toContain(pct(f));
        quoted.add(pct(f));
      }
      expect(goals).toContain(NAME[id]);
      expect(goals).toContain(`${val.n} `);
    }
    // and no figure the cards do not hold
    for (const f of percentages(text(section('comparacion').blocks))) expect(quoted).toContain(f);
  });

  it("explains the field-photo caution and the field-like photos' own threshold as the cards set them", () => {
    const items = section('resultados').blocks.flatMap((b) => ('ul' in b ? b.ul : []));
    const item = items.find((i) => i.startsWith(words.fieldItem));
    expect(item, words.fieldItem).toBeDefined();
    const marking = IDS.filter(marksFieldPhotos);
    // the caution as the results screen words it, while a shipped model gives it
    expect(item!.includes(CAUTION[lang])).toBe(marking.length > 0);
    for (const id of IDS) {
      const r = card(id).rejection;
      expect(item, id).toContain(NAME[id]);
      if (marksFieldPhotos(id)) {
        // both thresholds as the card writes them, the field-like photos' first
        expect(item).toContain(`${r.field_threshold}`);
        expect(item).toContain(`${r.threshold}`);
        const min = card(id).goals.field?.accuracy_accepted_min;
        if (min !== undefined) expect(item).toContain(words.rightTimes(Math.round(min * 100)));
      } else {
        expect(item).toContain(words.noCaution);
      }
    }
    // the ensemble, where the server offers it: the caution from its members' lab_like, and its
    // own threshold(s)
    const ens = ensemble();
    const named = item!.includes(words.ensemble.toLowerCase().replace(/^the /, ''));
    expect(named).toBe(ensembleOffered() && marking.length > 0);
    if (ensembleOffered()) {
      expect(item).toContain(`${ens.rejection.threshold}`);
      if (ens.rejection.field_threshold !== undefined)
        expect(item).toContain(`${ens.rejection.field_threshold}`);
    }
  });

  it("gives the share of other crops' leaves refused as the cards measured it", () => {
    const limits = text(section('limites').blocks);
    const quoted = new Set<string>();
    for (const id of IDS) {
      const other = evaluation(id, 'other_crop_holdout');
      if (!other) continue;
      for (const f of [pct(other.not_leaf_share!), pct(other.accepted_share!)]) {
        expect(limits, `${id}: ${f}`).toContain(f);
        quoted.add(f);
      }
      expect(limits).toContain(`${other.n} `);
    }
    const ensOther = ensemble().field_evaluation?.other_crop_holdout;
    if (ensOther && ensembleOffered())
      for (const f of [pct(ensOther.not_leaf_share!), pct(ensOther.accepted_share!)]) {
        expect(limits, `ensemble: ${f}`).toContain(f);
        quoted.add(f);
      }
    expect(quoted.size).toBeGreaterThan(0);
    for (const f of percentages(limits)) expect(quoted).toContain(f);
  });

  it('counts the photos the shipped networks learned from and were measured on as the cards do', () => {
    const trained = text(section('entrenamiento').blocks);
    for (const id of IDS) {
      const d = card(id).data;
      // field photos of tomato leaves trained on: both field sources' training parts
      expect(trained, id).toContain(`${d.field.counts.train + (d.field2?.counts.train ?? 0)}`);
      if (d.other_crop) expect(trained).toContain(`${d.other_crop.counts.train} `);
      for (const set of [
        'field_holdout',
        'other_crop_holdout',
        'field_val_all',
        'other_crop_val',
      ]) {
        const e = evaluation(id, set);
        if (e) expect(trained, `${id} ${set}`).toContain(`${e.n} `);
      }
    }
  });

  it('names every source the shipped networks learned from', () => {
    const all = text(section('entrenamiento').blocks);
    for (const source of ['PlantVillage', 'PlantDoc', 'Imagenette', 'Tiny ImageNet'])
      expect(all).toContain(source);
    // and every named source of a card's data (a second field source, the other crops)
    for (const id of IDS) {
      const d = card(id).data;
      for (const part of [d.source, d.field2?.source, d.other_crop?.source])
        for (const source of ['PlantVillage', 'PlantDoc', 'TomatoPD-IMG'])
          if (part?.includes(source)) expect(all, `${id}: ${source}`).toContain(source);
    }
    expect(content.references.map((r) => r.title)).toContain(
      'PlantDoc: A dataset for visual plant disease detection',
    );
  });
});

// The "Acerca de DiAgroDL" page describes the shipped networks; these checks tie its text to the
// model cards in models/, so that a model shipped with another start, head or size cannot leave
// the page describing the one before it.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AboutContent, Block } from './content.ts';
import aboutEn from './content/about_tool.en.json';
import aboutEs from './content/about_tool.es.json';

const MODELS = path.resolve(import.meta.dirname, '../../../../../models');

interface Card {
  architecture: string;
  head: string;
  parameters: number;
  pretrained?: { weights: string };
  metrics: { accuracy: number };
}

const card = (id: string): Card =>
  JSON.parse(fs.readFileSync(path.join(MODELS, `${id}.card.json`), 'utf8')) as Card;

const text = (blocks: Block[]) => blocks.map((b) => ('p' in b ? b.p : b.ul.join('\n'))).join('\n');

const WORDS = {
  es: {
    sameAsVgg: 'igual a la de VGG16',
    belowMobileNet: 'inferior a la de MobileNet',
    pretrained: 'preentrenados en ImageNet',
    scratch: 'desde cero',
    outputs: (n: number) => `${n} salidas`,
    millions: (m: string) => `${m} millones de parámetros`,
  },
  en: {
    sameAsVgg: "the same as VGG16's",
    belowMobileNet: "lower than MobileNet's",
    pretrained: 'pre-trained on ImageNet',
    scratch: 'from scratch',
    outputs: (n: number) => `${n} outputs`,
    millions: (m: string) => `${m} million parameters`,
  },
} as const;

/** The family name the page must use for a card's `architecture`. */
const FAMILY: Record<string, string> = {
  mobilenet_v2: 'MobileNetV2',
  vgg16_bn: 'vgg16_bn',
  resnet50: 'ResNet50',
};

describe.each([
  ['es', aboutEs as AboutContent],
  ['en', aboutEn as AboutContent],
] as const)('the tool page in %s describes the shipped networks', (lang, content) => {
  const words = WORDS[lang];
  it.each(['mobilenet', 'vgg16', 'resnet50'])('%s: start, head and size as its card says', (id) => {
    const c = card(id);
    const arch = content.architectures.find((a) => a.id === id);
    expect(arch, id).toBeDefined();
    const research = text(arch!.forResearchers);

    expect(FAMILY[c.architecture], c.architecture).toBeDefined();
    expect(research).toContain(FAMILY[c.architecture]);
    if (c.pretrained) {
      expect(research).toContain(words.pretrained);
    } else {
      expect(research).toContain(words.scratch);
      expect(research).not.toContain(words.pretrained);
    }
    const outputs = /to (\d+) outputs/.exec(c.head);
    expect(outputs, c.head).not.toBeNull();
    expect(research).toContain(words.outputs(Number(outputs![1])));
    expect(research).toContain(words.millions((c.parameters / 1e6).toFixed(1)));
  });

  it("compares ResNet50's lab accuracy with the others' as the cards do", () => {
    const growers = text(content.architectures.find((a) => a.id === 'resnet50')!.forGrowers);
    const lab = (id: string) => card(id).metrics.accuracy;
    // the page says "the same as VGG16's" only while the cards agree to the figure shown (4 decimals)
    expect(growers.includes(words.sameAsVgg)).toBe(lab('resnet50') === lab('vgg16'));
    expect(growers.includes(words.belowMobileNet)).toBe(lab('resnet50') < lab('mobilenet'));
  });

  it('names every source the shipped networks learned from', () => {
    const trained = content.sections.find((s) => s.id === 'entrenamiento');
    expect(trained).toBeDefined();
    const all = text(trained!.blocks);
    for (const source of ['PlantVillage', 'PlantDoc', 'Imagenette', 'Tiny ImageNet'])
      expect(all).toContain(source);
    expect(content.references.map((r) => r.title)).toContain(
      'PlantDoc: A dataset for visual plant disease detection',
    );
  });
});

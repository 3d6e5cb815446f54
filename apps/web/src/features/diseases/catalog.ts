import { type ClassId, ROUTES } from '@diagrodl/contracts';

/** The nine disease and pest pages, in the specification's selector order. */
export const DISEASE_SLUGS = [
  'bacterial_spot',
  'early_blight',
  'late_blight',
  'leaf_mold',
  'septoria_leaf_spot',
  'spider_mites',
  'target_spot',
  'mosaic_virus',
  'tylcv',
] as const;

export type DiseaseSlug = (typeof DISEASE_SLUGS)[number];

export interface DiseaseEntry {
  slug: DiseaseSlug;
  route: string;
  /** Folder of the example images under /Disease/. */
  folder: string;
  /** The model class this page describes. */
  classId: ClassId;
}

export const DISEASES: readonly DiseaseEntry[] = [
  {
    slug: 'bacterial_spot',
    route: ROUTES.bacterialSpot,
    folder: 'BacterialSpot',
    classId: 'bacterial_spot',
  },
  {
    slug: 'early_blight',
    route: ROUTES.earlyBlight,
    folder: 'EarlyBlight',
    classId: 'early_blight',
  },
  { slug: 'late_blight', route: ROUTES.lateBlight, folder: 'LateBlight', classId: 'late_blight' },
  { slug: 'leaf_mold', route: ROUTES.leafMold, folder: 'LeafMold', classId: 'leaf_mold' },
  {
    slug: 'septoria_leaf_spot',
    route: ROUTES.septoriaLeafSpot,
    folder: 'SeptoriaLeafSpot',
    classId: 'septoria_leaf_spot',
  },
  {
    slug: 'spider_mites',
    route: ROUTES.spiderMites,
    folder: 'SpiderMites',
    classId: 'spider_mites',
  },
  { slug: 'target_spot', route: ROUTES.targetSpot, folder: 'TargetSpot', classId: 'target_spot' },
  {
    slug: 'mosaic_virus',
    route: ROUTES.mosaicVirus,
    folder: 'MosaicVirus',
    classId: 'mosaic_virus',
  },
  { slug: 'tylcv', route: ROUTES.tylcv, folder: 'Tylcv', classId: 'yellow_leaf_curl_virus' },
];

export function diseaseBySlug(slug: DiseaseSlug): DiseaseEntry {
  return DISEASES.find((d) => d.slug === slug) as DiseaseEntry;
}

/** Sections of a full disease page, in the specification's order (images and AI tool included). */
export const FULL_SECTIONS = [
  'scientific_name',
  'common_name',
  'economic_importance',
  'biology',
  'damage',
  'symptoms',
  'environment',
  'diagnosis',
  'prevention',
  'technology',
  'images',
  'ai_tool',
  'references',
] as const;

/** The spider mite page's reduced set (the specification), then the references. */
export const REDUCED_SECTIONS = [
  'scientific_name',
  'common_name',
  'economic_importance',
  'biology',
  'damage',
  'images',
  'ai_tool',
  'references',
] as const;

export type SectionKey = (typeof FULL_SECTIONS)[number];
export type TextSectionKey = Exclude<SectionKey, 'images' | 'references'>;

/** Stable, language-independent anchor of each section. */
export function sectionId(key: SectionKey): string {
  return key.replace(/_/g, '-');
}

/** Size of the committed example images (PlantVillage photos are 256 × 256). */
export const IMAGE_SIZE = 256;

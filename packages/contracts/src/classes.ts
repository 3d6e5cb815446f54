/**
 * The ten classes of the tomato leaf models, in model output order. The ids are used
 * everywhere (model cards, API, CLI, reports). Must stay identical to
 * ml/diagrodl_ml/classes.py (a test in ml/tests checks it).
 */
import { ROUTES } from './routes.ts';

export const CLASS_IDS = [
  'bacterial_spot',
  'early_blight',
  'late_blight',
  'leaf_mold',
  'septoria_leaf_spot',
  'spider_mites',
  'target_spot',
  'yellow_leaf_curl_virus',
  'mosaic_virus',
  'healthy',
] as const;

export type ClassId = (typeof CLASS_IDS)[number];

export const NUM_CLASSES = CLASS_IDS.length;

/** PlantVillage folder name -> class id (one folder name contains a space). */
export const FOLDER_TO_CLASS: Readonly<Record<string, ClassId>> = {
  Tomato___Bacterial_spot: 'bacterial_spot',
  Tomato___Early_blight: 'early_blight',
  Tomato___Late_blight: 'late_blight',
  Tomato___Leaf_Mold: 'leaf_mold',
  Tomato___Septoria_leaf_spot: 'septoria_leaf_spot',
  'Tomato___Spider_mites Two-spotted_spider_mite': 'spider_mites',
  Tomato___Target_Spot: 'target_spot',
  Tomato___Tomato_Yellow_Leaf_Curl_Virus: 'yellow_leaf_curl_virus',
  Tomato___Tomato_mosaic_virus: 'mosaic_virus',
  Tomato___healthy: 'healthy',
};

export interface ClassInfo {
  id: ClassId;
  /** Index in the models' output vector. */
  index: number;
  folder: string;
  es: string;
  en: string;
  /** Page describing the disease (healthy leaves link to the crop page). */
  route: string;
  /** False only for `healthy`. */
  isDisease: boolean;
}

const NAMES: Readonly<Record<ClassId, { es: string; en: string; route: string }>> = {
  bacterial_spot: { es: 'Mancha bacteriana', en: 'Bacterial spot', route: ROUTES.bacterialSpot },
  early_blight: { es: 'Tizón temprano', en: 'Early blight', route: ROUTES.earlyBlight },
  late_blight: { es: 'Tizón tardío', en: 'Late blight', route: ROUTES.lateBlight },
  leaf_mold: { es: 'Moho de la hoja', en: 'Leaf mold', route: ROUTES.leafMold },
  septoria_leaf_spot: {
    es: 'Mancha foliar por Septoria',
    en: 'Septoria leaf spot',
    route: ROUTES.septoriaLeafSpot,
  },
  spider_mites: {
    es: 'Ácaro de dos manchas (araña roja)',
    en: 'Two-spotted spider mite',
    route: ROUTES.spiderMites,
  },
  target_spot: { es: 'Mancha objetivo', en: 'Target spot', route: ROUTES.targetSpot },
  yellow_leaf_curl_virus: {
    es: 'Virus del rizado amarillo del tomate (TYLCV)',
    en: 'Tomato yellow leaf curl virus (TYLCV)',
    route: ROUTES.tylcv,
  },
  mosaic_virus: {
    es: 'Virus del mosaico del tomate (ToMV)',
    en: 'Tomato mosaic virus (ToMV)',
    route: ROUTES.mosaicVirus,
  },
  healthy: { es: 'Sana', en: 'Healthy', route: ROUTES.tomatoCrops },
};

const CLASS_TO_FOLDER = Object.fromEntries(
  Object.entries(FOLDER_TO_CLASS).map(([folder, id]) => [id, folder]),
) as Record<ClassId, string>;

export const CLASSES: readonly ClassInfo[] = CLASS_IDS.map((id, index) => ({
  id,
  index,
  folder: CLASS_TO_FOLDER[id],
  es: NAMES[id].es,
  en: NAMES[id].en,
  route: NAMES[id].route,
  isDisease: id !== 'healthy',
}));

export function isClassId(value: unknown): value is ClassId {
  return typeof value === 'string' && (CLASS_IDS as readonly string[]).includes(value);
}

export function classInfo(id: ClassId): ClassInfo {
  return CLASSES[CLASS_IDS.indexOf(id)] as ClassInfo;
}

/** Display name in the UI language ('es' default). */
export function className(id: ClassId, language: string = 'es'): string {
  const info = classInfo(id);
  return language.startsWith('en') ? info.en : info.es;
}

/**
 * The anchor of a disease page's section on what to do ('Estrategias de prevención'); the web's
 * disease pages give each section this language-independent id (a test there checks it).
 */
export const TREATMENT_SECTION = 'prevention';

/**
 * Where 'Qué hacer' leads for a class's page: straight to the treatment section. The spider-mite
 * page (the specification's reduced set) and the crop page have none, so they open at the top.
 */
export function whatToDoHref(page: string): string {
  const hasTreatment = CLASSES.some(
    (c) => c.route === page && c.isDisease && c.id !== 'spider_mites',
  );
  return hasTreatment ? `${page}#${TREATMENT_SECTION}` : page;
}

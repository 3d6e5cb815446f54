/**
 * The diagnosis tool's calls (specification section 7), their fields and replies. The paths are
 * in the endpoint table (endpoints.ts; DIAGNOSIS_PATHS there names them); they use the
 * lower-case tool name; multipart fields are spelled as in the specification.
 */
import type { ClassId } from './classes.ts';
import type { EnglishTwin } from './english-twin.ts';
import type { ReliabilityRow } from './reliability.ts';

/** Values of the configuration page's selectors (only the first of each is enabled). */
export const CROPS = ['tomate', 'fresa', 'maiz'] as const;

/**
 * The diagnosis report's file name as a person saves it: what it is and its date (YYYY-MM-DD),
 * `diagrodl-diagnostico-2026-12-07.pdf`, not the server's random storage name.
 */
export function reportFileName(date: string): string {
  return `diagrodl-diagnostico-${date}.pdf`;
}
export const LEVELS = ['hoja', 'fruta', 'raiz', 'tallo', 'flor'] as const;
export const MODEL_TYPES = ['DL', 'ML', 'DL_ML'] as const;

/**
 * modelo_version values and the shipped model each one runs (models/<file>.onnx). The ensemble's
 * members are those its card names, so its label here names none: the server's list
 * (GET /diagrodl/models/) labels it with its members ('Ensemble (ResNet50 + MobileNet)'), and a
 * stored result, which may come from an ensemble of other members, says 'Ensemble'.
 */
export const MODEL_VERSIONS = [
  { value: 'Tomato_leaf_cnn_vgg16', modelId: 'vgg16', label: 'VGG16 v1' },
  { value: 'Tomato_leaf_cnn_resnet50', modelId: 'resnet50', label: 'ResNet50 v1' },
  { value: 'tomato_leaf_cnn_mobilenet', modelId: 'mobilenet', label: 'MobileNet v1' },
  { value: 'ensemble', modelId: 'ensemble', label: 'Ensemble' },
] as const;
export type ModelId = (typeof MODEL_VERSIONS)[number]['modelId'];

/** The MODEL_VERSIONS entries of some model ids, in the configuration page's order. */
export function inSelectorOrder(ids: readonly string[]): (typeof MODEL_VERSIONS)[number][] {
  return MODEL_VERSIONS.filter((v) => ids.includes(v.modelId));
}

/** multipart body of POST /diagrodl/post_custom/ */
export interface ConfigBody {
  cultivo: string;
  nivel: string;
  tipo_modelo: string;
  modelo_version: string;
}

export interface ConfigReply {
  status: 'OK';
  detail: string;
  config: ConfigBody & { modelId: ModelId };
}

/** GET /diagrodl/models/ (beyond the spec): which models the server has loaded. */
export interface LoadedModel {
  id: ModelId;
  modeloVersion: string;
  label: string;
  testAccuracy: number | null;
  /**
   * Beyond the spec: top-1 on the card's real field photos (reliability.ts fieldTop1Of: the
   * held-out field photos when the card has them, else both field sources' validation part, else
   * out_of_distribution.evaluation.field_val); null when the card has no such figure.
   */
  fieldAccuracy: number | null;
  /**
   * Beyond the spec: how often the model is right, set by set, as its card measured it (lab test
   * split, its new leaves, field photos, lab leaves made field-like, photos that are not tomato
   * leaves, other crops' leaves; reliability.ts). Empty when the model has no card.
   */
  reliability: ReliabilityRow[];
  /**
   * Beyond the spec: true on the model a person gets without choosing one, as the server decides it
   * (ModelRegistry.defaultId: the ensemble when its card says so, else the MobileNet).
   */
  isDefault?: boolean;
}

/** Reply of POST /diagrodl/posts/ (multipart: image, name_img). */
export interface UploadReply {
  status: 'OK';
  detail: string;
  id: number;
  name_img: string;
}

export interface PendingImage {
  id: number;
  name_img: string;
  size: number;
  created_at: string;
  url: string;
}

/**
 * Reply of POST /diagrodl/posts_predict/ (multipart: image, report; beyond the spec, an optional
 * `ids` naming the pending photos to identify: its schema in endpoints.ts).
 */
export interface PredictReply {
  status: 'OK';
  detail: string;
  total: number;
}

/** GET /diagrodl/progress/ */
export interface ProgressReply {
  state: 'idle' | 'running' | 'done' | 'error';
  done: number;
  total: number;
  detail?: string;
}

export interface TopClass {
  label: ClassId;
  predict: string;
  probability: number;
}

/** One row of GET /diagrodl/posts/ (the first three fields as the original showed them). */
export interface DiagnosisRow {
  id: number;
  name_img: string;
  /** Display name in the user's language, or 'No reconocido con confianza'. */
  predict: string;
  /** Calibrated top probability (shown with 4 decimals). */
  probability: number;
  label: ClassId;
  top3: TopClass[];
  /** False when the top probability is below the model's threshold: not counted as a diagnosis. */
  accepted: boolean;
  /**
   * Beyond the spec: why a row is not a diagnosis. 'not_leaf': the model says the photo is not a
   * tomato leaf (`predict` is NOT_LEAF, show NOT_LEAF_HINT); 'low_confidence': 'No reconocido con
   * confianza'; null when accepted.
   */
  reason: DiagnosisReason | null;
  /** The model's calibrated probability that the photo shows a tomato leaf (null: no such output). */
  leaf_probability: number | null;
  /**
   * Beyond the spec: how much the photo looks like the lab photos the model learned from (the
   * model's `lab_like` output, 0..1; null: the model has no such output, or the row is older).
   */
  lab_like: number | null;
  /**
   * Beyond the spec: a diagnosis of a photo unlike the lab photos (lab_like below LAB_LIKE_CUT),
   * shown with FIELD_PHOTO_CAUTION. False when not accepted or lab_like is null.
   */
  field_photo: boolean;
  /** Model id ('mobilenet', 'resnet50', 'vgg16', 'ensemble'). */
  model: string;
  /** Its display name ('MobileNet v1', ...). */
  modelLabel: string;
  created_at: string;
  /** URLs (owner-only) of the photo and the class activation heatmap overlaid on it. */
  image: string;
  heatmap: string;
  /** Disease page with what to do (the crop page for healthy leaves). */
  page: string;
}

export interface ReportReply {
  url: string;
}

export const NOT_RECOGNISED = {
  es: 'No reconocido con confianza',
  en: 'Not recognised with confidence',
} as const;

/** Why a result is not a diagnosis (beyond the spec): not a tomato leaf, or not confident enough. */
export const DIAGNOSIS_REASONS = ['not_leaf', 'low_confidence'] as const;
export type DiagnosisReason = (typeof DIAGNOSIS_REASONS)[number];

export function isDiagnosisReason(v: unknown): v is DiagnosisReason {
  return (DIAGNOSIS_REASONS as readonly unknown[]).includes(v);
}

/** The label of a row whose photo the model says is not a tomato leaf (reason 'not_leaf'). */
export const NOT_LEAF = {
  es: 'No parece una hoja de tomate',
  en: 'This does not look like a tomato leaf',
} as const;

/**
 * Always shown with NOT_LEAF: that the tool diagnoses tomato leaves only (a leaf of another crop,
 * or a photo that is not a leaf, gets NOT_LEAF), and how to take a photo the model can diagnose.
 * Right for an everyday photo (a cat, a car) as for a pepper or grape leaf.
 */
export const NOT_LEAF_HINT = {
  es: 'Esta herramienta solo diagnostica hojas de tomate: no puede diagnosticar la hoja de otro cultivo ni una foto que no sea de una hoja. Fotografíe una sola hoja de una planta de tomate, de cerca y que ocupe la mayor parte de la foto.',
  en: 'This tool diagnoses tomato leaves only: it cannot diagnose a leaf of another crop or a photo that is not of a leaf. Photograph a single leaf of a tomato plant, close up, filling most of the frame.',
} as const;

/** Under the three most likely classes of a row that is not a diagnosis (results card and PDF report). */
export const TOP3_REFERENCE_ONLY = {
  es: 'Solo como referencia: no es un diagnóstico.',
  en: 'For reference only: not a diagnosis.',
} as const;

/** Spanish messages of the upload rules (server `detail`s). */
export const UPLOAD_LIMITS = {
  maxBytes: 15 * 1024 * 1024,
  maxPixels: 40_000_000,
  maxPending: 50,
  types: ['image/jpeg', 'image/png', 'image/webp'],
} as const;

/** The most past diagnoses `GET` history answers with (the newest, by the date each was made). */
export const HISTORY_LIMIT = 1000;

/** The upload page's confirmations, word for word from the specification. */
export const UPLOAD_MESSAGES = {
  noImage: 'Por favor selecciona una imagen',
  confirmRemove: '¿Estás seguro de eliminar esta imagen?',
} as const;

/** The same on the English page (the specification gives only the Spanish). */
export const UPLOAD_MESSAGES_EN = {
  noImage: 'Please select an image',
  confirmRemove: 'Are you sure you want to delete this image?',
} satisfies EnglishTwin<typeof UPLOAD_MESSAGES>;

/* ---- Extensions made with the server implementation (apps/server/src/modules/diagnosis/README.md). ---- */

/** Media served to their owner only (photos, heatmaps, history thumbnails, reports). */
export const MEDIA_KINDS = ['post_images', 'heatmaps', 'thumbs', 'reports'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/** Extra facts about a loaded model (GET /diagrodl/models/). */
export interface LoadedModelDetails extends LoadedModel {
  /** Top calibrated probability below which a row is 'No reconocido con confianza'. */
  threshold: number;
  /** For the ensemble: the member model ids. */
  members?: ModelId[];
  /**
   * Only for a model that can answer 'No parece una hoja de tomate': below this `leaf` output a
   * row is 'not_leaf' (for the ensemble, its card's, else the mean of its members' thresholds).
   */
  leafThreshold?: number;
  /**
   * Only for a model whose card holds one: the threshold of field-like photos (`lab_like` below
   * LAB_LIKE_CUT), which are held to it instead of `threshold`.
   */
  fieldThreshold?: number;
}

/** GET /diagrodl/post_custom/: the user's stored configuration (null before the first one). */
export interface ConfigStateReply {
  config: (ConfigBody & { modelId: ModelId }) | null;
}

/** Reply of DELETE /diagrodl/pending/:id/, POST /diagrodl/posts_delate_rows/ and history deletes. */
export interface DeleteReply {
  status: 'OK';
  detail: string;
  deleted: number;
}

/**
 * One past diagnosis (GET /diagrodl/history/, newest first); survives 'start anew'.
 * Shaped like a DiagnosisRow: `image` is a small thumbnail (the full photo is gone after
 * 'start anew'), `heatmap` is '' (heatmaps are not kept), `id` is the history entry's id.
 */
export interface HistoryItem extends DiagnosisRow {
  /** Owner-only URL of a small JPEG thumbnail of the photo (same as `image`). */
  thumbnail: string;
  /** For a diagnosis made on a device (device.ts): the id the device gave it; otherwise null. */
  client_id?: string | null;
}

/** The server's Spanish `detail` texts for the diagnosis calls (English twins below). */
export const DIAGNOSIS_MESSAGES = {
  configOk: 'Configuración guardada.',
  cropNotAvailable: "Solo está disponible el cultivo 'tomate'.",
  levelNotAvailable: "Solo está disponible el nivel de identificación 'hoja'.",
  typeNotAvailable: "Solo está disponible el tipo de modelo 'DL'.",
  modelUnknown: 'El modelo solicitado no existe.',
  modelNotLoaded: (label: string) => `El modelo ${label} no está disponible en este servidor.`,
  configRequired:
    'Primero elige el modelo en la página de configuración (Selección del modelo y parámetros aplicables).',
  uploadOk: 'Imagen subida.',
  noFile: 'Por favor selecciona una imagen',
  brokenUpload: 'La imagen no llegó completa: vuelve a subirla.',
  oneFileOnly: 'Sube una sola imagen por vez.',
  emptyFile: 'El archivo está vacío.',
  tooLarge: 'La imagen supera el tamaño máximo de 15 MB.',
  tooManyPixels: 'La imagen es demasiado grande: como máximo 40 megapíxeles.',
  badType: 'Formato no admitido: sube una fotografía JPEG, PNG o WebP.',
  undecodable: 'No se pudo leer la imagen: el archivo está dañado o no es una fotografía válida.',
  badName: 'El nombre del archivo no es válido.',
  tooManyPending:
    'Ya tienes 50 imágenes pendientes de identificar: identifícalas o elimina alguna.',
  pendingRemoved: 'Imagen eliminada.',
  pendingNotFound: 'La imagen no existe o ya fue identificada.',
  pendingBusy: 'La imagen se está identificando en este momento.',
  predictStarted: 'Identificación iniciada.',
  predictRunning: 'La identificación ya está en curso.',
  nothingPending: 'No hay imágenes pendientes de identificar: sube al menos una imagen.',
  badIds:
    'El campo ids debe ser una lista de hasta 50 números de imagen separados por comas (por ejemplo: 12,15).',
  modelUnavailable: 'El modelo configurado no está disponible en este momento.',
  interrupted:
    "La identificación se interrumpió: pulsa 'Iniciar identificación' de nuevo para terminar las imágenes pendientes.",
  failedImages: (n: number) =>
    n === 1
      ? '1 imagen no se pudo identificar y se descartó.'
      : `${n} imágenes no se pudieron identificar y se descartaron.`,
  noRows: 'No hay diagnósticos para el reporte: identifica al menos una imagen.',
  rowsDeleted: 'Diagnóstico eliminado.',
  rowNotFound: 'La imagen no existe o aún no fue identificada.',
  historyDeleted: 'Entrada del historial eliminada.',
  historyNotFound: 'La entrada del historial no existe.',
} as const;

/** The same messages in English (localize.ts). */
export const DIAGNOSIS_MESSAGES_EN = {
  configOk: 'Configuration saved.',
  cropNotAvailable: "Only the tomato crop ('tomate') is available.",
  levelNotAvailable: "Only the leaf identification level ('hoja') is available.",
  typeNotAvailable: "Only the 'DL' model type is available.",
  modelUnknown: 'The requested model does not exist.',
  modelNotLoaded: (label: string) => `The ${label} model is not available on this server.`,
  configRequired:
    'First choose the model on the configuration page (Model and parameter selection).',
  uploadOk: 'Image uploaded.',
  noFile: 'Please select an image',
  brokenUpload: 'The image did not arrive complete: upload it again.',
  oneFileOnly: 'Upload one image at a time.',
  emptyFile: 'The file is empty.',
  tooLarge: 'The image is larger than the 15 MB maximum.',
  tooManyPixels: 'The image is too large: 40 megapixels at most.',
  badType: 'Format not supported: upload a JPEG, PNG or WebP photo.',
  undecodable: 'The image could not be read: the file is damaged or is not a valid photo.',
  badName: 'The file name is not valid.',
  tooManyPending:
    'You already have 50 images waiting to be identified: identify them or remove some.',
  pendingRemoved: 'Image removed.',
  pendingNotFound: 'The image does not exist or has already been identified.',
  pendingBusy: 'The image is being identified right now.',
  predictStarted: 'Identification started.',
  predictRunning: 'The identification is already running.',
  nothingPending: 'There are no images waiting to be identified: upload at least one image.',
  badIds:
    'The ids field must be a list of up to 50 image numbers separated by commas (for example: 12,15).',
  modelUnavailable: 'The configured model is not available right now.',
  interrupted:
    "The identification was interrupted: press 'Start identification' again to finish the pending images.",
  failedImages: (n: number) =>
    n === 1
      ? '1 image could not be identified and was discarded.'
      : `${n} images could not be identified and were discarded.`,
  noRows: 'There are no diagnoses for the report: identify at least one image.',
  rowsDeleted: 'Diagnosis deleted.',
  rowNotFound: 'The image does not exist or has not been identified yet.',
  historyDeleted: 'History entry deleted.',
  historyNotFound: 'The history entry does not exist.',
} satisfies EnglishTwin<typeof DIAGNOSIS_MESSAGES>;

/**
 * Below this `lab_like` output a photo is field-like: the model is far less often right on such
 * photos (see the model card's by_photo_kind figures), so its diagnosis carries a caution. The
 * same cut as ml/diagrodl_ml/calibrate.py LAB_LIKE_CUT.
 */
export const LAB_LIKE_CUT = 0.5;

/** Whether a result is a diagnosis of a field-like photo (shown with FIELD_PHOTO_CAUTION). */
export function isFieldPhoto(accepted: boolean, labLike: number | null | undefined): boolean {
  return accepted && labLike !== null && labLike !== undefined && labLike < LAB_LIKE_CUT;
}

/** Shown with every diagnosis of a field-like photo (field_photo true). */
export const FIELD_PHOTO_CAUTION = {
  es: 'Foto de campo: el modelo aprendió sobre todo con fotos de laboratorio y en fotos como esta acierta con menos frecuencia. Compare con las otras posibilidades y con la ficha de la enfermedad antes de tratar.',
  en: 'Field photo: the model learned mostly from lab photos and is right less often on photos like this one. Compare with the other possibilities and the disease page before treating.',
} as const;

/**
 * The one mapper from a stored result (a `diagnosis_images` row that is done, or a
 * `diagnosis_history` row) to what the pages and the report show: the visible label, the outcome
 * (accepted, or why not), the top 3 in the user's language. Results (`GET /diagrodl/posts/`),
 * the history and the PDF report all read rows through it.
 */
import {
  type DiagnosisReason,
  type DiagnosisRow,
  NOT_LEAF,
  NOT_RECOGNISED,
  type TopClass,
  isDiagnosisReason,
  isFieldPhoto,
} from '@diagrodl/contracts';
import { type ClassId, classInfo, className, isClassId } from '@diagrodl/contracts/classes';
import { ModelRegistry } from '../../inference/registry.ts';
import type { ImageRow } from './diagnosis.repository.ts';

/** The columns a stored result has, in the images table and in the history alike. */
export type StoredResult = Pick<
  ImageRow,
  | 'id'
  | 'name_img'
  | 'label'
  | 'probability'
  | 'accepted'
  | 'reason'
  | 'leaf_probability'
  | 'lab_like'
  | 'top3'
  | 'model'
>;

/** The two languages of the messages and the report ('en…' is English, anything else Spanish). */
export function lang(language: string | undefined): 'es' | 'en' {
  return language?.startsWith('en') ? 'en' : 'es';
}

/** Rows whose label is a known class (the only ones shown or reported). */
export function hasClassLabel<R extends { label: string | null }>(
  r: R,
): r is R & { label: ClassId } {
  return isClassId(r.label);
}

/**
 * A stored row's outcome: accepted, or why not. A not-accepted row without a known reason
 * (written before migration 0004 derived them) is 'low_confidence'.
 */
function outcomeOf(r: StoredResult): {
  accepted: boolean;
  reason: DiagnosisReason | null;
  leaf_probability: number | null;
  lab_like: number | null;
  field_photo: boolean;
} {
  const accepted = r.accepted === 1;
  const reason = accepted ? null : isDiagnosisReason(r.reason) ? r.reason : 'low_confidence';
  const leaf = r.leaf_probability;
  const labLike = r.lab_like === null ? null : Number(r.lab_like);
  return {
    accepted,
    reason,
    leaf_probability: leaf === null ? null : Number(leaf),
    lab_like: labLike,
    field_photo: isFieldPhoto(accepted, labLike),
  };
}

function top3Of(json: string | null, language: string): TopClass[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json ?? '[]');
  } catch {
    parsed = [];
  }
  return (Array.isArray(parsed) ? parsed : [])
    .filter((t): t is { label: ClassId; probability: number } => isClassId(t?.label))
    .map((t) => ({
      label: t.label,
      predict: className(t.label, language),
      probability: Number(t.probability),
    }));
}

/** The visible label: the class name, or the not-leaf / not-recognised message. */
function predictName(label: ClassId, reason: DiagnosisReason | null, language: string): string {
  if (reason === 'not_leaf') return NOT_LEAF[lang(language)];
  if (reason === 'low_confidence') return NOT_RECOGNISED[lang(language)];
  return className(label, language);
}

/** What a result shows, without its URLs and date (those depend on where it is kept). */
export type ResultView = Omit<DiagnosisRow, 'created_at' | 'image' | 'heatmap'>;

export function resultView(r: StoredResult & { label: ClassId }, language: string): ResultView {
  const { accepted, reason, leaf_probability, lab_like, field_photo } = outcomeOf(r);
  const model = r.model ?? '';
  return {
    id: r.id,
    name_img: r.name_img,
    predict: predictName(r.label, reason, language),
    probability: Number(r.probability),
    label: r.label,
    top3: top3Of(r.top3, language),
    accepted,
    reason,
    leaf_probability,
    lab_like,
    field_photo,
    model,
    modelLabel: ModelRegistry.label(model),
    page: classInfo(r.label).route,
  };
}

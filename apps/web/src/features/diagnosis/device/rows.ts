import {
  type DiagnosisRow,
  type HistoryItem,
  MODEL_VERSIONS,
  NOT_LEAF,
  NOT_RECOGNISED,
  isFieldPhoto,
} from '@diagrodl/contracts';
import { classInfo, className } from '@diagrodl/contracts/classes';
import type { DevicePhoto } from './store.ts';

/** A diagnosis kept on the device, shaped like the server's rows (negative ids: never the server's). */
export type DeviceRow = HistoryItem & { device: DevicePhoto };

/** The device's result as a row of the results and history screens, in the page's language. */
export function deviceRow(
  p: DevicePhoto,
  index: number,
  urls: { photo?: string; heatmap?: string },
  language: 'es' | 'en',
): DeviceRow | null {
  const r = p.result;
  if (!r) return null;
  const predict =
    r.reason === 'not_leaf'
      ? NOT_LEAF[language]
      : r.reason === 'low_confidence'
        ? NOT_RECOGNISED[language]
        : className(r.label, language);
  const row: DiagnosisRow = {
    id: -(index + 1),
    name_img: p.name,
    predict,
    probability: r.probability,
    label: r.label,
    top3: r.top3.map((c) => ({ ...c, predict: className(c.label, language) })),
    accepted: r.accepted,
    reason: r.reason,
    leaf_probability: r.leaf_probability,
    lab_like: r.lab_like ?? null,
    field_photo: isFieldPhoto(r.accepted, r.lab_like),
    model: r.model,
    modelLabel: MODEL_VERSIONS.find((v) => v.modelId === r.model)?.label ?? r.model,
    created_at: r.diagnosed_at,
    image: urls.photo ?? '',
    heatmap: urls.heatmap ?? '',
    page: classInfo(r.label).route,
  };
  return { ...row, thumbnail: row.image, client_id: p.id, device: p };
}

import {
  type ConfigBody,
  type ConfigReply,
  DIAGNOSIS_PATHS,
  type DiagnosisRow,
  type HistoryItem,
  type LoadedModel,
  type PendingImage,
  type PredictReply,
  type ProgressReply,
  type ReportReply,
  type UploadReply,
} from '@diagrodl/contracts';
import { api, apiGet, apiPost } from '@/lib/api-client.ts';

function form(fields: Record<string, string | Blob>, fileName?: string): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    if (v instanceof Blob) fd.append(k, v, fileName);
    else fd.append(k, v);
  }
  return fd;
}

export const diagnosisApi = {
  models: () => apiGet<LoadedModel[]>('/diagrodl/models/'),
  configure: (body: ConfigBody) => apiPost<ConfigReply>(DIAGNOSIS_PATHS.config, form({ ...body })),
  upload: (file: File) =>
    apiPost<UploadReply>(
      DIAGNOSIS_PATHS.posts,
      form({ image: file, name_img: file.name }, file.name),
    ),
  pending: () => apiGet<PendingImage[]>(DIAGNOSIS_PATHS.pending),
  removePending: (id: number) => api<unknown>('DELETE', DIAGNOSIS_PATHS.pendingItem(id)),
  predict: () =>
    apiPost<PredictReply>(DIAGNOSIS_PATHS.predict, form({ image: 'pending', report: 'no' })),
  progress: () => apiGet<ProgressReply>(DIAGNOSIS_PATHS.progress),
  rows: () => apiGet<DiagnosisRow[]>(DIAGNOSIS_PATHS.posts),
  makeReport: () => apiGet<ReportReply>(DIAGNOSIS_PATHS.makeReport),
  deleteRows: () =>
    apiPost<unknown>(DIAGNOSIS_PATHS.deleteRows, form({ image: 'image', report: 'yes' })),
  history: () => apiGet<HistoryItem[]>(DIAGNOSIS_PATHS.history),
  removeHistory: (id: number) => api<unknown>('DELETE', DIAGNOSIS_PATHS.historyItem(id)),
};

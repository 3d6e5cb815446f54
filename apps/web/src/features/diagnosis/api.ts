import { type ConfigBody, ENDPOINTS as E } from '@diagrodl/contracts';
import { callApi } from '@/lib/api-client.ts';

function form(fields: Record<string, string | Blob>, fileName?: string): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    if (v instanceof Blob) fd.append(k, v, fileName);
    else fd.append(k, v);
  }
  return fd;
}

/** The diagnosis tool's calls (multipart where the specification sends a form). */
export const diagnosisApi = {
  models: () => callApi(E.models),
  configure: (body: ConfigBody) => callApi(E.configure, { body: form({ ...body }) }),
  upload: (file: File) =>
    callApi(E.upload, { body: form({ image: file, name_img: file.name }, file.name) }),
  pending: () => callApi(E.pending),
  removePending: (id: number) => callApi(E.deletePending, { params: { id } }),
  predict: () => callApi(E.predict, { body: form({ image: 'pending', report: 'no' }) }),
  progress: () => callApi(E.progress),
  rows: () => callApi(E.rows),
  makeReport: () => callApi(E.makeReport),
  deleteRows: () => callApi(E.deleteRows, { body: form({ image: 'image', report: 'yes' }) }),
  history: () => callApi(E.history),
  removeHistory: (id: number) => callApi(E.deleteHistoryItem, { params: { id } }),
};

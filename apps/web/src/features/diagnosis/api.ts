import { type ConfigBody, ENDPOINTS as E } from '@diagrodl/contracts';
import { ApiError, callApi, httpErrorText } from '@/lib/api-client.ts';

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
  config: () => callApi(E.config),
  upload: (file: File) =>
    callApi(E.upload, { body: form({ image: file, name_img: file.name }, file.name) }),
  pending: () => callApi(E.pending),
  removePending: (id: number) => callApi(E.deletePending, { params: { id } }),
  /** The specification's form; `ids` (beyond it) names the waiting photos to identify (else all). */
  predict: (ids?: readonly number[]) =>
    callApi(E.predict, {
      body: form({ image: 'pending', report: 'no', ...(ids ? { ids: ids.join(',') } : {}) }),
    }),
  progress: () => callApi(E.progress),
  rows: () => callApi(E.rows),
  removeRow: (id: number) => callApi(E.deleteRow, { params: { id } }),
  /** An uploaded photo's bytes (its owner-only media URL), to crop it again. */
  photo: async (url: string, name: string): Promise<File> => {
    let res: Response;
    try {
      res = await fetch(url, { credentials: 'same-origin' });
    } catch {
      throw new ApiError(0, 'network');
    }
    if (!res.ok) throw new ApiError(res.status, httpErrorText(res.status));
    const blob = await res.blob();
    return new File([blob], name, { type: blob.type });
  },
  // the report's date in the user's own time zone
  makeReport: () =>
    callApi(E.makeReport, { query: { tz: Intl.DateTimeFormat().resolvedOptions().timeZone } }),
  deleteRows: () => callApi(E.deleteRows, { body: form({ image: 'image', report: 'yes' }) }),
  history: () => callApi(E.history),
  removeHistory: (id: number) => callApi(E.deleteHistoryItem, { params: { id } }),
  clearHistory: () => callApi(E.clearHistory),
};

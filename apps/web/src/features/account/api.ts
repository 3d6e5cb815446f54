import {
  type ChangePasswordBody,
  type DeleteAccountBody,
  ENDPOINTS,
  type RegistrationPayload,
  type ResetConfirmBody,
  type ResetRequestBody,
} from '@diagrodl/contracts';
import { callApi } from '@/lib/api-client.ts';

/** The calls of the account pages (registration, password change and reset, Mis datos). */
export const accountApi = {
  register: (payload: RegistrationPayload) => callApi(ENDPOINTS.register, { body: { ...payload } }),
  changePassword: (body: ChangePasswordBody) => callApi(ENDPOINTS.changePassword, { body }),
  requestReset: (body: ResetRequestBody) => callApi(ENDPOINTS.resetRequest, { body }),
  checkReset: (token: string) => callApi(ENDPOINTS.resetCheck, { body: { token } }),
  confirmReset: (body: ResetConfirmBody) => callApi(ENDPOINTS.resetConfirm, { body }),
  deleteAccount: (body: DeleteAccountBody) => callApi(ENDPOINTS.deleteAccount, { body }),
  /** The archive is a plain download (streamed to disk by the browser, never held in memory). */
  exportUrl: ENDPOINTS.myDataExport.path,
};

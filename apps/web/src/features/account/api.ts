import {
  type ChangePasswordBody,
  ENDPOINTS,
  type RegistrationPayload,
  type ResetConfirmBody,
  type ResetRequestBody,
} from '@diagrodl/contracts';
import { callApi } from '@/lib/api-client.ts';

/** The calls of the account pages (registration, password change and reset). */
export const accountApi = {
  register: (payload: RegistrationPayload) => callApi(ENDPOINTS.register, { body: { ...payload } }),
  changePassword: (body: ChangePasswordBody) => callApi(ENDPOINTS.changePassword, { body }),
  requestReset: (body: ResetRequestBody) => callApi(ENDPOINTS.resetRequest, { body }),
  checkReset: (token: string) => callApi(ENDPOINTS.resetCheck, { body: { token } }),
  confirmReset: (body: ResetConfirmBody) => callApi(ENDPOINTS.resetConfirm, { body }),
};

import type {
  ApiReply,
  ChangePasswordBody,
  RegistrationPayload,
  ResetConfirmBody,
  ResetRequestBody,
} from '@diagrodl/contracts';
import { apiPost } from '@/lib/api-client.ts';

/** The calls of the account pages (registration, password change and reset). */
export const accountApi = {
  register: (payload: RegistrationPayload) =>
    apiPost<ApiReply>('/api/Create_user/', payload as unknown as Record<string, unknown>),
  changePassword: (body: ChangePasswordBody) =>
    apiPost<ApiReply>('/api/change_password/', { ...body }),
  requestReset: (body: ResetRequestBody) => apiPost<ApiReply>('/api/password_reset/', { ...body }),
  checkReset: (token: string) =>
    apiPost<{ valid: boolean }>('/api/password_reset/check/', { token }),
  confirmReset: (body: ResetConfirmBody) =>
    apiPost<ApiReply>('/api/password_reset/confirm/', { ...body }),
};

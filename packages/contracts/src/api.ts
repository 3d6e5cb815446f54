/** Shapes of the HTTP API shared by the server and the web app. */

export const TOOL = 'DiAgroDL';
export const TOOL_PATH = 'diagrodl';

export type ApiStatus = 'OK' | 'ERROR';

export interface ApiReply {
  status: ApiStatus;
  detail: string;
}

export interface SessionReply {
  isAuthenticated: boolean;
  user?: { userName: string; firstName: string; language: string };
}

export interface HealthReply {
  status: ApiStatus;
  database: { ok: boolean; kind: 'sqlite' | 'postgres' };
  maintenance: boolean;
  /** The loaded models, then those refused ('refused': the file and its card do not match). */
  models: { id: string; accuracy: number | null; status?: 'loaded' | 'refused' }[];
  uptimeSeconds: number;
}

/** Runtime settings the server writes into index.html (no request needed). */
export interface AppRuntimeConfig {
  maintenance: boolean;
  providerName: string;
  providerKey: string;
}

export const CSRF_COOKIE = 'csrftoken';
export const CSRF_HEADER = 'X-CSRFToken';
export const SESSION_COOKIE = 'sessionid';

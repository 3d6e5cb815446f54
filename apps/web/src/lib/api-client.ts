import { CSRF_COOKIE, CSRF_HEADER } from '@diagrodl/contracts';

/** An API failure with the server's `detail` (already in the user's language) when it sent one. */
export class ApiError extends Error {
  constructor(
    public readonly status: number,
    public readonly detail: string,
    public readonly body: unknown = null,
  ) {
    super(detail);
    this.name = 'ApiError';
  }
}

export function readCookie(name: string): string | undefined {
  const prefix = `${name}=`;
  for (const part of document.cookie.split(';')) {
    const c = part.trim();
    if (c.startsWith(prefix)) return decodeURIComponent(c.slice(prefix.length));
  }
  return undefined;
}

type Body = FormData | Record<string, unknown> | undefined;

/**
 * The one typed client for the server: same-origin credentials, the CSRF header from the
 * `csrftoken` cookie on every call, JSON in and out. Throws ApiError on a non-2xx reply.
 */
export async function api<T>(
  method: string,
  url: string,
  body?: Body,
  init: RequestInit = {},
): Promise<T> {
  const headers = new Headers(init.headers);
  const token = readCookie(CSRF_COOKIE);
  if (token) headers.set(CSRF_HEADER, token);
  let payload: BodyInit | undefined;
  if (body instanceof FormData) {
    payload = body;
  } else if (body !== undefined) {
    headers.set('Content-Type', 'application/json');
    payload = JSON.stringify(body);
  }
  headers.set('Accept', 'application/json');
  let res: Response;
  try {
    res = await fetch(url, { ...init, method, headers, body: payload, credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'network');
  }
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const detail =
      data && typeof data === 'object' && 'detail' in data && typeof data.detail === 'string'
        ? data.detail
        : res.statusText || String(res.status);
    throw new ApiError(res.status, detail, data);
  }
  return data as T;
}

export const apiGet = <T>(url: string, init?: RequestInit) => api<T>('GET', url, undefined, init);
export const apiPost = <T>(url: string, body?: Body, init?: RequestInit) =>
  api<T>('POST', url, body, init);

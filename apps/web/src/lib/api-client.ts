import {
  CSRF_COOKIE,
  CSRF_HEADER,
  type Endpoint,
  type ReplyOf,
  type RequestOf,
  SERVER_MESSAGES,
  endpointUrl,
  localizeDetail,
} from '@diagrodl/contracts';
import i18n, { LOCALE_TAG, currentLanguage } from './i18n.ts';

/**
 * An API failure with the server's `detail` when it sent one: in the toggle's language, because
 * every call sends it as Accept-Language and the server answers English to English.
 */
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

/**
 * What a form shows when a call fails: the server's own words when it answered, or the given
 * "no connection" text when it did not (status 0: the request never got an answer).
 */
export function failureText(err: unknown, noConnection: string): string {
  return err instanceof ApiError && err.status !== 0 ? err.detail : noConnection;
}

/**
 * What a failed reply that carries no `detail` says (a proxy's page, an empty body), in the
 * page's language, never the English status text: for 413 the server's own 'too large' message
 * (`tooLarge`: the endpoint's, such as the upload's 15 MB one), otherwise a sentence with the code.
 */
export function httpErrorText(
  status: number,
  tooLarge: string = SERVER_MESSAGES.payloadTooLarge,
): string {
  if (status === 413) return localizeDetail(tooLarge, currentLanguage());
  return i18n.t('httpError', { status });
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
 * The HTTP under `callApi`: same-origin credentials, the CSRF header from the `csrftoken` cookie
 * and the toggle's language as Accept-Language ('es-MX' or 'en-US') on every call, JSON in and
 * out. Throws ApiError on a non-2xx reply (`tooLarge`: its detail for a 413 the server did not word).
 */
async function api<T>(method: string, url: string, body?: Body, tooLarge?: string): Promise<T> {
  const headers = new Headers({ 'Accept-Language': LOCALE_TAG[currentLanguage()] });
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
    res = await fetch(url, { method, headers, body: payload, credentials: 'same-origin' });
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
        : httpErrorText(res.status, tooLarge);
    throw new ApiError(res.status, detail, data);
  }
  return data as T;
}

/** The request an endpoint takes; may be left out when nothing in it is required. */
type RequestArgs<E extends Endpoint> =
  Record<string, never> extends RequestOf<E> ? [request?: RequestOf<E>] : [request: RequestOf<E>];

/**
 * The one typed client for the server: an entry of the endpoint table (packages/contracts)
 * and its request (path params, body, query) give the URL, the method and the reply's type.
 * `callApi(ENDPOINTS.deletePending, { params: { id } })`.
 */
export function callApi<E extends Endpoint>(
  endpoint: E,
  ...[request]: RequestArgs<E>
): Promise<ReplyOf<E>> {
  const r = (request ?? {}) as {
    params?: Record<string, string | number>;
    body?: Body;
    query?: Record<string, string | undefined>;
  };
  return api<ReplyOf<E>>(
    endpoint.method,
    endpointUrl(endpoint, r.params, r.query),
    r.body,
    endpoint.multipart?.tooLarge,
  );
}

import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  DIAGNOSIS_MESSAGES,
  DIAGNOSIS_MESSAGES_EN,
  ENDPOINTS,
  SERVER_MESSAGES,
} from '@diagrodl/contracts';
import { ApiError, callApi, readCookie } from './api-client.ts';
import i18n from './i18n.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  document.cookie = 'csrftoken=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
});

describe('api client', () => {
  it('sends the csrftoken cookie as X-CSRFToken, JSON and same-origin credentials', async () => {
    document.cookie = 'csrftoken=abc.def; path=/';
    expect(readCookie('csrftoken')).toBe('abc.def');
    const fetchMock = vi.fn(
      async () => new Response(JSON.stringify({ status: 'OK', detail: 'ok' }), { status: 200 }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const reply = await callApi(ENDPOINTS.login, { body: { username: 'a', password: 'b' } });
    expect(reply.status).toBe('OK');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/login/');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('same-origin');
    const headers = new Headers(init.headers);
    expect(headers.get('X-CSRFToken')).toBe('abc.def');
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(init.body).toBe(JSON.stringify({ username: 'a', password: 'b' }));
  });

  it("sends the toggle's language as Accept-Language, so that the server answers in it", async () => {
    const fetchMock = vi.fn(async () => new Response('{}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const sent = async (): Promise<string | null> => {
      await callApi(ENDPOINTS.session);
      const [, init] = fetchMock.mock.calls.at(-1) as unknown as [string, RequestInit];
      return new Headers(init.headers).get('Accept-Language');
    };
    expect(await sent()).toBe('es-MX');
    await i18n.changeLanguage('en');
    expect(await sent()).toBe('en-US');
    await i18n.changeLanguage('es');
    expect(await sent()).toBe('es-MX');
  });

  it("throws ApiError with the server's detail on a non-2xx reply", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(
            JSON.stringify({
              status: 'ERROR',
              detail: 'Nombre de usuario o contraseña incorrectos.',
            }),
            { status: 401 },
          ),
      ),
    );
    await expect(callApi(ENDPOINTS.session)).rejects.toMatchObject({
      status: 401,
      detail: 'Nombre de usuario o contraseña incorrectos.',
    });
  });

  it("words a reply without JSON in the page's language, never the English status text", async () => {
    // a proxy in front of the server answers with its own HTML page and status text
    let status = 413;
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response('<html><body>nginx</body></html>', {
            status,
            statusText: status === 413 ? 'Request Entity Too Large' : 'Bad Gateway',
          }),
      ),
    );
    const failure = (p: Promise<unknown>): Promise<ApiError> =>
      p.then(
        () => Promise.reject(new Error('the call did not fail')),
        (e: unknown) => e as ApiError,
      );
    const photo = () => {
      const fd = new FormData();
      fd.append('image', new Blob(['x'], { type: 'image/jpeg' }), 'a.jpg');
      return callApi(ENDPOINTS.upload, { body: fd });
    };
    expect(await failure(photo())).toMatchObject({
      status: 413,
      detail: DIAGNOSIS_MESSAGES.tooLarge,
    });
    expect((await failure(callApi(ENDPOINTS.predict, { body: new FormData() }))).detail).toBe(
      SERVER_MESSAGES.payloadTooLarge,
    );
    status = 502;
    expect((await failure(callApi(ENDPOINTS.session))).detail).toBe(
      'El servidor respondió con un error (HTTP 502).',
    );
    await i18n.changeLanguage('en');
    status = 413;
    expect((await failure(photo())).detail).toBe(DIAGNOSIS_MESSAGES_EN.tooLarge);
    status = 502;
    expect((await failure(callApi(ENDPOINTS.session))).detail).toBe(
      'The server answered with an error (HTTP 502).',
    );
    await i18n.changeLanguage('es');
  });

  it('reports a network failure as status 0', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('offline'))),
    );
    const err = await callApi(ENDPOINTS.session).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(0);
  });

  it('fills in path parameters and the query, and sends a FormData body as it is', async () => {
    const fetchMock = vi.fn(async () => new Response('{}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    await callApi(ENDPOINTS.deleteHistoryItem, { params: { id: 42 } });
    const form = new FormData();
    form.append('image', 'pending');
    await callApi(ENDPOINTS.predict, { body: form, query: { wait: '1' } });
    const calls = fetchMock.mock.calls as unknown as [string, RequestInit][];
    expect(calls[0]![0]).toBe('/diagrodl/history/42/');
    expect(calls[0]![1].method).toBe('DELETE');
    expect(calls[1]![0]).toBe('/diagrodl/posts_predict/?wait=1');
    expect(calls[1]![1].body).toBe(form);
    expect(new Headers(calls[1]![1].headers).get('Content-Type')).toBeNull();
  });
});

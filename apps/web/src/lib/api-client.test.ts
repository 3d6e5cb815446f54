import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiGet, apiPost, readCookie } from './api-client.ts';

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
    const reply = await apiPost<{ status: string }>('/api/login/', {
      username: 'a',
      password: 'b',
    });
    expect(reply.status).toBe('OK');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/login/');
    expect(init.credentials).toBe('same-origin');
    const headers = new Headers(init.headers);
    expect(headers.get('X-CSRFToken')).toBe('abc.def');
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(init.body).toBe(JSON.stringify({ username: 'a', password: 'b' }));
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
    await expect(apiGet('/api/x')).rejects.toMatchObject({
      status: 401,
      detail: 'Nombre de usuario o contraseña incorrectos.',
    });
  });

  it('reports a network failure as status 0', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('offline'))),
    );
    const err = await apiGet('/api/x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(0);
  });
});

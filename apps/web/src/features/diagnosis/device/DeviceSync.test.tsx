// Sending the diagnoses made on the device (DeviceSync): when the server no longer knows the
// session (401), the session is checked again, the app shows the person logged out, nothing is
// retried, and a notice says how many diagnoses wait for a new login. The device's store is kept
// in memory here.
import { render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ENDPOINTS, type SessionReply } from '@diagrodl/contracts';
import { ApiError, callApi } from '@/lib/api-client.ts';
import i18n from '@/lib/i18n.ts';
import { SessionProvider, announceAccountDeleted, useSession } from '@/lib/session.tsx';
import {
  DeviceSync,
  DeviceWaitingNotice,
  forgetDevicePhotos,
  waitingForLogin,
} from './DeviceSync.tsx';
import { DEVICE_CHANGED, type DevicePhoto } from './store.ts';

const store = vi.hoisted(() => new Map<string, DevicePhoto>());

vi.mock('./store.ts', async (original) => ({
  ...(await original<typeof import('./store.ts')>()),
  listDevicePhotos: async (owner: string) => [...store.values()].filter((p) => p.owner === owner),
  updateDevicePhoto: async (id: string, patch: Partial<DevicePhoto>) => {
    const p = store.get(id);
    if (p) store.set(id, { ...p, ...patch });
    return p !== undefined;
  },
  deleteDevicePhotos: async (ids: readonly string[]) => ids.forEach((id) => store.delete(id)),
}));
vi.mock('@/lib/api-client.ts', async (original) => ({
  ...(await original<typeof import('@/lib/api-client.ts')>()),
  callApi: vi.fn(),
}));

const ANA: SessionReply = {
  isAuthenticated: true,
  user: { userName: 'Ana', firstName: 'Ana' } as SessionReply['user'],
};

function diagnosed(id: string): void {
  store.set(id, {
    id,
    owner: 'ana',
    name: `${id}.jpg`,
    type: 'image/jpeg',
    size: 1,
    photo: new Blob(['x'], { type: 'image/jpeg' }),
    addedAt: '2026-05-01T10:00:00.000Z',
    status: 'done',
    result: { label: 'healthy' } as DevicePhoto['result'],
    inWorkingSet: true,
    sync: 'unsent',
  });
}

/** The app's split: the logged-in shell (with DeviceSync) only while someone is logged in. */
function Shell() {
  const { isAuthenticated } = useSession();
  return isAuthenticated ? <DeviceSync /> : <p>login</p>;
}

function renderApp() {
  render(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter>
        <SessionProvider>
          <DeviceWaitingNotice />
          <Shell />
        </SessionProvider>
      </MemoryRouter>
    </I18nextProvider>,
  );
}

/** The server: the session answers `sessions` in turn (the last one after), uploads `upload`. */
function server(sessions: SessionReply[], upload: () => Promise<unknown>) {
  const posts: string[] = [];
  vi.mocked(callApi).mockImplementation((async (endpoint: unknown, opts?: { body?: FormData }) => {
    if (endpoint === ENDPOINTS.session) return sessions.length > 1 ? sessions.shift() : sessions[0];
    if (endpoint === ENDPOINTS.deviceDiagnoses) {
      posts.push(String(opts?.body?.get('client_id')));
      return upload();
    }
    throw new Error('unexpected call');
  }) as unknown as typeof callApi);
  return posts;
}

beforeEach(async () => {
  store.clear();
  vi.mocked(callApi).mockReset();
  await i18n.changeLanguage('es');
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

describe('diagnoses made on the device, when the session has ended', () => {
  it('the person is shown logged out, told how many wait for a login, and nothing is retried', async () => {
    diagnosed('a');
    diagnosed('b');
    const posts = server([ANA, { isAuthenticated: false }], () =>
      Promise.reject(new ApiError(401, 'Inicia sesión.')),
    );
    renderApp();
    expect(await screen.findByTestId('device-waiting-login')).toHaveTextContent(
      'Inicia sesión de nuevo para enviar 2 diagnósticos hechos en este dispositivo.',
    );
    expect(screen.getByText('login')).toBeInTheDocument();
    expect(posts).toEqual(['a']);
    window.dispatchEvent(new Event(DEVICE_CHANGED));
    await new Promise((r) => setTimeout(r, 20));
    expect(posts).toEqual(['a']);
    expect(store.get('a')?.sync).toBe('unsent');
  });

  it('in English too', async () => {
    await i18n.changeLanguage('en');
    diagnosed('a');
    server([ANA, { isAuthenticated: false }], () => Promise.reject(new ApiError(401, 'Log in.')));
    renderApp();
    expect(await screen.findByTestId('device-waiting-login')).toHaveTextContent(
      'Log in again to send 1 diagnosis made on this device.',
    );
  });

  it('once logged in again and sent, the notice goes', async () => {
    diagnosed('a');
    localStorage.setItem('diagrodl.deviceWaitingLogin', JSON.stringify({ owner: 'ana', count: 1 }));
    server([ANA], async () => ({ status: 'OK' }));
    renderApp();
    await waitFor(() => expect(store.get('a')?.sync).toBe('sent'));
    await waitFor(() => expect(waitingForLogin()).toBeNull());
    expect(screen.queryByTestId('device-waiting-login')).toBeNull();
  });

  it("an account deleted: its photos and diagnoses leave the device, no one else's", async () => {
    diagnosed('a');
    store.set('b', { ...store.get('a')!, id: 'b', owner: 'luis' });
    // nothing could be sent: the photos are still there when the account goes
    server([ANA], () => Promise.reject(new ApiError(0, '')));
    renderApp();
    await waitFor(() =>
      expect(callApi).toHaveBeenCalledWith(ENDPOINTS.deviceDiagnoses, expect.anything()),
    );
    announceAccountDeleted('Ana');
    await waitFor(() => expect([...store.keys()]).toEqual(['b']));
  });

  it("forgetting the user's photos clears the notice about them", async () => {
    localStorage.setItem('diagrodl.deviceWaitingLogin', JSON.stringify({ owner: 'ana', count: 1 }));
    await forgetDevicePhotos('ana');
    expect(waitingForLogin()).toBeNull();
  });
});

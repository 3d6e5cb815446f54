// /Mis_datos: deleting the account announces it, so that the photos and diagnoses this user kept
// on the device are forgotten (DeviceSync.test.tsx); they would otherwise be sent later to a new
// account with the same user name.
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client.ts';
import i18n from '@/lib/i18n.ts';
import { announceAccountDeleted } from '@/lib/session.tsx';
import { accountApi } from './api.ts';
import MyDataPage from './MyDataPage.tsx';

// the session check before a download (true: still logged in)
const { refresh, logout } = vi.hoisted(() => ({
  refresh: vi.fn(async () => true),
  logout: vi.fn(async () => undefined),
}));
vi.mock('@/lib/session.tsx', () => ({
  useSession: () => ({
    user: { userName: 'Ana', firstName: 'Ana' },
    logout,
    refresh,
  }),
  announceAccountDeleted: vi.fn(),
}));

afterEach(() => {
  vi.restoreAllMocks();
  vi.mocked(announceAccountDeleted).mockClear();
  logout.mockClear();
});

/** The home page's stand-in: says the notice it was sent with. */
function HomeProbe() {
  const state = useLocation().state as { notice?: string } | null;
  return <p data-testid="home">{state?.notice}</p>;
}

/** /Mis_datos in Spanish. */
async function renderPage() {
  await i18n.changeLanguage('es');
  render(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter initialEntries={['/Mis_datos']}>
        <Routes>
          <Route path="/Mis_datos" element={<MyDataPage />} />
          <Route path="/" element={<HomeProbe />} />
        </Routes>
      </MemoryRouter>
    </I18nextProvider>,
  );
}

async function deleteAccount() {
  await renderPage();
  await userEvent.type(screen.getByLabelText('Tu contraseña'), 'secreta');
  await userEvent.click(screen.getByLabelText(/Entiendo que se borrarán/));
  await userEvent.click(screen.getByRole('button', { name: 'Borrar mi cuenta' }));
  await userEvent.click(await screen.findByRole('button', { name: 'Sí, borrar mi cuenta' }));
}

describe('deleting my account', () => {
  it("announces it, so that this user's photos and diagnoses leave the device", async () => {
    vi.spyOn(accountApi, 'deleteAccount').mockResolvedValue({ status: 'OK', detail: 'Borrada.' });
    await deleteAccount();
    // the signed-in page is left at once for the home page, which says why
    expect(await screen.findByTestId('home')).toHaveTextContent('Borrada.');
    expect(announceAccountDeleted).toHaveBeenCalledWith('Ana');
    await waitFor(() => expect(logout).toHaveBeenCalled());
  });

  it('keeps them when the server refused the deletion', async () => {
    vi.spyOn(accountApi, 'deleteAccount').mockRejectedValue(
      new ApiError(400, 'Contraseña incorrecta.'),
    );
    await deleteAccount();
    expect(await screen.findByText('Contraseña incorrecta.')).toBeInTheDocument();
    expect(announceAccountDeleted).not.toHaveBeenCalled();
    expect(logout).not.toHaveBeenCalled();
  });
});

describe('downloading my data', () => {
  async function clickDownload(): Promise<string[]> {
    const followed: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      followed.push(this.getAttribute('href') ?? '');
    });
    await renderPage();
    await userEvent.click(screen.getByRole('link', { name: 'Descargar mis datos (.zip)' }));
    return followed;
  }

  it('checks the session first, then downloads the archive', async () => {
    refresh.mockResolvedValueOnce(true);
    const followed = await clickDownload();
    await waitFor(() => expect(followed).toEqual([accountApi.exportUrl]));
    expect(refresh).toHaveBeenCalled();
  });

  it('downloads nothing when the session has ended (the app goes to the login)', async () => {
    refresh.mockResolvedValueOnce(false);
    const followed = await clickDownload();
    await waitFor(() => expect(refresh).toHaveBeenCalled());
    expect(followed).toEqual([]);
  });

  it('says so when the device is offline', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const followed = await clickDownload();
    expect(await screen.findByText(/No se pudo conectar con el servidor/)).toBeInTheDocument();
    expect(followed).toEqual([]);
  });
});

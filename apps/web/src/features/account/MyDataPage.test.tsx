// /Mis_datos: deleting the account announces it, so that the photos and diagnoses this user kept
// on the device are forgotten (DeviceSync.test.tsx); they would otherwise be sent later to a new
// account with the same user name.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client.ts';
import i18n from '@/lib/i18n.ts';
import { announceAccountDeleted } from '@/lib/session.tsx';
import { accountApi } from './api.ts';
import MyDataPage from './MyDataPage.tsx';

vi.mock('@/lib/session.tsx', () => ({
  useSession: () => ({
    user: { userName: 'Ana', firstName: 'Ana' },
    logout: async () => undefined,
  }),
  announceAccountDeleted: vi.fn(),
}));

afterEach(() => {
  vi.restoreAllMocks();
  vi.mocked(announceAccountDeleted).mockClear();
});

async function deleteAccount() {
  await i18n.changeLanguage('es');
  render(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter>
        <MyDataPage />
      </MemoryRouter>
    </I18nextProvider>,
  );
  await userEvent.type(screen.getByLabelText('Tu contraseña'), 'secreta');
  await userEvent.click(screen.getByLabelText(/Entiendo que se borrarán/));
  await userEvent.click(screen.getByRole('button', { name: 'Borrar mi cuenta' }));
  await userEvent.click(await screen.findByRole('button', { name: 'Sí, borrar mi cuenta' }));
}

describe('deleting my account', () => {
  it("announces it, so that this user's photos and diagnoses leave the device", async () => {
    vi.spyOn(accountApi, 'deleteAccount').mockResolvedValue({ status: 'OK', detail: 'Borrada.' });
    await deleteAccount();
    expect(await screen.findByRole('button', { name: 'Ir al inicio' })).toBeInTheDocument();
    expect(announceAccountDeleted).toHaveBeenCalledWith('Ana');
  });

  it('keeps them when the server refused the deletion', async () => {
    vi.spyOn(accountApi, 'deleteAccount').mockRejectedValue(
      new ApiError(400, 'Contraseña incorrecta.'),
    );
    await deleteAccount();
    expect(await screen.findByText('Contraseña incorrecta.')).toBeInTheDocument();
    expect(announceAccountDeleted).not.toHaveBeenCalled();
  });
});

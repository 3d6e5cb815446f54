// /Login_session: both fields empty give both messages at once, under their fields, in the
// page's language, with the focus on the first.
import { LOGIN_MESSAGES as M, LOGIN_MESSAGES_ES as M_ES, ROUTES } from '@diagrodl/contracts';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import i18n from '@/lib/i18n.ts';
import LoginPage from './LoginPage.tsx';

vi.mock('@/lib/session.tsx', () => ({ useSession: () => ({ accept: vi.fn() }) }));

async function renderPage(lang: 'es' | 'en') {
  await i18n.changeLanguage(lang);
  render(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter initialEntries={[ROUTES.login]}>
        <LoginPage />
      </MemoryRouter>
    </I18nextProvider>,
  );
}

describe('the login form submitted empty', () => {
  it('on the Spanish page: both messages in Spanish under their fields, the count, the focus', async () => {
    await renderPage('es');
    await userEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    const user = screen.getByLabelText('Nombre de usuario');
    const password = screen.getByLabelText('Contraseña', { exact: true });
    expect(user).toHaveAttribute('aria-invalid', 'true');
    expect(user).toHaveAccessibleDescription(M_ES.userNameEmpty);
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(password).toHaveAccessibleDescription(M_ES.passwordEmpty);
    expect(user).toHaveFocus();
    expect(screen.getByTestId('login-message')).toHaveTextContent(
      `Revisa los 2 campos marcados. ${M_ES.userNameEmpty}`,
    );
    for (const english of Object.values(M)) {
      expect(document.body.textContent).not.toContain(english);
    }

    // filled in: its mark goes, the other stays, and the toggle says it in English
    await userEvent.type(user, 'AnaLopez');
    expect(user).not.toHaveAttribute('aria-invalid');
    expect(screen.getByTestId('login-message')).toHaveTextContent(
      `Revisa el campo marcado. ${M_ES.passwordEmpty}`,
    );
    await act(() => i18n.changeLanguage('en'));
    expect(password).toHaveAccessibleDescription(M.passwordEmpty);
    expect(screen.getByTestId('login-message')).toHaveTextContent(
      `Check the field marked. ${M.passwordEmpty}`,
    );
  });

  it("on the English page: the specification's words", async () => {
    await renderPage('en');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(screen.getByLabelText('User name')).toHaveAccessibleDescription(M.userNameEmpty);
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(M.passwordEmpty);
    expect(screen.getByLabelText('User name')).toHaveFocus();
    expect(screen.getByTestId('login-message')).toHaveTextContent(
      `Check the 2 fields marked. ${M.userNameEmpty}`,
    );
  });
});

// /Create_account: an empty submit marks every field at once, each with the rule's message under
// it in the page's language, the focus on the first, and the count near the button.
import {
  REGISTRATION_MESSAGES as M,
  REGISTRATION_MESSAGES_ES as M_ES,
  ROUTES,
  registrationMessage,
} from '@diagrodl/contracts';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client.ts';
import i18n from '@/lib/i18n.ts';
import { accountApi } from './api.ts';
import RegisterPage from './RegisterPage.tsx';

afterEach(() => vi.restoreAllMocks());

async function renderPage(lang: 'es' | 'en') {
  await i18n.changeLanguage(lang);
  render(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter initialEntries={[ROUTES.createAccount]}>
        <RegisterPage />
      </MemoryRouter>
    </I18nextProvider>,
  );
  return within(screen.getByTestId('register-form'));
}

/** The required fields by their label, with the message each gets when left empty. */
const REQUIRED = {
  es: [
    ['Nombre de usuario', M_ES.userNameEmpty],
    ['Nombre(s)', M_ES.firstNameEmpty],
    ['Apellidos', M_ES.lastNameEmpty],
    ['Correo electrónico', M_ES.emailEmpty],
    ['País', M_ES.countryNotSelected],
    ['Ciudad', M_ES.cityEmpty],
    ['Tipo de organización', M_ES.organisationTypeNotSelected],
    ['Nombre de la organización', M_ES.organisationNameEmpty],
    ['Uso que le darás', M_ES.purposeNotSelected],
    [/Acepto los términos/, M_ES.termsNotAccepted],
    [/Acepto la licencia de uso de datos/, M_ES.licenceNotAccepted('DiAgro')],
  ],
  en: [
    ['User name', M.userNameEmpty],
    ['First name', M.firstNameEmpty],
    ['Last name', M.lastNameEmpty],
    ['Email address', M.emailEmpty],
    ['Country', M.countryNotSelected],
    ['City', M.cityEmpty],
    ['Organisation type', M.organisationTypeNotSelected],
    ['Organisation name', M.organisationNameEmpty],
    ['Purpose of use', M.purposeNotSelected],
    [/I accept the terms/, M.termsNotAccepted],
    [/I accept the DiAgro data-use licence/, 'Please, Activate --> Accept DiAgro-User License!'],
  ],
} as const;

const ENGLISH_RULES = (Object.keys(M) as (keyof typeof M)[]).map((key) =>
  registrationMessage(key, 'en', 'DiAgro'),
);

/** Each field is marked invalid and described by its message, which stands in its own group. */
function expectMarked(form: ReturnType<typeof within>, lang: 'es' | 'en') {
  for (const [label, message] of REQUIRED[lang]) {
    const field = form.getByLabelText(label, typeof label === 'string' ? { exact: true } : {});
    expect(field, String(label)).toHaveAttribute('aria-invalid', 'true');
    expect(field, String(label)).toHaveClass('is-invalid');
    expect(field, String(label)).toHaveAccessibleDescription(expect.stringContaining(message));
    const error = document.getElementById(`${field.id}-error`)!;
    expect(error, String(label)).toHaveTextContent(message);
    expect(field.closest('.mb-3, .form-check')).toContainElement(error);
  }
}

describe('an empty registration submitted', () => {
  it('on the Spanish page: every message in Spanish under its field, focus and count', async () => {
    const register = vi.spyOn(accountApi, 'register');
    const form = await renderPage('es');
    await userEvent.click(form.getByRole('button', { name: 'Enviar' }));

    expectMarked(form, 'es');
    expect(form.getByLabelText('Nombre de usuario', { exact: true })).toHaveFocus();
    const area = screen.getByTestId('register-message');
    expect(area).toHaveAttribute('data-state', 'danger');
    expect(area).toHaveTextContent(`Revisa los 11 campos marcados. ${M_ES.userNameEmpty}`);
    // no English rule anywhere on the page
    for (const english of ENGLISH_RULES) {
      expect(document.body.textContent, english).not.toContain(english);
    }
    // optional fields stay unmarked, and nothing was sent
    expect(form.getByLabelText('Teléfono (opcional)')).not.toHaveAttribute('aria-invalid');
    expect(form.getByLabelText(/Doy permiso/)).not.toHaveAttribute('aria-invalid');
    expect(register).not.toHaveBeenCalled();
  });

  it("on the English page: the specification's exact words", async () => {
    const form = await renderPage('en');
    await userEvent.click(form.getByRole('button', { name: 'Submit' }));
    expectMarked(form, 'en');
    expect(form.getByLabelText('User name', { exact: true })).toHaveFocus();
    expect(screen.getByTestId('register-message')).toHaveTextContent(
      'Check the 11 fields marked. User Name cannot be empty',
    );
  });

  it('says the messages again in the other language when the toggle changes', async () => {
    const form = await renderPage('es');
    await userEvent.click(form.getByRole('button', { name: 'Enviar' }));
    await act(() => i18n.changeLanguage('en'));
    expectMarked(form, 'en');
    await act(() => i18n.changeLanguage('es'));
    expectMarked(form, 'es');
  });

  it('takes a mark away once its field is corrected, and the count with it', async () => {
    const form = await renderPage('es');
    await userEvent.click(form.getByRole('button', { name: 'Enviar' }));
    const user = form.getByLabelText('Nombre de usuario', { exact: true });
    await userEvent.type(user, 'ana');
    // still wrong: the rule that now fails
    expect(user).toHaveAccessibleDescription(expect.stringContaining(M_ES.userNameLength));
    await userEvent.type(user, 'lopez');
    expect(user).not.toHaveAttribute('aria-invalid');
    expect(document.getElementById('reg-user-name-error')).toBeNull();
    await userEvent.click(form.getByLabelText(/Acepto los términos/));
    expect(form.getByLabelText(/Acepto los términos/)).not.toHaveAttribute('aria-invalid');
    expect(screen.getByTestId('register-message')).toHaveTextContent(
      `Revisa los 9 campos marcados. ${M_ES.firstNameEmpty}`,
    );
  });

  it('marks a malformed address with the format message, after the rules', async () => {
    const form = await renderPage('es');
    await userEvent.type(form.getByLabelText('Correo electrónico'), 'juan@');
    await userEvent.click(form.getByRole('button', { name: 'Enviar' }));
    expect(form.getByLabelText('Correo electrónico')).toHaveAccessibleDescription(
      expect.stringContaining('no tiene un formato válido'),
    );
    expect(screen.getByTestId('register-message')).toHaveTextContent(
      `Revisa los 11 campos marcados. ${M_ES.userNameEmpty}`,
    );
  });
});

// a whole form filled in: slower than the default 5 s allows on a loaded machine
describe("the server's answer", { timeout: 20_000 }, () => {
  /** A form the page lets through, sent. */
  async function fillAndSend(lang: 'es' | 'en') {
    const form = await renderPage(lang);
    const values = ['AnaLopez1', 'Ana', 'López', 'ana@example.com', 'MX', 'Texcoco', '3', 'X', '3'];
    for (const [i, [label]] of REQUIRED[lang].entries()) {
      const field = form.getByLabelText(label, typeof label === 'string' ? { exact: true } : {});
      if (field.tagName === 'SELECT') await userEvent.selectOptions(field, values[i]!);
      else if (field.getAttribute('type') === 'checkbox') await userEvent.click(field);
      else {
        await userEvent.click(field);
        await userEvent.paste(values[i]!);
      }
    }
    await userEvent.click(form.getByRole('button', { name: lang === 'es' ? 'Enviar' : 'Submit' }));
  }

  it("says a rule's English words, as a server sends them, in Spanish on the Spanish page", async () => {
    vi.spyOn(accountApi, 'register').mockRejectedValue(new ApiError(400, M.cityEmpty));
    await fillAndSend('es');
    const area = screen.getByTestId('register-message');
    expect(await within(area).findByText(M_ES.cityEmpty)).toBeInTheDocument();
    expect(area).toHaveAttribute('data-state', 'danger');
    expect(document.body.textContent).not.toContain(M.cityEmpty);
  });

  it('keeps them on the English page', async () => {
    vi.spyOn(accountApi, 'register').mockRejectedValue(new ApiError(400, M.cityEmpty));
    await fillAndSend('en');
    expect(
      await within(screen.getByTestId('register-message')).findByText(M.cityEmpty),
    ).toBeInTheDocument();
  });
});

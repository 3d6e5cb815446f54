import type { Page } from '@playwright/test';
import { OTHER_COUNTRIES } from '../packages/contracts/src/countries.ts';
import { LOGIN_MESSAGES, LOGIN_MESSAGES_ES } from '../packages/contracts/src/login.ts';
import {
  REGISTRATION_MESSAGES as M,
  REGISTRATION_MESSAGES_ES as M_ES,
  registrationMessage,
} from '../packages/contracts/src/registration.ts';
import {
  type ReadMail,
  passwordFromMail,
  readOutbox,
  resetLinkFromMail,
} from '../apps/server/src/testing/mail-reader.ts';
import { MAIL_DIR } from './playwright.config.ts';
import {
  createUser,
  expect,
  expectAccessible,
  loginViaApi,
  setLanguage,
  shot,
  test,
  uniqueUserName,
} from './fixtures.ts';

/** Waits until the SMTP sink has received a message for the address. */
async function waitForMail(to: string, subject?: RegExp): Promise<ReadMail> {
  let found: ReadMail | undefined;
  await expect
    .poll(
      () => {
        found = readOutbox(MAIL_DIR)
          .filter((m) => m.to.toLowerCase().includes(to.toLowerCase()))
          .filter((m) => !subject || subject.test(m.subject))
          .at(-1);
        return !!found;
      },
      { timeout: 15_000, message: `mail to ${to}` },
    )
    .toBe(true);
  return found!;
}

interface Registration {
  userName: string;
  firstName: string;
  lastName: string;
  email: string;
  country: string;
  city: string;
  phone: string;
  orgType: string;
  orgName: string;
  purpose: string;
}

function person(over: Partial<Registration> = {}): Registration {
  const userName = uniqueUserName('reg');
  return {
    userName,
    firstName: 'Ana',
    lastName: 'López',
    email: `${userName.toLowerCase()}@example.test`,
    country: 'MX',
    city: 'Texcoco',
    phone: '595 952 1500',
    orgType: '3',
    orgName: 'Universidad Autónoma Chapingo',
    purpose: '3',
    ...over,
  };
}

const form = (page: Page) => page.getByTestId('register-form');
const message = (page: Page) => page.getByTestId('register-message');

async function fillRegistration(page: Page, p: Registration, lang: 'es' | 'en' = 'es') {
  const L =
    lang === 'es'
      ? {
          user: 'Nombre de usuario',
          first: 'Nombre(s)',
          last: 'Apellidos',
          email: 'Correo electrónico',
          country: 'País',
          city: 'Ciudad',
          phone: 'Teléfono (opcional)',
          orgType: 'Tipo de organización',
          orgName: 'Nombre de la organización',
          purpose: 'Uso que le darás',
          terms: /Acepto los términos/,
          data: /Acepto la licencia de uso de datos de DiAgro/,
        }
      : {
          user: 'User name',
          first: 'First name',
          last: 'Last name',
          email: 'Email address',
          country: 'Country',
          city: 'City',
          phone: 'Phone number (optional)',
          orgType: 'Organisation type',
          orgName: 'Organisation name',
          purpose: 'Purpose of use',
          terms: /I accept the terms/,
          data: /I accept the DiAgro data-use licence/,
        };
  const f = form(page);
  await f.getByLabel(L.user, { exact: true }).fill(p.userName);
  await f.getByLabel(L.first, { exact: true }).fill(p.firstName);
  await f.getByLabel(L.last, { exact: true }).fill(p.lastName);
  await f.getByLabel(L.email, { exact: true }).fill(p.email);
  await f.getByLabel(L.country, { exact: true }).selectOption(p.country);
  await f.getByLabel(L.city, { exact: true }).fill(p.city);
  await f.getByLabel(L.phone, { exact: true }).fill(p.phone);
  await f.getByLabel(L.orgType, { exact: true }).selectOption(p.orgType);
  await f.getByLabel(L.orgName, { exact: true }).fill(p.orgName);
  await f.getByLabel(L.purpose, { exact: true }).selectOption(p.purpose);
  await f.getByLabel(L.terms).check();
  await f.getByLabel(L.data).check();
}

async function loginThroughForm(page: Page, userName: string, password: string, remember = false) {
  await page.goto('/Login_session');
  await page.getByLabel('Nombre de usuario').fill(userName);
  await page.getByLabel('Contraseña', { exact: true }).fill(password);
  if (remember) await page.getByLabel(/Recordarme/).check();
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.locator('[data-shell="auth"]')).toBeVisible();
}

test.describe('registration form', () => {
  test('has every field in the specification order and the country list', async ({ page }) => {
    await page.goto('/Create_account');
    await expect(form(page).locator('label').last()).toBeVisible();
    const labels = await form(page).locator('label').allInnerTexts();
    expect(labels).toEqual([
      'Nombre de usuario',
      'Nombre(s)',
      'Apellidos',
      'Correo electrónico',
      'Contraseña',
      'País',
      'Código de país',
      'Ciudad',
      'Teléfono (opcional)',
      'Tipo de organización',
      'Nombre de la organización',
      'Uso que le darás',
      'Acepto los términos y condiciones y la política de privacidad',
      'Doy permiso para que me contacten para encuestas de usuarios',
      'Acepto la licencia de uso de datos de DiAgro',
      'Quiero suscribirme a la lista de correo para recibir novedades',
    ]);
    await expect(form(page).getByLabel('Contraseña')).toHaveValue(
      'Te llegará por correo electrónico',
    );
    await expect(
      form(page).getByText('Recibirás tu contraseña por correo electrónico'),
    ).toBeVisible();
    await expect(form(page).getByLabel('Contraseña')).toHaveAttribute('readonly', '');
    const country = form(page).getByLabel('País', { exact: true });
    const first = await country.locator(':scope > option').allInnerTexts();
    expect(first).toEqual([
      'Selecciona un país',
      'México (+52)',
      'Estados Unidos (+1)',
      'Canadá (+1)',
    ]);
    const group = country.locator('optgroup[label="Otros países"] > option');
    await expect(group).toHaveCount(OTHER_COUNTRIES.length);
    expect(OTHER_COUNTRIES.length).toBeGreaterThanOrEqual(230);
    const code = form(page).getByLabel('Código de país');
    await expect(code).toHaveAttribute('readonly', '');
    await country.selectOption('ES');
    await expect(code).toHaveValue('+34');
    await country.selectOption('MX');
    await expect(code).toHaveValue('+52');
    await expect(form(page).getByLabel('Tipo de organización').locator('option')).toHaveText([
      'Selecciona una opción',
      'Organismo público internacional',
      'Autoridades públicas nacionales/regionales/locales',
      'Organización de investigación y educación',
      'Empresa/Comercial/Profesional',
      'Interés personal',
      'Otro',
    ]);
    await expect(message(page)).toHaveAttribute('data-state', 'neutral');
  });

  test('shows every rule message in order, in Spanish, then the success text', async ({ page }) => {
    await page.goto('/Create_account');
    const f = form(page);
    const submit = f.getByRole('button', { name: 'Enviar' });
    // the message area: how many fields are marked, then the first rule's message
    const expectDanger = async (count: number, text: string) => {
      await submit.click();
      await expect(message(page)).toHaveAttribute('data-state', 'danger');
      await expect(message(page)).toHaveText(
        `${count === 1 ? 'Revisa el campo marcado.' : `Revisa los ${count} campos marcados.`} ${text}`,
      );
    };
    const user = f.getByLabel('Nombre de usuario', { exact: true });
    await expectDanger(11, M_ES.userNameEmpty);
    await user.fill('abc');
    await expectDanger(11, M_ES.userNameLength);
    await user.fill('ana lopez');
    await expectDanger(11, M_ES.userNameChars);
    const p = person();
    await user.fill(p.userName);
    await expectDanger(10, M_ES.firstNameEmpty);
    await f.getByLabel('Nombre(s)').fill(p.firstName);
    await expectDanger(9, M_ES.lastNameEmpty);
    await f.getByLabel('Apellidos').fill(p.lastName);
    await expectDanger(8, M_ES.emailEmpty);
    await f.getByLabel('Correo electrónico').fill(p.email);
    await expectDanger(7, M_ES.countryNotSelected);
    await f.getByLabel('País', { exact: true }).selectOption('CA');
    await expectDanger(6, M_ES.cityEmpty);
    await f.getByLabel('Ciudad').fill('Toronto');
    await expectDanger(5, M_ES.organisationTypeNotSelected);
    await f.getByLabel('Tipo de organización').selectOption('1');
    await expectDanger(4, M_ES.organisationNameEmpty);
    await f.getByLabel('Nombre de la organización').fill('FAO');
    await expectDanger(3, M_ES.purposeNotSelected);
    await f.getByLabel('Uso que le darás').selectOption('2');
    await expectDanger(2, M_ES.termsNotAccepted);
    await f.getByLabel(/Acepto los términos/).check();
    await expectDanger(1, 'Acepta la licencia de uso de datos de DiAgro.');
    await f.getByLabel(/Acepto la licencia de uso de datos/).check();
    await submit.click();
    // the success text shows while the request is sent; then the reply.
    await expect(message(page)).toHaveAttribute('data-state', 'success');
    await expect(message(page)).toContainText(new RegExp(`${M_ES.valid}|Cuenta creada`));
    await expect(message(page)).toContainText(
      `¡Cuenta creada! Te enviamos tu contraseña a ${p.email}`,
    );
    await waitForMail(p.email);

    // The same user name again: the server's detail in the danger style.
    await fillRegistration(page, { ...person(), userName: p.userName });
    await submit.click();
    await expect(message(page)).toHaveAttribute('data-state', 'danger');
    await expect(message(page)).toContainText('ya está registrado');
  });

  test('a malformed address is refused before the form is sent', async ({ page }) => {
    await page.goto('/Create_account');
    let sent = false;
    page.on('request', (r) => {
      if (r.url().includes('/api/Create_user/')) sent = true;
    });
    await fillRegistration(page, person({ email: 'juan@' }));
    await form(page).getByRole('button', { name: 'Enviar' }).click();
    await expect(message(page)).toHaveAttribute('data-state', 'danger');
    const formatRule =
      'El correo electrónico no tiene un formato válido (ejemplo: nombre@dominio.com).';
    await expect(message(page)).toHaveText(`Revisa el campo marcado. ${formatRule}`);
    await expect(form(page).getByLabel('Correo electrónico')).toBeFocused();
    await expect(form(page).getByLabel('Correo electrónico')).toHaveAccessibleDescription(
      formatRule,
    );
    expect(sent).toBe(false);
  });

  test('an empty form on the Spanish page at 390 px: every message in Spanish by its field', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/Create_account');
    await form(page).getByRole('button', { name: 'Enviar' }).click();
    // each marked field (in the form's order) with its rule's message right under it
    const invalid = form(page).locator('[aria-invalid="true"]');
    await expect(invalid).toHaveCount(11);
    const said: string[] = [];
    for (const field of await invalid.all()) {
      const id = await field.getAttribute('id');
      const error = form(page).locator(`#${id}-error`);
      await expect(error).toBeVisible();
      await expect(field).toHaveAttribute('aria-describedby', new RegExp(`${id}-error`));
      const [f, e] = [await field.boundingBox(), await error.boundingBox()];
      expect(e!.y - (f!.y + f!.height), id!).toBeGreaterThanOrEqual(0);
      expect(e!.y - (f!.y + f!.height), id!).toBeLessThan(40);
      said.push(await error.innerText());
    }
    expect(said).toEqual(
      (
        [
          'userNameEmpty',
          'firstNameEmpty',
          'lastNameEmpty',
          'emailEmpty',
          'countryNotSelected',
          'cityEmpty',
          'organisationTypeNotSelected',
          'organisationNameEmpty',
          'purposeNotSelected',
          'termsNotAccepted',
          'licenceNotAccepted',
        ] as const
      ).map((key) => registrationMessage(key, 'es', 'DiAgro')),
    );
    await expect(form(page).getByLabel('Nombre de usuario', { exact: true })).toBeFocused();
    await expect(message(page)).toHaveText(`Revisa los 11 campos marcados. ${M_ES.userNameEmpty}`);
    const body = await page.locator('body').innerText();
    for (const key of Object.keys(M) as (keyof typeof M)[]) {
      expect(body).not.toContain(registrationMessage(key, 'en', 'DiAgro'));
    }
    await expectAccessible(page, '/Create_account es 390 empty');
    await shot(page, 'accounts-register-empty-es-390');

    // the toggle says them in the specification's English
    await page.getByTestId('language-toggle').click();
    await expect(message(page)).toHaveText(`Check the 11 fields marked. ${M.userNameEmpty}`);
    await expect(form(page).locator('#reg-city-error')).toHaveText(M.cityEmpty);
  });

  test('the whole journey: register, mail, log in, change password, log out, log in', async ({
    page,
  }) => {
    const p = person();
    await page.goto('/Create_account');
    await fillRegistration(page, p);
    await form(page).getByRole('button', { name: 'Enviar' }).click();
    await expect(message(page)).toContainText('¡Cuenta creada!');
    const mail = await waitForMail(p.email);
    expect(mail.subject).toBe('Tu cuenta de DiAgroDL');
    expect(mail.text).toContain(`Nombre de usuario: ${p.userName}`);
    const password = passwordFromMail(mail);

    await loginThroughForm(page, p.userName, password);
    await expect(page.locator('[data-shell="auth"]')).toContainText(`Hola, ${p.firstName}`);

    await page.getByRole('link', { name: 'Cambiar contraseña' }).click();
    await expect(page).toHaveURL(/\/Change_password$/);
    const NEW = 'Jitomate-Saladette-2026';
    await page.getByLabel('Contraseña actual').fill(password);
    await page.getByLabel('Nueva contraseña', { exact: true }).fill(NEW);
    await page.getByLabel('Repite la nueva contraseña').fill('otra-distinta-1');
    await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
    await expect(page.getByTestId('change-message')).toHaveText(
      'Revisa el campo marcado. Las dos contraseñas nuevas no coinciden.',
    );
    await expect(page.getByLabel('Repite la nueva contraseña')).toHaveAccessibleDescription(
      'Las dos contraseñas nuevas no coinciden.',
    );
    await expect(page.getByLabel('Repite la nueva contraseña')).toBeFocused();
    await page.getByLabel('Repite la nueva contraseña').fill(NEW);
    await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
    await expect(page.getByTestId('change-message')).toHaveAttribute('data-state', 'success');
    await expect(page.getByTestId('change-message')).toContainText('Tu contraseña se cambió');

    // Logged out from an open page: from a protected page the shell's navigate('/') can lose
    // the race with the login redirect (reported to the lead, AuthShell.onLogout).
    await page.getByRole('link', { name: 'Acerca de', exact: true }).first().click();
    await expect(page).toHaveURL(/\/About$/);
    await page.getByRole('button', { name: 'Cerrar sesión' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.locator('[data-shell="public"]')).toBeVisible();

    await page.goto('/Login_session');
    await page.getByLabel('Nombre de usuario').fill(p.userName);
    await page.getByLabel('Contraseña', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await expect(page.getByTestId('login-message')).toHaveText(
      'Nombre de usuario o contraseña incorrectos.',
    );
    await expect(page.getByTestId('login-message').locator('.alert-danger')).toBeVisible();
    await loginThroughForm(page, p.userName, NEW);
  });

  test('registers in English and gets the mail in English', async ({ page }) => {
    await setLanguage(page, 'en');
    const p = person();
    await page.goto('/Create_account');
    await expect(
      form(page).getByLabel('Country', { exact: true }).locator('optgroup'),
    ).toHaveAttribute('label', 'Other countries');
    // the specification's own words on the English page, each under its field
    await form(page).getByRole('button', { name: 'Submit' }).click();
    await expect(message(page)).toHaveText(`Check the 11 fields marked. ${M.userNameEmpty}`);
    await expect(form(page).getByLabel('User name', { exact: true })).toBeFocused();
    await expect(form(page).getByLabel('Country', { exact: true })).toHaveAccessibleDescription(
      M.countryNotSelected,
    );
    await expect(form(page).locator('#reg-accept-terms-error')).toHaveText(M.termsNotAccepted);
    await expect(form(page).getByLabel(/I accept the terms/)).toHaveAttribute(
      'aria-describedby',
      /reg-accept-terms-error/,
    );
    await fillRegistration(page, p, 'en');
    await form(page).getByRole('button', { name: 'Submit' }).click();
    await expect(message(page)).toHaveAttribute('data-state', 'success');
    const mail = await waitForMail(p.email);
    expect(mail.subject).toBe('Your DiAgroDL account');
    expect(mail.text).toContain(`User name: ${p.userName}`);
  });

  test('hostile text is stored as text and shown inertly', async ({ page }) => {
    const hostile = '<img src=x onerror="window.__xss=1">😀Ñ';
    const p = person({
      firstName: hostile,
      lastName: "'; DROP TABLE users; --",
      city: 'São Paulo <script>window.__xss=2</script>',
      orgName: '🍅 Agrícola "El Jitomate" & Cía.',
    });
    await page.goto('/Create_account');
    await fillRegistration(page, p);
    await form(page).getByRole('button', { name: 'Enviar' }).click();
    await expect(message(page)).toContainText('¡Cuenta creada!');
    const password = passwordFromMail(await waitForMail(p.email));
    await loginThroughForm(page, p.userName, password);
    await expect(page.locator('[data-shell="auth"]')).toContainText(`Hola, ${hostile}`);
    expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();

    // 10 kB in a field: a clear refusal, not a crash.
    await page.getByRole('button', { name: 'Cerrar sesión' }).click();
    await page.goto('/Create_account');
    await fillRegistration(page, person({ city: 'Ñ'.repeat(10_240) }));
    await form(page).getByRole('button', { name: 'Enviar' }).click();
    await expect(message(page)).toHaveAttribute('data-state', 'danger');
    await expect(message(page)).toHaveText('El campo Ciudad admite como máximo 100 caracteres.');
  });
});

test.describe('login', () => {
  test('keeps the specification states, links to reset, and remember-me is real', async ({
    page,
    context,
  }) => {
    const name = uniqueUserName('login');
    createUser(name, 'Clave-Segura-2026');
    await page.goto('/Login_session');
    const msg = page.getByTestId('login-message');
    // both empty: both marked, in Spanish, the focus on the first
    await page.getByRole('button', { name: 'Entrar' }).click();
    await expect(msg).toHaveText(
      `Revisa los 2 campos marcados. ${LOGIN_MESSAGES_ES.userNameEmpty}`,
    );
    await expect(page.getByLabel('Nombre de usuario')).toBeFocused();
    await expect(page.getByLabel('Contraseña', { exact: true })).toHaveAccessibleDescription(
      LOGIN_MESSAGES_ES.passwordEmpty,
    );
    await page.getByLabel('Nombre de usuario').fill(name);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await expect(msg).toHaveText(`Revisa el campo marcado. ${LOGIN_MESSAGES_ES.passwordEmpty}`);
    // the toggle says them in the specification's English
    await page.getByTestId('language-toggle').click();
    await expect(msg).toHaveText(`Check the field marked. ${LOGIN_MESSAGES.passwordEmpty}`);
    await page.getByTestId('language-toggle').click();
    await expect(msg).toHaveText(`Revisa el campo marcado. ${LOGIN_MESSAGES_ES.passwordEmpty}`);
    await expect(page.getByRole('link', { name: '¿Olvidaste tu contraseña?' })).toHaveAttribute(
      'href',
      '/Reset_password',
    );
    await loginThroughForm(page, name, 'Clave-Segura-2026', true);
    const cookie = (await context.cookies()).find((c) => c.name === 'sessionid')!;
    expect(cookie.expires * 1000 - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000);
    expect(cookie.httpOnly).toBe(true);

    await page.getByRole('button', { name: 'Cerrar sesión' }).click();
    await expect(page.locator('[data-shell="public"]')).toBeVisible();
    await loginThroughForm(page, name, 'Clave-Segura-2026', false);
    const session = (await context.cookies()).find((c) => c.name === 'sessionid')!;
    expect(session.expires).toBe(-1);
  });

  test('logging in is one round trip: the login answers with the session', async ({ page }) => {
    const name = uniqueUserName('once');
    createUser(name, 'Clave-Segura-2026');
    const pageLoadSession = page.waitForResponse((r) => r.url().endsWith('/api/session/'));
    await page.goto('/Login_session');
    await pageLoadSession;
    const calls: string[] = [];
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith('/api/')) calls.push(`${r.method()} ${path}`);
    });
    await page.getByLabel('Nombre de usuario').fill(name);
    await page.getByLabel('Contraseña', { exact: true }).fill('Clave-Segura-2026');
    await page.getByRole('button', { name: 'Entrar' }).click();
    await expect(page.locator('[data-shell="auth"]')).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    // a stray session check would come after the navigation: let the page settle first
    await page.waitForLoadState('networkidle');
    expect(calls).toEqual(['POST /api/login/']);
  });

  test('the reset-link journey: ask, read the mail, set a new password, log in', async ({
    page,
  }) => {
    const name = uniqueUserName('reset');
    const email = `${name.toLowerCase()}@example.test`;
    createUser(name, 'Clave-Vieja-2026');
    await page.goto('/Login_session');
    await page.getByRole('link', { name: '¿Olvidaste tu contraseña?' }).click();
    await expect(page).toHaveURL(/\/Reset_password$/);
    await page.getByLabel('Correo electrónico').fill(email);
    await page.getByRole('button', { name: 'Enviar el enlace' }).click();
    await expect(page.getByTestId('reset-message')).toContainText('te enviamos un enlace');
    const mail = await waitForMail(email, /Restablece/);
    const link = resetLinkFromMail(mail);

    await page.goto(link.pathname + link.search);
    const NEW = 'Clave-Nueva-2027';
    await page.getByLabel('Nueva contraseña', { exact: true }).fill('corta');
    await page.getByLabel('Repite la nueva contraseña').fill('corta');
    await page.getByRole('button', { name: 'Guardar la nueva contraseña' }).click();
    await expect(page.getByTestId('reset-message')).toHaveText(
      'Revisa el campo marcado. La nueva contraseña debe tener al menos 10 caracteres.',
    );
    await page.getByLabel('Nueva contraseña', { exact: true }).fill(NEW);
    await page.getByLabel('Repite la nueva contraseña').fill(NEW);
    await page.getByRole('button', { name: 'Guardar la nueva contraseña' }).click();
    await expect(page.getByTestId('reset-message')).toContainText('Tu contraseña se restableció');
    await page.getByRole('link', { name: 'Ir a iniciar sesión' }).click();
    await expect(page).toHaveURL(/\/Login_session$/);
    await loginThroughForm(page, name, NEW);

    // The link works once.
    await page.getByRole('button', { name: 'Cerrar sesión' }).click();
    await page.goto(link.pathname + link.search);
    await expect(page.getByTestId('reset-message')).toContainText('ya se usó o caducó');
  });
});

test.describe('contact', () => {
  test('a visitor sends a message; every invalid field is explained', async ({ page }) => {
    await page.goto('/Contact_us');
    await page.getByRole('button', { name: 'Enviar mensaje' }).click();
    // each under its field; the message area says how many and the first one
    await expect(page.locator('#contact-name-error')).toHaveText('Escribe tu nombre.');
    await expect(
      page.getByText('Escribe tu correo electrónico para poder responderte.'),
    ).toBeVisible();
    await expect(page.getByText('Escribe el asunto de tu mensaje.')).toBeVisible();
    await expect(page.getByText('Escribe tu mensaje.')).toBeVisible();
    await expect(page.getByLabel('Nombre')).toBeFocused();
    // the page's own messages follow the language toggle
    await page.getByTestId('language-toggle').click();
    await expect(page.locator('#contact-name-error')).toHaveText('Enter your name.');
    await expect(page.getByTestId('contact-message-area')).toHaveText(
      'Check the 4 fields marked. Enter your name.',
    );
    await page.getByTestId('language-toggle').click();
    await expect(page.locator('#contact-name-error')).toHaveText('Escribe tu nombre.');
    await page.getByLabel('Nombre').fill('<b>Ana</b> 😀');
    await page.getByLabel('Correo electrónico').fill('no-es-correo');
    await page.getByLabel('Asunto').fill("'; DROP TABLE contact_messages; --");
    await page.getByLabel('Mensaje').fill('x'.repeat(10_240));
    await page.getByRole('button', { name: 'Enviar mensaje' }).click();
    await expect(page.locator('#contact-email-error')).toContainText(
      'El correo electrónico no tiene un formato válido',
    );
    await expect(page.locator('#contact-message-error')).toHaveText(
      'El mensaje admite como máximo 5000 caracteres.',
    );
    await page.getByLabel('Correo electrónico').fill('ana@example.test');
    await page
      .getByLabel('Mensaje')
      .fill('¿El diagnóstico funciona con fotos de campo?\n<script>alert(1)</script>');
    await page.getByRole('button', { name: 'Enviar mensaje' }).click();
    await expect(page.getByTestId('contact-message-area')).toHaveText(
      '¡Gracias! Recibimos tu mensaje y te responderemos al correo que indicaste.',
    );
    const mail = await waitForMail('contacto@diagrodl.local', /DROP TABLE/);
    expect(mail.text).toContain('<b>Ana</b> 😀');
    expect(mail.replyTo).toContain('ana@example.test');
  });

  test('a logged-in user sends a message from the authenticated shell', async ({
    userPage: page,
  }) => {
    await page.goto('/Contact_us');
    await expect(page.locator('[data-shell="auth"]')).toBeVisible();
    await page.getByLabel('Nombre').fill('Usuaria');
    await page.getByLabel('Correo electrónico').fill('usuaria@example.test');
    await page.getByLabel('Asunto').fill('Sugerencia desde la cuenta');
    await page.getByLabel('Mensaje').fill('Me gustaría poder diagnosticar fresa.');
    await page.getByRole('button', { name: 'Enviar mensaje' }).click();
    await expect(page.getByTestId('contact-message-area')).toContainText('¡Gracias!');
  });
});

test.describe('screenshots and accessibility of the account pages', () => {
  // five pages, each screenshotted and checked with axe: about 45-55 s on two idle cores, so the
  // default 60 s left no margin on a loaded machine
  test.describe.configure({ timeout: 180_000 });
  for (const lang of ['es', 'en'] as const) {
    for (const [label, width] of [
      ['desktop', 1280],
      ['360', 360],
    ] as const) {
      test(`registration, login, contact, reset and change password (${lang}, ${label})`, async ({
        page,
        browser,
      }) => {
        await setLanguage(page, lang);
        await page.setViewportSize({ width, height: 900 });
        for (const [route, name] of [
          ['/Create_account', 'register'],
          ['/Login_session', 'login'],
          ['/Contact_us', 'contact'],
          ['/Reset_password', 'reset'],
        ] as const) {
          await page.goto(route);
          await expect(page.locator('main h1, h1').first()).toBeVisible();
          await expectAccessible(page, `${route} ${lang} ${label}`);
          await shot(page, `accounts-${name}-${lang}-${label}`);
        }
        // A failed validation state of the registration form.
        await page.goto('/Create_account');
        await page.getByTestId('register-form').getByRole('button').first().click();
        await expect(message(page)).toHaveAttribute('data-state', 'danger');
        await shot(page, `accounts-register-danger-${lang}-${label}`);

        const context = await browser.newContext({ viewport: { width, height: 900 } });
        const user = await context.newPage();
        await setLanguage(user, lang);
        const name = uniqueUserName('shot');
        createUser(name, 'Clave-Segura-2026');
        await loginViaApi(user.request, name, 'Clave-Segura-2026');
        await user.goto('/Change_password');
        await expect(user.locator('[data-shell="auth"]')).toBeVisible();
        await expectAccessible(user, `/Change_password ${lang} ${label}`);
        await shot(user, `accounts-change-password-${lang}-${label}`);
        await context.close();
      });
    }
  }
});

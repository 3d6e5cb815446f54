/**
 * The registration form (/Create_account, POST /api/Create_user/): payload field names as
 * the specification spells them, its 14 rules in order with their exact messages, and the
 * server's further checks (Spanish details). The web form and the server both use this file.
 */
import { z } from 'zod';
import { findCountry } from './countries.ts';
import type { EnglishTwin } from './english-twin.ts';

/** The specification's messages, word for word (section 5), plus the success text (section 4). */
export const REGISTRATION_MESSAGES = {
  userNameEmpty: 'User Name cannot be empty',
  userNameNotString: 'User Name should be string',
  userNameLength: 'User Name should be min 5 or max 15 characters',
  userNameChars:
    'User Name should be uppercase, undercase and @. Without space and special characters',
  firstNameEmpty: 'First Name cannot be empty',
  lastNameEmpty: 'Last Name cannot be empty',
  emailEmpty: 'Email cannot be empty',
  countryNotSelected: 'Select One Country Of The List!',
  cityEmpty: 'City cannot be empty',
  organisationTypeNotSelected: 'Select One Organisation Type Of The List!',
  organisationNameEmpty: 'Organisation Name cannot be empty',
  purposeNotSelected: 'Select One Purpose Use Of The List!',
  termsNotAccepted: 'Please, Activate --> Accept Terms and Conditions!',
  licenceNotAccepted: (provider: string) => `Please, Activate --> Accept ${provider}-User License!`,
  valid: 'Form validation successfully completed!!',
} as const;

/**
 * The same messages on the Spanish page (the specification's words stay on the English one).
 * The same keys (EnglishTwin's same shape, used the other way round): a key left out fails the
 * typecheck.
 */
export const REGISTRATION_MESSAGES_ES = {
  userNameEmpty: 'El nombre de usuario no puede estar vacío.',
  userNameNotString: 'El nombre de usuario debe ser texto.',
  userNameLength: 'El nombre de usuario debe tener de 5 a 15 caracteres.',
  userNameChars:
    'El nombre de usuario solo admite letras mayúsculas y minúsculas, números y @, sin espacios ni caracteres especiales.',
  firstNameEmpty: 'El nombre no puede estar vacío.',
  lastNameEmpty: 'Los apellidos no pueden estar vacíos.',
  emailEmpty: 'El correo electrónico no puede estar vacío.',
  countryNotSelected: 'Selecciona un país de la lista.',
  cityEmpty: 'La ciudad no puede estar vacía.',
  organisationTypeNotSelected: 'Selecciona un tipo de organización de la lista.',
  organisationNameEmpty: 'El nombre de la organización no puede estar vacío.',
  purposeNotSelected: 'Selecciona de la lista el uso que le darás.',
  termsNotAccepted: 'Acepta los términos y condiciones.',
  licenceNotAccepted: (provider: string) => `Acepta la licencia de uso de datos de ${provider}.`,
  valid: '¡Formulario validado correctamente!',
} satisfies EnglishTwin<typeof REGISTRATION_MESSAGES>;

export type RegistrationMessageKey = keyof typeof REGISTRATION_MESSAGES;

/** A registration message in the page's language (the licence's message names the provider). */
export function registrationMessage(
  key: RegistrationMessageKey,
  lang: 'es' | 'en',
  providerName: string,
): string {
  const m = (lang === 'en' ? REGISTRATION_MESSAGES : REGISTRATION_MESSAGES_ES)[key];
  return typeof m === 'function' ? m(providerName) : m;
}

/** The key of a message in the specification's English words (as the server sends it), if any. */
export function registrationMessageKey(
  text: string,
  providerName: string,
): RegistrationMessageKey | undefined {
  return (Object.keys(REGISTRATION_MESSAGES) as RegistrationMessageKey[]).find(
    (key) => registrationMessage(key, 'en', providerName) === text,
  );
}

/** Organisation type codes 1-6 with the specification's labels (and Spanish for the es UI). */
export const ORGANISATION_TYPES = [
  { code: 1, en: 'International public organisation', es: 'Organismo público internacional' },
  {
    code: 2,
    en: 'National/Regional/Local public authorities',
    es: 'Autoridades públicas nacionales/regionales/locales',
  },
  {
    code: 3,
    en: 'Research & Education organisation',
    es: 'Organización de investigación y educación',
  },
  { code: 4, en: 'Business/Commercial/Professional', es: 'Empresa/Comercial/Profesional' },
  { code: 5, en: 'Personal interest', es: 'Interés personal' },
  { code: 6, en: 'Other', es: 'Otro' },
] as const;

/** Purpose of use codes 1-6 with the specification's labels (and Spanish for the es UI). */
export const PURPOSES_OF_USE = [
  { code: 1, en: 'Public sector', es: 'Sector público' },
  { code: 2, en: 'Business sector', es: 'Sector empresarial' },
  { code: 3, en: 'Research', es: 'Investigación' },
  { code: 4, en: 'Education', es: 'Educación' },
  {
    code: 5,
    en: 'Natural person for non commercial purposes',
    es: 'Persona física con fines no comerciales',
  },
  { code: 6, en: 'Other', es: 'Otro' },
] as const;

/** The data-licence flag's name: `Accept_<PROVIDER_KEY>_data`. */
export function licenceField(providerKey: string): `Accept_${string}_data` {
  return `Accept_${providerKey}_data`;
}

/** The registration JSON body (names as spelt by the specification). */
export interface RegistrationPayload {
  User_name: string;
  First_name: string;
  Last_name: string;
  Email: string;
  /** ISO 3166-1 alpha-2 code of the chosen country ('' when none). */
  Country: string;
  City: string;
  /** Dialling code of the chosen country, e.g. '+52' (read-only in the form). */
  Code_country: string;
  Phone_number: string;
  /** Code 1-6 ('' when none). */
  Organisation_type: string | number;
  Organisation_name: string;
  /** Code 1-6 ('' when none). */
  Purpose_use: string | number;
  Aceppt_terms: boolean;
  Give_permission: boolean;
  Subscribe_update: boolean;
  /** Language of the form ('es' or 'en'): the e-mail is written in it. Beyond the specification. */
  Language?: 'es' | 'en';
  [licence: `Accept_${string}_data`]: boolean;
}

export type RegistrationField =
  | 'User_name'
  | 'First_name'
  | 'Last_name'
  | 'Email'
  | 'Country'
  | 'City'
  | 'Phone_number'
  | 'Organisation_type'
  | 'Organisation_name'
  | 'Purpose_use'
  | 'Aceppt_terms'
  | `Accept_${string}_data`;

/** A failed rule: its number in the specification, its field, its message (key and English). */
export interface RegistrationFailure {
  rule: number;
  field: RegistrationField;
  key: RegistrationMessageKey;
  message: string;
}

export type RegistrationCheck =
  { ok: true; message: string } | ({ ok: false } & RegistrationFailure);

const isEmpty = (v: unknown): boolean =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

const filled = (v: unknown): boolean =>
  !isEmpty(v) && (typeof v === 'string' || typeof v === 'number');

function validCode(v: unknown): boolean {
  const n = typeof v === 'string' && /^\d$/.test(v.trim()) ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 6;
}

/**
 * The specification's 14 rules for every field at once: each failing field with its first
 * failing rule, in the specification's order (the form marks them all). Values that are not one
 * of the listed options count as 'not selected'.
 */
export function registrationErrors(
  body: Record<string, unknown>,
  providerKey: string,
  providerName: string,
): RegistrationFailure[] {
  const failures: RegistrationFailure[] = [];
  const fail = (rule: number, field: RegistrationField, key: RegistrationMessageKey) =>
    failures.push({ rule, field, key, message: registrationMessage(key, 'en', providerName) });
  const userName = body.User_name;
  if (isEmpty(userName)) fail(1, 'User_name', 'userNameEmpty');
  else if (typeof userName !== 'string') fail(2, 'User_name', 'userNameNotString');
  else if ([...userName].length < 5 || [...userName].length > 15) {
    fail(3, 'User_name', 'userNameLength');
  } else if (!/^[A-Za-z0-9@]+$/.test(userName)) fail(4, 'User_name', 'userNameChars');
  if (!filled(body.First_name)) fail(5, 'First_name', 'firstNameEmpty');
  if (!filled(body.Last_name)) fail(6, 'Last_name', 'lastNameEmpty');
  if (!filled(body.Email)) fail(7, 'Email', 'emailEmpty');
  if (!findCountry(body.Country)) fail(8, 'Country', 'countryNotSelected');
  if (!filled(body.City)) fail(9, 'City', 'cityEmpty');
  if (!validCode(body.Organisation_type)) {
    fail(10, 'Organisation_type', 'organisationTypeNotSelected');
  }
  if (!filled(body.Organisation_name)) fail(11, 'Organisation_name', 'organisationNameEmpty');
  if (!validCode(body.Purpose_use)) fail(12, 'Purpose_use', 'purposeNotSelected');
  if (body.Aceppt_terms !== true) fail(13, 'Aceppt_terms', 'termsNotAccepted');
  const licence = licenceField(providerKey);
  if (body[licence] !== true) fail(14, licence, 'licenceNotAccepted');
  return failures;
}

/** The specification's 14 rules, in its order: the first failure wins (and stops submission). */
export function validateRegistration(
  body: Record<string, unknown>,
  providerKey: string,
  providerName: string,
): RegistrationCheck {
  const [first] = registrationErrors(body, providerKey, providerName);
  return first ? { ok: false, ...first } : { ok: true, message: REGISTRATION_MESSAGES.valid };
}

/** Server-side details beyond the specification's rules (Spanish, the product's language). */
export const REGISTRATION_SERVER_MESSAGES = {
  tooLong: (label: string, max: number) =>
    `El campo ${label} admite como máximo ${max} caracteres.`,
  notText: (label: string) => `El campo ${label} debe ser texto.`,
  controlChars: (label: string) => `El campo ${label} contiene caracteres no permitidos.`,
  emailFormat: 'El correo electrónico no tiene un formato válido (ejemplo: nombre@dominio.com).',
  codeCountry: 'El código de país no corresponde al país elegido.',
  phone:
    'El teléfono solo admite dígitos, espacios, guiones y paréntesis (de 6 a 15 dígitos), sin el código de país.',
  flags: 'Las casillas de verificación deben ser verdadero o falso.',
  taken:
    'Ese nombre de usuario o correo electrónico ya está registrado. Si ya tienes una cuenta, inicia sesión o restablece tu contraseña; si no, elige otros datos.',
  created: (email: string) =>
    `¡Cuenta creada! Te enviamos tu contraseña a ${email}. Revisa tu correo (también la carpeta de spam) e inicia sesión.`,
  mailFailed:
    'No pudimos enviarte el correo con tu contraseña, así que la cuenta no se creó. Inténtalo de nuevo más tarde.',
} as const;

/** The same messages in English; a field's label comes as the Spanish message got it. */
export const REGISTRATION_SERVER_MESSAGES_EN = {
  tooLong: (label: string, max: number) =>
    `The ${labelEn(label)} field may be at most ${max} characters long.`,
  notText: (label: string) => `The ${labelEn(label)} field must be text.`,
  controlChars: (label: string) =>
    `The ${labelEn(label)} field contains characters that are not allowed.`,
  emailFormat: 'The email address is not valid (example: name@domain.com).',
  codeCountry: 'The country code does not match the chosen country.',
  phone:
    'The phone number may only contain digits, spaces, hyphens and brackets (6 to 15 digits), without the country code.',
  flags: 'The checkboxes must be true or false.',
  taken:
    'That user name or email address is already registered. If you already have an account, log in or reset your password; if not, choose other details.',
  created: (email: string) =>
    `Account created! We have sent your password to ${email}. Check your email (the spam folder too) and log in.`,
  mailFailed:
    'We could not send you the email with your password, so the account was not created. Please try again later.',
} satisfies EnglishTwin<typeof REGISTRATION_SERVER_MESSAGES>;

/** Upper bounds of the text fields (characters). */
export const REGISTRATION_LIMITS = {
  First_name: 100,
  Last_name: 100,
  Email: 254,
  City: 100,
  Organisation_name: 200,
  Phone_number: 25,
} as const;

const LABELS_ES: Record<keyof typeof REGISTRATION_LIMITS, string> = {
  First_name: 'Nombre',
  Last_name: 'Apellidos',
  Email: 'Correo electrónico',
  City: 'Ciudad',
  Organisation_name: 'Nombre de la organización',
  Phone_number: 'Teléfono',
};

const LABELS_EN: Record<keyof typeof REGISTRATION_LIMITS, string> = {
  First_name: 'First name',
  Last_name: 'Last name',
  Email: 'Email address',
  City: 'City',
  Organisation_name: 'Organisation name',
  Phone_number: 'Phone number',
};

/** The English label of a field named by its Spanish label (any other text as it is). */
function labelEn(label: string): string {
  const field = (Object.keys(LABELS_ES) as (keyof typeof LABELS_ES)[]).find(
    (f) => LABELS_ES[f] === label,
  );
  return field ? LABELS_EN[field] : label;
}

// Any C0/C1 control character (tab, newline and NUL included): none belongs in a one-line field.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

export const emailSchema = z.email();

/** A registration that passed every rule, normalised (trimmed) for storage. */
export interface Registration {
  userName: string;
  firstName: string;
  lastName: string;
  email: string;
  country: string;
  codeCountry: string;
  city: string;
  phoneNumber: string;
  organisationType: number;
  organisationName: string;
  purposeUse: number;
  acceptTerms: boolean;
  givePermission: boolean;
  acceptDataLicence: boolean;
  subscribeUpdate: boolean;
  language: 'es' | 'en';
}

/**
 * The full server-side check: the 14 rules (their messages), then lengths, email format,
 * country code and phone (Spanish messages). Uniqueness needs the database and is the
 * server's own step.
 */
export function parseRegistration(
  body: unknown,
  providerKey: string,
  providerName: string,
): { ok: true; value: Registration } | { ok: false; message: string } {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    return { ok: false, message: REGISTRATION_MESSAGES.userNameEmpty };
  }
  const b = body as Record<string, unknown>;
  const rules = validateRegistration(b, providerKey, providerName);
  if (!rules.ok) return { ok: false, message: rules.message };
  const S = REGISTRATION_SERVER_MESSAGES;
  for (const field of Object.keys(REGISTRATION_LIMITS) as (keyof typeof REGISTRATION_LIMITS)[]) {
    const v = b[field];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') return { ok: false, message: S.notText(LABELS_ES[field]) };
    if ([...v.trim()].length > REGISTRATION_LIMITS[field]) {
      return { ok: false, message: S.tooLong(LABELS_ES[field], REGISTRATION_LIMITS[field]) };
    }
    if (CONTROL.test(v)) return { ok: false, message: S.controlChars(LABELS_ES[field]) };
  }
  const email = String(b.Email).trim();
  if (!emailSchema.safeParse(email).success) return { ok: false, message: S.emailFormat };
  const country = findCountry(b.Country)!;
  if (b.Code_country !== undefined && b.Code_country !== null && b.Code_country !== '') {
    if (String(b.Code_country).trim() !== country.dial)
      return { ok: false, message: S.codeCountry };
  }
  const phone = typeof b.Phone_number === 'string' ? b.Phone_number.trim() : '';
  if (phone) {
    const digits = phone.replace(/\D/g, '').length;
    if (!/^[0-9 ()-]+$/.test(phone) || digits < 6 || digits > 15) {
      return { ok: false, message: S.phone };
    }
  }
  const optionalFlags = [b.Give_permission, b.Subscribe_update];
  if (optionalFlags.some((f) => f !== undefined && typeof f !== 'boolean')) {
    return { ok: false, message: S.flags };
  }
  return {
    ok: true,
    value: {
      userName: String(b.User_name),
      firstName: String(b.First_name).trim(),
      lastName: String(b.Last_name).trim(),
      email,
      country: country.code,
      codeCountry: country.dial,
      city: String(b.City).trim(),
      phoneNumber: phone,
      organisationType: Number(b.Organisation_type),
      organisationName: String(b.Organisation_name).trim(),
      purposeUse: Number(b.Purpose_use),
      acceptTerms: true,
      givePermission: b.Give_permission === true,
      acceptDataLicence: true,
      subscribeUpdate: b.Subscribe_update === true,
      language: b.Language === 'en' ? 'en' : 'es',
    },
  };
}

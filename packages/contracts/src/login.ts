import type { EnglishTwin } from './english-twin.ts';

/** The login form's messages, word for word from the specification (section 4 and 5). */
export const LOGIN_MESSAGES = {
  userNameEmpty: 'User Name cannot be empty!',
  passwordEmpty: 'Password cannot be empty!',
  valid: 'Form Login Valided!',
} as const;

/** The same messages on the Spanish page; the same keys (EnglishTwin's shape, the other way round). */
export const LOGIN_MESSAGES_ES = {
  userNameEmpty: 'El nombre de usuario no puede estar vacío.',
  passwordEmpty: 'La contraseña no puede estar vacía.',
  valid: '¡Datos de acceso validados!',
} satisfies EnglishTwin<typeof LOGIN_MESSAGES>;

export type LoginMessageKey = keyof typeof LOGIN_MESSAGES;

/** A login message in the page's language. */
export function loginMessage(key: LoginMessageKey, lang: 'es' | 'en'): string {
  return (lang === 'en' ? LOGIN_MESSAGES : LOGIN_MESSAGES_ES)[key];
}

/** The server's details of login and logout (Spanish; English twins below). */
export const AUTH_MESSAGES = {
  badCredentials: 'Nombre de usuario o contraseña incorrectos.',
  loginOk: (firstName: string) => `¡Bienvenido(a), ${firstName}!`,
  loggedOut: 'Sesión cerrada.',
} as const;

export const AUTH_MESSAGES_EN = {
  badCredentials: 'Incorrect user name or password.',
  loginOk: (firstName: string) => `Welcome, ${firstName}!`,
  loggedOut: 'Logged out.',
} satisfies EnglishTwin<typeof AUTH_MESSAGES>;

export interface LoginBody {
  username: string;
  password: string;
  remember?: boolean;
}

export type LoginField = 'username' | 'password';

/** A failed rule: its field and its message (key and the specification's English). */
export interface LoginFailure {
  field: LoginField;
  key: LoginMessageKey;
  message: string;
}

/** Client-side rule of the specification, for both fields at once: only emptiness, user name first. */
export function loginErrors(body: LoginBody): LoginFailure[] {
  const failures: LoginFailure[] = [];
  const fail = (field: LoginField, key: LoginMessageKey) =>
    failures.push({ field, key, message: LOGIN_MESSAGES[key] });
  if (!body.username.trim()) fail('username', 'userNameEmpty');
  if (!body.password) fail('password', 'passwordEmpty');
  return failures;
}

/** The first failure of the specification's rule (its message area shows one message). */
export function validateLogin(
  body: LoginBody,
): { ok: true; message: string } | { ok: false; message: string } {
  const [first] = loginErrors(body);
  return first
    ? { ok: false, message: first.message }
    : { ok: true, message: LOGIN_MESSAGES.valid };
}

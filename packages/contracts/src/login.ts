import type { EnglishTwin } from './localize.ts';

/** The login form's messages, word for word from the specification (section 4 and 5). */
export const LOGIN_MESSAGES = {
  userNameEmpty: 'User Name cannot be empty!',
  passwordEmpty: 'Password cannot be empty!',
  valid: 'Form Login Valided!',
} as const;

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

/** Client-side rule of the specification: only emptiness is checked, user name first. */
export function validateLogin(
  body: LoginBody,
): { ok: true; message: string } | { ok: false; message: string } {
  if (!body.username.trim()) return { ok: false, message: LOGIN_MESSAGES.userNameEmpty };
  if (!body.password) return { ok: false, message: LOGIN_MESSAGES.passwordEmpty };
  return { ok: true, message: LOGIN_MESSAGES.valid };
}

/**
 * Password change and reset (beyond the specification: people who receive a password by
 * e-mail expect them) and the rate-limit message. Shared by the web forms and the server.
 */
import type { EnglishTwin } from './english-twin.ts';

/** The strength rule shown in the forms and enforced by the server. */
export const PASSWORD_RULE = { min: 10, max: 128 } as const;

export type PasswordProblem = 'tooShort' | 'tooLong' | 'needsLetterAndDigit' | 'containsUserName';

/** Checks a new password: 10-128 characters, a letter and a digit, not the user name. */
export function checkNewPassword(password: string, userName = ''): PasswordProblem | null {
  const length = [...password].length;
  if (length < PASSWORD_RULE.min) return 'tooShort';
  if (length > PASSWORD_RULE.max) return 'tooLong';
  if (!/\p{L}/u.test(password) || !/\p{N}/u.test(password)) return 'needsLetterAndDigit';
  if (userName.length >= 3 && password.toLowerCase().includes(userName.toLowerCase())) {
    return 'containsUserName';
  }
  return null;
}

export const PASSWORD_MESSAGES: Record<PasswordProblem, string> = {
  tooShort: `La nueva contraseña debe tener al menos ${PASSWORD_RULE.min} caracteres.`,
  tooLong: `La nueva contraseña admite como máximo ${PASSWORD_RULE.max} caracteres.`,
  needsLetterAndDigit: 'La nueva contraseña debe incluir al menos una letra y un número.',
  containsUserName: 'La nueva contraseña no debe contener tu nombre de usuario.',
};

export const PASSWORD_MESSAGES_EN = {
  tooShort: `The new password must be at least ${PASSWORD_RULE.min} characters long.`,
  tooLong: `The new password may be at most ${PASSWORD_RULE.max} characters long.`,
  needsLetterAndDigit: 'The new password must contain at least one letter and one digit.',
  containsUserName: 'The new password must not contain your user name.',
} satisfies EnglishTwin<typeof PASSWORD_MESSAGES>;

/** Server details of the account flows (Spanish). */
export const ACCOUNT_MESSAGES = {
  currentWrong: 'La contraseña actual no es correcta.',
  currentMissing: 'Escribe tu contraseña actual.',
  mismatch: 'Las dos contraseñas nuevas no coinciden.',
  sameAsCurrent: 'La nueva contraseña debe ser distinta de la actual.',
  changed:
    'Tu contraseña se cambió. Se cerraron las demás sesiones abiertas con tu cuenta en otros equipos.',
  resetRequested:
    'Si hay una cuenta con ese correo electrónico, te enviamos un enlace para restablecer la contraseña. El enlace vale una hora y funciona una sola vez.',
  resetEmailMissing: 'Escribe el correo electrónico con el que creaste tu cuenta.',
  resetTokenInvalid:
    'El enlace para restablecer la contraseña no es válido, ya se usó o caducó. Pide uno nuevo.',
  resetDone: 'Tu contraseña se restableció. Ya puedes iniciar sesión con ella.',
} as const;

export const ACCOUNT_MESSAGES_EN = {
  currentWrong: 'The current password is not correct.',
  currentMissing: 'Enter your current password.',
  mismatch: 'The two new passwords do not match.',
  sameAsCurrent: 'The new password must be different from the current one.',
  changed:
    'Your password has been changed. The other sessions open with your account on other devices have been logged out.',
  resetRequested:
    'If there is an account with that email address, we have sent you a link to reset your password. The link is valid for one hour and works once.',
  resetEmailMissing: 'Enter the email address you registered with.',
  resetTokenInvalid:
    'The password reset link is not valid, has been used or has expired. Ask for a new one.',
  resetDone: 'Your password has been reset. You can now log in with it.',
} satisfies EnglishTwin<typeof ACCOUNT_MESSAGES>;

/** "Mis datos": the data archive and the deletion of an account (Spanish details). */
export const MY_DATA_MESSAGES = {
  passwordMissing: 'Escribe tu contraseña para borrar tu cuenta.',
  passwordWrong: 'La contraseña no es correcta. No se borró nada.',
  confirmMissing: 'Marca la casilla para confirmar que quieres borrar tu cuenta y todos tus datos.',
  deleted:
    'Tu cuenta y todos tus datos se borraron. Te enviamos un correo electrónico que lo confirma.',
  deletedMailFailed:
    'Tu cuenta y todos tus datos se borraron. No se pudo enviar el correo electrónico de confirmación.',
} as const;

export const MY_DATA_MESSAGES_EN = {
  passwordMissing: 'Enter your password to delete your account.',
  passwordWrong: 'The password is not correct. Nothing was deleted.',
  confirmMissing: 'Tick the box to confirm that you want to delete your account and all your data.',
  deleted:
    'Your account and all your data have been deleted. We have sent you an email confirming it.',
  deletedMailFailed:
    'Your account and all your data have been deleted. The confirmation email could not be sent.',
} satisfies EnglishTwin<typeof MY_DATA_MESSAGES>;

/** POST /api/my_data/delete/ */
export interface DeleteAccountBody {
  password: string;
  /** The person ticked "I understand that this deletes my account and all my data". */
  confirm: boolean;
}

const WAIT_UNITS = {
  es: { second: ['segundo', 'segundos'], minute: ['minuto', 'minutos'] },
  en: { second: ['second', 'seconds'], minute: ['minute', 'minutes'] },
} as const;

/** '15 minutos', '1 minuto', '40 segundos' ('15 minutes' in English): how long until the next try. */
export function retryWait(seconds: number, lang: 'es' | 'en' = 'es'): string {
  const s = Math.max(1, Math.ceil(seconds));
  const [n, unit] = s < 60 ? [s, 'second' as const] : [Math.ceil(s / 60), 'minute' as const];
  return `${n} ${WAIT_UNITS[lang][unit][n === 1 ? 0 : 1]}`;
}

export const RATE_LIMIT_MESSAGES = {
  login: (seconds: number) =>
    `Demasiados intentos fallidos de inicio de sesión. Por seguridad, vuelve a intentarlo en ${retryWait(seconds)}.`,
  /** Wrong current passwords (password change, account deletion). */
  currentPassword: (seconds: number) =>
    `Demasiados intentos fallidos con la contraseña actual. Por seguridad, vuelve a intentarlo en ${retryWait(seconds)}.`,
  other: (seconds: number) =>
    `Demasiadas solicitudes seguidas. Vuelve a intentarlo en ${retryWait(seconds)}.`,
} as const;

export const RATE_LIMIT_MESSAGES_EN = {
  login: (seconds: number) =>
    `Too many failed login attempts. For your security, try again in ${retryWait(seconds, 'en')}.`,
  currentPassword: (seconds: number) =>
    `Too many failed attempts with the current password. For your security, try again in ${retryWait(seconds, 'en')}.`,
  other: (seconds: number) =>
    `Too many requests in a row. Try again in ${retryWait(seconds, 'en')}.`,
} satisfies EnglishTwin<typeof RATE_LIMIT_MESSAGES>;

/** POST /api/change_password/ */
export interface ChangePasswordBody {
  current_password: string;
  new_password: string;
  new_password_confirm: string;
}

/** POST /api/password_reset/ */
export interface ResetRequestBody {
  email: string;
  Language?: 'es' | 'en';
}

/** POST /api/password_reset/confirm/ */
export interface ResetConfirmBody {
  token: string;
  new_password: string;
  new_password_confirm: string;
}

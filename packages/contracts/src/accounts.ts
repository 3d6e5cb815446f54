/**
 * Password change and reset (beyond the specification: people who receive a password by
 * e-mail expect them) and the rate-limit message. Shared by the web forms and the server.
 */

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

/** '15 minutos', '1 minuto', '40 segundos': how long until the next try (Spanish). */
export function retryWait(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 60) return `${s} segundo${s === 1 ? '' : 's'}`;
  const m = Math.ceil(s / 60);
  return `${m} minuto${m === 1 ? '' : 's'}`;
}

export const RATE_LIMIT_MESSAGES = {
  login: (seconds: number) =>
    `Demasiados intentos fallidos de inicio de sesión. Por seguridad, vuelve a intentarlo en ${retryWait(seconds)}.`,
  other: (seconds: number) =>
    `Demasiadas solicitudes seguidas. Vuelve a intentarlo en ${retryWait(seconds)}.`,
} as const;

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

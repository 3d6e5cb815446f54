/**
 * The contact form (/Contact_us, POST /api/contact/): fields, limits and the per-field rule,
 * shared by the web form and the server. The server answers the Spanish messages (the English
 * twins to a request in English, localize.ts); the web shows the same problems through its own
 * es/en strings (keyed by field and problem).
 */
import type { EnglishTwin } from './english-twin.ts';
import { emailSchema } from './registration.ts';

export const CONTACT_FIELDS = ['name', 'email', 'subject', 'message'] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

export const CONTACT_LIMITS = {
  name: 100,
  email: 254,
  subject: 150,
  message: 5000,
  messageMin: 10,
} as const;

export type ContactProblem = 'empty' | 'tooLong' | 'tooShort' | 'invalid' | 'controlChars';

export interface ContactBody {
  name: string;
  email: string;
  subject: string;
  message: string;
}

const CONTACT_TEXTS = {
  name: {
    empty: 'Escribe tu nombre.',
    tooLong: `El nombre admite como máximo ${CONTACT_LIMITS.name} caracteres.`,
    controlChars: 'El nombre contiene caracteres no permitidos.',
  },
  email: {
    empty: 'Escribe tu correo electrónico para poder responderte.',
    tooLong: `El correo electrónico admite como máximo ${CONTACT_LIMITS.email} caracteres.`,
    invalid: 'El correo electrónico no tiene un formato válido (ejemplo: nombre@dominio.com).',
    controlChars: 'El correo electrónico contiene caracteres no permitidos.',
  },
  subject: {
    empty: 'Escribe el asunto de tu mensaje.',
    tooLong: `El asunto admite como máximo ${CONTACT_LIMITS.subject} caracteres.`,
    controlChars: 'El asunto contiene caracteres no permitidos.',
  },
  message: {
    empty: 'Escribe tu mensaje.',
    tooShort: `El mensaje es demasiado corto (mínimo ${CONTACT_LIMITS.messageMin} caracteres).`,
    tooLong: `El mensaje admite como máximo ${CONTACT_LIMITS.message} caracteres.`,
    controlChars: 'El mensaje contiene caracteres no permitidos.',
  },
} as const;

/** The message of each problem a field can have. */
export const CONTACT_MESSAGES: Record<
  ContactField,
  Partial<Record<ContactProblem, string>>
> = CONTACT_TEXTS;

export const CONTACT_MESSAGES_EN = {
  name: {
    empty: 'Enter your name.',
    tooLong: `The name may be at most ${CONTACT_LIMITS.name} characters long.`,
    controlChars: 'The name contains characters that are not allowed.',
  },
  email: {
    empty: 'Enter your email address so that we can answer.',
    tooLong: `The email address may be at most ${CONTACT_LIMITS.email} characters long.`,
    invalid: 'The email address is not valid (example: name@domain.com).',
    controlChars: 'The email address contains characters that are not allowed.',
  },
  subject: {
    empty: 'Enter the subject of your message.',
    tooLong: `The subject may be at most ${CONTACT_LIMITS.subject} characters long.`,
    controlChars: 'The subject contains characters that are not allowed.',
  },
  message: {
    empty: 'Enter your message.',
    tooShort: `The message is too short (at least ${CONTACT_LIMITS.messageMin} characters).`,
    tooLong: `The message may be at most ${CONTACT_LIMITS.message} characters long.`,
    controlChars: 'The message contains characters that are not allowed.',
  },
} satisfies EnglishTwin<typeof CONTACT_TEXTS>;

export const CONTACT_REPLY = {
  sent: '¡Gracias! Recibimos tu mensaje y te responderemos al correo que indicaste.',
  invalid: 'Revisa los campos marcados del formulario.',
} as const;

export const CONTACT_REPLY_EN = {
  sent: 'Thank you! We have received your message and will answer at the email address you gave.',
  invalid: 'Please check the marked fields.',
} satisfies EnglishTwin<typeof CONTACT_REPLY>;

// eslint-disable-next-line no-control-regex
const CONTROL_ONE_LINE = /[\u0000-\u001f\u007f-\u009f]/;
// The message may hold line breaks and tabs, nothing else of the kind.
// eslint-disable-next-line no-control-regex
const CONTROL_MULTI_LINE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** Every problem of the form, one per field (empty object: valid). */
export function checkContact(
  body: Record<string, unknown>,
): Partial<Record<ContactField, ContactProblem>> {
  const problems: Partial<Record<ContactField, ContactProblem>> = {};
  for (const field of CONTACT_FIELDS) {
    const raw = body[field];
    const value = typeof raw === 'string' ? raw.trim() : '';
    const length = [...value].length;
    if (!value) problems[field] = 'empty';
    else if (length > CONTACT_LIMITS[field]) problems[field] = 'tooLong';
    else if ((field === 'message' ? CONTROL_MULTI_LINE : CONTROL_ONE_LINE).test(value)) {
      problems[field] = 'controlChars';
    } else if (field === 'message' && length < CONTACT_LIMITS.messageMin) {
      problems[field] = 'tooShort';
    } else if (field === 'email' && !emailSchema.safeParse(value).success) {
      problems[field] = 'invalid';
    }
  }
  return problems;
}

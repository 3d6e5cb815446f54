/**
 * The contact form (/Contact_us, POST /api/contact/): fields, limits and the per-field rule,
 * shared by the web form and the server. The server answers the Spanish messages; the web
 * shows the same problems through its own es/en strings (keyed by field and problem).
 */
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

export const CONTACT_MESSAGES: Record<ContactField, Partial<Record<ContactProblem, string>>> = {
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
};

export const CONTACT_REPLY = {
  sent: '¡Gracias! Recibimos tu mensaje y te responderemos al correo que indicaste.',
  invalid: 'Revisa los campos marcados del formulario.',
} as const;

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

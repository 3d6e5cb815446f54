import type { EnglishTwin } from './english-twin.ts';

/**
 * Messages the server sends in `detail`. Spanish first (the product's language); the English
 * twins below are what a request whose Accept-Language asks for English gets (localize.ts).
 */
export const SERVER_MESSAGES = {
  maintenance: 'Website currently in maintenance',
  csrf: 'Falta el token de seguridad CSRF o no es válido: recarga la página e inténtalo de nuevo.',
  notFound: 'No encontrado.',
  methodNotAllowed: 'Método no permitido.',
  badRequest: 'La solicitud no es válida.',
  payloadTooLarge: 'El archivo o la solicitud es demasiado grande.',
  internal: 'Error interno del servidor. Inténtalo de nuevo más tarde.',
  unavailable: 'Servicio no disponible temporalmente. Inténtalo de nuevo más tarde.',
  loginRequired: 'Debes iniciar sesión para usar esta herramienta.',
  webNotBuilt: 'La aplicación web no está compilada (npm run build).',
  tooManyRequests: (seconds: number) =>
    `Demasiados intentos. Vuelve a intentarlo en ${seconds} segundo${seconds === 1 ? '' : 's'}.`,
} as const;

export const SERVER_MESSAGES_EN = {
  // the specification's own words, in English in both languages
  maintenance: SERVER_MESSAGES.maintenance,
  csrf: 'The CSRF security token is missing or not valid: reload the page and try again.',
  notFound: 'Not found.',
  methodNotAllowed: 'Method not allowed.',
  badRequest: 'The request is not valid.',
  payloadTooLarge: 'The file or the request is too large.',
  internal: 'Internal server error. Please try again later.',
  unavailable: 'The service is temporarily unavailable. Please try again later.',
  loginRequired: 'You must log in to use this tool.',
  webNotBuilt: 'The web app is not built (npm run build).',
  tooManyRequests: (seconds: number) =>
    `Too many attempts. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
} satisfies EnglishTwin<typeof SERVER_MESSAGES>;

/**
 * Messages the server sends in `detail`. Spanish first (the product's language);
 * the web app shows them as they arrive.
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
  tooManyRequests: (seconds: number) =>
    `Demasiados intentos. Vuelve a intentarlo en ${seconds} segundo${seconds === 1 ? '' : 's'}.`,
} as const;

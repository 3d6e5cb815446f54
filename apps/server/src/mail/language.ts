import type { FastifyRequest } from 'fastify';
import { acceptedLanguage } from '@diagrodl/contracts';

export type MailLanguage = 'es' | 'en';

/**
 * The language of the page that made the request: its `Language` field when it sends one,
 * otherwise Accept-Language; Spanish unless English is asked for.
 */
export function requestLanguage(request: FastifyRequest): MailLanguage {
  const body = request.body as { Language?: unknown } | null | undefined;
  if (body && typeof body === 'object' && (body.Language === 'en' || body.Language === 'es')) {
    return body.Language;
  }
  return acceptedLanguage(request.headers['accept-language']);
}

/**
 * The language of the page that made the request when it names one (the web app sends its
 * toggle's language as Accept-Language on every call), or undefined: then the account's language
 * decides what results, history and report are written in.
 */
export function pageLanguage(request: FastifyRequest): MailLanguage | undefined {
  const header = request.headers['accept-language'];
  // no header, or '*' first (what fetch sends by default), names no language
  return header && /^\s*[a-z]/i.test(header) ? acceptedLanguage(header) : undefined;
}

/** Base of the links in e-mails: PUBLIC_URL, or the origin the request came to. */
export function publicBase(request: FastifyRequest, publicUrl: string | undefined): string {
  if (publicUrl) return publicUrl;
  return `${request.protocol}://${request.host}`;
}

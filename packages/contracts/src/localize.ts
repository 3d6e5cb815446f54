/**
 * The server's messages in the page's language. Every table of Spanish messages the server sends
 * (in `detail`, or per field in a form's `errors`) has an English twin next to it, with the same
 * keys (EnglishTwin, english-twin.ts); `localizeDetail` turns a Spanish message into its twin.
 * The server keeps writing Spanish and translates each JSON reply in one place, for requests
 * whose Accept-Language asks for English (apps/server/src/plugins/errors.ts); the web app sends
 * the toggle's language.
 */
import {
  ACCOUNT_MESSAGES,
  ACCOUNT_MESSAGES_EN,
  MY_DATA_MESSAGES,
  MY_DATA_MESSAGES_EN,
  PASSWORD_MESSAGES,
  PASSWORD_MESSAGES_EN,
  RATE_LIMIT_MESSAGES,
  RATE_LIMIT_MESSAGES_EN,
} from './accounts.ts';
import {
  CONTACT_MESSAGES,
  CONTACT_MESSAGES_EN,
  CONTACT_REPLY,
  CONTACT_REPLY_EN,
} from './contact.ts';
import { DEVICE_MESSAGES, DEVICE_MESSAGES_EN } from './device.ts';
import {
  DIAGNOSIS_MESSAGES,
  DIAGNOSIS_MESSAGES_EN,
  UPLOAD_MESSAGES,
  UPLOAD_MESSAGES_EN,
} from './diagnosis.ts';
import { LOGIN_INVALID, LOGIN_INVALID_EN } from './endpoints.ts';
import { AUTH_MESSAGES, AUTH_MESSAGES_EN } from './login.ts';
import { REGISTRATION_SERVER_MESSAGES, REGISTRATION_SERVER_MESSAGES_EN } from './registration.ts';
import { SERVER_MESSAGES, SERVER_MESSAGES_EN } from './server-messages.ts';

type MessageFn = (...args: never[]) => string;
type Message = string | MessageFn;
interface Table {
  readonly [key: string]: Message | Table | undefined;
}

/** Every table of messages the server sends, with its English twin (the unit test walks them). */
export const MESSAGE_TWINS: Record<string, readonly [Table, Table]> = {
  SERVER_MESSAGES: [SERVER_MESSAGES, SERVER_MESSAGES_EN],
  DIAGNOSIS_MESSAGES: [DIAGNOSIS_MESSAGES, DIAGNOSIS_MESSAGES_EN],
  UPLOAD_MESSAGES: [UPLOAD_MESSAGES, UPLOAD_MESSAGES_EN],
  DEVICE_MESSAGES: [DEVICE_MESSAGES, DEVICE_MESSAGES_EN],
  LOGIN_INVALID: [{ LOGIN_INVALID }, { LOGIN_INVALID: LOGIN_INVALID_EN }],
  AUTH_MESSAGES: [AUTH_MESSAGES, AUTH_MESSAGES_EN],
  PASSWORD_MESSAGES: [PASSWORD_MESSAGES, PASSWORD_MESSAGES_EN],
  ACCOUNT_MESSAGES: [ACCOUNT_MESSAGES, ACCOUNT_MESSAGES_EN],
  MY_DATA_MESSAGES: [MY_DATA_MESSAGES, MY_DATA_MESSAGES_EN],
  RATE_LIMIT_MESSAGES: [RATE_LIMIT_MESSAGES, RATE_LIMIT_MESSAGES_EN],
  REGISTRATION_SERVER_MESSAGES: [REGISTRATION_SERVER_MESSAGES, REGISTRATION_SERVER_MESSAGES_EN],
  CONTACT_MESSAGES: [CONTACT_MESSAGES, CONTACT_MESSAGES_EN],
  CONTACT_REPLY: [CONTACT_REPLY, CONTACT_REPLY_EN],
};

/** One message and its twin, named by its place ('CONTACT_MESSAGES.name.empty'). */
export interface MessageTwin {
  path: string;
  es: Message | Table | undefined;
  en: Message | Table | undefined;
}

/** Every message of every table with its twin; a key the twin lacks pairs with undefined. */
export function messageTwins(): MessageTwin[] {
  const pairs: MessageTwin[] = [];
  const walk = (path: string, es: Table, en: Table): void => {
    for (const key of Object.keys(es)) {
      const [a, b] = [es[key], en[key]];
      if (a && typeof a === 'object' && b && typeof b === 'object') walk(`${path}.${key}`, a, b);
      else pairs.push({ path: `${path}.${key}`, es: a, en: b });
    }
  };
  for (const [name, [es, en]] of Object.entries(MESSAGE_TWINS)) walk(name, es, en);
  return pairs;
}

type AnyFn = (...args: unknown[]) => string;

/**
 * A function message's Spanish output as a pattern: it is called with a marker for each argument
 * and each marker becomes a named group (null when a marker does not come out as it went in, as
 * a number the message rewrites).
 */
function patternOf(es: AnyFn): RegExp | null {
  const markers = Array.from({ length: es.length }, (_, i) => `\u0000${i}\u0000`);
  let source = es(...markers).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  for (const [i, marker] of markers.entries()) {
    if (!source.includes(marker)) return null;
    source = source.replace(marker, `(?<a${i}>.+?)`).replaceAll(marker, `\\k<a${i}>`);
  }
  return new RegExp(`^${source}$`, 's');
}

const constants = new Map<string, string>();
const functions: { es: AnyFn; en: AnyFn; pattern: RegExp | null }[] = [];
for (const { es, en } of messageTwins()) {
  if (typeof es === 'string' && typeof en === 'string') constants.set(es, en);
  else if (typeof es === 'function' && typeof en === 'function') {
    functions.push({ es: es as AnyFn, en: en as AnyFn, pattern: patternOf(es as AnyFn) });
  }
}

/** The argument lists a function message may have been given to write `detail`. */
function candidates(f: (typeof functions)[number], detail: string): unknown[][] {
  const found: unknown[][] = [];
  const groups = f.pattern?.exec(detail)?.groups;
  if (groups) {
    found.push(
      Array.from({ length: f.es.length }, (_, i) => {
        const v = groups[`a${i}`]!;
        return /^\d+$/.test(v) ? Number(v) : v;
      }),
    );
  }
  // A count the message words by its value (1 imagen, 2 imágenes; 90 seconds as '2 minutos').
  if (f.es.length === 1) {
    for (const n of detail.match(/\d+/g) ?? []) found.push([Number(n)], [Number(n) * 60]);
  }
  return found;
}

/**
 * A server message in the given language: the English twin of a Spanish message (a message
 * written by a function, with the same arguments), or the text as it is when it has no twin or
 * the language is Spanish.
 */
export function localizeDetail(detail: string, lang: 'es' | 'en'): string {
  if (lang === 'es') return detail;
  const constant = constants.get(detail);
  if (constant !== undefined) return constant;
  for (const f of functions) {
    const args = candidates(f, detail).find((a) => f.es(...a) === detail);
    if (args) return f.en(...args);
  }
  return detail;
}

/** The language a request asks for: English when its Accept-Language starts with English. */
export function acceptedLanguage(acceptLanguage: string | undefined): 'es' | 'en' {
  return acceptLanguage !== undefined && /^\s*en\b/i.test(acceptLanguage) ? 'en' : 'es';
}

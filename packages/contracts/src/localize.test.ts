import { describe, expect, it } from 'vitest';
import * as contracts from './index.ts';
import {
  DIAGNOSIS_MESSAGES as M,
  DIAGNOSIS_MESSAGES_EN as M_EN,
  MESSAGE_TWINS,
  RATE_LIMIT_MESSAGES,
  REGISTRATION_SERVER_MESSAGES,
  SERVER_MESSAGES,
  acceptedLanguage,
  localizeDetail,
  messageTwins,
} from './index.ts';

/** Tables of messages with no Spanish to translate, or that the server never sends. */
const NOT_SERVER_SPANISH = {
  LOGIN_MESSAGES: "the login form's own checks, the specification's English words",
  REGISTRATION_MESSAGES: "the registration rules, the specification's English words",
};

/** Messages that are the specification's own English words: the same in both languages. */
const ALREADY_ENGLISH = new Set(['SERVER_MESSAGES.maintenance']);

/** Arguments each function message is tried with (every function message needs some). */
const SAMPLES: Record<string, unknown[][]> = {
  'SERVER_MESSAGES.tooManyRequests': [[1], [2], [45]],
  'DIAGNOSIS_MESSAGES.modelNotLoaded': [['VGG16 v1'], ['Ensemble (VGG16 + ResNet50 + MobileNet)']],
  'DIAGNOSIS_MESSAGES.failedImages': [[1], [2], [12]],
  'AUTH_MESSAGES.loginOk': [['Ana'], ['José María'], ['2024'], ['a (b) $1 .*']],
  'RATE_LIMIT_MESSAGES.login': [[1], [40], [60], [61], [899], [900], [3600]],
  'RATE_LIMIT_MESSAGES.currentPassword': [[1], [59], [899], [900]],
  'RATE_LIMIT_MESSAGES.other': [[0.2], [59], [600]],
  'REGISTRATION_SERVER_MESSAGES.tooLong': [
    ['Ciudad', 100],
    ['Correo electrónico', 254],
    ['Nombre de la organización', 200],
  ],
  'REGISTRATION_SERVER_MESSAGES.notText': [['Teléfono'], ['Apellidos']],
  'REGISTRATION_SERVER_MESSAGES.controlChars': [['Nombre']],
  'REGISTRATION_SERVER_MESSAGES.created': [['persona@example.com'], ['a.b+c@d.mx']],
};

const SPANISH_ONLY = /[áéíóúñ¿¡]/i;
type Fn = (...args: unknown[]) => string;

describe('the English twins of the server messages', () => {
  const twins = messageTwins();

  it('cover every table of messages the contracts export', () => {
    const tables = Object.keys(contracts).filter(
      (name) => /_(MESSAGES|REPLY)$/.test(name) || name === 'LOGIN_INVALID',
    );
    for (const name of tables) {
      if (name in NOT_SERVER_SPANISH) continue;
      expect(MESSAGE_TWINS, `${name} has no English twin in MESSAGE_TWINS`).toHaveProperty([name]);
    }
    expect(twins.length).toBeGreaterThan(80);
  });

  it('have every key, of the same kind, and no Spanish left', () => {
    for (const { path, es, en } of twins) {
      expect(typeof en, `${path}: its twin`).toBe(typeof es);
      if (typeof es === 'function') {
        expect((en as Fn).length, `${path}: arguments of its twin`).toBe(es.length);
        expect(SAMPLES[path], `${path}: give it sample arguments in SAMPLES`).toBeDefined();
      }
      if (typeof es !== 'string' || typeof en !== 'string') continue;
      expect(en.trim(), path).not.toBe('');
      if (ALREADY_ENGLISH.has(path)) expect(en, path).toBe(es);
      else {
        expect(en, `${path} is still Spanish`).not.toBe(es);
        expect(en, `${path} is still Spanish`).not.toMatch(SPANISH_ONLY);
      }
    }
    // and the twin has no key the Spanish table lacks
    for (const [name, [es, en]] of Object.entries(MESSAGE_TWINS)) {
      expect(Object.keys(en).sort(), name).toEqual(Object.keys(es).sort());
    }
  });

  it('turn each constant message into its twin in English and leave it in Spanish', () => {
    const seen = new Map<string, string>();
    for (const { path, es, en } of twins) {
      if (typeof es !== 'string') continue;
      // the same Spanish words in two tables must have the same English
      expect(seen.get(es) ?? en, `${path}: another table translates it otherwise`).toBe(en);
      seen.set(es, en as string);
      expect(localizeDetail(es, 'en'), path).toBe(en);
      expect(localizeDetail(es, 'es'), path).toBe(es);
    }
  });

  it('turn function messages into their twins with the same numbers and labels', () => {
    for (const { path, es, en } of twins) {
      if (typeof es !== 'function') continue;
      for (const args of SAMPLES[path] ?? []) {
        const spanish = (es as Fn)(...args);
        const english = (en as Fn)(...args);
        // a name given to it may be Spanish; the rest of the message may not
        const words = args.reduce<string>((text, a) => text.replaceAll(String(a), ''), english);
        expect(words, `${path}(${args.join(', ')})`).not.toMatch(SPANISH_ONLY);
        expect(english).not.toBe(spanish);
        expect(localizeDetail(spanish, 'en'), `${path}(${args.join(', ')})`).toBe(english);
        expect(localizeDetail(spanish, 'es')).toBe(spanish);
      }
    }
  });

  it('say the same numbers and labels in English', () => {
    expect(localizeDetail(M.failedImages(1), 'en')).toBe(
      '1 image could not be identified and was discarded.',
    );
    expect(localizeDetail(M.failedImages(3), 'en')).toBe(
      '3 images could not be identified and were discarded.',
    );
    expect(localizeDetail(M.modelNotLoaded('ResNet50 v1'), 'en')).toBe(
      M_EN.modelNotLoaded('ResNet50 v1'),
    );
    expect(localizeDetail(SERVER_MESSAGES.tooManyRequests(1), 'en')).toBe(
      'Too many attempts. Try again in 1 second.',
    );
    expect(localizeDetail(RATE_LIMIT_MESSAGES.login(899), 'en')).toBe(
      'Too many failed login attempts. For your security, try again in 15 minutes.',
    );
    expect(localizeDetail(RATE_LIMIT_MESSAGES.other(1), 'en')).toBe(
      'Too many requests in a row. Try again in 1 second.',
    );
    expect(
      localizeDetail(REGISTRATION_SERVER_MESSAGES.tooLong('Correo electrónico', 254), 'en'),
    ).toBe('The Email address field may be at most 254 characters long.');
  });

  it('leave a text they do not know as it is', () => {
    for (const text of ['', 'Something else.', 'El modelo  no está disponible', '15 minutos']) {
      expect(localizeDetail(text, 'en')).toBe(text);
    }
    expect(localizeDetail('El campo Color admite como máximo 9 caracteres.', 'en')).toBe(
      'The Color field may be at most 9 characters long.',
    );
  });
});

describe('the language a request asks for', () => {
  it('is English when Accept-Language starts with English, otherwise Spanish', () => {
    for (const header of ['en', 'en-US', 'EN-gb,es;q=0.5', ' en-US, en;q=0.9']) {
      expect(acceptedLanguage(header), header).toBe('en');
    }
    for (const header of [undefined, '', '*', 'es-MX', 'es-MX,en;q=0.9', 'fr', 'eng', 'de, en']) {
      expect(acceptedLanguage(header), String(header)).toBe('es');
    }
  });
});

import { describe, expect, it } from 'vitest';
import { COUNTRIES, FEATURED_COUNTRIES, OTHER_COUNTRIES, findCountry } from './countries.ts';
import {
  ORGANISATION_TYPES,
  PURPOSES_OF_USE,
  REGISTRATION_MESSAGES as M,
  REGISTRATION_MESSAGES_ES as M_ES,
  REGISTRATION_SERVER_MESSAGES as S,
  parseRegistration,
  registrationErrors,
  registrationMessage,
  registrationMessageKey,
  validateRegistration,
} from './registration.ts';

const valid = (): Record<string, unknown> => ({
  User_name: 'AnaLopez@1',
  First_name: 'Ana',
  Last_name: 'López',
  Email: 'ana@example.com',
  Country: 'MX',
  City: 'Texcoco',
  Code_country: '+52',
  Phone_number: '595 123 4567',
  Organisation_type: '3',
  Organisation_name: 'Universidad Autónoma Chapingo',
  Purpose_use: '3',
  Aceppt_terms: true,
  Give_permission: false,
  Accept_DiAgro_data: true,
  Subscribe_update: false,
});

const check = (b: Record<string, unknown>) => validateRegistration(b, 'DiAgro', 'DiAgro');

/** The required fields, empty. */
const EMPTY_FORM = {
  User_name: '',
  First_name: '',
  Last_name: '',
  Email: '',
  Country: '',
  City: '',
  Organisation_type: '',
  Organisation_name: '',
  Purpose_use: '',
  Aceppt_terms: false,
  Accept_DiAgro_data: false,
};

describe('validateRegistration: the 14 rules in the specification order', () => {
  it('passes a complete form with the success text', () => {
    expect(check(valid())).toEqual({
      ok: true,
      message: 'Form validation successfully completed!!',
    });
  });

  // Starting from an empty form and filling one field at a time walks through every rule in order.
  it('reports each rule in order as the form is filled in', () => {
    const steps: [string, unknown, number, string][] = [
      ['User_name', 'AnaLopez1', 1, 'User Name cannot be empty'],
      ['First_name', 'Ana', 5, 'First Name cannot be empty'],
      ['Last_name', 'López', 6, 'Last Name cannot be empty'],
      ['Email', 'ana@example.com', 7, 'Email cannot be empty'],
      ['Country', 'CA', 8, 'Select One Country Of The List!'],
      ['City', 'Toronto', 9, 'City cannot be empty'],
      ['Organisation_type', '1', 10, 'Select One Organisation Type Of The List!'],
      ['Organisation_name', 'FAO', 11, 'Organisation Name cannot be empty'],
      ['Purpose_use', '6', 12, 'Select One Purpose Use Of The List!'],
      ['Aceppt_terms', true, 13, 'Please, Activate --> Accept Terms and Conditions!'],
      ['Accept_DiAgro_data', true, 14, 'Please, Activate --> Accept DiAgro-User License!'],
    ];
    const form: Record<string, unknown> = { ...EMPTY_FORM };
    for (const [field, value, rule, message] of steps) {
      const r = check(form);
      expect(r).toMatchObject({ ok: false, rule, message });
      form[field] = value;
    }
    expect(check(form).ok).toBe(true);
  });

  it('checks the user name: not a string, length 5-15, letters digits and @ only', () => {
    expect(check({ ...valid(), User_name: 12345 })).toMatchObject({
      rule: 2,
      message: M.userNameNotString,
    });
    expect(check({ ...valid(), User_name: 'abcd' })).toMatchObject({
      rule: 3,
      message: M.userNameLength,
    });
    expect(check({ ...valid(), User_name: 'a'.repeat(16) })).toMatchObject({ rule: 3 });
    expect(check({ ...valid(), User_name: 'abcde' }).ok).toBe(true);
    expect(check({ ...valid(), User_name: 'a'.repeat(15) }).ok).toBe(true);
    for (const bad of [
      'ana lopez',
      'ana_lopez',
      'ana-lopez',
      "ana'; --",
      'anaLópez',
      '<b>ana</b>',
    ]) {
      expect(check({ ...valid(), User_name: bad }), bad).toMatchObject({
        rule: 4,
        message:
          'User Name should be uppercase, undercase and @. Without space and special characters',
      });
    }
  });

  it('treats blank text as empty and unknown options as not selected', () => {
    expect(check({ ...valid(), First_name: '   ' })).toMatchObject({ rule: 5 });
    expect(check({ ...valid(), Country: 'XX' })).toMatchObject({ rule: 8 });
    expect(check({ ...valid(), Organisation_type: 7 })).toMatchObject({ rule: 10 });
    expect(check({ ...valid(), Organisation_type: 4 }).ok).toBe(true);
    expect(check({ ...valid(), Purpose_use: '0' })).toMatchObject({ rule: 12 });
    expect(check({ ...valid(), Aceppt_terms: 'true' })).toMatchObject({ rule: 13 });
  });

  it('names the configured provider in the licence flag and its message', () => {
    const body = { ...valid(), Accept_AgroLab_data: false };
    const r = validateRegistration(body, 'AgroLab', 'Agro Lab');
    expect(r).toMatchObject({
      rule: 14,
      field: 'Accept_AgroLab_data',
      message: 'Please, Activate --> Accept Agro Lab-User License!',
    });
    expect(
      validateRegistration({ ...body, Accept_AgroLab_data: true }, 'AgroLab', 'Agro Lab').ok,
    ).toBe(true);
  });

  it('keeps phone, permission and subscription optional', () => {
    const b = valid();
    delete b.Phone_number;
    delete b.Give_permission;
    delete b.Subscribe_update;
    expect(check(b).ok).toBe(true);
  });
});

describe('registrationErrors: every failing field at once', () => {
  const errors = (b: Record<string, unknown>) => registrationErrors(b, 'DiAgro', 'DiAgro');

  it('lists all eleven required fields of an empty form, in the specification order', () => {
    expect(errors(EMPTY_FORM).map((e) => [e.rule, e.field, e.key])).toEqual([
      [1, 'User_name', 'userNameEmpty'],
      [5, 'First_name', 'firstNameEmpty'],
      [6, 'Last_name', 'lastNameEmpty'],
      [7, 'Email', 'emailEmpty'],
      [8, 'Country', 'countryNotSelected'],
      [9, 'City', 'cityEmpty'],
      [10, 'Organisation_type', 'organisationTypeNotSelected'],
      [11, 'Organisation_name', 'organisationNameEmpty'],
      [12, 'Purpose_use', 'purposeNotSelected'],
      [13, 'Aceppt_terms', 'termsNotAccepted'],
      [14, 'Accept_DiAgro_data', 'licenceNotAccepted'],
    ]);
    expect(errors(EMPTY_FORM)[10]!.message).toBe(
      'Please, Activate --> Accept DiAgro-User License!',
    );
  });

  it('gives each field only its first failing rule, and none for a valid form', () => {
    expect(errors({ ...valid(), User_name: 'a b' })).toEqual([
      { rule: 3, field: 'User_name', key: 'userNameLength', message: M.userNameLength },
    ]);
    expect(errors({ ...valid(), User_name: 'ana lopez', City: ' ', Purpose_use: 9 })).toEqual([
      { rule: 4, field: 'User_name', key: 'userNameChars', message: M.userNameChars },
      { rule: 9, field: 'City', key: 'cityEmpty', message: M.cityEmpty },
      { rule: 12, field: 'Purpose_use', key: 'purposeNotSelected', message: M.purposeNotSelected },
    ]);
    expect(errors(valid())).toEqual([]);
  });

  it('agrees with validateRegistration: its first failure is the one that stops submission', () => {
    const forms = [
      EMPTY_FORM,
      { ...valid(), First_name: '', Aceppt_terms: false },
      { ...valid(), Accept_DiAgro_data: 'yes' },
      valid(),
    ];
    for (const form of forms) {
      const [first] = errors(form);
      expect(check(form)).toEqual(first ? { ok: false, ...first } : { ok: true, message: M.valid });
    }
  });
});

describe('the Spanish twins of the registration messages', () => {
  it('have every key, each in Spanish, not the English words', () => {
    expect(Object.keys(M_ES).sort()).toEqual(Object.keys(M).sort());
    for (const key of Object.keys(M) as (keyof typeof M)[]) {
      const es = registrationMessage(key, 'es', 'Agro Lab');
      const en = registrationMessage(key, 'en', 'Agro Lab');
      expect(en, key).toBe(
        typeof M[key] === 'function' ? M.licenceNotAccepted('Agro Lab') : M[key],
      );
      expect(es, key).not.toBe(en);
      expect(es.trim(), key).not.toBe('');
      expect(es, key).not.toMatch(/\b(the|cannot|should|select|please|of)\b/i);
    }
    expect(registrationMessage('licenceNotAccepted', 'es', 'Agro Lab')).toBe(
      'Acepta la licencia de uso de datos de Agro Lab.',
    );
  });

  it("find the key of a rule's English message, as a server sends it, and nothing else", () => {
    for (const key of Object.keys(M) as (keyof typeof M)[]) {
      expect(registrationMessageKey(registrationMessage(key, 'en', 'DiAgro'), 'DiAgro')).toBe(key);
    }
    expect(registrationMessageKey(M.licenceNotAccepted('Otro'), 'DiAgro')).toBeUndefined();
    expect(registrationMessageKey(S.emailFormat, 'DiAgro')).toBeUndefined();
    expect(registrationMessageKey(M_ES.userNameEmpty, 'DiAgro')).toBeUndefined();
  });
});

describe('parseRegistration: the server checks beyond the 14 rules', () => {
  const parse = (b: Record<string, unknown>) => parseRegistration(b, 'DiAgro', 'DiAgro');

  it('normalises a valid form', () => {
    const r = parse({ ...valid(), First_name: '  Ana  ', Language: 'en' });
    expect(r).toMatchObject({
      ok: true,
      value: {
        firstName: 'Ana',
        country: 'MX',
        codeCountry: '+52',
        organisationType: 3,
        language: 'en',
      },
    });
  });

  it('answers the rule message first, then the Spanish details', () => {
    expect(parse({ ...valid(), User_name: '' })).toEqual({ ok: false, message: M.userNameEmpty });
    expect(parse({ ...valid(), Email: 'not-an-email' })).toEqual({
      ok: false,
      message: S.emailFormat,
    });
    expect(parse({ ...valid(), Email: 'a@b.c\r\nBcc: x@y.z' })).toMatchObject({ ok: false });
    expect(parse({ ...valid(), City: 'x'.repeat(101) })).toEqual({
      ok: false,
      message: 'El campo Ciudad admite como máximo 100 caracteres.',
    });
    expect(parse({ ...valid(), First_name: 'Ana\u0000' })).toEqual({
      ok: false,
      message: 'El campo Nombre contiene caracteres no permitidos.',
    });
    expect(parse({ ...valid(), Code_country: '+1' })).toEqual({
      ok: false,
      message: S.codeCountry,
    });
    expect(parse({ ...valid(), Phone_number: '+52 555' })).toEqual({ ok: false, message: S.phone });
    expect(parse({ ...valid(), Subscribe_update: 'yes' })).toEqual({ ok: false, message: S.flags });
    expect(parse({ ...valid(), First_name: 42 })).toEqual({
      ok: false,
      message: 'El campo Nombre debe ser texto.',
    });
  });

  it('keeps hostile but harmless text as it is', () => {
    const r = parse({
      ...valid(),
      Organisation_name: "<script>alert(1)</script> '; DROP TABLE users; --  😀 Ñandú",
    });
    expect(r).toMatchObject({
      ok: true,
      value: { organisationName: "<script>alert(1)</script> '; DROP TABLE users; --  😀 Ñandú" },
    });
  });
});

describe('countries and option lists', () => {
  it('lists Mexico +52, USA +1 and Canada +1 first, then every other country', () => {
    expect(FEATURED_COUNTRIES.map((c) => [c.code, c.en, c.dial])).toEqual([
      ['MX', 'Mexico', '+52'],
      ['US', 'USA', '+1'],
      ['CA', 'Canada', '+1'],
    ]);
    expect(OTHER_COUNTRIES.length).toBeGreaterThanOrEqual(230);
    expect(new Set(COUNTRIES.map((c) => c.code)).size).toBe(COUNTRIES.length);
    for (const c of COUNTRIES) {
      expect(c.code).toMatch(/^[A-Z]{2}$/);
      expect(c.dial).toMatch(/^\+\d{1,4}$/);
      expect(c.es.length).toBeGreaterThan(2);
    }
    expect(findCountry('ES')).toMatchObject({ es: 'España', dial: '+34' });
    expect(findCountry('BR')).toMatchObject({ es: 'Brasil', dial: '+55' });
    expect(findCountry('DE')).toMatchObject({ es: 'Alemania', dial: '+49' });
    const names = OTHER_COUNTRIES.map((c) => c.es);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'es')));
  });

  it('has the six organisation types and purposes of the specification', () => {
    expect(ORGANISATION_TYPES.map((o) => o.en)).toEqual([
      'International public organisation',
      'National/Regional/Local public authorities',
      'Research & Education organisation',
      'Business/Commercial/Professional',
      'Personal interest',
      'Other',
    ]);
    expect(PURPOSES_OF_USE.map((o) => o.en)).toEqual([
      'Public sector',
      'Business sector',
      'Research',
      'Education',
      'Natural person for non commercial purposes',
      'Other',
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { RATE_LIMIT_MESSAGES, checkNewPassword, retryWait } from './accounts.ts';
import { checkContact } from './contact.ts';

describe('password rule', () => {
  it('needs 10-128 characters with a letter and a digit, without the user name', () => {
    expect(checkNewPassword('corta1')).toBe('tooShort');
    expect(checkNewPassword('a1'.repeat(65))).toBe('tooLong');
    expect(checkNewPassword('solo-letras-aqui')).toBe('needsLetterAndDigit');
    expect(checkNewPassword('1234567890')).toBe('needsLetterAndDigit');
    expect(checkNewPassword('AnaLopez1-2026', 'analopez1')).toBe('containsUserName');
    expect(checkNewPassword('Tomate-verde-2026', 'analopez1')).toBeNull();
    expect(checkNewPassword('ñandú😀ñandú7')).toBeNull();
  });
});

describe('retry message', () => {
  it('says when to try again', () => {
    expect(retryWait(1)).toBe('1 segundo');
    expect(retryWait(40)).toBe('40 segundos');
    expect(retryWait(60)).toBe('1 minuto');
    expect(retryWait(899)).toBe('15 minutos');
    expect(RATE_LIMIT_MESSAGES.login(900)).toContain('vuelve a intentarlo en 15 minutos');
  });
});

describe('contact form rule', () => {
  const ok = {
    name: 'Ana',
    email: 'ana@example.com',
    subject: 'Hola',
    message: 'Un mensaje suficiente.',
  };
  it('accepts a complete message and reports every invalid field', () => {
    expect(checkContact(ok)).toEqual({});
    expect(checkContact({})).toEqual({
      name: 'empty',
      email: 'empty',
      subject: 'empty',
      message: 'empty',
    });
    expect(
      checkContact({ name: 'x'.repeat(101), email: 'nope', subject: 'a\nb', message: 'corto' }),
    ).toEqual({ name: 'tooLong', email: 'invalid', subject: 'controlChars', message: 'tooShort' });
    expect(checkContact({ ...ok, message: 'línea 1\nlínea 2\tcon tab' })).toEqual({});
    expect(checkContact({ ...ok, message: 'nul \u0000 aquí dentro' })).toEqual({
      message: 'controlChars',
    });
  });
});

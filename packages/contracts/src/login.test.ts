import { describe, expect, it } from 'vitest';
import {
  LOGIN_MESSAGES as M,
  LOGIN_MESSAGES_ES as M_ES,
  loginErrors,
  loginMessage,
  validateLogin,
} from './login.ts';

describe('the login rule of the specification', () => {
  it('marks both empty fields at once, user name first', () => {
    expect(loginErrors({ username: ' ', password: '' })).toEqual([
      { field: 'username', key: 'userNameEmpty', message: 'User Name cannot be empty!' },
      { field: 'password', key: 'passwordEmpty', message: 'Password cannot be empty!' },
    ]);
    expect(loginErrors({ username: 'AnaLopez', password: '' })).toEqual([
      { field: 'password', key: 'passwordEmpty', message: 'Password cannot be empty!' },
    ]);
    expect(loginErrors({ username: 'AnaLopez', password: ' x ' })).toEqual([]);
  });

  it('keeps validateLogin to the first failure, then the success text', () => {
    expect(validateLogin({ username: '', password: '' })).toEqual({
      ok: false,
      message: 'User Name cannot be empty!',
    });
    expect(validateLogin({ username: 'AnaLopez', password: '' })).toEqual({
      ok: false,
      message: 'Password cannot be empty!',
    });
    expect(validateLogin({ username: 'AnaLopez', password: 'x' })).toEqual({
      ok: true,
      message: 'Form Login Valided!',
    });
  });

  it('says each message in Spanish on the Spanish page, with every key', () => {
    expect(Object.keys(M_ES).sort()).toEqual(Object.keys(M).sort());
    for (const key of Object.keys(M) as (keyof typeof M)[]) {
      expect(loginMessage(key, 'en')).toBe(M[key]);
      expect(loginMessage(key, 'es'), key).not.toBe(M[key]);
      expect(loginMessage(key, 'es'), key).not.toMatch(/\b(cannot|user|password|form)\b/i);
    }
    expect(loginMessage('userNameEmpty', 'es')).toBe('El nombre de usuario no puede estar vacío.');
  });
});

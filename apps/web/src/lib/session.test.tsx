// The session kept for offline use: forgotten as soon as the account is deleted.
import { describe, expect, it } from 'vitest';
import { ACCOUNT_DELETED, announceAccountDeleted } from './session.tsx';

describe('announceAccountDeleted', () => {
  it('forgets the remembered session at once and tells the device store', () => {
    localStorage.setItem(
      'diagrodl.session',
      JSON.stringify({ isAuthenticated: true, user: { userName: 'Ana', firstName: 'Ana' } }),
    );
    const heard: string[] = [];
    const on = (e: Event) => heard.push((e as CustomEvent<string>).detail);
    window.addEventListener(ACCOUNT_DELETED, on);
    announceAccountDeleted('Ana');
    window.removeEventListener(ACCOUNT_DELETED, on);
    expect(localStorage.getItem('diagrodl.session')).toBeNull();
    expect(heard).toEqual(['Ana']);
  });
});

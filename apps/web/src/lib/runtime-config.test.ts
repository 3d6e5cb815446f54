import { afterEach, describe, expect, it } from 'vitest';
import { runtimeConfig } from './runtime-config.ts';

afterEach(() => document.getElementById('app-config')?.remove());

describe('runtimeConfig', () => {
  it('reads what the server wrote into index.html', () => {
    const el = document.createElement('script');
    el.id = 'app-config';
    el.type = 'application/json';
    el.textContent = JSON.stringify({
      maintenance: true,
      providerName: 'Agro Lab',
      providerKey: 'AgroLab',
    });
    document.head.appendChild(el);
    expect(runtimeConfig()).toEqual({
      maintenance: true,
      providerName: 'Agro Lab',
      providerKey: 'AgroLab',
    });
  });

  it('falls back to the defaults without the block or with broken JSON', () => {
    expect(runtimeConfig().maintenance).toBe(false);
    const el = document.createElement('script');
    el.id = 'app-config';
    el.type = 'application/json';
    el.textContent = '{broken';
    document.head.appendChild(el);
    expect(runtimeConfig().providerName).toBe('DiAgro');
  });
});

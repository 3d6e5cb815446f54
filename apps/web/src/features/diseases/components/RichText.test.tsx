import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Inline, plain } from './RichText.tsx';

describe('Inline', () => {
  it('marks words of another language and keeps the italics inside and around them', () => {
    const { container } = render(
      <p>
        <Inline text="Late blight (*P. infestans*); in Spanish, [[es|tizón *tardío*]] or [[es|mildiu]]." />
      </p>,
    );
    expect(container.textContent).toBe(
      'Late blight (P. infestans); in Spanish, tizón tardío or mildiu.',
    );
    const marked = container.querySelectorAll('span[lang="es"]');
    expect([...marked].map((s) => s.textContent)).toEqual(['tizón tardío', 'mildiu']);
    expect([...container.querySelectorAll('em')].map((e) => e.textContent)).toEqual([
      'P. infestans',
      'tardío',
    ]);
  });

  it('gives the plain text without marks', () => {
    expect(plain('*A. solani*, [[es|tizón temprano]]')).toBe('A. solani, tizón temprano');
  });
});

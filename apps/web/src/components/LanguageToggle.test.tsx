import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import i18n, { LANGUAGE_KEY } from '@/lib/i18n.ts';
import { LanguageToggle } from './LanguageToggle.tsx';

describe('LanguageToggle', () => {
  it('switches Spanish to English, persists the choice and sets <html lang>', async () => {
    await i18n.changeLanguage('es');
    render(
      <I18nextProvider i18n={i18n}>
        <LanguageToggle />
      </I18nextProvider>,
    );
    // the name starts with the visible word; only that word is marked English
    const button = screen.getByRole('button', { name: 'English (cambiar el idioma a inglés)' });
    expect(button).not.toHaveAttribute('lang');
    expect(screen.getByText('English')).toHaveAttribute('lang', 'en');
    await userEvent.click(button);
    expect(i18n.language).toBe('en');
    expect(localStorage.getItem(LANGUAGE_KEY)).toBe('en');
    expect(document.documentElement.lang).toBe('en-US');
    expect(
      screen.getByRole('button', { name: 'Español (switch the language to Spanish)' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Español')).toHaveAttribute('lang', 'es');
  });
});

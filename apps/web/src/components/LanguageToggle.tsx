import Button from 'react-bootstrap/Button';
import { useTranslation } from 'react-i18next';

/**
 * Switches between Spanish (default) and English; the choice persists in localStorage. The
 * button's name starts with the word it shows (speech input can say it), and only that word is
 * marked as the other language, so a screen reader reads the hint in the page's own voice.
 */
export function LanguageToggle({ variant = 'outline-light' }: { variant?: string }) {
  const { t, i18n } = useTranslation();
  const next = i18n.language === 'en' ? 'es' : 'en';
  return (
    <Button
      size="sm"
      variant={variant}
      data-testid="language-toggle"
      onClick={() => void i18n.changeLanguage(next)}
    >
      <span lang={next}>{t('lang.toggle')}</span>{' '}
      <span className="visually-hidden">{t('lang.toggleHint')}</span>
    </Button>
  );
}

import Button from 'react-bootstrap/Button';
import { useTranslation } from 'react-i18next';

/** Switches between Spanish (default) and English; the choice persists in localStorage. */
export function LanguageToggle({ variant = 'outline-light' }: { variant?: string }) {
  const { t, i18n } = useTranslation();
  const next = i18n.language === 'en' ? 'es' : 'en';
  return (
    <Button
      size="sm"
      variant={variant}
      lang={next}
      aria-label={t('lang.toggleLabel')}
      data-testid="language-toggle"
      onClick={() => void i18n.changeLanguage(next)}
    >
      {t('lang.toggle')}
    </Button>
  );
}

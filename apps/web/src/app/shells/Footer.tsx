import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { runtimeConfig } from '@/lib/runtime-config.ts';

export function Footer() {
  const { t } = useTranslation();
  const { providerName } = runtimeConfig();
  return (
    <footer className="app-footer border-top py-3 mt-auto">
      <div className="container-fluid d-flex flex-wrap gap-3 small">
        <span>
          © {new Date().getFullYear()} {providerName} · DiAgroDL
        </span>
        <Link to="/About">{t('sidebar.about')}</Link>
        <Link to="/Contact_us">{t('sidebar.contact')}</Link>
        <span className="text-body-secondary">{t('app.licence')}</span>
      </div>
    </footer>
  );
}

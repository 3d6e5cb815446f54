import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** The header image with the product name over it; shared by every shell. */
export function Header({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <header className="app-header">
      <img
        className="app-header-img"
        src="/media-assets/header.jpg"
        alt=""
        width={1600}
        height={178}
        fetchPriority="high"
      />
      <div className="app-header-overlay container-fluid">
        <Link to="/" className="app-brand text-white text-decoration-none">
          <img src="/favicon.svg" alt="" width={40} height={40} className="me-2" />
          <span className="fs-3 fw-bold">{t('app.name')}</span>
        </Link>
        <p className="app-tagline d-none d-md-block mb-0">{t('app.tagline')}</p>
        {children}
      </div>
    </header>
  );
}

export function SkipLink() {
  const { t } = useTranslation();
  return (
    <a className="visually-hidden-focusable skip-link" href="#main">
      {t('app.skipToContent')}
    </a>
  );
}

import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useDocumentTitle } from './useDocumentTitle.ts';

export function NotFound() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  useDocumentTitle(t('notFound.title'));
  return (
    <section className="py-5 text-center" data-testid="not-found">
      <p className="display-1 fw-bold text-success" aria-hidden="true">
        404
      </p>
      <h1 className="h2">{t('notFound.title')}</h1>
      <p className="lead">{t('notFound.text', { path: pathname })}</p>
      <Link className="btn btn-success btn-lg" to="/">
        {t('notFound.home')}
      </Link>
    </section>
  );
}

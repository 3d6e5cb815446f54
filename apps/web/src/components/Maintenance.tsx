import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from './useDocumentTitle.ts';

export function Maintenance() {
  const { t } = useTranslation();
  useDocumentTitle(t('maintenance.title'));
  return (
    <main className="container py-5 text-center" id="main">
      <h1 className="display-6">{t('maintenance.title')}</h1>
      <p className="lead">{t('maintenance.text')}</p>
    </main>
  );
}

import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from './useDocumentTitle.ts';

/** A route whose feature arrives in a later piece of work: its title and 'En construcción'. */
export function UnderConstruction({ path }: { path: string }) {
  const { t } = useTranslation();
  const title = t(`routes.${path}`, { defaultValue: path });
  useDocumentTitle(title);
  return (
    <section className="py-4">
      <h1 className="h2">{title}</h1>
      <p className="lead text-body-secondary">{t('construction.text')}</p>
    </section>
  );
}

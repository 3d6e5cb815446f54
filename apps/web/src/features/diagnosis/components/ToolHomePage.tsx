import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ROUTES } from '@diagrodl/contracts';
import { useDocumentTitle } from '@/components/useDocumentTitle.ts';
import { DeviceReadiness } from '../device/DeviceReadiness.tsx';

/** /DiAgroDL: what the tool does, how to take a good photo, and where to start. */
export default function ToolHomePage() {
  const { t } = useTranslation();
  useDocumentTitle(t('diagnosis.home.title'));
  const tips = t('diagnosis.home.photoTips', { returnObjects: true }) as string[];
  return (
    <article className="diagnosis-home">
      <h1 className="h2">{t('diagnosis.home.title')}</h1>
      <p className="lead">{t('diagnosis.home.intro')}</p>
      <p>{t('diagnosis.home.classes')}</p>
      <h2 className="h4 mt-4">{t('diagnosis.home.photoTitle')}</h2>
      <ul>
        {tips.map((tip) => (
          <li key={tip}>{tip}</li>
        ))}
      </ul>
      <p className="text-body-secondary">{t('diagnosis.home.limits')}</p>
      <DeviceReadiness />
      <div className="d-flex flex-wrap gap-2 mt-3">
        <Link className="btn btn-success btn-lg" to={ROUTES.custom}>
          {t('diagnosis.home.start')}
        </Link>
        <Link className="btn btn-outline-success btn-lg" to={ROUTES.history}>
          {t('diagnosis.home.history')}
        </Link>
      </div>
    </article>
  );
}

import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ROUTES } from '@diagrodl/contracts';
import { useDocumentTitle } from '@/components/useDocumentTitle.ts';
import { DeviceReadiness } from '../device/DeviceReadiness.tsx';
import { PhotoTips } from './PhotoTips.tsx';

/** /DiAgroDL: what the tool does, how to take a good photo, and where to start. */
export default function ToolHomePage() {
  const { t } = useTranslation();
  useDocumentTitle(t('diagnosis.home.title'));
  return (
    <article className="diagnosis-home">
      <h1 className="h2">{t('diagnosis.home.title')}</h1>
      <p className="lead">{t('diagnosis.home.intro')}</p>
      <p>{t('diagnosis.home.classes')}</p>
      <PhotoTips />
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
      <ul className="list-inline mt-3">
        <li className="list-inline-item">
          <Link to={ROUTES.tomatoCrops}>{t('diagnosis.home.diseases')}</Link>
        </li>
        <li className="list-inline-item">
          <Link to={ROUTES.aboutTool}>{t('diagnosis.home.aboutTool')}</Link>
        </li>
      </ul>
    </article>
  );
}

import Spinner from 'react-bootstrap/Spinner';
import { useTranslation } from 'react-i18next';

export function Loading() {
  const { t } = useTranslation();
  return (
    <div className="d-flex justify-content-center align-items-center p-5" role="status">
      <Spinner animation="border" variant="success" aria-hidden="true" />
      <span className="ms-2">{t('app.loading')}</span>
    </div>
  );
}

import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ROUTES, reportFileName } from '@diagrodl/contracts';
import { useDocumentTitle } from '@/components/useDocumentTitle.ts';
import { useOnline } from '@/lib/online.ts';
import { diagnosisApi } from '../api.ts';
import { errorText } from './errors.ts';

/** /Create_report: asks the server for the PDF report; the button is disabled after use. */
export default function ReportPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('diagnosis.report.title'));
  const [url, setUrl] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const online = useOnline();

  const request = async () => {
    setBusy(true);
    setError(null);
    try {
      setUrl((await diagnosisApi.makeReport()).url);
    } catch (err) {
      setError(errorText(err, t));
      setBusy(false);
    }
  };

  return (
    <section>
      <h1 className="h2">{t('diagnosis.report.title')}</h1>
      <Button
        variant="success"
        size="lg"
        disabled={busy || url !== null || !online}
        onClick={() => void request()}
      >
        {t('diagnosis.report.request')}
      </Button>
      {!online && (
        <p className="small text-body-secondary mt-2" data-testid="report-offline">
          {t('diagnosis.device.reportOffline')}
        </p>
      )}
      <div role="status" aria-live="polite" className="my-3">
        {url && (
          <Alert variant="success" className="d-flex flex-wrap align-items-center gap-2">
            {t('diagnosis.report.ready')}
            <a
              className="btn btn-success btn-sm"
              href={url}
              download={reportFileName(new Date().toISOString().slice(0, 10))}
            >
              {t('diagnosis.report.download')}
            </a>
          </Alert>
        )}
      </div>
      {error && (
        <Alert variant="danger" role="alert">
          {error}
        </Alert>
      )}
      <Link className="btn btn-link" to={ROUTES.getPredict}>
        {t('diagnosis.report.results')}
      </Link>
    </section>
  );
}

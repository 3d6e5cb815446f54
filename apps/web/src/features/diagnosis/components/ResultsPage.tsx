import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { type DiagnosisRow, ROUTES } from '@diagrodl/contracts';
import { useDocumentTitle } from '@/components/useDocumentTitle.ts';
import { currentLanguage } from '@/lib/i18n.ts';
import { diagnosisApi } from '../api.ts';
import { useDevicePhotos, useObjectUrls } from '../device/hooks.ts';
import { type DeviceRow, deviceRow } from '../device/rows.ts';
import { deleteDevicePhotos, updateDevicePhoto } from '../device/store.ts';
import { outcomeOf } from '../outcome.ts';
import { DiagnosisCard } from './DiagnosisCard.tsx';
import { errorText } from './errors.ts';

/** /Get_predict: show the diagnosis, download the report, or start anew. */
export default function ResultsPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('diagnosis.results.title'));
  const navigate = useNavigate();
  const [serverRows, setServerRows] = useState<DiagnosisRow[] | null>(null);
  const [shown, setShown] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { photos } = useDevicePhotos();
  const diagnosed = (photos ?? []).filter((p) => p.status === 'done' && p.inWorkingSet);
  const urls = useObjectUrls(
    Object.fromEntries(
      diagnosed.flatMap((p) => [
        [`p-${p.id}`, p.photo],
        [`h-${p.id}`, p.heatmap],
      ]),
    ),
  );
  const language = currentLanguage();
  const deviceRows = diagnosed
    .map((p, i) =>
      deviceRow(p, i, { photo: urls[`p-${p.id}`], heatmap: urls[`h-${p.id}`] }, language),
    )
    .filter((r): r is DeviceRow => r !== null);
  const rows: DiagnosisRow[] | null = shown ? [...(serverRows ?? []), ...deviceRows] : null;

  const show = async () => {
    setError(null);
    setShown(true);
    if (!navigator.onLine) return;
    try {
      setServerRows(await diagnosisApi.rows());
    } catch (err) {
      setError(errorText(err, t));
    }
  };

  const download = async () => {
    setError(null);
    setBusy(true);
    try {
      const { url } = await diagnosisApi.makeReport();
      const a = document.createElement('a');
      a.href = url;
      a.download = url.split('/').pop() ?? 'reporte.pdf';
      document.body.appendChild(a);
      a.click();
      a.remove();
    } catch (err) {
      setError(errorText(err, t));
    } finally {
      setBusy(false);
    }
  };

  const startAnew = async () => {
    setError(null);
    try {
      if (navigator.onLine) await diagnosisApi.deleteRows();
      // the device's working set goes too; diagnoses not yet sent stay for the history
      const set = (photos ?? []).filter((p) => p.inWorkingSet);
      await deleteDevicePhotos(
        set.filter((p) => p.status === 'pending' || p.sync === 'sent').map((p) => p.id),
      );
      for (const p of set.filter((x) => x.status === 'done' && x.sync !== 'sent')) {
        await updateDevicePhoto(p.id, { inWorkingSet: false });
      }
      void navigate(ROUTES.custom);
    } catch (err) {
      setError(errorText(err, t));
    }
  };

  const count = (o: ReturnType<typeof outcomeOf>) =>
    rows?.filter((r) => outcomeOf(r) === o).length ?? 0;
  const accepted = count('diagnosis');
  const notLeaf = count('not_leaf');
  const rejected = count('low_confidence');
  const fieldPhotos = rows?.filter((r) => r.field_photo).length ?? 0;
  return (
    <section>
      <h1 className="h2">{t('diagnosis.results.title')}</h1>
      <div className="d-flex flex-wrap gap-2 mb-3">
        <Button variant="success" onClick={() => void show()}>
          {t('diagnosis.results.show')}
        </Button>
        <Button variant="outline-success" disabled={busy} onClick={() => void download()}>
          {t('diagnosis.results.downloadReport')}
        </Button>
        <Button variant="primary" onClick={() => void startAnew()}>
          {t('diagnosis.results.newRun')}
        </Button>
        {/* Disabled in the specification; logging out lives in the sidebar. */}
        <Button variant="secondary" disabled aria-disabled="true">
          {t('diagnosis.results.logout')}
        </Button>
      </div>
      {error && (
        <Alert variant="danger" role="alert">
          {error}
        </Alert>
      )}
      {rows && rows.length === 0 && <p>{t('diagnosis.results.empty')}</p>}
      {deviceRows.length > 0 && (
        <p className="small text-body-secondary" data-testid="results-device-note">
          {t('diagnosis.device.resultsNote')}
        </p>
      )}
      {rows && rows.length > 0 && (
        <>
          <p data-testid="results-summary">
            {t(notLeaf ? 'diagnosis.results.summaryNotLeaf' : 'diagnosis.results.summary', {
              diagnoses: t('diagnosis.results.count.diagnoses', { count: accepted }),
              notLeaf: t('diagnosis.results.count.notLeaf', { count: notLeaf }),
              rejected: t('diagnosis.results.count.rejected', { count: rejected }),
            })}
          </p>
          {fieldPhotos > 0 && (
            <p data-testid="results-field-photos">
              {t('diagnosis.results.count.fieldPhotos', { count: fieldPhotos })}
            </p>
          )}
          <div className="row g-3">
            {rows.map((row) => (
              <div key={row.id} className="col-12 col-md-6 col-xxl-4">
                <DiagnosisCard
                  row={row}
                  badge={
                    'device' in row && (row as DeviceRow).device.sync !== 'sent'
                      ? t('diagnosis.device.onThisDevice')
                      : undefined
                  }
                />
              </div>
            ))}
          </div>
        </>
      )}
    </section>
  );
}

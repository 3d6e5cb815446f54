import { useEffect, useId, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import {
  type DiagnosisRow,
  type ProgressReply,
  ROUTES,
  UPLOAD_TAKE_PHOTO,
  reportFileName,
} from '@diagrodl/contracts';
import { useDocumentTitle } from '@/components/useDocumentTitle.ts';
import { currentLanguage } from '@/lib/i18n.ts';
import { diagnosisApi } from '../api.ts';
import { useDeviceMode, useDevicePhotos, useObjectUrls, useOwner } from '../device/hooks.ts';
import { type DeviceRow, deviceRow } from '../device/rows.ts';
import { leaveWorkingSet } from '../device/run.ts';
import { type OnePressState, identifyAgain, sentFirst } from '../identify.ts';
import { outcomeOf } from '../outcome.ts';
import { CropDialog } from './CropDialog.tsx';
import { DiagnosisCard } from './DiagnosisCard.tsx';
import { errorText, identifyErrorText } from './errors.ts';
import { IdentificationProgress } from './IdentificationProgress.tsx';
import { ResultsAnswer } from './ResultsAnswer.tsx';

/**
 * /Get_predict: show the diagnosis, download the report, diagnose another leaf or start anew.
 * Opened, the latest diagnosis is shown at once ('Mostrar el diagnóstico' fetches it again), the
 * answer first (each photo's disease and confidence), then the buttons, then a card per photo.
 * A refused photo can be taken again or cropped from its card: only that photo is identified
 * again, and its new answer replaces the old one.
 */
export default function ResultsPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('diagnosis.results.title'));
  const navigate = useNavigate();
  const opened = useLocation().state as OnePressState | null;
  const owner = useOwner();
  const { onDevice } = useDeviceMode();
  /** The photo being identified again, and its progress. */
  const [again, setAgain] = useState<{ id: number; progress: ProgressReply | null } | null>(null);
  const [toCrop, setToCrop] = useState<{ row: DiagnosisRow; file: File } | null>(null);
  const [announced, setAnnounced] = useState('');
  /** The photos 'Diagnosticar' identified, and those that took their place from their card. */
  const [sent, setSent] = useState(opened?.sent);
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

  // opened (by 'Diagnosticar', a link, or anew): the latest diagnosis is shown without a press
  useEffect(() => {
    void show();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // the language toggle: the server's rows (disease names, advice) are fetched again in the new
  // language, as the device's rows are rebuilt in it
  const shownLanguage = useRef(language);
  useEffect(() => {
    if (shownLanguage.current === language) return;
    shownLanguage.current = language;
    if (shown && serverRows !== null && navigator.onLine) void show();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [language]);

  /** The row's photo as a file (kept on the device, or fetched from the server) for the crop. */
  const crop = async (row: DiagnosisRow) => {
    setError(null);
    try {
      const file =
        'device' in row
          ? new File([(row as DeviceRow).device.photo], row.name_img, {
              type: (row as DeviceRow).device.type,
            })
          : await diagnosisApi.photo(row.image, row.name_img);
      setToCrop({ row, file });
    } catch (err) {
      setError(errorText(err, t));
    }
  };

  /** `file` (taken anew, or the crop) is identified in place of the row's photo. */
  const identifyInstead = async (row: DiagnosisRow, file: File) => {
    setToCrop(null);
    setError(null);
    setAnnounced('');
    setAgain({ id: row.id, progress: { state: 'running', done: 0, total: 1 } });
    try {
      const done = await identifyAgain(
        row,
        file,
        { onDevice, owner, shown: serverRows ?? [] },
        (progress) => setAgain({ id: row.id, progress }),
      );
      if (done.rows) setServerRows(done.rows);
      // a photo of this press identified again stays with this press's photos
      const wasFresh = groups.fresh.some((r) => r.id === row.id);
      setSent((s) =>
        s && wasFresh && done.identified
          ? {
              server: [...s.server, ...done.replacement.server],
              device: [...s.device, ...done.replacement.device],
            }
          : s,
      );
      if (done.deviceFailed) {
        setError(t('diagnosis.device.failed', { count: done.deviceFailed }));
      } else if (done.progress.detail || !done.identified) {
        // the run ended without an answer for it, or dropped other photos (the server says why)
        setError(done.progress.detail ?? t('diagnosis.errors.generic', { detail: '' }));
      }
      // the old result is replaced only when the new photo got an answer
      if (done.identified) setAnnounced(t('diagnosis.results.again.done', { name: file.name }));
    } catch (err) {
      setError(identifyErrorText(err, t));
    } finally {
      setAgain(null);
    }
  };

  const download = async () => {
    setError(null);
    setBusy(true);
    try {
      const { url } = await diagnosisApi.makeReport();
      const a = document.createElement('a');
      a.href = url;
      a.download = reportFileName(new Date().toISOString().slice(0, 10));
      document.body.appendChild(a);
      a.click();
      a.remove();
    } catch (err) {
      setError(errorText(err, t));
    } finally {
      setBusy(false);
    }
  };

  const cardsId = useId();
  const startAnew = async () => {
    setError(null);
    try {
      if (navigator.onLine) await diagnosisApi.deleteRows();
      // the device's working set goes too; diagnoses not yet sent stay for the history
      await leaveWorkingSet((photos ?? []).filter((p) => p.inWorkingSet));
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
  /** The photos opened by 'Diagnosticar' first, then any left from an earlier identification. */
  const groups = sentFirst(rows ?? [], sent);
  const renderCards = (list: DiagnosisRow[]) => (
    <div className="row g-3">
      {list.map((row) => (
        <div key={row.id} className="col-12 col-md-6 col-xxl-4">
          <DiagnosisCard
            row={row}
            badge={
              'device' in row && (row as DeviceRow).device.sync !== 'sent'
                ? t('diagnosis.device.onThisDevice')
                : undefined
            }
            retry={{
              onRetake: (file) => void identifyInstead(row, file),
              onCrop: () => void crop(row),
              busy: again !== null,
            }}
          >
            {again?.id === row.id && (
              <IdentificationProgress
                className="mt-2"
                progress={again.progress}
                running
                label={
                  again.progress
                    ? t('diagnosis.results.again.progress', { name: row.name_img })
                    : undefined
                }
              />
            )}
          </DiagnosisCard>
        </div>
      ))}
    </div>
  );
  return (
    <section>
      <h1 className="h2">{t('diagnosis.results.title')}</h1>
      {/* the answer first; on a phone it is what the first screen shows */}
      {rows && <ResultsAnswer rows={groups.fresh} cardsId={cardsId} />}
      <div className="d-flex flex-wrap gap-2 mb-3" data-testid="results-actions">
        <Link className="btn btn-primary" to={UPLOAD_TAKE_PHOTO} data-testid="another-leaf">
          {t('diagnosis.results.anotherLeaf')}
        </Link>
        <Button variant="outline-success" onClick={() => void show()}>
          {t('diagnosis.results.show')}
        </Button>
        <Button variant="outline-success" disabled={busy} onClick={() => void download()}>
          {t('diagnosis.results.downloadReport')}
        </Button>
        <Button variant="outline-primary" onClick={() => void startAnew()}>
          {t('diagnosis.results.newRun')}
        </Button>
        {/* Disabled in the specification; logging out lives in the sidebar. */}
        <Button variant="outline-secondary" disabled aria-disabled="true">
          {t('diagnosis.results.logout')}
        </Button>
      </div>
      {error && (
        <Alert variant="danger" role="alert">
          {error}
        </Alert>
      )}
      {opened?.notes.map((note) => (
        <Alert key={note} variant="warning" data-testid="results-notes">
          {note}
        </Alert>
      ))}
      <p role="status" className="visually-hidden" data-testid="results-again">
        {announced}
      </p>
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
          <div id={cardsId} tabIndex={-1}>
            {groups.earlier.length > 0 && (
              <h2 className="h5" data-testid="results-fresh">
                {t('diagnosis.results.fresh', { count: groups.fresh.length })}
              </h2>
            )}
            {renderCards(groups.fresh)}
          </div>
          {groups.earlier.length > 0 && (
            <>
              <h2 className="h5 mt-4" data-testid="results-earlier">
                {t('diagnosis.results.earlier', { count: groups.earlier.length })}
              </h2>
              <p className="small text-body-secondary">{t('diagnosis.results.earlierHint')}</p>
              {renderCards(groups.earlier)}
            </>
          )}
        </>
      )}
      <CropDialog
        file={toCrop?.file ?? null}
        onCancel={() => setToCrop(null)}
        onCropped={(file) => toCrop && void identifyInstead(toCrop.row, file)}
      />
    </section>
  );
}

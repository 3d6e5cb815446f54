import { useCallback, useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { HISTORY_LIMIT, type HistoryItem, ROUTES } from '@diagrodl/contracts';
import { ConfirmDialog } from '@/components/ConfirmDialog.tsx';
import { useDocumentTitle } from '@/components/useDocumentTitle.ts';
import { currentLanguage, LOCALE_TAG } from '@/lib/i18n.ts';
import { useOnline } from '@/lib/online.ts';
import { diagnosisApi } from '../api.ts';
import { useDevicePhotos, useObjectUrls } from '../device/hooks.ts';
import { type DeviceRow, deviceRow } from '../device/rows.ts';
import { DEVICE_CHANGED, deleteDevicePhotos } from '../device/store.ts';
import { probabilityText } from '../format.ts';
import { outcomeLabel, outcomeOf } from '../outcome.ts';
import { errorText } from './errors.ts';

/** What the confirmation dialog asks about: one diagnosis, or all of them. */
type Forget = { row: HistoryItem | DeviceRow } | 'all';

/**
 * Past diagnoses (beyond the specification), newest first: first those made on this device and
 * not yet sent ('en este dispositivo'), then the server's history (each device diagnosis once:
 * a sent one is shown from the server). 'Olvidar' forgets one and 'Olvidar todo' every one (also
 * those past the page's limit), each after a confirmation. Each diagnosis is a card (photo,
 * answer, confidence, model, date), so a phone shows all of it without scrolling sideways.
 */
export default function HistoryPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('diagnosis.history.title'));
  const online = useOnline();
  const [serverRows, setServerRows] = useState<HistoryItem[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [forget, setForget] = useState<Forget | null>(null);
  const [busy, setBusy] = useState(false);
  const language = currentLanguage();
  const locale = LOCALE_TAG[language];
  const { photos } = useDevicePhotos();

  const load = useCallback(async () => {
    if (!navigator.onLine) {
      setServerRows([]);
      return;
    }
    try {
      setServerRows(await diagnosisApi.history());
      setError(null);
    } catch (err) {
      setServerRows([]);
      setError(errorText(err, t));
    }
  }, [t]);
  useEffect(() => {
    void load();
    const on = () => void load();
    window.addEventListener(DEVICE_CHANGED, on);
    return () => window.removeEventListener(DEVICE_CHANGED, on);
  }, [load, online]);

  const onServer = new Set((serverRows ?? []).map((r) => r.client_id).filter(Boolean));
  const unsent = (photos ?? [])
    .filter((p) => p.status === 'done' && p.sync !== 'sent' && !onServer.has(p.id))
    .reverse();
  const urls = useObjectUrls(Object.fromEntries(unsent.map((p) => [p.id, p.photo])));
  const deviceRows = unsent
    .map((p, i) => deviceRow(p, i, { photo: urls[p.id] }, language))
    .filter((r): r is DeviceRow => r !== null);
  const rows: (HistoryItem | DeviceRow)[] | null =
    serverRows === null || photos === null ? null : [...deviceRows, ...serverRows];

  const confirmForget = async () => {
    if (!forget || busy) return;
    setBusy(true);
    try {
      if (forget === 'all') {
        // the server's whole history first (an error leaves the device's rows as they are)
        await diagnosisApi.clearHistory();
        await deleteDevicePhotos(deviceRows.map((r) => r.device.id));
      } else if ('device' in forget.row) {
        await deleteDevicePhotos([forget.row.device.id]);
      } else {
        await diagnosisApi.removeHistory(forget.row.id);
      }
      setError(null);
    } catch (err) {
      setError(errorText(err, t));
    } finally {
      setForget(null);
      setBusy(false);
      await load();
    }
  };

  return (
    <section>
      <h1 className="h2">{t('diagnosis.history.title')}</h1>
      <p>{t('diagnosis.history.intro')}</p>
      {!online && (
        <p className="small text-body-secondary" data-testid="history-offline">
          {t('diagnosis.device.historyOffline')}
        </p>
      )}
      {error && (
        <Alert variant="danger" role="alert">
          {error}
        </Alert>
      )}
      {rows && rows.length === 0 && <p>{t('diagnosis.history.empty')}</p>}
      {rows && rows.length > 0 && (
        <p>
          <Button variant="outline-danger" onClick={() => setForget('all')}>
            {t('diagnosis.history.removeAll')}
          </Button>
        </p>
      )}
      {serverRows && serverRows.length >= HISTORY_LIMIT && (
        <p className="small text-body-secondary" data-testid="history-limited">
          {t('diagnosis.history.limited', { n: HISTORY_LIMIT })}
        </p>
      )}
      {rows && rows.length > 0 && (
        <ul className="history-list list-unstyled" data-testid="history-list">
          {rows.map((r) => (
            <li
              key={r.id}
              className="history-item card"
              data-testid="history-item"
              data-reason={r.accepted ? undefined : outcomeOf(r)}
              data-device={'device' in r ? 'unsent' : r.client_id ? 'sent' : undefined}
            >
              <div className="card-body d-flex gap-3 align-items-start">
                <img
                  src={r.image}
                  alt={r.name_img}
                  width={72}
                  height={72}
                  loading="lazy"
                  className="rounded flex-shrink-0"
                />
                <div className="flex-grow-1 min-w-0">
                  <p className="mb-1 fw-semibold" data-testid="history-label">
                    {r.accepted ? <Link to={r.page}>{r.predict}</Link> : outcomeLabel(r, t)}
                    {outcomeOf(r) === 'not_leaf' && (
                      <span className="d-block small fw-normal text-body-secondary">
                        {t('diagnosis.results.notLeafHint')}
                      </span>
                    )}
                    {r.accepted && r.field_photo && (
                      <span
                        className="d-block small fw-normal text-warning-emphasis"
                        data-testid="history-caution"
                      >
                        {t('diagnosis.results.fieldPhoto')}
                      </span>
                    )}
                  </p>
                  <dl className="history-facts small mb-2">
                    <dt>{t('diagnosis.results.probability')}</dt>
                    <dd data-testid="history-probability">
                      {probabilityText(r.probability, locale)}
                    </dd>
                    <dt>{t('diagnosis.results.model')}</dt>
                    <dd>{r.modelLabel}</dd>
                    <dt>{t('diagnosis.history.date')}</dt>
                    <dd>
                      <time dateTime={r.created_at}>
                        {new Date(r.created_at).toLocaleString(locale)}
                      </time>
                    </dd>
                  </dl>
                  {'device' in r && (
                    <div className="mb-2">
                      <span className="badge text-bg-secondary" data-testid="history-device">
                        {t('diagnosis.device.onThisDevice')}
                      </span>
                      {r.device.sync === 'refused' && (
                        <div className="small text-danger">
                          {t('diagnosis.device.refused', { detail: r.device.syncDetail ?? '' })}
                        </div>
                      )}
                    </div>
                  )}
                  <Button size="sm" variant="outline-danger" onClick={() => setForget({ row: r })}>
                    {t('diagnosis.history.remove')}
                    <span className="visually-hidden">: {r.name_img}</span>
                  </Button>
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
      <Link className="btn btn-success" to={ROUTES.custom}>
        {t('diagnosis.history.start')}
      </Link>
      <ConfirmDialog
        show={forget !== null}
        id="forget-dialog-title"
        title={t('diagnosis.history.confirmTitle')}
        cancel={t('diagnosis.history.cancel')}
        confirm={
          forget === 'all' ? t('diagnosis.history.removeAll') : t('diagnosis.history.remove')
        }
        busy={busy}
        onCancel={() => setForget(null)}
        onConfirm={() => void confirmForget()}
      >
        <p className="mb-0" data-testid="forget-question">
          {forget === 'all' ? t('diagnosis.history.confirmAll') : t('diagnosis.history.confirmOne')}
        </p>
        {forget && forget !== 'all' && (
          <p className="small text-body-secondary mb-0">{forget.row.name_img}</p>
        )}
      </ConfirmDialog>
    </section>
  );
}

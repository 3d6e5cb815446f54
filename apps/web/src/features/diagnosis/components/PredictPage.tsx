import { type FormEvent, useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type ProgressReply, ROUTES } from '@diagrodl/contracts';
import { useDocumentTitle } from '@/components/useDocumentTitle.ts';
import { diagnosisApi } from '../api.ts';
import { useDevicePhotos, useOwner } from '../device/hooks.ts';
import {
  type Identified,
  Stopped,
  diagnosedOnServer,
  followRun,
  identifyWaiting,
} from '../identify.ts';
import { useStopOnLeave } from '../useStopOnLeave.ts';
import { identifyErrorText } from './errors.ts';
import { IdentificationProgress } from './IdentificationProgress.tsx';

/**
 * /Predict_rows: starts the identification and shows its progress. Photos kept on the device
 * (offline, or by choice) are identified on the device; uploaded ones by the server.
 */
export default function PredictPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('diagnosis.predict.title'));
  const owner = useOwner();
  const { photos } = useDevicePhotos();
  const keptCount = (photos ?? []).filter((p) => p.status === 'pending' && p.inWorkingSet).length;
  const [progress, setProgress] = useState<ProgressReply | null>(null);
  const [running, setRunning] = useState(false);
  const [succeeded, setSucceeded] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const stop = useStopOnLeave();

  /**
   * How the identification ended: 'Visualizar diagnóstico' only when some photo got an answer
   * (a run that dropped every photo has nothing to report; its note says why).
   */
  const settle = ({ progress: end, deviceFailed, diagnosed }: Identified) => {
    setRunning(false);
    if (deviceFailed) setError(t('diagnosis.device.failed', { count: deviceFailed }));
    if (end.state === 'done' && diagnosed > 0) setSucceeded(true);
    if (end.state === 'error')
      setError(end.detail ?? t('diagnosis.errors.generic', { detail: '' }));
  };
  const failed = (err: unknown) => {
    if (err instanceof Stopped) return;
    setRunning(false);
    setError(identifyErrorText(err, t));
  };

  // A run still going (the page was reloaded, or the server restarted): show it and follow it.
  useEffect(() => {
    diagnosisApi.progress().then(
      (p) => {
        if (p.state !== 'running') return;
        setProgress(p);
        setRunning(true);
        followRun(setProgress, stop.current.signal)
          .then(async (end) =>
            settle({
              progress: end,
              deviceFailed: 0,
              diagnosed: await diagnosedOnServer(end, null),
            }),
          )
          .catch(failed);
      },
      () => undefined,
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setSucceeded(false);
    setRunning(true);
    try {
      settle(await identifyWaiting(owner, setProgress, { signal: stop.current.signal }));
    } catch (err) {
      failed(err);
    }
  };

  return (
    <section>
      <h1 className="h2">{t('diagnosis.predict.title')}</h1>
      <p>{t('diagnosis.predict.intro')}</p>
      {keptCount > 0 && (
        <p className="small" data-testid="predict-device-note">
          {t('diagnosis.device.predictNote', { count: keptCount })}
        </p>
      )}
      <Form onSubmit={(e) => void onSubmit(e)}>
        <Button type="submit" variant="success" size="lg" disabled={running}>
          {t('diagnosis.predict.start')}
        </Button>
      </Form>
      <IdentificationProgress progress={progress} running={running} />
      {error && (
        <Alert variant="danger" role="alert">
          {error}
        </Alert>
      )}
      {succeeded ? (
        <Link className="btn btn-primary btn-lg" to={ROUTES.createReport}>
          {t('diagnosis.predict.view')}
        </Link>
      ) : (
        <Button variant="primary" size="lg" disabled aria-disabled="true">
          {t('diagnosis.predict.view')}
        </Button>
      )}
    </section>
  );
}

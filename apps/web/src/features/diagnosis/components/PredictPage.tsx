import { type FormEvent, useEffect, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import ProgressBar from 'react-bootstrap/ProgressBar';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type ProgressReply, ROUTES } from '@diagrodl/contracts';
import { useDocumentTitle } from '@/components/useDocumentTitle.ts';
import { ApiError } from '@/lib/api-client.ts';
import { diagnosisApi } from '../api.ts';
import { useDevicePhotos, useOwner } from '../device/hooks.ts';
import { identifyOnDevice } from '../device/run.ts';
import { errorText } from './errors.ts';

const POLL_MS = 400;
/** Polls in a row that may fail while the server restarts (about 2.5 minutes in all). */
const MAX_TRANSIENT = 30;

/**
 * The server is unreachable or a process behind the balancer was lost: the identification goes
 * on where the work is taken over (the identification queue: README, Design in a page), so the page keeps polling instead of failing.
 */
function transient(err: unknown): boolean {
  return err instanceof ApiError && [0, 502, 503, 504].includes(err.status);
}

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
  const timer = useRef<number | undefined>(undefined);
  const failures = useRef(0);

  useEffect(() => () => window.clearTimeout(timer.current), []);

  const poll = async () => {
    try {
      const p = await diagnosisApi.progress();
      failures.current = 0;
      setProgress(p);
      if (p.state === 'running') {
        timer.current = window.setTimeout(() => void poll(), POLL_MS);
        return;
      }
      setRunning(false);
      if (p.state === 'done') setSucceeded(true);
      if (p.state === 'error') setError(p.detail ?? t('diagnosis.errors.generic', { detail: '' }));
    } catch (err) {
      if (transient(err) && failures.current < MAX_TRANSIENT) {
        failures.current++;
        const wait = Math.min(5000, POLL_MS * 2 ** failures.current);
        timer.current = window.setTimeout(() => void poll(), wait);
        return;
      }
      setRunning(false);
      setError(errorText(err, t));
    }
  };

  // A run still going (the page was reloaded, or the server restarted): show it and follow it.
  useEffect(() => {
    diagnosisApi.progress().then(
      (p) => {
        if (p.state !== 'running') return;
        setProgress(p);
        setRunning(true);
        timer.current = window.setTimeout(() => void poll(), POLL_MS);
      },
      () => undefined,
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const onDevice = async (): Promise<boolean> => {
    const { total, failed } = await identifyOnDevice(owner, (done, n) =>
      setProgress({ state: 'running', done, total: n }),
    );
    setProgress({ state: 'done', done: total, total });
    if (failed) setError(t('diagnosis.device.failed', { count: failed }));
    // uploaded photos waiting on the server too: the server identifies them
    if (!navigator.onLine) return false;
    const waiting = await diagnosisApi.pending().catch(() => []);
    return waiting.length > 0;
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setSucceeded(false);
    setRunning(true);
    try {
      if (keptCount > 0) {
        const alsoServer = await onDevice();
        if (!alsoServer) {
          setRunning(false);
          setSucceeded(true);
          return;
        }
      }
      const reply = await diagnosisApi.predict();
      setProgress({ state: 'running', done: 0, total: reply.total });
      await poll();
    } catch (err) {
      setRunning(false);
      setError(
        err instanceof Error && err.message === 'offline-not-ready'
          ? t('diagnosis.device.unavailable')
          : errorText(err, t),
      );
    }
  };

  const pct =
    progress && progress.total > 0 ? Math.round((100 * progress.done) / progress.total) : 0;
  const progressText = progress
    ? t('diagnosis.predict.progress', { done: progress.done, count: progress.total })
    : '';
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
      <div className="my-3" aria-live="polite">
        {progress && (running || progress.state === 'done') && (
          <>
            {/* the bar itself (role progressbar) carries the name; the outer box only holds it */}
            <ProgressBar data-testid="predict-progress">
              <ProgressBar
                now={pct}
                label={`${pct}%`}
                variant="success"
                striped={running}
                animated={running}
                aria-label={progressText}
              />
            </ProgressBar>
            <p className="mt-2 mb-0" data-testid="predict-status">
              {progress.state === 'done'
                ? t('diagnosis.predict.done', { count: progress.total })
                : progressText}
            </p>
            {progress.state === 'done' && progress.detail && (
              <Alert variant="warning" className="mt-2 mb-0" data-testid="predict-failed">
                {progress.detail}
              </Alert>
            )}
          </>
        )}
      </div>
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

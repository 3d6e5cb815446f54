import { type FormEvent, useEffect, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import ProgressBar from 'react-bootstrap/ProgressBar';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type ProgressReply, ROUTES } from '@diagrodl/contracts';
import { useDocumentTitle } from '@/components/useDocumentTitle.ts';
import { diagnosisApi } from '../api.ts';
import { errorText } from './errors.ts';

const POLL_MS = 400;

/** /Predict_rows: starts the identification and shows its progress. */
export default function PredictPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('diagnosis.predict.title'));
  const [progress, setProgress] = useState<ProgressReply | null>(null);
  const [running, setRunning] = useState(false);
  const [succeeded, setSucceeded] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const timer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(timer.current), []);

  const poll = async () => {
    try {
      const p = await diagnosisApi.progress();
      setProgress(p);
      if (p.state === 'running') {
        timer.current = window.setTimeout(() => void poll(), POLL_MS);
        return;
      }
      setRunning(false);
      if (p.state === 'done') setSucceeded(true);
      if (p.state === 'error') setError(p.detail ?? t('diagnosis.errors.generic', { detail: '' }));
    } catch (err) {
      setRunning(false);
      setError(errorText(err, t));
    }
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setSucceeded(false);
    setRunning(true);
    try {
      const reply = await diagnosisApi.predict();
      setProgress({ state: 'running', done: 0, total: reply.total });
      await poll();
    } catch (err) {
      setRunning(false);
      setError(errorText(err, t));
    }
  };

  const pct =
    progress && progress.total > 0 ? Math.round((100 * progress.done) / progress.total) : 0;
  return (
    <section>
      <h1 className="h2">{t('diagnosis.predict.title')}</h1>
      <p>{t('diagnosis.predict.intro')}</p>
      <Form onSubmit={(e) => void onSubmit(e)}>
        <Button type="submit" variant="success" size="lg" disabled={running}>
          {t('diagnosis.predict.start')}
        </Button>
      </Form>
      <div className="my-3" aria-live="polite">
        {progress && (running || progress.state === 'done') && (
          <>
            <ProgressBar
              now={pct}
              label={`${pct}%`}
              variant="success"
              striped={running}
              animated={running}
              aria-label={t('diagnosis.predict.progress', {
                done: progress.done,
                total: progress.total,
              })}
              data-testid="predict-progress"
            />
            <p className="mt-2 mb-0" data-testid="predict-status">
              {progress.state === 'done'
                ? t('diagnosis.predict.done', { total: progress.total })
                : t('diagnosis.predict.progress', { done: progress.done, total: progress.total })}
            </p>
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

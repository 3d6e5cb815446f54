import Alert from 'react-bootstrap/Alert';
import ProgressBar from 'react-bootstrap/ProgressBar';
import { useTranslation } from 'react-i18next';
import type { ProgressReply } from '@diagrodl/contracts';

/**
 * The progress of photos being identified (or, with `label`, of any step counted in photos,
 * such as sending them): a bar, a sentence, and the server's note when some photos failed.
 */
export function IdentificationProgress({
  progress,
  running,
  label,
  className = 'my-3',
}: {
  progress: ProgressReply | null;
  running: boolean;
  /** The sentence under the bar while it runs, instead of 'Identificando: 1 de 3 imágenes'. */
  label?: string | undefined;
  className?: string;
}) {
  const { t } = useTranslation();
  const pct =
    progress && progress.total > 0 ? Math.round((100 * progress.done) / progress.total) : 0;
  const progressText = progress
    ? (label ?? t('diagnosis.predict.progress', { done: progress.done, count: progress.total }))
    : '';
  return (
    <div className={className} aria-live="polite">
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
  );
}

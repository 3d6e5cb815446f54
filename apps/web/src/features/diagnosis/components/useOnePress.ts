import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { type PendingImage, type ProgressReply, ROUTES } from '@diagrodl/contracts';
import type { DevicePhoto } from '../device/store.ts';
import { type OnePressState, Stopped, identifyWaiting, sendPhotos } from '../identify.ts';
import { useStopOnLeave } from '../useStopOnLeave.ts';
import { identifyErrorText } from './errors.ts';

/** Which step 'Diagnosticar' is at, and that step's progress. */
export interface OnePressStep {
  step: 'send' | 'identify';
  progress: ProgressReply | null;
}

/**
 * 'Diagnosticar' on /upload: sends the photos chosen (kept on the device or uploaded),
 * identifies every photo waiting with the chosen model (or the default one), then opens the
 * results, shown. The page says what is missing (`noImage`), which photos failed, and refreshes
 * its lists when the run ends without results.
 */
export function useOnePress({
  files,
  uploaded,
  kept,
  onDevice,
  owner,
  noImage,
  onSent,
  failedTexts,
  refresh,
}: {
  files: readonly File[];
  uploaded: readonly PendingImage[];
  kept: readonly DevicePhoto[];
  onDevice: boolean;
  owner: string;
  /** Nothing chosen and nothing waiting. */
  noImage: () => void;
  /** The chosen photos were sent: the selection is emptied, the failures said. */
  onSent: (failed: { file: File; error: unknown }[]) => void;
  failedTexts: (failed: { file: File; error: unknown }[]) => string[];
  refresh: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [step, setStep] = useState<OnePressStep | null>(null);
  const [error, setError] = useState<string | null>(null);
  const stop = useStopOnLeave();

  const diagnose = async () => {
    setError(null);
    const waiting = uploaded.length + kept.length;
    if (files.length + waiting === 0) {
      noImage();
      return;
    }
    setStep({ step: 'send', progress: null });
    // the photos this press identifies: those waiting already, and those it sends
    const waitingIds = { server: uploaded.map((u) => u.id), device: kept.map((k) => k.id) };
    const { failed, sent } = await sendPhotos(files, { onDevice, owner }, (done, total) =>
      setStep({ step: 'send', progress: { state: 'running', done, total } }),
    );
    onSent(failed);
    if (failed.length === files.length && waiting === 0) {
      setStep(null);
      return;
    }
    setStep({ step: 'identify', progress: null });
    try {
      const { progress: end, deviceFailed } = await identifyWaiting(
        owner,
        (p) => setStep({ step: 'identify', progress: p }),
        { configure: true, signal: stop.current.signal },
      );
      if (end.state === 'done') {
        const notes = [
          ...failedTexts(failed),
          ...(deviceFailed ? [t('diagnosis.device.failed', { count: deviceFailed })] : []),
          ...(end.detail ? [end.detail] : []),
        ];
        const state: OnePressState = {
          show: true,
          notes,
          sent: {
            server: [...waitingIds.server, ...sent.server],
            device: [...waitingIds.device, ...sent.device],
          },
        };
        void navigate(ROUTES.getPredict, { state });
        return;
      }
      setError(end.detail ?? t('diagnosis.errors.generic', { detail: '' }));
    } catch (err) {
      if (err instanceof Stopped) return;
      setError(identifyErrorText(err, t));
    }
    setStep(null);
    await refresh();
  };

  return { step, error, diagnose };
}

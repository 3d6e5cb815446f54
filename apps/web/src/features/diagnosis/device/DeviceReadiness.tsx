import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import { useTranslation } from 'react-i18next';
import { useOnline } from '@/lib/online.ts';
import { deviceModelCached, onDownloadProgress, prepareDeviceModel } from './model.ts';
import { isQuotaError } from './store.ts';

type State = 'checking' | 'downloading' | 'ready' | 'unavailable' | 'error' | 'full';

/**
 * Whether this device can diagnose without a connection; while online it downloads the model
 * and the runtime once (then they come from the cache).
 */
export function DeviceReadiness() {
  const { t } = useTranslation();
  const online = useOnline();
  const [state, setState] = useState<State>('checking');
  const [pct, setPct] = useState(0);

  useEffect(() => {
    let alive = true;
    const off = onDownloadProgress((p) => {
      if (alive && p.total > 0) setPct(Math.min(100, Math.round((100 * p.loaded) / p.total)));
    });
    void (async () => {
      const cached = await deviceModelCached().catch(() => false);
      if (!alive) return;
      if (!online && !cached) {
        setState('unavailable');
        return;
      }
      setState(cached ? 'checking' : 'downloading');
      try {
        await prepareDeviceModel();
        if (alive) setState('ready');
        // the diagnosis code itself comes along (and is then in this page's memory)
        void import('./classify.ts');
      } catch (err) {
        console.error('on-device model', err);
        if (alive) setState(isQuotaError(err) ? 'full' : online ? 'error' : 'unavailable');
      }
    })();
    return () => {
      alive = false;
      off();
    };
  }, [online]);

  const variant =
    state === 'ready' ? 'success' : state === 'error' || state === 'full' ? 'warning' : 'secondary';
  return (
    <Alert
      variant={variant}
      className="py-2 small"
      data-testid="device-readiness"
      data-state={state}
      role="status"
    >
      {state === 'checking' && t('diagnosis.device.checking')}
      {state === 'downloading' && t('diagnosis.device.downloading', { pct })}
      {state === 'ready' && t('diagnosis.device.ready')}
      {state === 'unavailable' && t('diagnosis.device.unavailable')}
      {state === 'error' && t('diagnosis.device.error')}
      {state === 'full' && t('diagnosis.errors.storageFull')}
    </Alert>
  );
}

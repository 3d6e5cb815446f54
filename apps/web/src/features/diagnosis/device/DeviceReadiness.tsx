import { useCallback, useEffect, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '@/lib/format.ts';
import { currentLanguage } from '@/lib/i18n.ts';
import { useOnline } from '@/lib/online.ts';
import {
  deviceModelBytes,
  deviceModelCached,
  onDownloadProgress,
  prepareDeviceModel,
} from './model.ts';
import { isQuotaError } from './store.ts';

type State = 'checking' | 'offer' | 'downloading' | 'ready' | 'unavailable' | 'error' | 'full';

/** A download's size as a person reads it: megabytes with one decimal ("8.4 MB"). */
export function megabytesText(bytes: number, lang: ReturnType<typeof currentLanguage>): string {
  return `${formatNumber(bytes / 1e6, lang, { maximumFractionDigits: 1 })} MB`;
}

/**
 * Whether this device can diagnose without a connection. Nothing is downloaded by itself (on
 * prepaid mobile data the model costs the grower money): the page offers 'Descargar el modelo
 * (8.4 MB)', and downloads the model and the runtime when that is pressed or when `wanted` (the
 * person chose diagnosis on the device). Once downloaded they come from the cache.
 */
export function DeviceReadiness({ wanted = false }: { wanted?: boolean }) {
  const { t } = useTranslation();
  const online = useOnline();
  const [state, setState] = useState<State>('checking');
  const [pct, setPct] = useState(0);
  const [bytes, setBytes] = useState<number | null>(null);
  const alive = useRef(true);

  const download = useCallback(async () => {
    setState((s) => (s === 'offer' || s === 'error' ? 'downloading' : s));
    try {
      await prepareDeviceModel();
      if (alive.current) setState('ready');
      // the diagnosis code itself comes along (and is then in this page's memory)
      void import('./classify.ts');
    } catch (err) {
      console.error('on-device model', err);
      if (alive.current)
        setState(isQuotaError(err) ? 'full' : navigator.onLine ? 'error' : 'unavailable');
    }
  }, []);

  useEffect(() => {
    alive.current = true;
    const off = onDownloadProgress((p) => {
      if (alive.current && p.total > 0)
        setPct(Math.min(100, Math.round((100 * p.loaded) / p.total)));
    });
    void (async () => {
      const cached = await deviceModelCached().catch(() => false);
      if (!alive.current) return;
      if (!online && !cached) {
        setState('unavailable');
        return;
      }
      // kept already: ready, without a request; else offered, with its size
      if (cached) {
        setState('ready');
        return;
      }
      setState('offer');
      const size = await deviceModelBytes();
      if (alive.current) setBytes(size);
    })();
    return () => {
      alive.current = false;
      off();
    };
  }, [online]);

  // the person chose diagnosis on the device: the model comes now
  useEffect(() => {
    if (wanted && online && state === 'offer') void download();
  }, [wanted, online, state, download]);

  const size = bytes === null ? null : megabytesText(bytes, currentLanguage());
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
      {(state === 'offer' || state === 'error') && (
        <div className="d-flex flex-wrap align-items-center gap-2">
          {state === 'offer' && <span>{t('diagnosis.device.offer')}</span>}
          <Button
            size="sm"
            variant="outline-dark"
            onClick={() => void download()}
            data-testid="device-download"
          >
            {size ? t('diagnosis.device.download', { size }) : t('diagnosis.device.downloadNoSize')}
          </Button>
        </div>
      )}
    </Alert>
  );
}

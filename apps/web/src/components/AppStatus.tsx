import Button from 'react-bootstrap/Button';
import { useTranslation } from 'react-i18next';
import { useOnline } from '@/lib/online.ts';
import { useUpdateOffer } from '@/lib/pwa.ts';

/** A visible notice while the app is offline, saying what still works. */
export function OfflineNotice() {
  const { t } = useTranslation();
  const online = useOnline();
  if (online) return null;
  return (
    <div className="app-status app-status-offline" role="status" data-testid="offline-notice">
      <strong>{t('offline.title')}</strong> {t('offline.works')}
    </div>
  );
}

/** A new version is ready: offered, not forced (the page reloads only when the person says so). */
export function UpdateOffer() {
  const { t } = useTranslation();
  const { waiting, accept, dismiss } = useUpdateOffer();
  if (!waiting) return null;
  return (
    <div className="app-status app-status-update" role="status" data-testid="update-offer">
      <span>{t('offline.update')}</span>
      <Button size="sm" variant="light" onClick={accept}>
        {t('offline.updateNow')}
      </Button>
      <Button size="sm" variant="outline-light" onClick={dismiss}>
        {t('offline.updateLater')}
      </Button>
    </div>
  );
}

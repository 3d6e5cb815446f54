import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * How to photograph a leaf so that the diagnosis is given and right more often. Each tip rests on a
 * measurement of the shipped MobileNet and ResNet50 on the lab test leaves under one condition at a
 * time (ml/LOG.md, "Photo conditions"): small in the frame, out of focus or shaken, dark, hard
 * shadows or glare, a compressed copy. Each of these costs every model measured; a plain background
 * helps the MobileNet but not the ResNet50, so it is not a tip.
 */
export const PHOTO_TIPS = ['close', 'focus', 'light', 'original'] as const;

/** Below this width the tips fold on /upload, so the photo and 'Diagnosticar' stay in sight. */
const PHONE = '(max-width: 767.98px)';

/**
 * The tips, open; with `foldOnPhone` (the upload page) folded under their title on a phone, where
 * they would push the photo picker and 'Diagnosticar' under the fold: one press opens them.
 */
export function PhotoTips({ foldOnPhone = false }: { foldOnPhone?: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(() => !foldOnPhone || !window.matchMedia?.(PHONE).matches);
  const list = (
    <>
      <p className="mb-2">{t('diagnosis.photoTips.intro')}</p>
      <ul className="mb-0">
        {PHOTO_TIPS.map((k) => (
          <li key={k}>
            <strong>{t(`diagnosis.photoTips.${k}.title`)}</strong>{' '}
            {t(`diagnosis.photoTips.${k}.text`)}
          </li>
        ))}
      </ul>
    </>
  );
  const title = (
    <h2 className="h6 fw-bold d-inline mb-0" id="photo-tips-title">
      {t('diagnosis.photoTips.title')}
    </h2>
  );
  return (
    <aside
      aria-labelledby="photo-tips-title"
      className="border rounded p-3 mb-3 bg-body-tertiary"
      style={{ maxWidth: 720 }}
      data-testid="photo-tips"
    >
      {foldOnPhone ? (
        <details open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
          <summary className={open ? 'mb-2' : undefined}>{title}</summary>
          {list}
        </details>
      ) : (
        <>
          <div className="mb-2">{title}</div>
          {list}
        </>
      )}
    </aside>
  );
}

import { useTranslation } from 'react-i18next';

/**
 * How to photograph a leaf so that the diagnosis is given and right more often. Each tip rests on a
 * measurement of the shipped MobileNet and ResNet50 on the lab test leaves under one condition at a
 * time (ml/LOG.md, "Photo conditions"): small in the frame, out of focus or shaken, dark, hard
 * shadows or glare, a compressed copy. Each of these costs every model measured; a plain background
 * helps the MobileNet but not the ResNet50, so it is not a tip.
 */
export const PHOTO_TIPS = ['close', 'focus', 'light', 'original'] as const;

export function PhotoTips() {
  const { t } = useTranslation();
  return (
    <aside
      aria-labelledby="photo-tips-title"
      className="border rounded p-3 mb-3 bg-body-tertiary"
      style={{ maxWidth: 720 }}
      data-testid="photo-tips"
    >
      <h2 className="h6 fw-bold" id="photo-tips-title">
        {t('diagnosis.photoTips.title')}
      </h2>
      <p className="mb-2">{t('diagnosis.photoTips.intro')}</p>
      <ul className="mb-0">
        {PHOTO_TIPS.map((k) => (
          <li key={k}>
            <strong>{t(`diagnosis.photoTips.${k}.title`)}</strong>{' '}
            {t(`diagnosis.photoTips.${k}.text`)}
          </li>
        ))}
      </ul>
    </aside>
  );
}

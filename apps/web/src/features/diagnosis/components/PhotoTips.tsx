import { useTranslation } from 'react-i18next';

/**
 * How to photograph a leaf so that the diagnosis is given and right more often. Each tip rests on a
 * measurement of the shipped model on the lab test leaves under one condition at a time (ml/README.md,
 * "Photo conditions"): small in the frame, a busy background, out of focus or shaken, dark, hard
 * shadows or glare, a heavily compressed copy.
 */
export const PHOTO_TIPS = ['close', 'plain', 'focus', 'light', 'original'] as const;

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
        {t('diagnosis.upload.tips.title')}
      </h2>
      <p className="mb-2">{t('diagnosis.upload.tips.intro')}</p>
      <ul className="mb-0">
        {PHOTO_TIPS.map((k) => (
          <li key={k}>
            <strong>{t(`diagnosis.upload.tips.${k}.title`)}</strong>{' '}
            {t(`diagnosis.upload.tips.${k}.text`)}
          </li>
        ))}
      </ul>
    </aside>
  );
}

import { useTranslation } from 'react-i18next';

/** The strength rule of a new password, shown beside the field. */
export function PasswordRule({ id }: { id: string }) {
  const { t } = useTranslation();
  return (
    <div id={id} className="form-text mb-3">
      {t('account.passwordRule.title')}
      <ul className="mb-0">
        <li>{t('account.passwordRule.length')}</li>
        <li>{t('account.passwordRule.letterDigit')}</li>
        <li>{t('account.passwordRule.noUserName')}</li>
      </ul>
    </div>
  );
}

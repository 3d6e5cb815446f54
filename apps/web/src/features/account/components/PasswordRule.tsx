import { TextField } from './TextField.tsx';
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

/** The new password, its rule and its confirmation (change-password and reset pages). */
export function NewPasswordFields({
  idPrefix,
  next,
  confirm,
  onNext,
  onConfirm,
  disabled = false,
}: {
  idPrefix: string;
  next: string;
  confirm: string;
  onNext: (value: string) => void;
  onConfirm: (value: string) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
      <TextField
        id={`${idPrefix}-new`}
        className="mb-1"
        label={t('account.change.new')}
        type="password"
        autoComplete="new-password"
        describedBy={`${idPrefix}-rule`}
        value={next}
        disabled={disabled}
        onChange={onNext}
      />
      <PasswordRule id={`${idPrefix}-rule`} />
      <TextField
        id={`${idPrefix}-confirm`}
        label={t('account.change.confirm')}
        type="password"
        autoComplete="new-password"
        value={confirm}
        disabled={disabled}
        onChange={onConfirm}
      />
    </>
  );
}

import Form from 'react-bootstrap/Form';
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
      <Form.Group className="mb-1" controlId={`${idPrefix}-new`}>
        <Form.Label>{t('account.change.new')}</Form.Label>
        <Form.Control
          type="password"
          autoComplete="new-password"
          aria-describedby={`${idPrefix}-rule`}
          value={next}
          disabled={disabled}
          onChange={(e) => onNext(e.target.value)}
        />
      </Form.Group>
      <PasswordRule id={`${idPrefix}-rule`} />
      <Form.Group className="mb-3" controlId={`${idPrefix}-confirm`}>
        <Form.Label>{t('account.change.confirm')}</Form.Label>
        <Form.Control
          type="password"
          autoComplete="new-password"
          value={confirm}
          disabled={disabled}
          onChange={(e) => onConfirm(e.target.value)}
        />
      </Form.Group>
    </>
  );
}

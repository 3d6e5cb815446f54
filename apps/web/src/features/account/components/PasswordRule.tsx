import { type PasswordProblem, checkNewPassword } from '@diagrodl/contracts';
import { TextField } from './TextField.tsx';
import { useTranslation } from 'react-i18next';

export type PasswordField = 'current' | 'next' | 'confirm';

/**
 * The problems of the password forms, every field at once (keys under account.passwordProblem):
 * the current password when asked for (`current` given), the new one's rule, the confirmation.
 */
export function passwordProblems(v: {
  current?: string;
  next: string;
  confirm: string;
  userName?: string;
}): Partial<Record<PasswordField, PasswordProblem | 'currentMissing' | 'mismatch'>> {
  const found: Partial<Record<PasswordField, PasswordProblem | 'currentMissing' | 'mismatch'>> = {};
  if (v.current === '') found.current = 'currentMissing';
  const problem = checkNewPassword(v.next, v.userName);
  if (problem) found.next = problem;
  if (v.next !== v.confirm) found.confirm = 'mismatch';
  return found;
}

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

/**
 * The new password, its rule and its confirmation (change-password and reset pages), each with
 * its error, if any, under it.
 */
export function NewPasswordFields({
  idPrefix,
  next,
  confirm,
  onNext,
  onConfirm,
  errors = {},
  disabled = false,
}: {
  idPrefix: string;
  next: string;
  confirm: string;
  onNext: (value: string) => void;
  onConfirm: (value: string) => void;
  errors?: { next?: string; confirm?: string };
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
        error={errors.next}
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
        error={errors.confirm}
        value={confirm}
        disabled={disabled}
        onChange={onConfirm}
      />
    </>
  );
}

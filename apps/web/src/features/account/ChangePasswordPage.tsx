import { type FormEvent, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ROUTES } from '@diagrodl/contracts';
import { markedSummary, useFieldErrors } from '@/components/FieldError.tsx';
import { useDocumentTitle } from '@/components/useDocumentTitle.ts';
import { useSession } from '@/lib/session.tsx';
import { accountApi } from './api.ts';
import { MessageArea } from './components/MessageArea.tsx';
import {
  NewPasswordFields,
  type PasswordField,
  passwordProblems,
} from './components/PasswordRule.tsx';
import { TextField } from './components/TextField.tsx';
import { useAccountSubmit } from './components/useAccountSubmit.ts';

/** /Change_password (logged-in users): current password, then the new one twice. */
export default function ChangePasswordPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('routes./Change_password'));
  const { user } = useSession();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const { message, setMessage, busy, submit } = useAccountSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const { errors, mark, recheck } = useFieldErrors<PasswordField, string>(formRef);
  const check = (v: { current: string; next: string; confirm: string }) =>
    passwordProblems({ ...v, userName: user?.userName ?? '' });
  const edit = (field: PasswordField, set: (value: string) => void) => (value: string) => {
    set(value);
    recheck(check({ current, next, confirm, [field]: value }));
  };
  const error = (field: PasswordField) =>
    errors[field] && t(`account.passwordProblem.${errors[field]}`);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (mark(check({ current, next, confirm }))) {
      setMessage(null);
      return;
    }
    const saved = await submit(async () => {
      const reply = await accountApi.changePassword({
        current_password: current,
        new_password: next,
        new_password_confirm: confirm,
      });
      return { state: 'success', text: reply.detail };
    });
    if (saved) {
      setCurrent('');
      setNext('');
      setConfirm('');
    }
  };

  const summary = markedSummary(t, [error('current'), error('next'), error('confirm')]);
  const shown = summary ? { state: 'danger' as const, ...summary } : message;

  return (
    <section className="mx-auto" style={{ maxWidth: 520 }}>
      <h1 className="h2">{t('account.change.title')}</h1>
      <p>{t('account.change.intro')}</p>
      <Form ref={formRef} noValidate onSubmit={(e) => void onSubmit(e)}>
        <TextField
          id="change-current"
          label={t('account.change.current')}
          type="password"
          autoComplete="current-password"
          value={current}
          error={error('current')}
          onChange={edit('current', setCurrent)}
        />
        <NewPasswordFields
          idPrefix="change"
          next={next}
          confirm={confirm}
          onNext={edit('next', setNext)}
          onConfirm={edit('confirm', setConfirm)}
          errors={{ next: error('next'), confirm: error('confirm') }}
        />
        <MessageArea message={shown} testId="change-message" />
        <Button type="submit" variant="success" disabled={busy}>
          {t('account.change.submit')}
        </Button>
        <p className="mt-3 mb-0">
          <Link to={ROUTES.resetPassword}>{t('account.change.forgot')}</Link>
        </p>
      </Form>
    </section>
  );
}

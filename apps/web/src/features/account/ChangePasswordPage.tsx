import { type FormEvent, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ROUTES, checkNewPassword } from '@diagrodl/contracts';
import { useDocumentTitle } from '@/components/useDocumentTitle.ts';
import { useSession } from '@/lib/session.tsx';
import { accountApi } from './api.ts';
import { MessageArea } from './components/MessageArea.tsx';
import { NewPasswordFields } from './components/PasswordRule.tsx';
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

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const problem = !current
      ? 'currentMissing'
      : next !== confirm
        ? 'mismatch'
        : checkNewPassword(next, user?.userName ?? '');
    if (problem) {
      setMessage({ state: 'danger', text: t(`account.passwordProblem.${problem}`) });
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

  return (
    <section className="mx-auto" style={{ maxWidth: 520 }}>
      <h1 className="h2">{t('account.change.title')}</h1>
      <p>{t('account.change.intro')}</p>
      <Form noValidate onSubmit={(e) => void onSubmit(e)}>
        <TextField
          id="change-current"
          label={t('account.change.current')}
          type="password"
          autoComplete="current-password"
          value={current}
          onChange={setCurrent}
        />
        <NewPasswordFields
          idPrefix="change"
          next={next}
          confirm={confirm}
          onNext={setNext}
          onConfirm={setConfirm}
        />
        <MessageArea message={message} testId="change-message" />
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

import { type FormEvent, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ROUTES, checkNewPassword } from '@diagrodl/contracts';
import { useDocumentTitle } from '@/components/useDocumentTitle.ts';
import { ApiError } from '@/lib/api-client.ts';
import { useSession } from '@/lib/session.tsx';
import { accountApi } from './api.ts';
import { type Message, MessageArea } from './components/MessageArea.tsx';
import { NewPasswordFields } from './components/PasswordRule.tsx';
import { TextField } from './components/TextField.tsx';

/** /Change_password (logged-in users): current password, then the new one twice. */
export default function ChangePasswordPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('routes./Change_password'));
  const { user } = useSession();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [message, setMessage] = useState<Message | null>(null);
  const [busy, setBusy] = useState(false);

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
    setBusy(true);
    try {
      const reply = await accountApi.changePassword({
        current_password: current,
        new_password: next,
        new_password_confirm: confirm,
      });
      setMessage({ state: 'success', text: reply.detail });
      setCurrent('');
      setNext('');
      setConfirm('');
    } catch (err) {
      setMessage({
        state: 'danger',
        text: err instanceof ApiError && err.status !== 0 ? err.detail : t('account.network'),
      });
    } finally {
      setBusy(false);
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

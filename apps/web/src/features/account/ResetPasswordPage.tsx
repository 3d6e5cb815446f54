import { type FormEvent, useEffect, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ROUTES } from '@diagrodl/contracts';
import { markedSummary, useFieldErrors } from '@/components/FieldError.tsx';
import { useDocumentTitle } from '@/components/useDocumentTitle.ts';
import { accountApi } from './api.ts';
import { MessageArea } from './components/MessageArea.tsx';
import {
  NewPasswordFields,
  type PasswordField,
  passwordProblems,
} from './components/PasswordRule.tsx';
import { TextField } from './components/TextField.tsx';
import { useAccountSubmit } from './components/useAccountSubmit.ts';

/** Asks for a reset link by e-mail. */
function RequestLink() {
  const { t, i18n } = useTranslation();
  const [email, setEmail] = useState('');
  const { message, setMessage, busy, submit } = useAccountSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const { errors, mark, recheck } = useFieldErrors<'email', 'emailEmpty'>(formRef);
  const check = (value: string) => (value.trim() ? {} : { email: 'emailEmpty' as const });
  const error = errors.email && t(`account.reset.${errors.email}`);
  const summary = markedSummary(t, [error]);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (mark(check(email))) {
      setMessage(null);
      return;
    }
    await submit(async () => {
      const reply = await accountApi.requestReset({
        email,
        Language: i18n.language === 'en' ? 'en' : 'es',
      });
      return { state: 'success', text: reply.detail };
    });
  };

  return (
    <Form ref={formRef} noValidate onSubmit={(e) => void onSubmit(e)}>
      <p>{t('account.reset.requestIntro')}</p>
      <TextField
        id="reset-email"
        label={t('account.reset.email')}
        type="email"
        autoComplete="email"
        value={email}
        error={error}
        onChange={(value) => {
          setEmail(value);
          recheck(check(value));
        }}
      />
      <MessageArea
        message={summary ? { state: 'danger', ...summary } : message}
        testId="reset-message"
      />
      <Button type="submit" variant="success" disabled={busy}>
        {t('account.reset.send')}
      </Button>
    </Form>
  );
}

/** Sets the new password with the token from the e-mailed link. */
function SetPassword({ token }: { token: string }) {
  const { t } = useTranslation();
  const [valid, setValid] = useState<boolean | null>(null);
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [done, setDone] = useState(false);
  const { message, setMessage, busy, submit } = useAccountSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const { errors, mark, recheck } = useFieldErrors<PasswordField, string>(formRef);
  const edit = (field: PasswordField, set: (value: string) => void) => (value: string) => {
    set(value);
    recheck(passwordProblems({ next, confirm, [field]: value }));
  };
  const error = (field: PasswordField) =>
    errors[field] && t(`account.passwordProblem.${errors[field]}`);
  const summary = markedSummary(t, [error('next'), error('confirm')]);

  useEffect(() => {
    let live = true;
    accountApi
      .checkReset(token)
      .then((r) => live && setValid(r.valid))
      .catch(() => live && setValid(true)); // the confirm call will say what is wrong
    return () => {
      live = false;
    };
  }, [token]);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (mark(passwordProblems({ next, confirm }))) {
      setMessage(null);
      return;
    }
    setDone(
      await submit(async () => {
        const reply = await accountApi.confirmReset({
          token,
          new_password: next,
          new_password_confirm: confirm,
        });
        return { state: 'success', text: reply.detail };
      }),
    );
  };

  if (valid === null) return <p role="status">{t('account.reset.checking')}</p>;
  if (!valid) {
    return (
      <>
        <MessageArea
          message={{ state: 'danger', text: t('account.reset.invalid') }}
          testId="reset-message"
        />
        <Link to={ROUTES.resetPassword}>{t('account.reset.requestAgain')}</Link>
      </>
    );
  }
  return (
    <Form ref={formRef} noValidate onSubmit={(e) => void onSubmit(e)}>
      <p>{t('account.reset.setIntro')}</p>
      <NewPasswordFields
        idPrefix="reset"
        next={next}
        confirm={confirm}
        onNext={edit('next', setNext)}
        onConfirm={edit('confirm', setConfirm)}
        errors={{ next: error('next'), confirm: error('confirm') }}
        disabled={done}
      />
      <MessageArea
        message={summary ? { state: 'danger', ...summary } : message}
        testId="reset-message"
      />
      {done ? (
        <Link className="btn btn-success" to={ROUTES.login}>
          {t('account.reset.toLogin')}
        </Link>
      ) : (
        <Button type="submit" variant="success" disabled={busy}>
          {t('account.reset.save')}
        </Button>
      )}
    </Form>
  );
}

/** /Reset_password: without a token asks for a link; with ?token= sets the new password. */
export default function ResetPasswordPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('routes./Reset_password'));
  const [params] = useSearchParams();
  const token = params.get('token');
  return (
    <section className="mx-auto" style={{ maxWidth: 520 }}>
      <h1 className="h2">{t('account.reset.title')}</h1>
      {token ? <SetPassword token={token} /> : <RequestLink />}
    </section>
  );
}

import { type FormEvent, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import {
  ENDPOINTS,
  type LoginField,
  type LoginMessageKey,
  ROUTES,
  loginErrors,
  loginMessage,
} from '@diagrodl/contracts';
import {
  FieldError,
  invalidProps,
  SummaryText,
  markedSummary,
  useFieldErrors,
} from '@/components/FieldError.tsx';
import { useDocumentTitle } from '@/components/useDocumentTitle.ts';
import { callApi, failureText } from '@/lib/api-client.ts';
import { useSession } from '@/lib/session.tsx';

/** A message of the page: a rule's key (said in the page's language when shown) or a text. */
type Message = { variant: 'danger' | 'success' } & ({ rule: LoginMessageKey } | { text: string });
const ID: Record<LoginField, string> = { username: 'login-username', password: 'login-password' };

/** Only same-site paths are followed after login (no open redirect). */
function safeNext(raw: string | null): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//')) return '/';
  return raw;
}

export default function LoginPage() {
  const { t, i18n } = useTranslation();
  useDocumentTitle(t('routes./Login_session'));
  const lang = i18n.language === 'en' ? 'en' : 'es';
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const navigate = useNavigate();
  const { accept } = useSession();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [message, setMessage] = useState<Message | null>(null);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const { errors, mark, recheck } = useFieldErrors<LoginField, LoginMessageKey>(formRef);
  /** Each field's problem: the specification's rule, for both at once. */
  const check = (body: { username: string; password: string }) =>
    Object.fromEntries(loginErrors(body).map((f) => [f.field, f.key]));

  const edit = (field: LoginField, value: string, set: (value: string) => void) => {
    set(value);
    recheck(check({ username, password, [field]: value }));
  };
  const error = (field: LoginField) => {
    const key = errors[field];
    return key && loginMessage(key, lang);
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (mark(check({ username, password }))) {
      setMessage(null);
      return;
    }
    setMessage({ variant: 'success', rule: 'valid' });
    setBusy(true);
    try {
      // The answer carries the session it opened: one round trip, no GET /api/session/ after it.
      const reply = await callApi(ENDPOINTS.login, { body: { username, password, remember } });
      setUsername('');
      setPassword('');
      accept(reply.session);
      void navigate(next);
    } catch (err) {
      setMessage({
        variant: 'danger',
        text: failureText(err, t('login.network')),
      });
    } finally {
      setBusy(false);
    }
  };

  // With fields marked, the message area says how many and the first one's message.
  const summary = markedSummary(t, [error('username'), error('password')]);
  const shown = summary
    ? { variant: 'danger' as const, ...summary }
    : message && {
        variant: message.variant,
        summary: undefined,
        text: 'rule' in message ? loginMessage(message.rule, lang) : message.text,
      };

  return (
    <section className="auth-form mx-auto" style={{ maxWidth: 480 }}>
      <h1 className="h2">{t('login.title')}</h1>
      {params.get('next') && (
        <Alert variant="info" data-testid="login-required">
          {t('auth.loginRequired')}
        </Alert>
      )}
      <Form ref={formRef} noValidate onSubmit={(e) => void onSubmit(e)}>
        <Form.Group className="mb-3" controlId={ID.username}>
          <Form.Label>{t('login.username')}</Form.Label>
          <Form.Control
            autoComplete="username"
            value={username}
            onChange={(e) => edit('username', e.target.value, setUsername)}
            {...invalidProps(ID.username, error('username'))}
          />
          <FieldError fieldId={ID.username} message={error('username')} />
        </Form.Group>
        <Form.Group className="mb-3" controlId={ID.password}>
          <Form.Label>{t('login.password')}</Form.Label>
          <Form.Control
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => edit('password', e.target.value, setPassword)}
            {...invalidProps(ID.password, error('password'))}
          />
          <FieldError fieldId={ID.password} message={error('password')} />
        </Form.Group>
        <Form.Check
          className="mb-3"
          id="login-remember"
          label={t('login.remember')}
          checked={remember}
          onChange={(e) => setRemember(e.target.checked)}
        />
        <div role="status" aria-live="polite" className="mb-3" data-testid="login-message">
          {shown && (
            <Alert variant={shown.variant} className="mb-0">
              <SummaryText summary={shown.summary} text={shown.text} />
            </Alert>
          )}
        </div>
        <Button type="submit" variant="success" disabled={busy}>
          {t('login.submit')}
        </Button>
        <p className="mt-3 mb-1">
          <Link to={ROUTES.resetPassword}>{t('login.forgot')}</Link>
        </p>
        <p className="mb-0">
          {t('login.noAccount')} <Link to={ROUTES.createAccount}>{t('login.createAccount')}</Link>
        </p>
      </Form>
    </section>
  );
}

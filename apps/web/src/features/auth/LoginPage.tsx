import { type FormEvent, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ENDPOINTS, ROUTES, validateLogin } from '@diagrodl/contracts';
import { useDocumentTitle } from '@/components/useDocumentTitle.ts';
import { callApi, failureText } from '@/lib/api-client.ts';
import { useSession } from '@/lib/session.tsx';

type Message = { variant: 'secondary' | 'danger' | 'success'; text: string };

/** Only same-site paths are followed after login (no open redirect). */
function safeNext(raw: string | null): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//')) return '/';
  return raw;
}

export default function LoginPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('routes./Login_session'));
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const navigate = useNavigate();
  const { accept } = useSession();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [message, setMessage] = useState<Message | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const check = validateLogin({ username, password });
    if (!check.ok) {
      setMessage({ variant: 'danger', text: check.message });
      return;
    }
    setMessage({ variant: 'success', text: check.message });
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

  return (
    <section className="auth-form mx-auto" style={{ maxWidth: 480 }}>
      <h1 className="h2">{t('login.title')}</h1>
      {params.get('next') && (
        <Alert variant="info" data-testid="login-required">
          {t('auth.loginRequired')}
        </Alert>
      )}
      <Form noValidate onSubmit={(e) => void onSubmit(e)}>
        <Form.Group className="mb-3" controlId="login-username">
          <Form.Label>{t('login.username')}</Form.Label>
          <Form.Control
            autoComplete="username"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
          />
        </Form.Group>
        <Form.Group className="mb-3" controlId="login-password">
          <Form.Label>{t('login.password')}</Form.Label>
          <Form.Control
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </Form.Group>
        <Form.Check
          className="mb-3"
          id="login-remember"
          label={t('login.remember')}
          checked={remember}
          onChange={(e) => setRemember(e.target.checked)}
        />
        <div role="status" aria-live="polite" className="mb-3" data-testid="login-message">
          {message && (
            <Alert variant={message.variant} className="mb-0">
              {message.text}
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

import { type FormEvent, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useTranslation } from 'react-i18next';
import {
  ENDPOINTS,
  CONTACT_FIELDS,
  type ContactBody,
  type ContactField,
  checkContact,
} from '@diagrodl/contracts';
import { useDocumentTitle } from '@/components/useDocumentTitle.ts';
import { ApiError, callApi } from '@/lib/api-client.ts';

const EMPTY: ContactBody = { name: '', email: '', subject: '', message: '' };
/**
 * A text the page shows: a translation key of its own (translated when shown, so it follows the
 * language toggle) or the server's text as it came.
 */
type Shown = { key: string } | { text: string };
type Errors = Partial<Record<ContactField, Shown>>;
type Message = { variant: 'danger' | 'success' } & Shown;

/** /Contact_us: for visitors and users alike. */
export default function ContactPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('routes./Contact_us'));
  const [form, setForm] = useState<ContactBody>(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const [message, setMessage] = useState<Message | null>(null);
  const [busy, setBusy] = useState(false);
  const show = (s: Shown) => ('key' in s ? t(s.key) : s.text);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const problems = checkContact({ ...form });
    const fields = Object.keys(problems) as ContactField[];
    if (fields.length) {
      setErrors(
        Object.fromEntries(fields.map((f) => [f, { key: `contact.errors.${f}.${problems[f]}` }])),
      );
      setMessage({ variant: 'danger', key: 'contact.invalid' });
      document.getElementById(`contact-${fields[0]}`)?.focus();
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const reply = await callApi(ENDPOINTS.contact, { body: form });
      setMessage({ variant: 'success', text: reply.detail });
      setForm(EMPTY);
    } catch (err) {
      const body =
        err instanceof ApiError
          ? (err.body as { errors?: Partial<Record<ContactField, string>> } | null)
          : null;
      if (body?.errors) {
        const serverErrors = body.errors;
        setErrors(
          Object.fromEntries(
            Object.entries(serverErrors).map(([f, text]) => [f, { text: String(text) }]),
          ),
        );
      }
      setMessage(
        err instanceof ApiError && err.status !== 0
          ? { variant: 'danger', text: err.detail }
          : { variant: 'danger', key: 'contact.network' },
      );
    } finally {
      setBusy(false);
    }
  };

  const field = (name: ContactField) => ({
    value: form[name],
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      setForm((f) => ({ ...f, [name]: e.target.value })),
    isInvalid: !!errors[name],
    'aria-describedby': errors[name] ? `contact-${name}-error` : undefined,
  });
  const feedback = (name: ContactField) => {
    const error = errors[name];
    return error ? (
      <Form.Control.Feedback type="invalid" id={`contact-${name}-error`}>
        {show(error)}
      </Form.Control.Feedback>
    ) : null;
  };

  return (
    <section className="mx-auto" style={{ maxWidth: 640 }}>
      <h1 className="h2">{t('contact.title')}</h1>
      <p>{t('contact.intro')}</p>
      <Form noValidate onSubmit={(e) => void onSubmit(e)} data-testid="contact-form">
        {CONTACT_FIELDS.filter((f) => f !== 'message').map((name) => (
          <Form.Group key={name} className="mb-3" controlId={`contact-${name}`}>
            <Form.Label>{t(`contact.${name}`)}</Form.Label>
            <Form.Control
              type={name === 'email' ? 'email' : 'text'}
              autoComplete={name === 'name' ? 'name' : name === 'email' ? 'email' : 'off'}
              {...field(name)}
            />
            {feedback(name)}
          </Form.Group>
        ))}
        <Form.Group className="mb-3" controlId="contact-message">
          <Form.Label>{t('contact.message')}</Form.Label>
          <Form.Control as="textarea" rows={6} {...field('message')} />
          {feedback('message')}
          <Form.Text>{t('contact.messageHelp')}</Form.Text>
        </Form.Group>
        <div role="status" aria-live="polite" className="mb-3" data-testid="contact-message-area">
          {message && (
            <Alert variant={message.variant} className="mb-0" style={{ overflowWrap: 'anywhere' }}>
              {show(message)}
            </Alert>
          )}
        </div>
        <Button type="submit" variant="success" disabled={busy}>
          {busy ? t('contact.sending') : t('contact.submit')}
        </Button>
      </Form>
    </section>
  );
}

import { type FormEvent, useRef, useState } from 'react';
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
import {
  FieldError,
  invalidProps,
  SummaryText,
  markedSummary,
  useFieldErrors,
} from '@/components/FieldError.tsx';
import { useDocumentTitle } from '@/components/useDocumentTitle.ts';
import { ApiError, callApi } from '@/lib/api-client.ts';

const EMPTY: ContactBody = { name: '', email: '', subject: '', message: '' };
/**
 * A text the page shows: a translation key of its own (translated when shown, so it follows the
 * language toggle) or the server's text as it came.
 */
type Shown = { key: string } | { text: string };
type Message = { variant: 'danger' | 'success' } & Shown;

/** /Contact_us: for visitors and users alike. */
export default function ContactPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('routes./Contact_us'));
  const [form, setForm] = useState<ContactBody>(EMPTY);
  const [message, setMessage] = useState<Message | null>(null);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const { errors, mark, recheck } = useFieldErrors<ContactField, Shown>(formRef);
  const show = (s: Shown) => ('key' in s ? t(s.key) : s.text);
  /** Each field's problem, as a key of the page's own messages. */
  const check = (body: ContactBody) => {
    const problems = checkContact({ ...body });
    return Object.fromEntries(
      (Object.keys(problems) as ContactField[]).map((f) => [
        f,
        { key: `contact.errors.${f}.${problems[f]}` },
      ]),
    );
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (mark(check(form))) {
      setMessage(null);
      return;
    }
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
        mark(
          Object.fromEntries(
            Object.entries(body.errors).map(([f, text]) => [f, { text: String(text) }]),
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

  const error = (name: ContactField) => {
    const e = errors[name];
    return e && show(e);
  };
  const field = (name: ContactField) => ({
    value: form[name],
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      const next = { ...form, [name]: e.target.value };
      setForm(next);
      recheck(check(next));
    },
    ...invalidProps(`contact-${name}`, error(name)),
  });
  const feedback = (name: ContactField) => (
    <FieldError fieldId={`contact-${name}`} message={error(name)} />
  );
  // With fields marked, the message area says how many and the first one's message.
  const summary = markedSummary(
    t,
    CONTACT_FIELDS.map((name) => error(name)),
  );

  return (
    <section className="mx-auto" style={{ maxWidth: 640 }}>
      <h1 className="h2">{t('contact.title')}</h1>
      <p>{t('contact.intro')}</p>
      <Form ref={formRef} noValidate onSubmit={(e) => void onSubmit(e)} data-testid="contact-form">
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
          {summary ? (
            <Alert variant="danger" className="mb-0" style={{ overflowWrap: 'anywhere' }}>
              <SummaryText {...summary} />
            </Alert>
          ) : (
            message && (
              <Alert
                variant={message.variant}
                className="mb-0"
                style={{ overflowWrap: 'anywhere' }}
              >
                {show(message)}
              </Alert>
            )
          )}
        </div>
        <Button type="submit" variant="success" disabled={busy}>
          {busy ? t('contact.sending') : t('contact.submit')}
        </Button>
      </Form>
    </section>
  );
}

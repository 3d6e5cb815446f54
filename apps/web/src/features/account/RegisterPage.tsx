import { type FormEvent, type ReactNode, useMemo, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  FEATURED_COUNTRIES,
  ORGANISATION_TYPES,
  OTHER_COUNTRIES,
  PURPOSES_OF_USE,
  REGISTRATION_SERVER_MESSAGES,
  ROUTES,
  type RegistrationMessageKey,
  type RegistrationPayload,
  countryName,
  emailSchema,
  findCountry,
  licenceField,
  localizeDetail,
  registrationErrors,
  registrationMessage,
  registrationMessageKey,
} from '@diagrodl/contracts';
import {
  FieldError,
  invalidProps,
  markedSummary,
  useFieldErrors,
} from '@/components/FieldError.tsx';
import { useDocumentTitle } from '@/components/useDocumentTitle.ts';
import { ApiError, failureText } from '@/lib/api-client.ts';
import { runtimeConfig } from '@/lib/runtime-config.ts';
import { accountApi } from './api.ts';
import { type Message, MessageArea, type MessageState } from './components/MessageArea.tsx';

interface FormState {
  User_name: string;
  First_name: string;
  Last_name: string;
  Email: string;
  Country: string;
  City: string;
  Phone_number: string;
  Organisation_type: string;
  Organisation_name: string;
  Purpose_use: string;
  Aceppt_terms: boolean;
  Give_permission: boolean;
  Accept_data: boolean;
  Subscribe_update: boolean;
}
type Field = keyof FormState;

/** The form's fields in its order, empty. */
const EMPTY: FormState = {
  User_name: '',
  First_name: '',
  Last_name: '',
  Email: '',
  Country: '',
  City: '',
  Phone_number: '',
  Organisation_type: '',
  Organisation_name: '',
  Purpose_use: '',
  Aceppt_terms: false,
  Give_permission: false,
  Accept_data: false,
  Subscribe_update: false,
};
const FIELDS = Object.keys(EMPTY) as Field[];

/** Each field's control id (its label's `for`, its error's id). */
const ID: Record<Field, string> = {
  User_name: 'reg-user-name',
  First_name: 'reg-first-name',
  Last_name: 'reg-last-name',
  Email: 'reg-email',
  Country: 'reg-country',
  City: 'reg-city',
  Phone_number: 'reg-phone',
  Organisation_type: 'reg-organisation-type',
  Organisation_name: 'reg-organisation-name',
  Purpose_use: 'reg-purpose',
  Aceppt_terms: 'reg-accept-terms',
  Give_permission: 'reg-give-permission',
  Accept_data: 'reg-accept-data',
  Subscribe_update: 'reg-subscribe',
};

/**
 * A text the page shows, kept so that it follows the language toggle: a rule of the
 * specification (its key), a server message (Spanish, said in the page's language when shown),
 * or a text as the server sent it.
 */
type Shown = { rule: RegistrationMessageKey } | { detail: string } | { text: string };

/** /Create_account: every field of the specification in its order; the password comes by mail. */
export default function RegisterPage() {
  const { t, i18n } = useTranslation();
  useDocumentTitle(t('routes./Create_account'));
  const lang = i18n.language === 'en' ? 'en' : 'es';
  const { providerName, providerKey } = runtimeConfig();
  const licence = licenceField(providerKey);
  const [form, setForm] = useState<FormState>(EMPTY);
  const [message, setMessage] = useState<{ state: MessageState; shown: Shown } | null>(null);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const { errors, mark, recheck } = useFieldErrors<Field, Shown>(formRef);

  const others = useMemo(
    () =>
      [...OTHER_COUNTRIES].sort((a, b) =>
        countryName(a, lang).localeCompare(countryName(b, lang), lang),
      ),
    [lang],
  );
  const codeCountry = findCountry(form.Country)?.dial ?? '';

  const payload = (f: FormState): RegistrationPayload =>
    ({
      User_name: f.User_name,
      First_name: f.First_name,
      Last_name: f.Last_name,
      Email: f.Email,
      Country: f.Country,
      City: f.City,
      Code_country: findCountry(f.Country)?.dial ?? '',
      Phone_number: f.Phone_number,
      Organisation_type: f.Organisation_type,
      Organisation_name: f.Organisation_name,
      Purpose_use: f.Purpose_use,
      Aceppt_terms: f.Aceppt_terms,
      Give_permission: f.Give_permission,
      [licence]: f.Accept_data,
      Subscribe_update: f.Subscribe_update,
      Language: lang,
    }) as RegistrationPayload;

  /** Every field's problem: its first failing rule of the specification, or the address's format. */
  const check = (f: FormState): Partial<Record<Field, Shown>> => {
    const found: Partial<Record<Field, Shown>> = {};
    const body = payload(f) as unknown as Record<string, unknown>;
    for (const e of registrationErrors(body, providerKey, providerName)) {
      found[e.field === licence ? 'Accept_data' : (e.field as Field)] = { rule: e.key };
    }
    // The specification leaves the address's format to the browser's email field, whose check
    // this form turns off (noValidate) to show its own messages: the server's format rule, here,
    // so a malformed address never reads the success text ('Form validation successfully
    // completed!!') first.
    if (!found.Email && !emailSchema.safeParse(f.Email.trim()).success) {
      found.Email = { detail: REGISTRATION_SERVER_MESSAGES.emailFormat };
    }
    return found;
  };

  const show = (s: Shown): string =>
    'rule' in s
      ? registrationMessage(s.rule, lang, providerName)
      : 'detail' in s
        ? localizeDetail(s.detail, lang)
        : s.text;
  const error = (key: Field): string | undefined => {
    const e = errors[key];
    return e && show(e);
  };

  const update = <K extends Field>(key: K, value: FormState[K]) => {
    const next = { ...form, [key]: value };
    setForm(next);
    recheck(check(next));
  };
  const text = (key: Field, describedBy?: string) => ({
    value: form[key] as string,
    onChange: (e: { target: { value: string } }) => update(key, e.target.value as never),
    name: key,
    ...invalidProps(ID[key], error(key), describedBy),
  });
  const feedback = (key: Field) => <FieldError fieldId={ID[key]} message={error(key)} />;
  const checkbox = (
    key: Field,
    name: string,
    label: ReactNode,
    className: string,
    describedBy?: string,
  ) => (
    <Form.Check className={className} id={ID[key]}>
      <Form.Check.Input
        type="checkbox"
        name={name}
        checked={form[key] as boolean}
        onChange={(e) => update(key, e.target.checked as never)}
        {...invalidProps(ID[key], error(key), describedBy)}
      />
      <Form.Check.Label>{label}</Form.Check.Label>
      {feedback(key)}
    </Form.Check>
  );

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (mark(check(form))) {
      setMessage(null);
      return;
    }
    setMessage({ state: 'success', shown: { rule: 'valid' } });
    setBusy(true);
    try {
      const reply = await accountApi.register(payload(form));
      setMessage({
        state: reply.status === 'OK' ? 'success' : 'danger',
        shown: { text: reply.detail },
      });
      if (reply.status === 'OK') setForm(EMPTY);
    } catch (err) {
      if (!(err instanceof ApiError) || err.status === 0) console.error('registration failed', err);
      const detail = failureText(err, t('account.network'));
      // A rule's English words (the server checks what reaches it): in the page's language.
      const rule = registrationMessageKey(detail, providerName);
      setMessage({ state: 'danger', shown: rule ? { rule } : { text: detail } });
    } finally {
      setBusy(false);
    }
  };

  // With fields marked, the message area says how many and the first rule's message (a rule of
  // the specification before the address's format).
  const marked = FIELDS.flatMap((key) => (errors[key] ? [errors[key]] : []));
  const summary = markedSummary(t, [
    ...marked.filter((e) => 'rule' in e).map(show),
    ...marked.filter((e) => !('rule' in e)).map(show),
  ]);
  const shown: Message = summary
    ? { state: 'danger', ...summary }
    : message
      ? { state: message.state, text: show(message.shown) }
      : { state: 'neutral', text: t('account.register.neutral') };

  return (
    <section className="mx-auto" style={{ maxWidth: 760 }}>
      <h1 className="h2">{t('account.register.title')}</h1>
      <p>{t('account.register.intro')}</p>
      <Form ref={formRef} noValidate onSubmit={(e) => void onSubmit(e)} data-testid="register-form">
        <Form.Group className="mb-3" controlId={ID.User_name}>
          <Form.Label>{t('account.register.userName')}</Form.Label>
          <Form.Control autoComplete="username" {...text('User_name', 'reg-user-name-help')} />
          {feedback('User_name')}
          <Form.Text id="reg-user-name-help">{t('account.register.userNameHelp')}</Form.Text>
        </Form.Group>
        <Row>
          <Form.Group as={Col} md={6} className="mb-3" controlId={ID.First_name}>
            <Form.Label>{t('account.register.firstName')}</Form.Label>
            <Form.Control autoComplete="given-name" {...text('First_name')} />
            {feedback('First_name')}
          </Form.Group>
          <Form.Group as={Col} md={6} className="mb-3" controlId={ID.Last_name}>
            <Form.Label>{t('account.register.lastName')}</Form.Label>
            <Form.Control autoComplete="family-name" {...text('Last_name')} />
            {feedback('Last_name')}
          </Form.Group>
        </Row>
        <Form.Group className="mb-3" controlId={ID.Email}>
          <Form.Label>{t('account.register.email')}</Form.Label>
          <Form.Control type="email" autoComplete="email" {...text('Email')} />
          {feedback('Email')}
        </Form.Group>
        <Form.Group className="mb-3" controlId="reg-password">
          <Form.Label>{t('account.register.password')}</Form.Label>
          <Form.Control
            readOnly
            className="bg-body-tertiary"
            value={t('account.register.passwordShort')}
            aria-describedby="reg-password-help"
          />
          <Form.Text id="reg-password-help">{t('account.register.passwordByEmail')}</Form.Text>
        </Form.Group>
        <Row>
          <Form.Group as={Col} md={8} className="mb-3" controlId={ID.Country}>
            <Form.Label>{t('account.register.country')}</Form.Label>
            <Form.Select autoComplete="country" {...text('Country')}>
              <option value="">{t('account.register.countryPlaceholder')}</option>
              {FEATURED_COUNTRIES.map((c) => (
                <option key={c.code} value={c.code}>
                  {countryName(c, lang)} ({c.dial})
                </option>
              ))}
              <optgroup label={t('account.register.otherCountries')}>
                {others.map((c) => (
                  <option key={c.code} value={c.code}>
                    {countryName(c, lang)} ({c.dial})
                  </option>
                ))}
              </optgroup>
            </Form.Select>
            {feedback('Country')}
          </Form.Group>
          <Form.Group as={Col} md={4} className="mb-3" controlId="reg-code-country">
            <Form.Label>{t('account.register.codeCountry')}</Form.Label>
            <Form.Control
              readOnly
              className="bg-body-tertiary"
              name="Code_country"
              value={codeCountry}
            />
          </Form.Group>
        </Row>
        <Row>
          <Form.Group as={Col} md={6} className="mb-3" controlId={ID.City}>
            <Form.Label>{t('account.register.city')}</Form.Label>
            <Form.Control autoComplete="address-level2" {...text('City')} />
            {feedback('City')}
          </Form.Group>
          <Form.Group as={Col} md={6} className="mb-3" controlId={ID.Phone_number}>
            <Form.Label>{t('account.register.phone')}</Form.Label>
            <Form.Control
              type="tel"
              autoComplete="tel-national"
              {...text('Phone_number', 'reg-phone-help')}
            />
            <Form.Text id="reg-phone-help">{t('account.register.phoneHelp')}</Form.Text>
          </Form.Group>
        </Row>
        <Form.Group className="mb-3" controlId={ID.Organisation_type}>
          <Form.Label>{t('account.register.organisationType')}</Form.Label>
          <Form.Select {...text('Organisation_type')}>
            <option value="">{t('account.register.selectPlaceholder')}</option>
            {ORGANISATION_TYPES.map((o) => (
              <option key={o.code} value={String(o.code)}>
                {o[lang]}
              </option>
            ))}
          </Form.Select>
          {feedback('Organisation_type')}
        </Form.Group>
        <Form.Group className="mb-3" controlId={ID.Organisation_name}>
          <Form.Label>{t('account.register.organisationName')}</Form.Label>
          <Form.Control autoComplete="organization" {...text('Organisation_name')} />
          {feedback('Organisation_name')}
        </Form.Group>
        <Form.Group className="mb-3" controlId={ID.Purpose_use}>
          <Form.Label>{t('account.register.purposeUse')}</Form.Label>
          <Form.Select {...text('Purpose_use')}>
            <option value="">{t('account.register.selectPlaceholder')}</option>
            {PURPOSES_OF_USE.map((o) => (
              <option key={o.code} value={String(o.code)}>
                {o[lang]}
              </option>
            ))}
          </Form.Select>
          {feedback('Purpose_use')}
        </Form.Group>
        {checkbox(
          'Aceppt_terms',
          'Aceppt_terms',
          t('account.register.acceptTerms'),
          'mb-1',
          'reg-terms-summary',
        )}
        <Form.Text as="p" id="reg-terms-summary" className="ms-4 mb-2 d-block">
          {t('account.register.termsSummary')}
        </Form.Text>
        {checkbox(
          'Give_permission',
          'Give_permission',
          t('account.register.givePermission'),
          'mb-2',
        )}
        {checkbox(
          'Accept_data',
          licence,
          t('account.register.acceptData', { provider: providerName }),
          'mb-2',
        )}
        {checkbox('Subscribe_update', 'Subscribe_update', t('account.register.subscribe'), 'mb-3')}
        <MessageArea message={shown} testId="register-message" />
        <Button type="submit" variant="success" disabled={busy}>
          {busy ? t('account.register.sending') : t('account.register.submit')}
        </Button>
        <p className="mt-3 mb-0">
          {t('account.register.haveAccount')}{' '}
          <Link to={ROUTES.login}>{t('account.register.login')}</Link>
        </p>
      </Form>
    </section>
  );
}

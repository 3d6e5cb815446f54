import { type FormEvent, useMemo, useRef, useState } from 'react';
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
  type RegistrationField,
  type RegistrationPayload,
  countryName,
  emailSchema,
  findCountry,
  licenceField,
  localizeDetail,
  validateRegistration,
} from '@diagrodl/contracts';
import { useDocumentTitle } from '@/components/useDocumentTitle.ts';
import { ApiError, failureText } from '@/lib/api-client.ts';
import { runtimeConfig } from '@/lib/runtime-config.ts';
import { accountApi } from './api.ts';
import { type Message, MessageArea } from './components/MessageArea.tsx';

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

/** /Create_account: every field of the specification in its order; the password comes by mail. */
export default function RegisterPage() {
  const { t, i18n } = useTranslation();
  useDocumentTitle(t('routes./Create_account'));
  const lang = i18n.language === 'en' ? 'en' : 'es';
  const { providerName, providerKey } = runtimeConfig();
  const [form, setForm] = useState<FormState>(EMPTY);
  const [message, setMessage] = useState<Message | null>(null);
  const [invalid, setInvalid] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  const others = useMemo(
    () =>
      [...OTHER_COUNTRIES].sort((a, b) =>
        countryName(a, lang).localeCompare(countryName(b, lang), lang),
      ),
    [lang],
  );
  const codeCountry = findCountry(form.Country)?.dial ?? '';

  const set =
    <K extends keyof FormState>(key: K) =>
    (value: FormState[K]) =>
      setForm((f) => ({ ...f, [key]: value }));
  const text = (key: keyof FormState) => ({
    value: form[key] as string,
    onChange: (e: { target: { value: string } }) => set(key)(e.target.value as never),
    isInvalid: invalid === key,
    name: key,
  });
  const check = (key: keyof FormState, field: string) => ({
    checked: form[key] as boolean,
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => set(key)(e.target.checked as never),
    isInvalid: invalid === field,
    name: field,
  });

  const payload = (): RegistrationPayload =>
    ({
      User_name: form.User_name,
      First_name: form.First_name,
      Last_name: form.Last_name,
      Email: form.Email,
      Country: form.Country,
      City: form.City,
      Code_country: codeCountry,
      Phone_number: form.Phone_number,
      Organisation_type: form.Organisation_type,
      Organisation_name: form.Organisation_name,
      Purpose_use: form.Purpose_use,
      Aceppt_terms: form.Aceppt_terms,
      Give_permission: form.Give_permission,
      [licenceField(providerKey)]: form.Accept_data,
      Subscribe_update: form.Subscribe_update,
      Language: lang,
    }) as RegistrationPayload;

  const focus = (field: RegistrationField) => {
    const el = formRef.current?.querySelector<HTMLElement>(`[name="${field}"]`);
    el?.focus();
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const body = payload();
    const result = validateRegistration(
      body as unknown as Record<string, unknown>,
      providerKey,
      providerName,
    );
    if (!result.ok) {
      setInvalid(result.field);
      setMessage({ state: 'danger', text: result.message });
      focus(result.field);
      return;
    }
    // The specification leaves the address's format to the browser's email field, whose check
    // this form turns off (noValidate) to show its own messages: the server's format rule, here,
    // so a malformed address never reads 'Form validation successfully completed!!' first.
    if (!emailSchema.safeParse(body.Email.trim()).success) {
      setInvalid('Email');
      setMessage({
        state: 'danger',
        text: localizeDetail(REGISTRATION_SERVER_MESSAGES.emailFormat, lang),
      });
      focus('Email');
      return;
    }
    setInvalid(null);
    setMessage({ state: 'success', text: result.message });
    setBusy(true);
    try {
      const reply = await accountApi.register(body);
      setMessage({ state: reply.status === 'OK' ? 'success' : 'danger', text: reply.detail });
      if (reply.status === 'OK') setForm(EMPTY);
    } catch (err) {
      if (!(err instanceof ApiError) || err.status === 0) console.error('registration failed', err);
      setMessage({ state: 'danger', text: failureText(err, t('account.network')) });
    } finally {
      setBusy(false);
    }
  };

  const shown = message ?? { state: 'neutral' as const, text: t('account.register.neutral') };

  return (
    <section className="mx-auto" style={{ maxWidth: 760 }}>
      <h1 className="h2">{t('account.register.title')}</h1>
      <p>{t('account.register.intro')}</p>
      <Form ref={formRef} noValidate onSubmit={(e) => void onSubmit(e)} data-testid="register-form">
        <Form.Group className="mb-3" controlId="reg-user-name">
          <Form.Label>{t('account.register.userName')}</Form.Label>
          <Form.Control
            autoComplete="username"
            aria-describedby="reg-user-name-help"
            {...text('User_name')}
          />
          <Form.Text id="reg-user-name-help">{t('account.register.userNameHelp')}</Form.Text>
        </Form.Group>
        <Row>
          <Form.Group as={Col} md={6} className="mb-3" controlId="reg-first-name">
            <Form.Label>{t('account.register.firstName')}</Form.Label>
            <Form.Control autoComplete="given-name" {...text('First_name')} />
          </Form.Group>
          <Form.Group as={Col} md={6} className="mb-3" controlId="reg-last-name">
            <Form.Label>{t('account.register.lastName')}</Form.Label>
            <Form.Control autoComplete="family-name" {...text('Last_name')} />
          </Form.Group>
        </Row>
        <Form.Group className="mb-3" controlId="reg-email">
          <Form.Label>{t('account.register.email')}</Form.Label>
          <Form.Control type="email" autoComplete="email" {...text('Email')} />
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
          <Form.Group as={Col} md={8} className="mb-3" controlId="reg-country">
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
          <Form.Group as={Col} md={6} className="mb-3" controlId="reg-city">
            <Form.Label>{t('account.register.city')}</Form.Label>
            <Form.Control autoComplete="address-level2" {...text('City')} />
          </Form.Group>
          <Form.Group as={Col} md={6} className="mb-3" controlId="reg-phone">
            <Form.Label>{t('account.register.phone')}</Form.Label>
            <Form.Control
              type="tel"
              autoComplete="tel-national"
              aria-describedby="reg-phone-help"
              {...text('Phone_number')}
            />
            <Form.Text id="reg-phone-help">{t('account.register.phoneHelp')}</Form.Text>
          </Form.Group>
        </Row>
        <Form.Group className="mb-3" controlId="reg-organisation-type">
          <Form.Label>{t('account.register.organisationType')}</Form.Label>
          <Form.Select {...text('Organisation_type')}>
            <option value="">{t('account.register.selectPlaceholder')}</option>
            {ORGANISATION_TYPES.map((o) => (
              <option key={o.code} value={String(o.code)}>
                {o[lang]}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <Form.Group className="mb-3" controlId="reg-organisation-name">
          <Form.Label>{t('account.register.organisationName')}</Form.Label>
          <Form.Control autoComplete="organization" {...text('Organisation_name')} />
        </Form.Group>
        <Form.Group className="mb-3" controlId="reg-purpose">
          <Form.Label>{t('account.register.purposeUse')}</Form.Label>
          <Form.Select {...text('Purpose_use')}>
            <option value="">{t('account.register.selectPlaceholder')}</option>
            {PURPOSES_OF_USE.map((o) => (
              <option key={o.code} value={String(o.code)}>
                {o[lang]}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <Form.Check
          className="mb-1"
          id="reg-accept-terms"
          label={t('account.register.acceptTerms')}
          aria-describedby="reg-terms-summary"
          {...check('Aceppt_terms', 'Aceppt_terms')}
        />
        <Form.Text as="p" id="reg-terms-summary" className="ms-4 mb-2 d-block">
          {t('account.register.termsSummary')}
        </Form.Text>
        <Form.Check
          className="mb-2"
          id="reg-give-permission"
          label={t('account.register.givePermission')}
          {...check('Give_permission', 'Give_permission')}
        />
        <Form.Check
          className="mb-2"
          id="reg-accept-data"
          label={t('account.register.acceptData', { provider: providerName })}
          {...check('Accept_data', licenceField(providerKey))}
        />
        <Form.Check
          className="mb-3"
          id="reg-subscribe"
          label={t('account.register.subscribe')}
          {...check('Subscribe_update', 'Subscribe_update')}
        />
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

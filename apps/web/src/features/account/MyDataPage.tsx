import { type FormEvent, type MouseEvent, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ROUTES } from '@diagrodl/contracts';
import { ConfirmDialog } from '@/components/ConfirmDialog.tsx';
import { useDocumentTitle } from '@/components/useDocumentTitle.ts';
import { announceAccountDeleted, useSession } from '@/lib/session.tsx';
import { accountApi } from './api.ts';
import { MessageArea } from './components/MessageArea.tsx';
import { TextField } from './components/TextField.tsx';
import { useAccountSubmit } from './components/useAccountSubmit.ts';

/**
 * /Mis_datos (logged-in users): download everything the platform holds about me (one zip),
 * and delete my account with my password, a ticked confirmation and a last question.
 */
export default function MyDataPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('routes./Mis_datos'));
  const { user, logout, refresh } = useSession();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirmed, setConfirmed] = useState(false);
  const [asking, setAsking] = useState(false);
  const { message, setMessage, busy, submit } = useAccountSubmit();
  const [downloadError, setDownloadError] = useState(false);

  // The archive is a plain download, whose failure the page would never see: the session is
  // checked first. Ended: the page goes to the login, and comes back here after it. Offline: said.
  const onDownload = async (e: MouseEvent<HTMLAnchorElement>) => {
    e.preventDefault();
    if (!navigator.onLine) {
      setDownloadError(true);
      return;
    }
    setDownloadError(false);
    if (!(await refresh())) return;
    const link = document.createElement('a');
    link.href = accountApi.exportUrl;
    link.download = '';
    link.click();
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const problem = !password ? 'passwordMissing' : !confirmed ? 'confirmMissing' : null;
    if (problem) {
      setMessage({ state: 'danger', text: t(`account.myData.${problem}`) });
      return;
    }
    setMessage(null);
    setAsking(true);
  };

  // The server ended the session with the account: the page leaves the signed-in shell at once
  // for the home page, which says that the account was deleted (no sidebar greeting is left).
  const onDelete = async () => {
    setAsking(false);
    let detail = '';
    const done = await submit(async () => {
      const reply = await accountApi.deleteAccount({ password, confirm: confirmed });
      detail = reply.detail;
      return { state: 'success', text: reply.detail };
    });
    setPassword('');
    if (!done) return;
    // the account is gone: its photos and diagnoses kept on this device go too (they would
    // otherwise be sent to a new account registered later with the same user name)
    if (user) announceAccountDeleted(user.userName);
    await navigate(ROUTES.home, { state: { notice: detail } });
    await logout();
  };

  return (
    <section className="mx-auto" style={{ maxWidth: 640 }}>
      <h1 className="h2">{t('account.myData.title')}</h1>
      <p>
        {t('account.myData.intro')} <Link to={ROUTES.about}>{t('account.myData.keptLink')}</Link>
      </p>

      <section className="mb-4" aria-labelledby="my-data-download">
        <h2 className="h4" id="my-data-download">
          {t('account.myData.downloadTitle')}
        </h2>
        <p>{t('account.myData.downloadText')}</p>
        <a
          className="btn btn-success"
          href={accountApi.exportUrl}
          download
          onClick={(e) => void onDownload(e)}
        >
          {t('account.myData.download')}
        </a>
        <MessageArea
          message={downloadError ? { state: 'danger', text: t('account.network') } : null}
          testId="my-data-download-message"
        />
      </section>

      <section aria-labelledby="my-data-delete">
        <h2 className="h4" id="my-data-delete">
          {t('account.myData.deleteTitle')}
        </h2>
        <p>{t('account.myData.deleteText')}</p>
        <Form noValidate onSubmit={onSubmit}>
          <TextField
            id="my-data-password"
            label={t('account.myData.password')}
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={setPassword}
          />
          <Form.Check
            className="mb-3"
            id="my-data-confirm"
            type="checkbox"
            label={t('account.myData.confirm')}
            checked={confirmed}
            onChange={(e) => setConfirmed(e.target.checked)}
          />
          <MessageArea message={message} testId="my-data-message" />
          <Button type="submit" variant="danger" disabled={busy}>
            {busy ? t('account.myData.deleting') : t('account.myData.submit')}
          </Button>
        </Form>
      </section>

      <ConfirmDialog
        show={asking}
        id="my-data-dialog-title"
        title={t('account.myData.dialogTitle')}
        cancel={t('account.myData.cancel')}
        confirm={t('account.myData.dialogConfirm')}
        onCancel={() => setAsking(false)}
        onConfirm={() => void onDelete()}
      >
        {t('account.myData.dialogText', { user: user?.userName ?? '' })}
      </ConfirmDialog>
    </section>
  );
}

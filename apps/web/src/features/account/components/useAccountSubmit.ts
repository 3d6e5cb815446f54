import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureText } from '@/lib/api-client.ts';
import type { Message } from './MessageArea.tsx';

/**
 * The message and busy state of one account form, and `submit`, which runs the form's call:
 * busy while it runs, then the message the call returns, or the server's refusal, or the
 * "no connection" message. Returns whether the call succeeded.
 */
export function useAccountSubmit() {
  const { t } = useTranslation();
  const [message, setMessage] = useState<Message | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (call: () => Promise<Message>): Promise<boolean> => {
    setBusy(true);
    try {
      setMessage(await call());
      return true;
    } catch (err) {
      setMessage({ state: 'danger', text: failureText(err, t('account.network')) });
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { message, setMessage, busy, submit };
}

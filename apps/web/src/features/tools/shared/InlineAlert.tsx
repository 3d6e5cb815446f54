import { useTranslation } from 'react-i18next';
import { localizeToolMessage } from '@diagrodl/hydraulics';
import { currentLanguage } from '@/lib/i18n.ts';

/**
 * An accessible inline alert placed next to the field or button it is about (role="alert", so
 * screen readers announce it); never a blocking browser dialog. Renders nothing without a message.
 * A specification message of the engines is said in the page's language (localizeToolMessage).
 */
export function InlineAlert({
  message,
  id,
  variant = 'danger',
  testId,
}: {
  message: string | null | undefined;
  id?: string;
  variant?: 'danger' | 'warning' | 'success' | 'info';
  testId?: string;
}) {
  useTranslation(); // follows the language toggle
  if (!message) return null;
  return (
    <div
      id={id}
      role="alert"
      className={`tool-inline-alert alert alert-${variant} py-1 px-2 mt-1 mb-0 small`}
      data-testid={testId}
    >
      {localizeToolMessage(message, currentLanguage())}
    </div>
  );
}

import type { TFunction } from 'i18next';
import { type RefObject, useState } from 'react';
import Form from 'react-bootstrap/Form';
import { useFocusInvalid } from './useFocusInvalid.ts';

/** The id of a field's error message, which the field names in its `aria-describedby`. */
export const errorId = (fieldId: string): string => `${fieldId}-error`;

/**
 * The props of a form control with or without an error: red (isInvalid), `aria-invalid`, and
 * described by its message as well as by the ids that already describe it (a help text).
 */
export function invalidProps(
  fieldId: string,
  message: string | null | undefined,
  describedBy?: string,
) {
  const ids = [describedBy, message ? errorId(fieldId) : undefined].filter(Boolean).join(' ');
  return {
    isInvalid: Boolean(message),
    'aria-invalid': message ? true : undefined,
    'aria-describedby': ids || undefined,
  };
}

/**
 * A field's error message, right under the field (react-bootstrap's invalid feedback, shown by
 * an `is-invalid` control before it); nothing without a message.
 */
export function FieldError({
  fieldId,
  message,
}: {
  fieldId: string;
  message: string | null | undefined;
}) {
  if (!message) return null;
  return (
    <Form.Control.Feedback type="invalid" id={errorId(fieldId)}>
      {message}
    </Form.Control.Feedback>
  );
}

/**
 * The marked fields of a form (each with its problem: a message key, not its text, so that it
 * follows the language toggle). `mark(found)` after a submit marks every field found and moves
 * the focus to the first, once marked (`aria-invalid`), so that a screen reader reads its message;
 * it returns whether any was found. `recheck(found)` as the person edits: a marked field whose
 * problem is gone loses its mark, one still wrong shows its problem now; unmarked fields wait for
 * the next submit.
 */
export function useFieldErrors<F extends string, P>(form: RefObject<HTMLElement | null>) {
  const [errors, setErrors] = useState<Partial<Record<F, P>>>({});
  const [attempt, setAttempt] = useState(0);
  useFocusInvalid(form, attempt);
  const mark = (found: Partial<Record<F, P>>): boolean => {
    setErrors(found);
    const any = Object.keys(found).length > 0;
    if (any) setAttempt((n) => n + 1);
    return any;
  };
  const recheck = (found: Partial<Record<F, P>>) =>
    setErrors((marked) => {
      const now: Partial<Record<F, P>> = {};
      for (const field of Object.keys(marked) as F[]) {
        if (found[field] !== undefined) now[field] = found[field];
      }
      return now;
    });
  return { errors, mark, recheck };
}

/**
 * What a form's message area says while fields are marked: how many ('Revisa los 3 campos
 * marcados.') and the first message given; null when none is.
 */
export function markedSummary(
  t: TFunction,
  messages: readonly (string | null | undefined)[],
): { summary: string; text: string } | null {
  const marked = messages.filter((m): m is string => Boolean(m));
  return marked[0]
    ? { summary: t('form.invalid', { count: marked.length }), text: marked[0] }
    : null;
}

/** A message area's text, after the summary line of the marked fields when there is one. */
export function SummaryText({ summary, text }: { summary?: string; text: string }) {
  return (
    <>
      {summary && (
        <>
          <strong className="d-block">{summary}</strong>{' '}
        </>
      )}
      {text}
    </>
  );
}

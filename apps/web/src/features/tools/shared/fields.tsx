import { type ReactNode, useId, useRef } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useTranslation } from 'react-i18next';
import type { ExportBarLabels } from './ExportBar.tsx';
import { STATUS_HERE, localizeToolMessage } from '@diagrodl/hydraulics';
import { InlineAlert } from './InlineAlert.tsx';
import { useAmbiguousComma } from './useNumberFormat.ts';
import { useFocusInvalid } from '@/components/useFocusInvalid.ts';
import { type Language, currentLanguage } from '@/lib/i18n.ts';

/** Labels of the export bar: the converter's own, or those the three designers share. */
export function useExportLabels(tool: 'irrigation' | 'converter' = 'irrigation'): ExportBarLabels {
  const { t } = useTranslation();
  return {
    group: t(`${tool}.export.group`),
    csv: t(`${tool}.export.csv`),
    pdf: t(`${tool}.export.pdf`),
    saveJson: t(`${tool}.export.saveJson`),
    loadJson: t(`${tool}.export.loadJson`),
    loadError: t(`${tool}.export.loadError`),
  };
}

/**
 * A labelled text input for a number (decimal comma or point): its label says the words and the
 * unit ("Separación entre emisores (m)"), with the specification's code name as a small tag after
 * them (`tag`: "Space_emitter"), and its inline alert. A comma that could group thousands ("2,500")
 * is flagged as it is typed, before any other alert.
 */
export function NumberField({
  label,
  tag,
  hint,
  unit,
  value,
  onChange,
  alert,
  readOnly = false,
  testId,
}: {
  label: string;
  tag?: string;
  hint?: string;
  unit?: string;
  value: string;
  onChange?: (value: string) => void;
  alert?: string | null;
  readOnly?: boolean;
  testId?: string;
}) {
  const id = useId();
  const ambiguity = useAmbiguousComma()(value);
  const message = (!readOnly && ambiguity) || alert;
  const describedBy = [hint ? `${id}-hint` : '', message ? `${id}-alert` : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div>
      <Form.Label htmlFor={id} className="mb-1">
        {unit ? `${label} (${unit})` : label}
        {tag && (
          <>
            {' '}
            <span className="tool-code-tag">{tag}</span>
          </>
        )}
      </Form.Label>
      <Form.Control
        id={id}
        type="text"
        size="sm"
        inputMode="decimal"
        autoComplete="off"
        value={value}
        readOnly={readOnly}
        className={readOnly ? 'tool-readonly' : undefined}
        isInvalid={Boolean(message)}
        aria-invalid={message ? true : undefined}
        aria-describedby={describedBy || undefined}
        onChange={(e) => onChange?.(e.target.value)}
        data-testid={testId}
      />
      {hint && (
        <Form.Text id={`${id}-hint`} className="d-block">
          {hint}
        </Form.Text>
      )}
      <InlineAlert
        id={`${id}-alert`}
        message={message}
        testId={testId ? `${testId}-alert` : undefined}
      />
    </div>
  );
}

/** How many fields a Calculate found in error, next to its button (nothing when none). */
export function ErrorCount({ count, testId }: { count: number; testId?: string }) {
  const { t } = useTranslation();
  if (count === 0) return null;
  return (
    <span className="text-danger small align-self-center" data-testid={testId}>
      {t('numberInput.count', { count })}
    </span>
  );
}

/**
 * The status line of a section: 'Status Here' until calculated, then success or danger; a
 * specification message in the page's language (localizeToolMessage).
 */
export function StatusLine({
  text,
  variant,
  testId,
}: {
  text: string;
  variant: 'secondary' | 'success' | 'danger';
  testId?: string;
}) {
  useTranslation(); // follows the language toggle
  return (
    <p
      className={`tool-status alert alert-${variant} mb-2`}
      aria-live="polite"
      data-testid={testId}
      data-status={variant}
    >
      {localizeToolMessage(text, currentLanguage())}
    </p>
  );
}

/** A section's status line: 'Status Here' until it is calculated, then its message (ok: green). */
export function SectionStatus({
  tool,
  status,
}: {
  tool: SectionTool;
  status: { text: string; ok: boolean } | null;
}) {
  return (
    <StatusLine
      text={status?.text ?? STATUS_HERE}
      variant={status ? (status.ok ? 'success' : 'danger') : 'secondary'}
      testId={`${tool}-status`}
    />
  );
}

/** The designers made of numbered sections. */
type SectionTool = 'secondary' | 'mainline';

/** What a designer's page hands each of its sections: its number and its handlers. */
export interface SectionProps<F> {
  number: number;
  lang: Language;
  onRaw: (field: F, value: string) => void;
  onCalculate: () => void;
  onClear: () => void;
  onDelete: () => void;
}

/**
 * A sectioned designer's own buttons: add a section, start again, and the one that sums the
 * sections up (the secondary line's accounting, the main line's totals).
 */
export function DesignerButtons({
  tool,
  onAdd,
  onReset,
  summary,
}: {
  tool: SectionTool;
  onAdd: () => void;
  onReset: () => void;
  summary: { label: string; testId: string; onClick: () => void };
}) {
  const { t } = useTranslation();
  return (
    <div className="d-flex flex-wrap gap-2">
      <Button variant="success" onClick={onAdd} data-testid={`${tool}-add`}>
        {t(`irrigation.${tool}.add`)}
      </Button>
      <Button variant="outline-danger" onClick={onReset} data-testid={`${tool}-reset`}>
        {t(`irrigation.${tool}.reset`)}
      </Button>
      <Button variant="outline-success" onClick={summary.onClick} data-testid={summary.testId}>
        {summary.label}
      </Button>
    </div>
  );
}

/**
 * A section's Calculate (submits its form), Clear data and Delete section buttons, and how many of
 * its fields the last Calculate found in error.
 */
export function SectionActions({
  tool,
  onClear,
  onDelete,
  errors = 0,
  className = '',
}: {
  tool: SectionTool;
  onClear: () => void;
  onDelete: () => void;
  errors?: number;
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <div className={`d-flex flex-wrap gap-2 ${className}`}>
      <Button type="submit" size="sm" variant="success" data-testid={`${tool}-calculate`}>
        {t('irrigation.calculate')}
      </Button>
      <Button size="sm" variant="outline-secondary" onClick={onClear} data-testid={`${tool}-clear`}>
        {t(`irrigation.${tool}.clear`)}
      </Button>
      <Button size="sm" variant="outline-danger" onClick={onDelete} data-testid={`${tool}-delete`}>
        {t(`irrigation.${tool}.delete`)}
      </Button>
      <ErrorCount count={errors} testId={`${tool}-error-count`} />
    </div>
  );
}

/** A labelled drop-down (options: [value, text]), with an empty 'choose' entry when asked for. */
export function SelectField({
  label,
  value,
  options,
  onChange,
  choose,
  alert,
  testId,
}: {
  label: string;
  value: string;
  options: readonly (readonly [string, string])[];
  onChange: (value: string) => void;
  /** The text of an empty first entry ('Selecciona…'). */
  choose?: string;
  alert?: string | null;
  testId: string;
}) {
  const id = useId();
  return (
    <>
      <Form.Label htmlFor={id} className="mb-1">
        {label}
      </Form.Label>
      <Form.Select
        id={id}
        size="sm"
        value={value}
        isInvalid={Boolean(alert)}
        aria-invalid={alert ? true : undefined}
        aria-describedby={alert ? `${id}-alert` : undefined}
        onChange={(e) => onChange(e.target.value)}
        data-testid={testId}
      >
        {choose !== undefined && <option value="">{choose}</option>}
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </Form.Select>
      <InlineAlert id={`${id}-alert`} message={alert} testId={`${testId}-alert`} />
    </>
  );
}

/**
 * A designer's section: its card, numbered heading and the form its Calculate button submits; after
 * a Calculate that found errors (`attempt` counts them) its first invalid field takes the focus.
 */
export function SectionCard({
  tool,
  number,
  title,
  onCalculate,
  attempt,
  children,
  after,
}: {
  tool: SectionTool;
  number: number;
  title: string;
  onCalculate: () => void;
  attempt: number;
  children: ReactNode;
  /** What follows the form: status and results. */
  after?: ReactNode;
}) {
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  useFocusInvalid(form, attempt);
  return (
    <section
      className="tool-card tool-section-card mt-3"
      aria-labelledby={`${id}-h`}
      data-testid={`${tool}-section`}
      data-section={number}
    >
      <h2 id={`${id}-h`} className="h5">
        {title}
      </h2>
      <form
        ref={form}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          onCalculate();
        }}
      >
        {children}
      </form>
      {after}
    </section>
  );
}

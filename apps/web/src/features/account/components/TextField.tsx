import Form from 'react-bootstrap/Form';
import { FieldError, invalidProps } from '@/components/FieldError.tsx';

/**
 * A labelled input of the account forms; `id` names the input for its label. With `error`, the
 * input is marked and its message stands right under it.
 */
export function TextField({
  id,
  label,
  value,
  onChange,
  type = 'text',
  autoComplete,
  describedBy,
  error,
  disabled = false,
  className = 'mb-3',
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
  describedBy?: string;
  error?: string;
  disabled?: boolean;
  className?: string;
}) {
  return (
    <Form.Group className={className} controlId={id}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        type={type}
        autoComplete={autoComplete}
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
        {...invalidProps(id, error, describedBy)}
      />
      <FieldError fieldId={id} message={error} />
    </Form.Group>
  );
}

import Alert from 'react-bootstrap/Alert';
import { SummaryText } from '@/components/FieldError.tsx';

export type MessageState = 'neutral' | 'danger' | 'success';
export interface Message {
  state: MessageState;
  text: string;
  /** A first line before the text (how many fields need correcting). */
  summary?: string;
}

/** The form's message area: neutral, danger or success, announced to screen readers. */
export function MessageArea({ message, testId }: { message: Message | null; testId: string }) {
  return (
    <div
      role="status"
      aria-live="polite"
      className="mb-3"
      data-testid={testId}
      data-state={message?.state ?? 'neutral'}
    >
      {message && (
        <Alert
          variant={message.state === 'neutral' ? 'secondary' : message.state}
          className="mb-0"
          style={{ overflowWrap: 'anywhere' }}
        >
          <SummaryText summary={message.summary} text={message.text} />
        </Alert>
      )}
    </div>
  );
}

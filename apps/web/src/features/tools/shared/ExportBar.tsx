import { type ReactNode, useId, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { readFileText } from './export.ts';
import { InlineAlert } from './InlineAlert.tsx';

export interface ExportBarLabels {
  group: string;
  csv: string;
  pdf: string;
  saveJson: string;
  loadJson: string;
  /** Shown when a chosen file is not a design of this tool. */
  loadError: string;
}

/**
 * The export buttons of a design: CSV, one-page PDF, save and load a JSON design file, plus any
 * extra buttons (children). Loading uses a hidden file input opened by a real button, so it works
 * from the keyboard.
 */
export function ExportBar({
  labels,
  onCsv,
  onPdf,
  onSaveJson,
  onLoadJson,
  disabled = false,
  children,
  message,
}: {
  labels: ExportBarLabels;
  onCsv: () => void;
  onPdf: () => Promise<void>;
  onSaveJson: () => void;
  /** Receives the file's text; returns false when it is not a design of this tool. */
  onLoadJson: (text: string) => boolean;
  /** Disables the result exports (CSV, PDF) while there is nothing to export. */
  disabled?: boolean;
  children?: ReactNode;
  /** An alert of the extra buttons (e.g. an export that cannot be made). */
  message?: string | null;
}) {
  const id = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const pdf = async () => {
    setBusy(true);
    try {
      await onPdf();
    } finally {
      setBusy(false);
    }
  };

  const load = async (file: File | undefined) => {
    if (!file) return;
    const ok = onLoadJson(await readFileText(file));
    setError(ok ? null : labels.loadError);
    if (fileRef.current) fileRef.current.value = '';
  };

  return (
    <div className="tool-export" role="group" aria-labelledby={`${id}-label`}>
      <span id={`${id}-label`} className="tool-export-label">
        {labels.group}
      </span>
      <div className="d-flex flex-wrap gap-2">
        <Button variant="outline-success" size="sm" onClick={onCsv} disabled={disabled}>
          {labels.csv}
        </Button>
        <Button
          variant="outline-success"
          size="sm"
          onClick={() => void pdf()}
          disabled={disabled || busy}
        >
          {labels.pdf}
        </Button>
        <Button variant="outline-secondary" size="sm" onClick={onSaveJson}>
          {labels.saveJson}
        </Button>
        <Button variant="outline-secondary" size="sm" onClick={() => fileRef.current?.click()}>
          {labels.loadJson}
        </Button>
        <input
          ref={fileRef}
          type="file"
          accept="application/json,.json"
          className="d-none"
          tabIndex={-1}
          aria-hidden="true"
          data-testid="load-json-input"
          onChange={(e) => void load(e.target.files?.[0])}
        />
        {children}
      </div>
      <InlineAlert message={error ?? message} testId="export-alert" />
    </div>
  );
}

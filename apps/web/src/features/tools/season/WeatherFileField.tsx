import { useId, useRef } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useTranslation } from 'react-i18next';
import {
  SAMPLE_DAILY_CSV,
  SAMPLE_HOURLY_CSV,
  weatherCsvErrorText,
  type WeatherCsvError,
} from '@diagrodl/hydraulics';
import { InlineAlert } from '../shared/InlineAlert.tsx';
import { downloadFile, readFileText } from '../shared/export.ts';
import { useNumberFormat } from '../shared/useNumberFormat.ts';
import type { State } from './state.ts';

/** The list of a weather file's rows that could not be read, in the page's language. */
function CsvErrors({ errors, testId }: { errors: WeatherCsvError[]; testId: string }) {
  const { lang } = useNumberFormat();
  if (errors.length === 0) return null;
  return (
    <ul className="alert alert-danger small mt-2 mb-0 ps-4" data-testid={testId}>
      {errors.map((e, i) => (
        <li key={i}>{weatherCsvErrorText(e, lang)}</li>
      ))}
    </ul>
  );
}

/** A weather file's chooser: the file, the sample to use or download, and what was read. */
export function WeatherFileField({
  which,
  state,
  onFile,
  error,
}: {
  which: 'daily' | 'hourly';
  state: State;
  onFile: (name: string, text: string) => void;
  error: string | null;
}) {
  const { t } = useTranslation();
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const file = state[which];
  const sample = which === 'daily' ? SAMPLE_DAILY_CSV : SAMPLE_HOURLY_CSV;
  const sampleName = t(`irrigation.season.${which}.sampleName`);
  return (
    <div className="mb-3" data-testid={`season-${which}`}>
      <p id={`${id}-label`} className="fw-semibold mb-1">
        {t(`irrigation.season.${which}.file`)}
      </p>
      {/* The browser's own file field speaks the browser's language: a button of the page's
          opens it, and the file chosen is said below in the page's language. */}
      <input
        ref={inputRef}
        type="file"
        accept=".csv,text/csv,text/plain"
        className="d-none"
        tabIndex={-1}
        aria-hidden="true"
        onChange={(e) => {
          const chosen = e.target.files?.[0];
          if (chosen) void readFileText(chosen).then((text) => onFile(chosen.name, text));
          e.target.value = '';
        }}
        data-testid={`season-${which}-input`}
      />
      <Form.Text id={`${id}-hint`} className="d-block">
        {t(`irrigation.season.${which}.hint`)}
      </Form.Text>
      <div className="d-flex flex-wrap gap-2 mt-2">
        <Button
          size="sm"
          variant="success"
          onClick={() => inputRef.current?.click()}
          aria-label={`${t('irrigation.season.chooseFile')}: ${t(`irrigation.season.${which}.file`)}`}
          aria-describedby={`${id}-hint${error ? ` ${id}-alert` : ''}`}
          data-invalid={error ? 'true' : undefined}
          data-testid={`season-${which}-choose`}
        >
          {t('irrigation.season.chooseFile')}
        </Button>
        <Button
          size="sm"
          variant="outline-success"
          onClick={() => onFile(sampleName, sample)}
          data-testid={`season-${which}-sample`}
        >
          {t('irrigation.season.useSample')}
        </Button>
        <Button
          size="sm"
          variant="outline-secondary"
          onClick={() => downloadFile(sampleName, 'text/csv;charset=utf-8', sample)}
          data-testid={`season-${which}-download`}
        >
          {t('irrigation.season.downloadSample')}
        </Button>
      </div>
      <p className="small mt-2 mb-0" aria-live="polite" data-testid={`season-${which}-name`}>
        {file
          ? t('irrigation.season.fileChosen', { name: file.name })
          : t('irrigation.season.noFile')}
      </p>
      <InlineAlert id={`${id}-alert`} message={error} testId={`season-${which}-alert`} />
      <CsvErrors errors={state.csvErrors[which]} testId={`season-${which}-rows`} />
    </div>
  );
}

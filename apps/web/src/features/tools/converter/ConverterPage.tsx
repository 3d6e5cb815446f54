import { useId, useRef } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { useTranslation } from 'react-i18next';
import { MEASURES, UNIT_CATALOGUE, isMeasure } from '@diagrodl/hydraulics';
import { InlineAlert } from '../shared/InlineAlert.tsx';
import type { Language } from '@/lib/i18n.ts';
import { ExportBar } from '../shared/ExportBar.tsx';
import { ErrorCount, useExportLabels } from '../shared/fields.tsx';
import { errorCount, messageText } from '../shared/fieldCheck.ts';
import { useFocusInvalid } from '@/components/useFocusInvalid.ts';
import { ToolPage } from '../shared/ToolPage.tsx';
import { useDesign } from '../shared/useDesign.ts';
import { useReportExport } from '../shared/useReportExport.ts';
import { useAmbiguousComma } from '../shared/useNumberFormat.ts';
import {
  DESIGN,
  KIND,
  check,
  conversion,
  converterReport,
  formatConverted,
  type Field,
  type Saved,
} from './state.ts';
import '../shared/tools.css';

export default function ConverterPage() {
  const { t, i18n } = useTranslation();
  const lang: Language = i18n.language === 'en' ? 'en' : 'es';
  const id = useId();
  const { state, dispatch, files } = useDesign(DESIGN);
  const labels = useExportLabels('converter');
  const exports = useReportExport(KIND, [], {
    rowsLeftOut: t('converter.pdf.rowsLeftOut'),
    blocksLeftOut: t('converter.pdf.blocksLeftOut'),
  });
  const { errors } = state;
  const form = useRef<HTMLFormElement>(null);
  useFocusInvalid(form, state.attempt);

  const computed = check(state);
  const shown = computed.ok && (state.executed || state.showAll) ? computed : null;
  const results = shown ? conversion(shown) : null;
  const result = results && state.executed ? results.converted : null;
  const all = results && state.showAll ? results.equivalents : null;

  const units = isMeasure(state.measure) ? UNIT_CATALOGUE[state.measure].units : [];
  const update = (patch: Partial<Pick<Saved, 'measure' | 'from' | 'to' | 'value'>>) =>
    dispatch({ type: 'update', patch });
  const run = (patch: Partial<Saved>) => dispatch({ type: 'run', patch });
  // A comma that could group thousands ("2,500") is flagged as it is typed (the value cannot run).
  const ambiguity = useAmbiguousComma()(state.value);
  const alertFor = (field: Field) =>
    field === 'value' && ambiguity ? ambiguity : messageText(errors[field], t);
  const fieldId = (f: string) => `${id}-${f}`;
  const invalid = (f: Field) => errors[f] !== undefined || (f === 'value' && ambiguity !== null);
  const unitOptions = units.map((u) => [u.id, u.label[lang]] as const);
  /** The drop-down of the measure or of a unit, with its empty 'choose' entry and its alert. */
  const select = (
    field: 'measure' | 'from' | 'to',
    options: readonly (readonly [string, string])[],
    onChange: (value: string) => void,
  ) => (
    <Col xs={12} md={6} xl={3}>
      <Form.Label htmlFor={fieldId(field)}>{t(`converter.${field}`)}</Form.Label>
      <Form.Select
        id={fieldId(field)}
        value={state[field]}
        isInvalid={invalid(field)}
        aria-invalid={invalid(field) || undefined}
        aria-describedby={invalid(field) ? `${id}-${field}-alert` : undefined}
        onChange={(e) => onChange(e.target.value)}
        data-testid={field}
      >
        <option value="">
          {t(field === 'measure' ? 'converter.chooseMeasure' : 'converter.chooseUnit')}
        </option>
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </Form.Select>
      <InlineAlert id={`${id}-${field}-alert`} message={alertFor(field)} />
    </Col>
  );
  const report = () => (computed.ok ? converterReport(computed, t, lang) : null);

  return (
    <ToolPage
      documentTitle={t('routes./Universal_conversor')}
      title={t('converter.title')}
      intro={t('converter.intro')}
    >
      <Form
        ref={form}
        noValidate
        className="tool-card"
        onSubmit={(e) => {
          e.preventDefault();
          run({ executed: true });
        }}
      >
        <Row className="g-3">
          {select(
            'measure',
            MEASURES.map((m) => [m, UNIT_CATALOGUE[m].label[lang]] as const),
            (measure) => update({ measure, from: '', to: '' }),
          )}
          {select('from', unitOptions, (from) => update({ from }))}
          <Col xs={12} md={6} xl={3}>
            <Form.Label htmlFor={fieldId('value')}>{t('converter.value')}</Form.Label>
            <Form.Control
              id={fieldId('value')}
              type="text"
              inputMode="decimal"
              autoComplete="off"
              value={state.value}
              isInvalid={invalid('value')}
              aria-invalid={invalid('value') || undefined}
              aria-describedby={invalid('value') ? `${id}-value-alert` : undefined}
              onChange={(e) => update({ value: e.target.value })}
              data-testid="value"
            />
            <InlineAlert id={`${id}-value-alert`} message={alertFor('value')} />
          </Col>
          {select('to', unitOptions, (to) => update({ to }))}
        </Row>
        <div className="d-flex flex-wrap gap-2 mt-3">
          <Button type="submit" variant="success" data-testid="execute">
            {t('converter.execute')}
          </Button>
          <Button
            variant="outline-success"
            aria-expanded={state.showAll}
            aria-controls={`${id}-all`}
            onClick={() => run({ showAll: true, executed: true })}
            data-testid="view-all"
          >
            {t('converter.viewAll')}
          </Button>
          <Button variant="outline-secondary" onClick={() => update({})} data-testid="clear-all">
            {t('converter.clearAll')}
          </Button>
          <ErrorCount count={errorCount(errors)} testId="converter-error-count" />
        </div>
        <Row className="g-3 mt-1">
          <Col xs={12} md={6}>
            <Form.Label htmlFor={fieldId('result')}>{t('converter.converted')}</Form.Label>
            <Form.Control
              id={fieldId('result')}
              readOnly
              value={result === null ? '' : `${formatConverted(result, lang)}`}
              aria-live="polite"
              data-testid="converted"
            />
          </Col>
        </Row>
      </Form>

      <div id={`${id}-all`} aria-live="polite">
        {all && (
          <section className="tool-card mt-3" aria-labelledby={`${id}-all-h`}>
            <h2 id={`${id}-all-h`} className="h5">
              {t('converter.equivalents')}
            </h2>
            <Row className="g-2" data-testid="equivalents">
              {units.map((u) => (
                <Col key={u.id} xs={12} sm={4}>
                  <Form.Label htmlFor={`${id}-eq-${u.id}`} className="small mb-0">
                    {u.label[lang]}
                  </Form.Label>
                  <Form.Control
                    id={`${id}-eq-${u.id}`}
                    readOnly
                    size="sm"
                    data-unit={u.id}
                    value={formatConverted(all[u.id]!, lang)}
                  />
                </Col>
              ))}
            </Row>
          </section>
        )}
      </div>

      <ExportBar labels={labels} disabled={!computed.ok} {...exports.actions(report)} {...files} />
    </ToolPage>
  );
}

import { useEffect, useId, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { useTranslation } from 'react-i18next';
import {
  CONVERTER_DEFAULTS,
  MEASURES,
  UNIT_CATALOGUE,
  convert,
  equivalents,
  isMeasure,
  isUnitOf,
  parseDecimal,
  type Measure,
  type UnitIdByMeasure,
} from '@diagrodl/hydraulics';
import { ExportBar } from '../shared/ExportBar.tsx';
import { InlineAlert } from '@/components/InlineAlert.tsx';
import { useDocumentTitle } from '@/components/useDocumentTitle.ts';
import {
  autosave,
  designFile,
  downloadFile,
  fileStem,
  is,
  loadAutosave,
  readDesignFile,
  toCsv,
} from '../shared/export.ts';
import { formatNumber } from '@/lib/format.ts';
import type { Language } from '@/lib/i18n.ts';
import '../shared/tools.css';

const KIND = 'converter';

interface ConverterState {
  measure: string;
  from: string;
  to: string;
  value: string;
  /** The conversion was executed (the converted value is shown). */
  executed: boolean;
  /** The list of equivalents is shown. */
  showAll: boolean;
}

const DEFAULT_STATE: ConverterState = {
  measure: CONVERTER_DEFAULTS.measure,
  from: CONVERTER_DEFAULTS.from,
  to: CONVERTER_DEFAULTS.to,
  value: String(CONVERTER_DEFAULTS.value),
  executed: false,
  showAll: false,
};

function parseState(data: unknown): ConverterState | null {
  if (!is.stringRecord(data, ['measure', 'from', 'to', 'value'] as const)) return null;
  const d = data as Record<string, unknown>;
  return {
    measure: String(d.measure),
    from: String(d.from),
    to: String(d.to),
    value: String(d.value),
    executed: d.executed === true,
    showAll: d.showAll === true,
  };
}

/** Plain for ordinary magnitudes, scientific for very large or very small ones. */
export function formatConverted(value: number, lang: Language): string {
  const abs = Math.abs(value);
  if (abs !== 0 && (abs < 1e-4 || abs >= 1e12)) {
    return formatNumber(value, lang, { notation: 'scientific', maximumSignificantDigits: 7 });
  }
  return formatNumber(value, lang, { maximumFractionDigits: 6 });
}

type Computed =
  | { ok: true; measure: Measure; from: string; to: string; value: number }
  | { ok: false; field: 'measure' | 'from' | 'to' | 'value'; key: string };

function check(state: ConverterState): Computed {
  if (!isMeasure(state.measure))
    return { ok: false, field: 'measure', key: 'converter.selectMeasure' };
  if (!isUnitOf(state.measure, state.from))
    return { ok: false, field: 'from', key: 'converter.selectUnit' };
  if (!isUnitOf(state.measure, state.to))
    return { ok: false, field: 'to', key: 'converter.selectUnit' };
  const value = parseDecimal(state.value);
  if (value === null) return { ok: false, field: 'value', key: 'converter.notANumber' };
  return { ok: true, measure: state.measure, from: state.from, to: state.to, value };
}

export default function ConverterPage() {
  const { t, i18n } = useTranslation();
  const lang: Language = i18n.language === 'en' ? 'en' : 'es';
  useDocumentTitle(t('routes./Universal_conversor'));
  const id = useId();
  const [state, setState] = useState<ConverterState>(
    () => parseState(loadAutosave(KIND)) ?? DEFAULT_STATE,
  );
  const [alert, setAlert] = useState<{ field: string; key: string } | null>(null);
  const first = useRef(true);

  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    autosave(KIND, state);
  }, [state]);

  const computed = check(state);
  const shown = computed.ok && (state.executed || state.showAll) ? computed : null;
  const result =
    shown && state.executed
      ? convert(
          shown.measure,
          shown.from as UnitIdByMeasure[Measure],
          shown.to as UnitIdByMeasure[Measure],
          shown.value,
        )
      : null;
  const all =
    shown && state.showAll
      ? equivalents(shown.measure, shown.from as UnitIdByMeasure[Measure], shown.value)
      : null;

  const units = isMeasure(state.measure) ? UNIT_CATALOGUE[state.measure].units : [];
  const unitLabel = (unitId: string) => units.find((u) => u.id === unitId)?.label[lang] ?? unitId;

  const update = (patch: Partial<ConverterState>) => {
    setAlert(null);
    setState((s) => ({ ...s, ...patch, executed: false, showAll: false }));
  };

  const run = (patch: Partial<ConverterState>) => {
    const c = check(state);
    if (!c.ok) {
      setAlert({ field: c.field, key: c.key });
      setState((s) => ({ ...s, executed: false, showAll: false }));
      return;
    }
    setAlert(null);
    setState((s) => ({ ...s, ...patch }));
  };

  const alertFor = (field: string) => (alert?.field === field ? t(alert.key) : null);
  const fieldId = (f: string) => `${id}-${f}`;
  const invalid = (f: string) => alert?.field === f;

  const csvRows = () => {
    const rows: (string | number)[][] = [
      [t('converter.csv.field'), t('converter.csv.value')],
      [t('converter.measure'), computed.ok ? UNIT_CATALOGUE[computed.measure].label[lang] : ''],
      [t('converter.from'), unitLabel(state.from)],
      [t('converter.value'), computed.ok ? computed.value : state.value],
      [t('converter.to'), unitLabel(state.to)],
    ];
    if (computed.ok) {
      rows.push([
        t('converter.converted'),
        convert(computed.measure, computed.from as never, computed.to as never, computed.value),
      ]);
      rows.push([]);
      rows.push([t('converter.csv.unit'), t('converter.csv.equivalent')]);
      const eq = equivalents(computed.measure, computed.from as never, computed.value);
      for (const u of units) rows.push([u.label[lang], eq[u.id as keyof typeof eq]]);
    }
    return rows;
  };

  const onPdf = async () => {
    if (!computed.ok) return;
    const eq = equivalents(computed.measure, computed.from as never, computed.value);
    const converted = convert(
      computed.measure,
      computed.from as never,
      computed.to as never,
      computed.value,
    );
    // pdf-lib is large: it loads only when a PDF is asked for.
    const { buildPdfReport } = await import('../shared/pdf.ts');
    const bytes = await buildPdfReport({
      title: t('converter.title'),
      subtitle: new Date().toLocaleString(lang === 'en' ? 'en-US' : 'es-MX'),
      rowsLeftOut: t('converter.pdf.rowsLeftOut'),
      blocks: [
        {
          kind: 'pairs',
          heading: t('converter.pdf.inputs'),
          rows: [
            [t('converter.measure'), UNIT_CATALOGUE[computed.measure].label[lang]],
            [t('converter.from'), unitLabel(computed.from)],
            [t('converter.value'), formatConverted(computed.value, lang)],
            [t('converter.to'), unitLabel(computed.to)],
          ],
        },
        {
          kind: 'pairs',
          heading: t('converter.pdf.result'),
          rows: [
            [
              t('converter.converted'),
              `${formatConverted(converted, lang)} ${unitLabel(computed.to)}`,
            ],
          ],
        },
        {
          kind: 'table',
          heading: t('converter.equivalents'),
          columns: [t('converter.csv.unit'), t('converter.csv.equivalent')],
          rows: units.map((u) => [
            u.label[lang],
            formatConverted(eq[u.id as keyof typeof eq], lang),
          ]),
        },
      ],
    });
    downloadFile(`${fileStem(KIND)}.pdf`, 'application/pdf', bytes);
  };

  return (
    <section className="tool-page" aria-labelledby={`${id}-h`}>
      <h1 id={`${id}-h`} className="h2">
        {t('converter.title')}
      </h1>
      <p className="text-body-secondary">{t('converter.intro')}</p>
      <Form
        noValidate
        className="tool-card"
        onSubmit={(e) => {
          e.preventDefault();
          run({ executed: true });
        }}
      >
        <Row className="g-3">
          <Col xs={12} md={6} xl={3}>
            <Form.Label htmlFor={fieldId('measure')}>{t('converter.measure')}</Form.Label>
            <Form.Select
              id={fieldId('measure')}
              value={state.measure}
              isInvalid={invalid('measure')}
              onChange={(e) => update({ measure: e.target.value, from: '', to: '' })}
              data-testid="measure"
            >
              <option value="">{t('converter.chooseMeasure')}</option>
              {MEASURES.map((m) => (
                <option key={m} value={m}>
                  {UNIT_CATALOGUE[m].label[lang]}
                </option>
              ))}
            </Form.Select>
            <InlineAlert message={alertFor('measure')} />
          </Col>
          <Col xs={12} md={6} xl={3}>
            <Form.Label htmlFor={fieldId('from')}>{t('converter.from')}</Form.Label>
            <Form.Select
              id={fieldId('from')}
              value={state.from}
              isInvalid={invalid('from')}
              onChange={(e) => update({ from: e.target.value })}
              data-testid="from"
            >
              <option value="">{t('converter.chooseUnit')}</option>
              {units.map((u) => (
                <option key={u.id} value={u.id}>
                  {u.label[lang]}
                </option>
              ))}
            </Form.Select>
            <InlineAlert message={alertFor('from')} />
          </Col>
          <Col xs={12} md={6} xl={3}>
            <Form.Label htmlFor={fieldId('value')}>{t('converter.value')}</Form.Label>
            <Form.Control
              id={fieldId('value')}
              type="text"
              inputMode="decimal"
              autoComplete="off"
              value={state.value}
              isInvalid={invalid('value')}
              aria-describedby={invalid('value') ? `${id}-value-alert` : undefined}
              onChange={(e) => update({ value: e.target.value })}
              data-testid="value"
            />
            <InlineAlert id={`${id}-value-alert`} message={alertFor('value')} />
          </Col>
          <Col xs={12} md={6} xl={3}>
            <Form.Label htmlFor={fieldId('to')}>{t('converter.to')}</Form.Label>
            <Form.Select
              id={fieldId('to')}
              value={state.to}
              isInvalid={invalid('to')}
              onChange={(e) => update({ to: e.target.value })}
              data-testid="to"
            >
              <option value="">{t('converter.chooseUnit')}</option>
              {units.map((u) => (
                <option key={u.id} value={u.id}>
                  {u.label[lang]}
                </option>
              ))}
            </Form.Select>
            <InlineAlert message={alertFor('to')} />
          </Col>
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
          <Button
            variant="outline-secondary"
            onClick={() => {
              setAlert(null);
              setState((s) => ({ ...s, executed: false, showAll: false }));
            }}
            data-testid="clear-all"
          >
            {t('converter.clearAll')}
          </Button>
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
                    value={formatConverted(all[u.id as keyof typeof all], lang)}
                  />
                </Col>
              ))}
            </Row>
          </section>
        )}
      </div>

      <ExportBar
        labels={{
          group: t('converter.export.group'),
          csv: t('converter.export.csv'),
          pdf: t('converter.export.pdf'),
          saveJson: t('converter.export.saveJson'),
          loadJson: t('converter.export.loadJson'),
          loadError: t('converter.export.loadError'),
        }}
        disabled={!computed.ok}
        onCsv={() =>
          downloadFile(`${fileStem(KIND)}.csv`, 'text/csv;charset=utf-8', toCsv(csvRows()))
        }
        onPdf={onPdf}
        onSaveJson={() =>
          downloadFile(
            `${fileStem(KIND)}.json`,
            'application/json',
            JSON.stringify(designFile(KIND, state), null, 2),
          )
        }
        onLoadJson={(text) => {
          const loaded = parseState(readDesignFile(text, KIND));
          if (!loaded) return false;
          setAlert(null);
          setState(loaded);
          return true;
        }}
      />
    </section>
  );
}

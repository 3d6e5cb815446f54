import { useId, useMemo, useRef } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ROUTES } from '@diagrodl/contracts';
import {
  DESIGN_MESSAGES,
  FRICTION_FORMULAS,
  FRICTION_FORMULA_LABELS,
  designLateral,
  type FrictionFormula,
  type LateralResult,
} from '@diagrodl/hydraulics';
import { InlineAlert } from '../shared/InlineAlert.tsx';
import { formatNumber } from '@/lib/format.ts';
import { ExportBar } from '../shared/ExportBar.tsx';
import { ToolPage } from '../shared/ToolPage.tsx';
import { NumCells, ToolTable } from '../shared/ToolTable.tsx';
import { ErrorCount, NumberField, SelectField, useExportLabels } from '../shared/fields.tsx';
import { errorCount, messageText } from '../shared/fieldCheck.ts';
import { useFocusInvalid } from '@/components/useFocusInvalid.ts';
import { LineChart } from '../shared/LineChart.tsx';
import { pdfText } from '../shared/report.ts';
import { useDesign } from '../shared/useDesign.ts';
import { useNumberFormat } from '../shared/useNumberFormat.ts';
import { useReportExport } from '../shared/useReportExport.ts';
import { LateralDesignResult } from './LateralDesign.tsx';
import { formatPlain, lateralChartSummary, lateralReport, lateralSentence } from './report.ts';
import type { FromLateral } from '../schedule/state.ts';
import {
  DESIGN,
  FIX_MODES,
  KIND,
  LATERAL_COLUMNS,
  LATERAL_EXTRA_FIELDS,
  LATERAL_FIELDS,
  type ErrorKey,
  type FixMode,
} from './state.ts';
import '../shared/tools.css';

export default function LateralPage() {
  const { t } = useTranslation();
  const { lang, fmt } = useNumberFormat();
  const id = useId();
  const { state, dispatch, files } = useDesign(DESIGN);
  const { raw, extra, calculation } = state;
  const svgRef = useRef<SVGSVGElement>(null);
  const profileRef = useRef<SVGSVGElement>(null);
  const labels = useExportLabels();
  const scientific = (value: number) =>
    formatNumber(value, lang, {
      notation: 'scientific',
      maximumFractionDigits: 4,
      minimumFractionDigits: 4,
    });
  const exports = useReportExport(KIND, [svgRef, profileRef], { scientific });
  const navigate = useNavigate();
  const form = useRef<HTMLFormElement>(null);
  useFocusInvalid(form, state.attempt);

  const input = calculation?.input ?? null;
  const result: LateralResult | null = useMemo(() => {
    if (!calculation) return null;
    try {
      return designLateral(calculation.input, calculation.options);
    } catch {
      return null;
    }
  }, [calculation]);
  const report = () => (result && input ? lateralReport(result, input, t, lang, fmt) : null);
  const alert = (field: ErrorKey) => messageText(state.errors[field], t);
  const cell = (value: number, digits: number) => pdfText(value, fmt, digits, scientific);
  const calculate = () => dispatch({ type: 'calculate' });
  const reset = () => dispatch({ type: 'reset' });
  const blasius = extra.formula === 'darcy-weisbach-blasius';
  const formulaName = (f: FrictionFormula) => FRICTION_FORMULA_LABELS[f][lang];
  const sentence = result ? lateralSentence(result, t, fmt) : '';
  const limitText = result ? t('irrigation.lateral.limit', { limit: fmt(result.limit, 2) }) : '';
  // The designed lateral's EU, mean emitter flow and emitter spacing, for irrigation scheduling.
  const toSchedule = () => {
    if (!result?.design || !input) return;
    const fromLateral: FromLateral = {
      eu: result.design.eu,
      emitterFlow: result.design.qAvg,
      emitterSpacing: input.spaceEmitter,
    };
    void navigate(ROUTES.irrigationScheduling, { state: { fromLateral } });
  };

  return (
    <ToolPage
      documentTitle={t('routes./Lateral_designer')}
      title={t('irrigation.lateral.title')}
      intro={t('irrigation.lateral.intro')}
    >
      <form
        ref={form}
        noValidate
        className="tool-card"
        onSubmit={(e) => {
          e.preventDefault();
          calculate();
        }}
      >
        <Row className="g-3">
          {LATERAL_FIELDS.map((f) => (
            <Col key={f.key} xs={12} sm={6} lg={4}>
              <NumberField
                label={t(`irrigation.lateral.fields.${f.key}`)}
                tag={f.name}
                hint={blasius && f.key === 'C' ? t('irrigation.lateral.cUnused') : undefined}
                unit={f.unit || undefined}
                value={f.key === 'm' && blasius ? '1.75' : raw[f.key]}
                readOnly={f.key === 'm'}
                onChange={(v) => dispatch({ type: 'raw', key: f.key, value: v })}
                alert={alert(f.key)}
                testId={`lateral-${f.name}`}
              />
            </Col>
          ))}
        </Row>
        <fieldset className="mt-3">
          <legend className="h6 mb-2">{t('irrigation.lateral.design.inputsTitle')}</legend>
          <Row className="g-3">
            <Col xs={12} sm={6} lg={4}>
              <SelectField
                label={t('irrigation.formula')}
                value={extra.formula}
                options={FRICTION_FORMULAS.map((f) => [f, formulaName(f)] as const)}
                onChange={(v) =>
                  dispatch({ type: 'extra', patch: { formula: v as FrictionFormula } })
                }
                testId="lateral-formula"
              />
            </Col>
            {LATERAL_EXTRA_FIELDS.map((f) => (
              <Col key={f.key} xs={12} sm={6} lg={4}>
                <NumberField
                  label={t(`irrigation.lateral.design.fields.${f.key}`)}
                  tag={f.name}
                  value={extra[f.key]}
                  onChange={(v) => dispatch({ type: 'extra', patch: { [f.key]: v } })}
                  alert={alert(f.key)}
                  testId={`lateral-${f.key}`}
                />
              </Col>
            ))}
            <Col xs={12} sm={6} lg={4}>
              <SelectField
                label={t('irrigation.lateral.design.fix')}
                value={extra.fix}
                options={FIX_MODES.map(
                  (mode) => [mode, t(`irrigation.lateral.design.fixModes.${mode}`)] as const,
                )}
                onChange={(v) => dispatch({ type: 'extra', patch: { fix: v as FixMode } })}
                testId="lateral-fix"
              />
            </Col>
            {extra.fix !== 'table' && (
              <Col xs={12} sm={6} lg={4}>
                <NumberField
                  label={t(`irrigation.lateral.design.fixValue.${extra.fix}`)}
                  unit={extra.fix === 'length' ? 'm' : undefined}
                  value={extra.fixValue}
                  onChange={(v) => dispatch({ type: 'extra', patch: { fixValue: v } })}
                  alert={alert(extra.fix)}
                  testId="lateral-fixValue"
                />
              </Col>
            )}
          </Row>
        </fieldset>
        <div className="d-flex flex-wrap gap-2 mt-3">
          <Button type="submit" variant="success" data-testid="lateral-calculate">
            {t('irrigation.calculate')}
          </Button>
          <Button variant="outline-secondary" onClick={reset} data-testid="lateral-reset">
            {t('irrigation.lateral.reset')}
          </Button>
          <ErrorCount count={errorCount(state.errors)} testId="lateral-error-count" />
        </div>
      </form>

      {result && (
        <section
          className="tool-card mt-3"
          aria-labelledby={`${id}-r`}
          data-testid="lateral-result"
        >
          <h2 id={`${id}-r`} className="h4">
            {t('irrigation.results')}
          </h2>
          <p className="tool-sentence" data-testid="lateral-sentence">
            {sentence}
          </p>
          <p data-testid="lateral-limit">{limitText}</p>
          <LineChart
            svgRef={svgRef}
            testId="lateral-chart"
            title={t('irrigation.lateral.chartTitle')}
            summary={lateralChartSummary(result, t, fmt)}
            xLabel={t('irrigation.lateral.chartX')}
            yLabel={t('irrigation.lateral.chartY')}
            formatTick={(v) => formatPlain(v, lang)}
            series={[
              {
                id: 'hfSlope',
                label: t('irrigation.lateral.cols.hfSlope'),
                color: '#1f5fa8',
                points: result.rows.map((r) => ({ x: r.leReal, y: r.hfSlope })),
              },
            ]}
            referenceLines={[{ y: result.limit, label: limitText, color: '#a0182f' }]}
          />
          {result.blasiusOutOfRange && (
            <InlineAlert
              variant="warning"
              message={DESIGN_MESSAGES[lang].blasiusRange}
              testId="lateral-blasius-note"
            />
          )}
          <LateralDesignResult result={result} po={input!.Po} svgRef={profileRef} />
          <h3 className="h5" id={`${id}-t`}>
            {t('irrigation.lateral.tableTitle')}
          </h3>
          <ToolTable
            scroll
            labelledBy={`${id}-t`}
            testId="lateral-table"
            // the specification's column names stay as a small tag beside the words
            columns={LATERAL_COLUMNS.map((c) => ({
              label: (
                <>
                  {t(`irrigation.lateral.cols.${c.key}`)}{' '}
                  <span className="tool-code-tag">{c.name}</span>
                </>
              ),
              num: true,
            }))}
          >
            {result.rows.map((r) => (
              <tr key={r.n} className={r.hfSlope >= result.limit ? 'tool-row-limit' : undefined}>
                <NumCells values={LATERAL_COLUMNS.map((c) => cell(r[c.key], c.digits))} />
              </tr>
            ))}
          </ToolTable>
        </section>
      )}

      <ExportBar labels={labels} disabled={!result} {...exports.actions(report)} {...files}>
        <Button
          variant="outline-success"
          size="sm"
          disabled={!result?.design}
          title={t('irrigation.schedule.fromLateralHint')}
          onClick={toSchedule}
          data-testid="lateral-to-schedule"
        >
          {t('irrigation.schedule.fromLateral')}
        </Button>
      </ExportBar>
    </ToolPage>
  );
}

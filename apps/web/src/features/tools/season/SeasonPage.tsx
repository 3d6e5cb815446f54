import { useEffect, useId, useMemo, useRef, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { ExportBar } from '../shared/ExportBar.tsx';
import { InlineAlert } from '../shared/InlineAlert.tsx';
import { ToolPage } from '../shared/ToolPage.tsx';
import { ErrorCount, NumberField, SelectField, useExportLabels } from '../shared/fields.tsx';
import { messageText } from '../shared/fieldCheck.ts';
import { useFocusInvalid } from '@/components/useFocusInvalid.ts';
import { useDesign } from '../shared/useDesign.ts';
import { useNumberFormat } from '../shared/useNumberFormat.ts';
import { useReportExport } from '../shared/useReportExport.ts';
import { BalanceResults } from './BalanceResults.tsx';
import { RiskResults } from './RiskResults.tsx';
import { WeatherFileField } from './WeatherFileField.tsx';
import { seasonReport } from './report.ts';
import {
  BALANCE_GROUPS,
  BALANCE_STRATEGIES,
  DESIGN,
  FIELDS,
  KC_MODES,
  KIND,
  TOMCAST_THRESHOLDS,
  compute,
  sectionFields,
  type FieldKey,
  type FromSchedule,
  type Message,
  type Section,
} from './state.ts';
import '../shared/tools.css';

export default function SeasonPage() {
  const { t } = useTranslation();
  const { lang, fmt } = useNumberFormat();
  const id = useId();
  const { state, dispatch, files } = useDesign(DESIGN);
  const { raw, options } = state;
  const balanceChart = useRef<SVGSVGElement>(null);
  const riskChart = useRef<SVGSVGElement>(null);
  const labels = useExportLabels();
  const exports = useReportExport(KIND, [balanceChart, riskChart]);
  const location = useLocation();
  const navigate = useNavigate();
  const balanceForm = useRef<HTMLFormElement>(null);
  const riskForm = useRef<HTMLFormElement>(null);
  // The form of the last Calculate: its first invalid field takes the focus.
  const invalidScope = useRef<HTMLFormElement | null>(null);
  // The section whose Calculate was pressed: its results, once shown, take the focus (on a phone
  // they are below the form, out of sight).
  const pending = useRef<Section | null>(null);
  const balanceResult = useRef<HTMLHeadingElement>(null);
  const riskResult = useRef<HTMLHeadingElement>(null);

  // The scheduling screen's drip layout, stages and site: taken once, then dropped from the
  // history entry so that a reload does not take them again over what was typed since.
  const fromSchedule = (location.state as { fromSchedule?: FromSchedule } | null)?.fromSchedule;
  useEffect(() => {
    if (!fromSchedule) return;
    dispatch({ type: 'fromSchedule', values: fromSchedule });
    void navigate(location.pathname, { replace: true, state: null });
  }, [fromSchedule, dispatch, navigate, location.pathname]);

  // A Calculate that found errors: the focus goes to the first field (or file) with one.
  useFocusInvalid(invalidScope, state.attempt);
  useEffect(() => {
    const section = pending.current;
    pending.current = null;
    if (section === 'balance' && state.balanceInput) balanceResult.current?.focus();
    if (section === 'risk' && state.riskInput) riskResult.current?.focus();
  }, [state.balanceInput, state.riskInput, state.attempt]);

  const computed = useMemo(() => {
    try {
      return compute(state);
    } catch {
      return { balance: null, risk: null };
    }
    // The results follow the inputs they came from, not the fields typed since.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state.balanceInput, state.riskInput]);
  const { balance, risk } = computed;

  const message = (m: Message | undefined) => messageText(m, t);
  const errorCount = (section: Section) =>
    [
      ...sectionFields(section, options),
      ...(section === 'balance' ? ['plantingDate', 'daily'] : ['hourly']),
    ].filter((k) => state.errors[k as FieldKey]).length;
  const calculate = (section: Section) => {
    invalidScope.current = section === 'balance' ? balanceForm.current : riskForm.current;
    pending.current = section;
    dispatch({ type: 'calculate', section });
  };
  const field = (key: FieldKey, hint?: string) => (
    <Col key={key} xs={12} sm={6} lg={4}>
      <NumberField
        label={t(`irrigation.season.fields.${key}`)}
        unit={FIELDS[key].unit || undefined}
        hint={hint}
        value={raw[key]}
        onChange={(v) => dispatch({ type: 'raw', key, value: v })}
        alert={message(state.errors[key])}
        testId={`season-${key}`}
      />
    </Col>
  );
  const group = (key: keyof typeof BALANCE_GROUPS, children: ReactNode, first = false) => (
    <fieldset className={first ? '' : 'mt-4'}>
      <legend className="h6 fw-semibold">{t(`irrigation.season.groups.${key}`)}</legend>
      <Row className="g-3">{children}</Row>
    </fieldset>
  );
  const count = (section: Section) => (
    <ErrorCount count={errorCount(section)} testId={`season-${section}-count`} />
  );
  const report = () => (balance || risk ? seasonReport(state, computed, t, lang, fmt) : null);

  return (
    <ToolPage
      documentTitle={t('routes./Season_calendar')}
      title={t('irrigation.season.title')}
      intro={t('irrigation.season.intro')}
    >
      {state.imported && (
        <InlineAlert
          variant="info"
          message={t('irrigation.season.imported')}
          testId="season-imported"
        />
      )}

      {/* Water balance */}
      <section className="tool-card mt-3" aria-labelledby={`${id}-b`}>
        <h2 id={`${id}-b`} className="h3">
          {t('irrigation.season.balance.title')}
        </h2>
        <p className="text-body-secondary">{t('irrigation.season.balance.intro')}</p>
        <form
          ref={balanceForm}
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            calculate('balance');
          }}
        >
          <WeatherFileField
            which="daily"
            state={state}
            error={message(state.errors.daily)}
            onFile={(name, text) =>
              dispatch({ type: 'file', which: 'daily', file: { name, text } })
            }
          />
          {group(
            'soil',
            BALANCE_GROUPS.soil.map((k) => field(k)),
            true,
          )}
          <fieldset className="mt-4">
            <legend className="h6 fw-semibold">{t('irrigation.season.groups.strategy')}</legend>
            <Row className="g-3">
              <Col xs={12} sm={6} lg={4}>
                <SelectField
                  label={t('irrigation.season.strategy')}
                  value={options.strategy}
                  options={BALANCE_STRATEGIES.map(
                    (s) => [s, t(`irrigation.season.strategies.${s}`)] as const,
                  )}
                  onChange={(v) =>
                    dispatch({
                      type: 'options',
                      patch: { strategy: v as (typeof BALANCE_STRATEGIES)[number] },
                    })
                  }
                  testId="season-strategy"
                />
              </Col>
              {options.strategy === 'interval' && field('every')}
            </Row>
          </fieldset>
          {group(
            'crop',
            <>
              <Col xs={12} sm={6} lg={4}>
                <SelectField
                  label={t('irrigation.season.kcMode')}
                  value={options.kcMode}
                  options={KC_MODES.map((m) => [m, t(`irrigation.season.kcModes.${m}`)] as const)}
                  onChange={(v) => dispatch({ type: 'options', patch: { kcMode: v as 'stage' } })}
                  testId="season-kcMode"
                />
              </Col>
              {options.kcMode === 'stage' ? (
                <>
                  <Col xs={12} sm={6} lg={4}>
                    <Form.Label htmlFor={`${id}-pd`} className="mb-1">
                      {t('irrigation.season.fields.plantingDate')}
                    </Form.Label>
                    <Form.Control
                      id={`${id}-pd`}
                      type="date"
                      size="sm"
                      value={raw.plantingDate}
                      isInvalid={Boolean(state.errors.plantingDate)}
                      aria-invalid={state.errors.plantingDate ? true : undefined}
                      aria-describedby={`${id}-pd-hint${state.errors.plantingDate ? ` ${id}-pd-alert` : ''}`}
                      onChange={(e) =>
                        dispatch({ type: 'raw', key: 'plantingDate', value: e.target.value })
                      }
                      data-testid="season-plantingDate"
                    />
                    <Form.Text id={`${id}-pd-hint`} className="d-block">
                      {t('irrigation.season.plantingDateHint')}
                    </Form.Text>
                    <InlineAlert
                      id={`${id}-pd-alert`}
                      message={message(state.errors.plantingDate)}
                      testId="season-plantingDate-alert"
                    />
                  </Col>
                  {BALANCE_GROUPS.crop.filter((k) => k !== 'kc').map((k) => field(k))}
                </>
              ) : (
                field('kc')
              )}
            </>,
          )}
          {group(
            'site',
            BALANCE_GROUPS.site.map((k) => field(k, t(`irrigation.season.siteHint`))),
          )}
          <fieldset className="mt-4">
            <legend className="h6 fw-semibold">{t('irrigation.season.groups.drip')}</legend>
            <Form.Check
              type="switch"
              id={`${id}-drip`}
              label={t('irrigation.season.dripSwitch')}
              checked={options.drip}
              onChange={(e) => dispatch({ type: 'options', patch: { drip: e.target.checked } })}
              data-testid="season-drip"
            />
            {options.drip && (
              <Row className="g-3 mt-0">{BALANCE_GROUPS.drip.map((k) => field(k))}</Row>
            )}
          </fieldset>
          <div className="d-flex flex-wrap gap-2 mt-3">
            <Button type="submit" variant="success" data-testid="season-balance-calculate">
              {t('irrigation.calculate')}
            </Button>
            <Button
              variant="outline-secondary"
              onClick={() => dispatch({ type: 'reset' })}
              data-testid="season-reset"
            >
              {t('irrigation.season.reset')}
            </Button>
            {count('balance')}
          </div>
        </form>

        {balance && (
          <BalanceResults
            balance={balance}
            drip={Boolean(state.balanceInput?.drip)}
            headingRef={balanceResult}
            chartRef={balanceChart}
          />
        )}
      </section>

      {/* Disease risk */}
      <section className="tool-card mt-3" aria-labelledby={`${id}-r`}>
        <h2 id={`${id}-r`} className="h3">
          {t('irrigation.season.risk.title')}
        </h2>
        <p className="text-body-secondary">{t('irrigation.season.risk.intro')}</p>
        <p className="small" data-testid="season-risk-sources">
          {t('irrigation.season.risk.sources')}
        </p>
        <form
          ref={riskForm}
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            calculate('risk');
          }}
        >
          <WeatherFileField
            which="hourly"
            state={state}
            error={message(state.errors.hourly)}
            onFile={(name, text) =>
              dispatch({ type: 'file', which: 'hourly', file: { name, text } })
            }
          />
          <Row className="g-3">
            <Col xs={12} sm={6} lg={4}>
              <SelectField
                label={t('irrigation.season.tomcastThreshold')}
                value={options.tomcastThreshold}
                options={TOMCAST_THRESHOLDS.map((v) => [String(v), String(v)] as const)}
                onChange={(v) => dispatch({ type: 'options', patch: { tomcastThreshold: v } })}
                testId="season-tomcastThreshold"
              />
            </Col>
            {field('lateBlightThreshold')}
          </Row>
          <div className="d-flex flex-wrap gap-2 mt-3">
            <Button type="submit" variant="success" data-testid="season-risk-calculate">
              {t('irrigation.calculate')}
            </Button>
            {count('risk')}
          </div>
        </form>

        {risk && <RiskResults risk={risk} headingRef={riskResult} chartRef={riskChart} />}
      </section>

      <ExportBar
        labels={labels}
        disabled={!balance && !risk}
        {...exports.actions(report)}
        {...files}
      />
    </ToolPage>
  );
}

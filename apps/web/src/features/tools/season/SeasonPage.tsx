import { useEffect, useId, useMemo, useRef, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import {
  SAMPLE_DAILY_CSV,
  SAMPLE_HOURLY_CSV,
  weatherCsvErrorText,
  type WeatherCsvError,
} from '@diagrodl/hydraulics';
import { ROUTES, UPLOAD_TAKE_PHOTO } from '@diagrodl/contracts';
import { ExportBar } from '../shared/ExportBar.tsx';
import { FiguresTable } from '../shared/FiguresTable.tsx';
import { InlineAlert } from '../shared/InlineAlert.tsx';
import { LineChart } from '../shared/LineChart.tsx';
import { ToolPage } from '../shared/ToolPage.tsx';
import { NumCells, ToolTable } from '../shared/ToolTable.tsx';
import { downloadFile, readFileText } from '../shared/export.ts';
import { NumberField, SelectField, useExportLabels } from '../shared/fields.tsx';
import { useDesign } from '../shared/useDesign.ts';
import { useNumberFormat } from '../shared/useNumberFormat.ts';
import { useReportExport } from '../shared/useReportExport.ts';
import {
  BALANCE_COLUMNS,
  DRIP_COLUMNS,
  RISK_COLUMNS,
  balanceFigures,
  balanceSentence,
  riskAlerts,
  seasonReport,
  shortDate,
} from './report.ts';
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
  type State,
} from './state.ts';
import '../shared/tools.css';

/** Where each alert's model leads: the disease pages it warns of. */
const DISEASE_PAGES = {
  tomcast: [ROUTES.earlyBlight, ROUTES.septoriaLeafSpot],
  lateBlight: [ROUTES.lateBlight],
} as const;

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
function WeatherFileField({
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
  const lastSection = useRef<Section>('balance');
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
  useEffect(() => {
    if (state.attempt === 0) return;
    const form = lastSection.current === 'balance' ? balanceForm.current : riskForm.current;
    form?.querySelector<HTMLElement>('[aria-invalid="true"], [data-invalid="true"]')?.focus();
  }, [state.attempt]);
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

  const message = (m: Message | undefined) =>
    m ? t(m.key, { ...m.values, defaultValue: t('irrigation.season.errors.refused') }) : null;
  const errorCount = (section: Section) =>
    [
      ...sectionFields(section, options),
      ...(section === 'balance' ? ['plantingDate', 'daily'] : ['hourly']),
    ].filter((k) => state.errors[k as FieldKey]).length;
  const calculate = (section: Section) => {
    lastSection.current = section;
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
  const count = (section: Section) => {
    const n = errorCount(section);
    return n > 0 ? (
      <span className="text-danger small align-self-center" data-testid={`season-${section}-count`}>
        {t('irrigation.season.errors.count', { count: n })}
      </span>
    ) : null;
  };
  const report = () => (balance || risk ? seasonReport(state, computed, t, lang, fmt) : null);
  const dateTick = (days: readonly { date: string }[]) => (v: number) => {
    const day = days[Math.round(v) - 1];
    return day ? shortDate(day.date, lang) : '';
  };
  const alerts = risk ? riskAlerts(risk) : [];
  const drip = Boolean(state.balanceInput?.drip);
  const balanceColumns = [...BALANCE_COLUMNS, ...(drip ? DRIP_COLUMNS : [])];

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
          <div className="mt-4" data-testid="season-balance-result" aria-live="polite">
            <h3 className="h4" ref={balanceResult} tabIndex={-1}>
              {t('irrigation.season.balance.results')}
            </h3>
            <p className="tool-sentence" data-testid="season-balance-sentence">
              {balanceSentence(balance, t, fmt, lang)}
            </p>
            {balance.outsideSeason > 0 && (
              <p className="small text-body-secondary" data-testid="season-outside">
                {t('irrigation.season.balance.outsideSeason', { count: balance.outsideSeason })}
              </p>
            )}
            <FiguresTable
              rows={balanceFigures(balance)}
              label={(key) => t(`irrigation.season.figures.${key}`)}
              testId="season-balance-figures"
              caption={t('irrigation.season.balance.title')}
            />
            <LineChart
              svgRef={balanceChart}
              testId="season-balance-chart"
              title={t('irrigation.season.balance.chartTitle')}
              summary={t('irrigation.season.balance.chartSummary', {
                taw: fmt(balance.taw, 1),
                max: fmt(Math.max(...balance.days.map((d) => d.depletion)), 1),
                irrigations: balance.totals.irrigations,
              })}
              xLabel={t('irrigation.season.chartX')}
              yLabel={t('irrigation.season.balance.chartY')}
              formatTick={(v) => fmt(v, Number.isInteger(v) ? 0 : 1)}
              formatXTick={dateTick(balance.days)}
              bars={[
                {
                  id: 'rain',
                  label: t('irrigation.season.balance.series.rain'),
                  color: '#1f5fa8',
                  points: balance.days.map((d, i) => ({ x: i + 1, y: d.rain })),
                },
                {
                  id: 'irrigation',
                  label: t('irrigation.season.balance.series.irrigation'),
                  color: '#0f7d84',
                  points: balance.days.map((d, i) => ({ x: i + 1, y: d.irrigation })),
                },
              ]}
              series={[
                {
                  id: 'depletion',
                  label: t('irrigation.season.balance.series.depletion'),
                  color: '#b3541e',
                  points: balance.days.map((d, i) => ({ x: i + 1, y: d.depletion })),
                },
                {
                  id: 'raw',
                  label: 'RAW',
                  color: '#1f6f3f',
                  dashed: true,
                  points: balance.days.map((d, i) => ({ x: i + 1, y: d.raw })),
                },
              ]}
              referenceLines={[{ y: balance.taw, label: 'TAW', color: '#a0182f' }]}
            />
            <h4 className="h5" id={`${id}-bt`}>
              {t('irrigation.season.balance.tableTitle')}
            </h4>
            <ToolTable
              scroll
              labelledBy={`${id}-bt`}
              testId="season-balance-table"
              columns={[
                { label: t('irrigation.season.cols.date') },
                ...balanceColumns.map(([key, unit]) => ({
                  label: `${t(`irrigation.season.cols.${key}`)}${unit ? ` (${unit})` : ''}`,
                  num: true,
                })),
              ]}
            >
              {balance.days.map((d) => (
                <tr key={d.date} className={d.ks < 1 ? 'table-warning' : undefined}>
                  <th scope="row" className="fw-normal text-nowrap">
                    {shortDate(d.date, lang)}
                  </th>
                  <NumCells
                    values={balanceColumns.map(([key, , digits]) => {
                      const value = d[key];
                      return value === null ? '' : fmt(value, digits);
                    })}
                  />
                </tr>
              ))}
            </ToolTable>
          </div>
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

        {risk && (
          <div className="mt-4" data-testid="season-risk-result" aria-live="polite">
            <h3 className="h4" ref={riskResult} tabIndex={-1}>
              {t('irrigation.season.risk.results')}
            </h3>
            {alerts.length === 0 ? (
              <p className="alert alert-success" data-testid="season-no-alerts">
                {t('irrigation.season.risk.noAlerts')}
              </p>
            ) : (
              <ul className="list-unstyled" data-testid="season-alerts">
                {alerts.map((a) => (
                  <li
                    key={`${a.date}-${a.model}`}
                    className="alert alert-warning py-2"
                    data-testid="season-alert"
                  >
                    <strong>
                      {t('irrigation.season.risk.alertLine', {
                        date: shortDate(a.date, lang, true),
                        model: t(`irrigation.season.risk.models.${a.model}`),
                      })}
                    </strong>{' '}
                    <span className="d-inline-flex flex-wrap gap-2">
                      {DISEASE_PAGES[a.model].map((route) => (
                        <Link key={route} to={route} className="alert-link">
                          {t(`routes.${route}`)}
                        </Link>
                      ))}
                      <Link to={UPLOAD_TAKE_PHOTO} className="alert-link">
                        {t('irrigation.season.risk.diagnose')}
                      </Link>
                    </span>
                  </li>
                ))}
              </ul>
            )}
            <LineChart
              svgRef={riskChart}
              testId="season-risk-chart"
              title={t('irrigation.season.risk.chartTitle')}
              summary={t('irrigation.season.risk.chartSummary', {
                days: risk.days.length,
                tomcast: risk.tomcastAlerts.length,
                lateBlight: risk.lateBlightAlerts.length,
              })}
              xLabel={t('irrigation.season.chartX')}
              yLabel={t('irrigation.season.risk.chartY')}
              formatTick={(v) => fmt(v, 0)}
              formatXTick={dateTick(risk.days)}
              series={[
                {
                  id: 'tomcast',
                  label: 'TOMCAST',
                  color: '#b3541e',
                  points: risk.days.map((d, i) => ({ x: i + 1, y: d.tomcastSum })),
                },
                {
                  id: 'lateBlight',
                  label: t('irrigation.season.risk.models.lateBlightShort'),
                  color: '#7a3fa0',
                  points: risk.days.map((d, i) => ({ x: i + 1, y: d.lateBlightSum })),
                },
                {
                  id: 'alerts',
                  label: t('irrigation.season.risk.series.alerts'),
                  color: '#a0182f',
                  markers: true,
                  noLine: true,
                  points: risk.days.flatMap((d, i) => [
                    ...(d.tomcastAlert ? [{ x: i + 1, y: d.tomcastSum }] : []),
                    ...(d.lateBlightAlert ? [{ x: i + 1, y: d.lateBlightSum }] : []),
                  ]),
                },
              ]}
              referenceLines={[
                {
                  y: risk.tomcastThreshold,
                  label: `TOMCAST ${risk.tomcastThreshold}`,
                  color: '#b3541e',
                },
                ...(risk.lateBlightThreshold !== risk.tomcastThreshold
                  ? [
                      {
                        y: risk.lateBlightThreshold,
                        label: `${t('irrigation.season.risk.models.lateBlightShort')} ${risk.lateBlightThreshold}`,
                        color: '#7a3fa0',
                      },
                    ]
                  : []),
              ]}
            />
            <h4 className="h5" id={`${id}-rt`}>
              {t('irrigation.season.risk.tableTitle')}
            </h4>
            <ToolTable
              scroll
              labelledBy={`${id}-rt`}
              testId="season-risk-table"
              columns={[
                { label: t('irrigation.season.cols.date') },
                ...RISK_COLUMNS.map(([key]) => ({
                  label: t(`irrigation.season.cols.${key}`),
                  num: true,
                })),
              ]}
            >
              {risk.days.map((d) => (
                <tr
                  key={d.date}
                  className={d.tomcastAlert || d.lateBlightAlert ? 'table-warning' : undefined}
                >
                  <th scope="row" className="fw-normal text-nowrap">
                    {shortDate(d.date, lang)}
                  </th>
                  <NumCells
                    values={RISK_COLUMNS.map(([key, digits]) => {
                      const value = d[key];
                      return value === null ? '—' : fmt(value, digits);
                    })}
                  />
                </tr>
              ))}
            </ToolTable>
          </div>
        )}
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

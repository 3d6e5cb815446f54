import { useEffect, useId, useMemo, useRef } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { useTranslation } from 'react-i18next';
import { ROUTES } from '@diagrodl/contracts';
import { useLocation, useNavigate } from 'react-router';
import { ExportBar } from '../shared/ExportBar.tsx';
import { FiguresTable } from '../shared/FiguresTable.tsx';
import { InlineAlert } from '../shared/InlineAlert.tsx';
import { LineChart } from '../shared/LineChart.tsx';
import { ToolPage } from '../shared/ToolPage.tsx';
import {
  ErrorCount,
  NumberField,
  SelectField,
  StatusLine,
  useExportLabels,
} from '../shared/fields.tsx';
import { errorCount, messageText } from '../shared/fieldCheck.ts';
import { useFocusInvalid } from '@/components/useFocusInvalid.ts';
import { useDesign } from '../shared/useDesign.ts';
import { useNumberFormat } from '../shared/useNumberFormat.ts';
import { useReportExport } from '../shared/useReportExport.ts';
import {
  et0Figures,
  kcLabel,
  monthName,
  pumpSentence,
  scheduleFigures,
  scheduleReport,
  scheduleSentence,
  seasonCurve,
} from './report.ts';
import {
  activeFields,
  compute,
  DESIGN,
  ET0_SOURCES,
  FIELDS,
  FIELD_GROUPS,
  HUMIDITY_MODES,
  KC_MODES,
  KIND,
  PERIODS,
  RADIATION_MODES,
  type FieldKey,
  type FromLateral,
  type Options,
} from './state.ts';
import '../shared/tools.css';

/** The cards of the form, each with its fields (those the choices leave out are not shown). */
const GROUPS = Object.entries(FIELD_GROUPS).map(([id, fields]) => ({
  id,
  fields: fields as readonly FieldKey[],
}));

export default function SchedulePage() {
  const { t } = useTranslation();
  const { lang, fmt } = useNumberFormat();
  const id = useId();
  const { state, dispatch, files } = useDesign(DESIGN);
  const { raw, options, calculation } = state;
  const chartRef = useRef<SVGSVGElement>(null);
  const labels = useExportLabels();
  const exports = useReportExport(KIND, [chartRef]);
  const location = useLocation();
  const navigate = useNavigate();
  const form = useRef<HTMLFormElement>(null);
  useFocusInvalid(form, state.attempt);

  // Values handed over by the lateral page's button: taken once, then dropped from the history
  // entry so that a reload does not take them again over what the user typed since.
  const fromLateral = (location.state as { fromLateral?: FromLateral } | null)?.fromLateral;
  useEffect(() => {
    if (!fromLateral) return;
    dispatch({ type: 'fromLateral', values: fromLateral });
    void navigate(location.pathname, { replace: true, state: null });
  }, [fromLateral, dispatch, navigate, location.pathname]);

  const computed = useMemo(() => {
    if (!calculation) return null;
    try {
      return compute(calculation);
    } catch {
      return null;
    }
  }, [calculation]);
  const active = new Set(activeFields(options));
  const message = (field: string) => messageText(state.errors[field], t);
  // An engine's message about a field the choices hide goes under the form.
  const hidden = Object.keys(state.errors).filter((field) => !active.has(field as FieldKey));
  const setOptions = (patch: Partial<Options>) => dispatch({ type: 'options', patch });
  const select = <T extends string>(
    key: keyof Options,
    group: string,
    values: readonly T[],
    label = t(`irrigation.schedule.${key}`),
  ) => (
    <Col xs={12} sm={6} lg={4}>
      <SelectField
        label={label}
        value={options[key]}
        options={values.map((v) => [v, t(`irrigation.schedule.${group}.${v}`)] as const)}
        onChange={(v) => setOptions({ [key]: v })}
        testId={`schedule-${key}`}
      />
    </Col>
  );
  const pm = options.et0Source === 'penman-monteith';
  const s = computed?.schedule ?? null;
  const report = () =>
    calculation && computed ? scheduleReport(calculation, computed, t, lang, fmt) : null;
  const curve = calculation && computed ? seasonCurve(calculation, computed.et0Value) : [];
  const pump = s ? pumpSentence(s, t, fmt) : null;
  // The fields as typed, for the season calendar: it takes those it has (the drip layout, the
  // crop's stages and Kc, the site).
  const toSeason = () => void navigate(ROUTES.seasonCalendar, { state: { fromSchedule: raw } });

  return (
    <ToolPage
      documentTitle={t('routes./Irrigation_scheduling')}
      title={t('irrigation.schedule.title')}
      intro={t('irrigation.schedule.intro')}
    >
      {state.imported && (
        <InlineAlert
          variant="info"
          message={t('irrigation.schedule.imported')}
          testId="schedule-imported"
        />
      )}
      <form
        ref={form}
        noValidate
        className="tool-card mt-3"
        onSubmit={(e) => {
          e.preventDefault();
          dispatch({ type: 'calculate' });
        }}
      >
        {GROUPS.map((group) => (
          <fieldset key={group.id} className={group.id === 'climate' ? '' : 'mt-4'}>
            <legend className="h5">{t(`irrigation.schedule.groups.${group.id}`)}</legend>
            <Row className="g-3">
              {group.id === 'climate' && (
                <>
                  {select('et0Source', 'et0Sources', ET0_SOURCES)}
                  {options.et0Source !== 'typed' && select('period', 'periods', PERIODS)}
                  {options.et0Source !== 'typed' && options.period === 'month' && (
                    <Col xs={12} sm={6} lg={4}>
                      <SelectField
                        label={t('irrigation.schedule.month')}
                        value={options.month}
                        options={Array.from({ length: 12 }, (_, i) => [
                          String(i + 1),
                          monthName(i + 1, lang),
                        ])}
                        onChange={(v) => setOptions({ month: v })}
                        testId="schedule-month"
                      />
                    </Col>
                  )}
                  {pm && select('humidity', 'humidityModes', HUMIDITY_MODES)}
                  {pm && select('radiation', 'radiationModes', RADIATION_MODES)}
                </>
              )}
              {group.id === 'crop' && select('kcMode', 'kcModes', KC_MODES)}
              {group.fields
                .filter((key) => active.has(key))
                .map((key) => (
                  <Col key={key} xs={12} sm={6} lg={4}>
                    <NumberField
                      label={t(`irrigation.schedule.fields.${key}`)}
                      unit={FIELDS[key].unit || undefined}
                      value={raw[key]}
                      onChange={(v) => dispatch({ type: 'raw', key, value: v })}
                      alert={message(key)}
                      testId={`schedule-${key}`}
                    />
                  </Col>
                ))}
            </Row>
          </fieldset>
        ))}
        {hidden.map((field) => (
          <InlineAlert key={field} message={message(field)} testId="schedule-alert" />
        ))}
        <div className="d-flex flex-wrap gap-2 mt-3">
          <Button type="submit" variant="success" data-testid="schedule-calculate">
            {t('irrigation.calculate')}
          </Button>
          <Button
            variant="outline-secondary"
            onClick={() => dispatch({ type: 'reset' })}
            data-testid="schedule-reset"
          >
            {t('irrigation.schedule.reset')}
          </Button>
          <ErrorCount count={errorCount(state.errors)} testId="schedule-error-count" />
        </div>
      </form>

      {s && computed && calculation && (
        <section
          className="tool-card mt-3"
          aria-labelledby={`${id}-r`}
          data-testid="schedule-result"
        >
          <h2 id={`${id}-r`} className="h4">
            {t('irrigation.results')}
          </h2>
          <p className="tool-sentence" data-testid="schedule-sentence">
            {scheduleSentence(s, calculation.schedule.hoursAvailable, t, fmt)}
          </p>
          {pump && (
            <StatusLine
              text={pump}
              variant={s.pumpOk ? 'success' : 'danger'}
              testId="schedule-pump"
            />
          )}
          <FiguresTable
            rows={scheduleFigures(s, computed.et0Value)}
            label={(key) =>
              key === 'kc' ? kcLabel(s, t) : t(`irrigation.schedule.figures.${key}`)
            }
            testId="schedule-figures"
            caption={t('irrigation.results')}
          />
          <LineChart
            svgRef={chartRef}
            testId="schedule-chart"
            title={t('irrigation.schedule.chartTitle')}
            summary={t('irrigation.schedule.chartSummary', {
              days: curve.length,
              et0: fmt(computed.et0Value, 2),
              kcMax: fmt(Math.max(...curve.map((p) => p.kc)), 2),
              etcMax: fmt(Math.max(...curve.map((p) => p.etc)), 2),
            })}
            xLabel={t('irrigation.schedule.chartX')}
            yLabel={t('irrigation.schedule.chartY')}
            formatTick={(v) => fmt(v, Number.isInteger(v) ? 0 : 1)}
            series={[
              {
                id: 'kc',
                label: 'Kc',
                color: '#1f6f3f',
                points: curve.map((p) => ({ x: p.day, y: p.kc })),
              },
              {
                id: 'etc',
                label: t('irrigation.schedule.etcSeries'),
                color: '#1f5fa8',
                points: curve.map((p) => ({ x: p.day, y: p.etc })),
              },
            ]}
          />
          {computed.et0 && (
            <>
              <h3 className="h5" id={`${id}-e`}>
                {t('irrigation.schedule.et0Title')}
              </h3>
              <FiguresTable
                rows={et0Figures(computed.et0)}
                label={(key) => t(`irrigation.schedule.et0Figures.${key}`)}
                testId="schedule-et0-figures"
                caption={t('irrigation.schedule.et0Title')}
              />
            </>
          )}
        </section>
      )}

      <ExportBar labels={labels} disabled={!computed} {...exports.actions(report)} {...files}>
        <Button
          variant="outline-success"
          size="sm"
          title={t('irrigation.schedule.toSeasonHint')}
          onClick={toSeason}
          data-testid="schedule-to-season"
        >
          {t('irrigation.schedule.toSeason')}
        </Button>
      </ExportBar>
    </ToolPage>
  );
}

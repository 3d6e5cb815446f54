import { useId, useRef } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { useTranslation } from 'react-i18next';
import { toEpanetInp } from '@diagrodl/hydraulics';
import { InlineAlert } from '../shared/InlineAlert.tsx';
import { formatNumber } from '@/lib/format.ts';
import { ExportBar } from '../shared/ExportBar.tsx';
import { ToolPage } from '../shared/ToolPage.tsx';
import { downloadFile, fileStem } from '../shared/export.ts';
import { DesignerButtons, NumberField, useExportLabels } from '../shared/fields.tsx';
import { messageText } from '../shared/fieldCheck.ts';
import { useFocusInvalid } from '@/components/useFocusInvalid.ts';
import { LineChart } from '../shared/LineChart.tsx';
import { pdfText } from '../shared/report.ts';
import { useDesign } from '../shared/useDesign.ts';
import { useNumberFormat } from '../shared/useNumberFormat.ts';
import { useReportExport } from '../shared/useReportExport.ts';
import { MainlineSection } from './MainlineSection.tsx';
import { mainlineReport, negativeEndWarning, totalsFigures } from './report.ts';
import { DESIGN, KIND, PRESSURE_SPEC, epanetDesign, pressureProfile } from './state.ts';
import '../shared/tools.css';

export default function MainlinePage() {
  const { t } = useTranslation();
  const { lang, fmt } = useNumberFormat();
  const id = useId();
  const { state, dispatch, files } = useDesign(DESIGN);
  const svgRef = useRef<SVGSVGElement>(null);
  const labels = useExportLabels();
  const exports = useReportExport(KIND, [svgRef]);
  const { sections, totals } = state;
  const profile = pressureProfile(state);
  const report = () => mainlineReport(state, t, lang);
  // Totals or an export that found errors: the focus goes to the first field with one.
  const fields = useRef<HTMLDivElement>(null);
  useFocusInvalid(fields, state.attempt);

  const exportEpanet = () => {
    const design = epanetDesign(state);
    dispatch({ type: 'epanet' });
    if (design) {
      downloadFile(`${fileStem(KIND)}.inp`, 'text/plain;charset=utf-8', toEpanetInp(design));
    }
  };

  return (
    <ToolPage
      documentTitle={t('routes./Principal_designer')}
      title={t('irrigation.mainline.title')}
      intro={t('irrigation.mainline.intro')}
    >
      <div ref={fields}>
        <div className="tool-card">
          <Row className="g-3 align-items-end">
            <Col xs={12} sm={6} lg={4}>
              <NumberField
                label={t('irrigation.mainline.initialPressure')}
                unit={PRESSURE_SPEC.unit}
                value={state.initialPressure}
                onChange={(value) => dispatch({ type: 'pressure', value })}
                alert={messageText(state.pressureAlert, t)}
                testId="mainline-pressure"
              />
            </Col>
            <Col xs={12} sm={6} lg={8}>
              <DesignerButtons
                tool="mainline"
                onAdd={() => dispatch({ type: 'add' })}
                onReset={() => dispatch({ type: 'reset' })}
                summary={{
                  label: t('irrigation.mainline.calculateTotals'),
                  testId: 'mainline-totals-button',
                  onClick: () => dispatch({ type: 'totals' }),
                }}
              />
            </Col>
          </Row>
        </div>

        {sections.map((s, index) => (
          <MainlineSection
            key={s.key}
            section={s}
            number={index + 1}
            lang={lang}
            onRaw={(field, value) => dispatch({ type: 'raw', key: s.key, field, value })}
            onCalculate={() => dispatch({ type: 'calculate', key: s.key })}
            onClear={() => dispatch({ type: 'clear', key: s.key })}
            onDelete={() => dispatch({ type: 'remove', key: s.key })}
          />
        ))}
      </div>

      {totals && (
        <section
          className="tool-card mt-3"
          aria-labelledby={`${id}-tot`}
          data-testid="mainline-totals"
        >
          <h2 id={`${id}-tot`} className="h4">
            {t('irrigation.mainline.totals.title')}
          </h2>
          <InlineAlert message={totals.message} testId="mainline-totals-alert" />
          <InlineAlert
            message={negativeEndWarning(state, t, (v) => fmt(v, 3))}
            testId="mainline-negative-end"
          />
          <dl className="row mb-0 mt-2">
            {totalsFigures(state, t).map((f) => (
              <div key={f.label} className="col-12 col-sm-6 col-lg-4 d-flex gap-2">
                <dt className="fw-normal">{f.label}:</dt>
                <dd className="fw-bold mb-1">{`${pdfText(f.value, fmt, f.digits)} ${f.unit}`}</dd>
              </div>
            ))}
          </dl>
          {profile.length > 1 && (
            <LineChart
              svgRef={svgRef}
              testId="mainline-chart"
              title={t('irrigation.mainline.chartTitle')}
              summary={t('irrigation.mainline.chartSummary', {
                start: fmt(totals.initialPressure, 2),
                end: fmt(totals.endPressure, 2),
                length: fmt(profile[profile.length - 1]!.x, 2),
              })}
              xLabel={t('irrigation.mainline.chartX')}
              yLabel={t('irrigation.mainline.chartY')}
              formatTick={(v) => formatNumber(v, lang, { maximumFractionDigits: 2 })}
              series={[
                {
                  id: 'pressure',
                  label: t('irrigation.mainline.chartY'),
                  color: '#1f5fa8',
                  points: profile,
                  markers: true,
                },
              ]}
              referenceLines={[{ y: 0, label: '0 m', color: '#a0182f' }]}
              table={{
                caption: t('irrigation.mainline.chartTitle'),
                columns: [t('irrigation.mainline.chartX'), t('irrigation.mainline.chartY')],
                rows: profile.map((p) => [fmt(p.x, 2), fmt(p.y, 3)]),
              }}
            />
          )}
        </section>
      )}

      <ExportBar
        labels={labels}
        disabled={sections.length === 0}
        {...exports.actions(report)}
        {...files}
        message={state.exportMessage && t(state.exportMessage)}
      >
        <Button
          variant="outline-primary"
          size="sm"
          onClick={exportEpanet}
          data-testid="mainline-epanet"
        >
          {t('irrigation.mainline.epanet')}
        </Button>
      </ExportBar>
    </ToolPage>
  );
}

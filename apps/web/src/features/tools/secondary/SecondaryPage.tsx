import { useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { InlineAlert } from '../shared/InlineAlert.tsx';
import { formatNumber } from '@/lib/format.ts';
import { ExportBar } from '../shared/ExportBar.tsx';
import { ToolPage } from '../shared/ToolPage.tsx';
import { NumCells, ToolTable } from '../shared/ToolTable.tsx';
import { DesignerButtons, useExportLabels } from '../shared/fields.tsx';
import { CHART_COLORS, LineChart } from '../shared/LineChart.tsx';
import { useDesign } from '../shared/useDesign.ts';
import { useNumberFormat } from '../shared/useNumberFormat.ts';
import { useReportExport } from '../shared/useReportExport.ts';
import { secondaryReport, sectionPressures, stretchColumns } from './report.ts';
import { SecondarySection } from './SecondarySection.tsx';
import {
  KIND,
  design,
  designedSections,
  pressureProfiles,
  stretchRows as stretchRowsOf,
} from './state.ts';
import '../shared/tools.css';

export default function SecondaryPage() {
  const { t } = useTranslation();
  const { lang, fmt } = useNumberFormat();
  const id = useId();
  const { state, dispatch, files } = useDesign(design(lang));
  const svgRef = useRef<SVGSVGElement>(null);
  const profileRef = useRef<SVGSVGElement>(null);
  const labels = useExportLabels();
  const exports = useReportExport(KIND, [svgRef, profileRef]);
  const { units, summary, pageAlert } = state;
  const report = () => secondaryReport(state, t, lang, fmt);
  const stretchRows = stretchRowsOf(state);
  const profiles = pressureProfiles(state);
  const pressures = sectionPressures(state);
  const withStretches = designedSections(state).filter((d) => d.result.stretches.length > 0);
  const series = withStretches.map(({ section, result }, i) => {
    const points: { x: number; y: number }[] = [];
    let x = 0;
    for (const s of result.stretches) {
      points.push({ x, y: s.nominalDiameter }, { x: x + s.length, y: s.nominalDiameter });
      x += s.length;
    }
    return {
      id: `s${section}`,
      label: t('irrigation.secondary.sectionN', { n: section }),
      color: CHART_COLORS[i % CHART_COLORS.length]!,
      points,
      markers: false,
    };
  });

  return (
    <ToolPage
      documentTitle={t('routes./Secondary_designer')}
      title={t('irrigation.secondary.title')}
      intro={t('irrigation.secondary.intro')}
    >
      <div className="tool-card">
        <DesignerButtons
          tool="secondary"
          onAdd={() => dispatch({ type: 'add' })}
          onReset={() => dispatch({ type: 'reset' })}
          summary={{
            label: t('irrigation.secondary.accounting'),
            testId: 'secondary-accounting',
            onClick: () => dispatch({ type: 'accounting' }),
          }}
        />
        <InlineAlert message={pageAlert?.text} testId="secondary-page-alert" />
        <p
          className="small text-body-secondary mt-2 mb-0"
          aria-live="polite"
          data-testid="secondary-count"
        >
          {t('irrigation.secondary.count', { n: units.length })}
        </p>
      </div>

      {units.map((unit, index) => (
        <SecondarySection
          key={unit.key}
          unit={unit}
          number={index + 1}
          lang={lang}
          onRaw={(field, value) => dispatch({ type: 'raw', key: unit.key, field, value })}
          onCalculate={() => dispatch({ type: 'calculate', key: unit.key, lang })}
          onClear={() => dispatch({ type: 'clear', key: unit.key })}
          onDelete={() => dispatch({ type: 'remove', key: unit.key, lang })}
        />
      ))}

      {summary && (
        <section
          className="tool-card mt-3"
          aria-labelledby={`${id}-sum`}
          data-testid="secondary-summary"
        >
          <h2 id={`${id}-sum`} className="h4">
            {t('irrigation.secondary.summaryTitle')}
          </h2>
          {summary.length === 0 ? (
            <p>{t('irrigation.secondary.summaryEmpty')}</p>
          ) : (
            <ToolTable
              labelledBy={`${id}-sum`}
              columns={stretchColumns(t, ['totalLength', 'adjusted'])}
            >
              {summary.map((r) => (
                <tr key={`${r.pipeType}-${r.nominalDiameter}`}>
                  <td>{r.pipeType}</td>
                  <NumCells
                    values={[
                      fmt(r.nominalDiameter, 0),
                      fmt(r.totalLength, 2),
                      fmt(r.adjustedLength, 0),
                    ]}
                  />
                </tr>
              ))}
            </ToolTable>
          )}
          <p className="small text-body-secondary mb-0">{t('irrigation.secondary.summaryNote')}</p>
          {pressures && pressures.sections.length > 0 && (
            <div className="mt-3" data-testid="secondary-pressures">
              <h3 className="h6">{t('irrigation.secondary.pressuresTitle')}</h3>
              <ul className="mb-2">
                {pressures.sections.map((p) => (
                  <li key={p.section} data-section={p.section}>
                    {t('irrigation.secondary.sectionPressure', {
                      n: p.section,
                      pressure: fmt(p.inletPressure, 2),
                    })}
                  </li>
                ))}
              </ul>
              {pressures.required && (
                <p className="tool-sentence mb-0" data-testid="secondary-mainline-pressure">
                  {t('irrigation.secondary.mainlineSentence', {
                    n: pressures.required.section,
                    pressure: fmt(pressures.required.inletPressure, 2),
                  })}
                </p>
              )}
            </div>
          )}
        </section>
      )}

      {series.length > 0 && (
        <LineChart
          svgRef={svgRef}
          testId="secondary-chart"
          title={t('irrigation.secondary.chartTitle')}
          summary={t('irrigation.secondary.chartSummary', { n: series.length })}
          xLabel={t('irrigation.secondary.chartX')}
          yLabel={t('irrigation.secondary.chartY')}
          formatTick={(v) => formatNumber(v, lang, { maximumFractionDigits: 2 })}
          series={series}
          table={{
            caption: t('irrigation.secondary.chartTitle'),
            columns: [
              t('irrigation.secondary.section'),
              t('irrigation.secondary.chartFrom'),
              t('irrigation.secondary.chartTo'),
              t('irrigation.secondary.cols.nominal'),
            ],
            rows: stretchRows.map((r) => [
              String(r.section),
              fmt(r.from, 2),
              fmt(r.to, 2),
              fmt(r.stretch.nominalDiameter, 0),
            ]),
          }}
        />
      )}

      {profiles.length > 0 && (
        <LineChart
          svgRef={profileRef}
          testId="secondary-profile"
          yFromZero={false}
          title={t('irrigation.secondary.profileTitle')}
          summary={t('irrigation.secondary.profileSummary', { n: profiles.length })}
          xLabel={t('irrigation.secondary.chartX')}
          yLabel={t('irrigation.secondary.cols.pressure')}
          formatTick={(v) => formatNumber(v, lang, { maximumFractionDigits: 2 })}
          series={profiles.map(({ section, inlet, outlets }, i) => ({
            id: `p${section}`,
            label: t('irrigation.secondary.sectionN', { n: section }),
            color: CHART_COLORS[i % CHART_COLORS.length]!,
            points: [{ x: 0, y: inlet }, ...outlets.map((o) => ({ x: o.distance, y: o.pressure }))],
            markers: outlets.length <= 40,
          }))}
          table={{
            caption: t('irrigation.secondary.profileTitle'),
            columns: [
              t('irrigation.secondary.section'),
              t('irrigation.secondary.cols.inletPressure'),
              t('irrigation.secondary.cols.lastPressure'),
            ],
            rows: profiles.map((p) => [
              String(p.section),
              fmt(p.inlet, 2),
              fmt(p.outlets.at(-1)!.pressure, 2),
            ]),
          }}
        />
      )}

      <ExportBar
        labels={labels}
        disabled={units.length === 0}
        {...exports.actions(report)}
        {...files}
      />
    </ToolPage>
  );
}

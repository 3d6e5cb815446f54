import { type Ref, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { RiskResult } from '@diagrodl/hydraulics';
import { ROUTES, UPLOAD_TAKE_PHOTO } from '@diagrodl/contracts';
import { LineChart } from '../shared/LineChart.tsx';
import { NumCells, ToolTable } from '../shared/ToolTable.tsx';
import { useNumberFormat } from '../shared/useNumberFormat.ts';
import { RISK_COLUMNS, dateTick, riskAlerts, shortDate } from './report.ts';

/** Where each alert's model leads: the disease pages it warns of. */
const DISEASE_PAGES = {
  tomcast: [ROUTES.earlyBlight, ROUTES.septoriaLeafSpot],
  lateBlight: [ROUTES.lateBlight],
} as const;

/**
 * The disease risk's results: each alert with its disease pages and 'Diagnosticar una hoja', the
 * chart of both sums with their thresholds and alert days, and the daily table.
 */
export function RiskResults({
  risk,
  headingRef,
  chartRef,
}: {
  risk: RiskResult;
  headingRef: Ref<HTMLHeadingElement>;
  chartRef: Ref<SVGSVGElement>;
}) {
  const { t } = useTranslation();
  const { lang, fmt } = useNumberFormat();
  const id = useId();
  const alerts = riskAlerts(risk);
  return (
    <div className="mt-4" data-testid="season-risk-result" aria-live="polite">
      <h3 className="h4" ref={headingRef} tabIndex={-1}>
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
        svgRef={chartRef}
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
        formatXTick={dateTick(risk.days, lang)}
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
  );
}

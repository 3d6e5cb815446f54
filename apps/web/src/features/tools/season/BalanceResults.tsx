import { type Ref, useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { WaterBalanceResult } from '@diagrodl/hydraulics';
import { FiguresTable } from '../shared/FiguresTable.tsx';
import { LineChart } from '../shared/LineChart.tsx';
import { NumCells, ToolTable } from '../shared/ToolTable.tsx';
import { useNumberFormat } from '../shared/useNumberFormat.ts';
import {
  BALANCE_COLUMNS,
  DRIP_COLUMNS,
  balanceFigures,
  balanceSentence,
  dateTick,
  shortDate,
} from './report.ts';

/**
 * The water balance's results: the sentence, the totals, the chart of the depletion against RAW
 * and TAW with rain and irrigation bars, and the daily table (with the drip's gross depth and
 * hours when the balance had the drip fields).
 */
export function BalanceResults({
  balance,
  drip,
  headingRef,
  chartRef,
}: {
  balance: WaterBalanceResult;
  drip: boolean;
  headingRef: Ref<HTMLHeadingElement>;
  chartRef: Ref<SVGSVGElement>;
}) {
  const { t } = useTranslation();
  const { lang, fmt } = useNumberFormat();
  const id = useId();
  const balanceColumns = [...BALANCE_COLUMNS, ...(drip ? DRIP_COLUMNS : [])];
  return (
    <div className="mt-4" data-testid="season-balance-result" aria-live="polite">
      <h3 className="h4" ref={headingRef} tabIndex={-1}>
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
        svgRef={chartRef}
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
        formatXTick={dateTick(balance.days, lang)}
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
  );
}

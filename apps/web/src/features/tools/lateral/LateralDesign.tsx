/**
 * The designed lateral (README: what an engineer checks on a drip design; beyond the specification's table) on the screen: inlet
 * pressure, pressure profile emitter by emitter, emitter flows, flow variation and emission
 * uniformity, with its status (the exports describe the same figures in report.ts).
 */
import { useId, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { DESIGN_MESSAGES, uniformityStatusText, type LateralResult } from '@diagrodl/hydraulics';
import { formatNumber } from '@/lib/format.ts';
import { StatusLine } from '../shared/fields.tsx';
import { FiguresTable } from '../shared/FiguresTable.tsx';
import { LineChart } from '../shared/LineChart.tsx';
import { NumCells, ToolTable } from '../shared/ToolTable.tsx';
import { useNumberFormat } from '../shared/useNumberFormat.ts';
import { EMITTER_DIGITS, designFigures, emitterColumns, formulaText } from './report.ts';

/** The designed lateral on the screen, under the specification's results. */
export function LateralDesignResult({
  result,
  po,
  svgRef,
}: {
  result: LateralResult;
  po: number;
  svgRef: Ref<SVGSVGElement>;
}) {
  const { t } = useTranslation();
  const { lang, fmt } = useNumberFormat();
  const id = useId();
  const [showEmitters, setShowEmitters] = useState(false);
  const d = result.design;
  return (
    <section className="mt-4" aria-labelledby={`${id}-h`} data-testid="lateral-design">
      <h3 id={`${id}-h`} className="h5">
        {t('irrigation.lateral.design.title')}
      </h3>
      <p className="mb-2" data-testid="lateral-formula-used">
        {t('irrigation.formulaUsed', { formula: formulaText(result, lang) })}
      </p>
      {!d ? (
        <p data-testid="lateral-no-design">{DESIGN_MESSAGES[lang].noDesign}</p>
      ) : (
        <>
          <p className="tool-sentence" data-testid="lateral-design-sentence">
            {t(`irrigation.lateral.design.sentence.${d.source}`, {
              n: fmt(d.emitters, 0),
              length: fmt(d.length, 2),
              pressure: fmt(d.inletPressure, 2),
              po: fmt(po, 2),
            })}
          </p>
          <StatusLine
            text={uniformityStatusText(d, lang, fmt)}
            variant={d.status === 'ok' ? 'success' : 'danger'}
            testId="lateral-uniformity"
          />
          <FiguresTable
            rows={designFigures(d)}
            label={(key) => t(`irrigation.lateral.design.figures.${key}`)}
            testId="lateral-figures"
            caption={t('irrigation.lateral.design.title')}
          />
          <LineChart
            svgRef={svgRef}
            testId="lateral-profile"
            yFromZero={false}
            title={t('irrigation.lateral.design.chartTitle')}
            summary={t('irrigation.lateral.design.chartSummary', {
              inlet: fmt(d.inletPressure, 2),
              min: fmt(d.minPressure, 2),
              n: fmt(d.emitters, 0),
              po: fmt(po, 2),
            })}
            xLabel={t('irrigation.lateral.chartX')}
            yLabel={t('irrigation.lateral.design.chartY')}
            formatTick={(v) => formatNumber(v, lang, { maximumFractionDigits: 3 })}
            series={[
              {
                id: 'pressure',
                label: t('irrigation.lateral.design.chartY'),
                color: '#1f6f3f',
                points: [
                  { x: 0, y: d.inletPressure },
                  ...d.points.map((p) => ({ x: p.distance, y: p.pressure })),
                ],
                markers: d.emitters <= 60,
              },
            ]}
            referenceLines={[
              {
                y: po,
                label: t('irrigation.lateral.design.poLine', { po: fmt(po, 2) }),
                color: '#a0182f',
              },
            ]}
          />
          <button
            type="button"
            className="btn btn-sm btn-outline-secondary mb-3"
            aria-expanded={showEmitters}
            aria-controls={`${id}-emitters`}
            onClick={() => setShowEmitters((v) => !v)}
            data-testid="lateral-emitters-toggle"
          >
            {t(
              showEmitters
                ? 'irrigation.lateral.design.hideEmitters'
                : 'irrigation.lateral.design.showEmitters',
              {
                n: d.emitters,
              },
            )}
          </button>
          {showEmitters && (
            <ToolTable
              scroll
              id={`${id}-emitters`}
              className="mt-2"
              label={t('irrigation.lateral.design.emittersTitle')}
              testId="lateral-emitters"
              columns={emitterColumns(t).map((label) => ({ label, num: true }))}
            >
              {d.points.map((p) => (
                <tr key={p.emitter}>
                  <NumCells
                    values={[p.emitter, p.distance, p.elevation, p.pressure, p.flow].map((v, i) =>
                      fmt(v, EMITTER_DIGITS[i]),
                    )}
                  />
                </tr>
              ))}
            </ToolTable>
          )}
        </>
      )}
    </section>
  );
}

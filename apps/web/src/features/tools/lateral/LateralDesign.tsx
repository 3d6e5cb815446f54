/**
 * The designed lateral of issue 20 (beyond the specification's table): inlet pressure, pressure
 * profile emitter by emitter, emitter flows, flow variation and emission uniformity, with its
 * status; and the same figures for the CSV and PDF exports.
 */
import { useId, useState, type Ref } from 'react';
import Table from 'react-bootstrap/Table';
import { useTranslation } from 'react-i18next';
import {
  DESIGN_MESSAGES,
  FRICTION_FORMULA_LABELS,
  uniformityStatusText,
  type LateralDesign,
  type LateralResult,
} from '@diagrodl/hydraulics';
import { LineChart } from '../shared/LineChart.tsx';
import type { CsvCell } from '../shared/export.ts';
import { formatNumber } from '@/lib/format.ts';
import type { Language } from '@/lib/i18n.ts';
import type { PdfBlock } from '../shared/pdf.ts';
import { useNumberFormat, type FixedFormatter } from '../shared/useNumberFormat.ts';
import { StatusLine } from '../shared/fields.tsx';

type Translate = ReturnType<typeof useTranslation>['t'];

/** The figures of the designed lateral: [key, value, unit, decimals]. */
function figures(d: LateralDesign): [string, number, string, number][] {
  return [
    ['emitters', d.emitters, '', 0],
    ['length', d.length, 'm', 2],
    ['inletPressure', d.inletPressure, 'm', 3],
    ['frictionLoss', d.frictionLoss, 'm', 3],
    ['elevationChange', d.elevationChange, 'm', 3],
    ['minPressure', d.minPressure, 'm', 3],
    ['maxPressure', d.maxPressure, 'm', 3],
    ['totalFlow', d.totalFlow, 'L/h', 2],
    ['qMin', d.qMin, 'L/h', 4],
    ['qAvg', d.qAvg, 'L/h', 4],
    ['qMax', d.qMax, 'L/h', 4],
    ['flowVariation', 100 * d.flowVariation, '%', 2],
    ['eu', d.eu, '%', 2],
  ];
}

/** "Hazen-Williams (m = 1.852)" in the active language. */
function formulaText(result: LateralResult, lang: Language): string {
  return `${FRICTION_FORMULA_LABELS[result.formula][lang]} (m = ${formatNumber(result.m, lang)})`;
}

function statusText(d: LateralDesign, lang: Language, fmt: FixedFormatter): string {
  return uniformityStatusText(d, lang, fmt);
}

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
            text={statusText(d, lang, fmt)}
            variant={d.status === 'ok' ? 'success' : 'danger'}
            testId="lateral-uniformity"
          />
          <div className="table-responsive">
            <Table size="sm" className="tool-table w-auto" data-testid="lateral-figures">
              <caption className="visually-hidden">{t('irrigation.lateral.design.title')}</caption>
              <tbody>
                {figures(d).map(([key, value, unit, digits]) => (
                  <tr key={key} data-figure={key}>
                    <th scope="row" className="fw-normal">
                      {t(`irrigation.lateral.design.figures.${key}`)}
                    </th>
                    <td className="num fw-semibold">{fmt(value, digits)}</td>
                    <td>{unit}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </div>
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
            <div
              id={`${id}-emitters`}
              className="tool-table-scroll mt-2"
              tabIndex={0}
              role="region"
              aria-label={t('irrigation.lateral.design.emittersTitle')}
            >
              <Table size="sm" striped className="tool-table" data-testid="lateral-emitters">
                <thead>
                  <tr>
                    {emitterColumns(t).map((c) => (
                      <th key={c} scope="col" className="num">
                        {c}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {d.points.map((p) => (
                    <tr key={p.emitter}>
                      <td className="num">{fmt(p.emitter, 0)}</td>
                      <td className="num">{fmt(p.distance, 2)}</td>
                      <td className="num">{fmt(p.elevation, 3)}</td>
                      <td className="num">{fmt(p.pressure, 3)}</td>
                      <td className="num">{fmt(p.flow, 4)}</td>
                    </tr>
                  ))}
                </tbody>
              </Table>
            </div>
          )}
        </>
      )}
    </section>
  );
}

function emitterColumns(t: Translate): string[] {
  return ['emitter', 'distance', 'elevation', 'pressure', 'flow'].map((c) =>
    t(`irrigation.lateral.design.cols.${c}`),
  );
}

/** CSV rows (m is among the inputs): the formula, the emitter law, the designed lateral's figures and its profile. */
export function lateralDesignCsv(result: LateralResult, t: Translate, lang: Language): CsvCell[][] {
  const rows: CsvCell[][] = [
    [t('irrigation.formula'), FRICTION_FORMULA_LABELS[result.formula][lang]],
  ];
  if (result.blasiusOutOfRange) rows.push([DESIGN_MESSAGES[lang].blasiusRange]);
  const d = result.design;
  if (!d) return [...rows, [DESIGN_MESSAGES[lang].noDesign]];
  rows.push(
    ['x', d.x],
    ['Cv', d.cv],
    ['n', d.emittersPerPlant],
    [t('irrigation.lateral.design.source'), t(`irrigation.lateral.design.fixModes.${d.source}`)],
    ...figures(d).map(([key, value, unit]) => [
      t(`irrigation.lateral.design.figures.${key}`),
      value,
      unit,
    ]),
    [t('irrigation.status'), statusText(d, lang, (v, digits) => v.toFixed(digits))],
    [],
    emitterColumns(t),
    ...d.points.map((p) => [p.emitter, p.distance, p.elevation, p.pressure, p.flow]),
  );
  return rows;
}

/** PDF blocks: the formula, the designed lateral's figures and its status. */
export function lateralDesignPdf(
  result: LateralResult,
  t: Translate,
  lang: Language,
  fmt: FixedFormatter,
): PdfBlock[] {
  const blocks: PdfBlock[] = [
    { kind: 'text', text: t('irrigation.formulaUsed', { formula: formulaText(result, lang) }) },
  ];
  if (result.blasiusOutOfRange)
    blocks.push({ kind: 'text', text: DESIGN_MESSAGES[lang].blasiusRange });
  const d = result.design;
  if (!d) return [...blocks, { kind: 'text', text: DESIGN_MESSAGES[lang].noDesign }];
  blocks.push(
    {
      kind: 'pairs',
      heading: t('irrigation.lateral.design.title'),
      rows: [
        [`x · ${t('irrigation.lateral.design.fields.x')}`, fmt(d.x, 2)],
        [`Cv · ${t('irrigation.lateral.design.fields.cv')}`, fmt(d.cv, 3)],
        [
          `n · ${t('irrigation.lateral.design.fields.emittersPerPlant')}`,
          fmt(d.emittersPerPlant, 0),
        ],
        ...figures(d).map(
          ([key, value, unit, digits]) =>
            [
              t(`irrigation.lateral.design.figures.${key}`),
              `${fmt(value, digits)} ${unit}`.trim(),
            ] as const,
        ),
      ],
    },
    {
      kind: 'text',
      text: statusText(d, lang, fmt),
      tone: d.status === 'ok' ? 'success' : 'danger',
    },
  );
  return blocks;
}

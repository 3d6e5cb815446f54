import { type Ref, useEffect, useId, useRef, useState } from 'react';

export interface ChartPoint {
  x: number;
  y: number;
}

export interface ChartSeries {
  id: string;
  label: string;
  color: string;
  points: readonly ChartPoint[];
  dashed?: boolean;
  markers?: boolean;
  /** Only the markers, no line between them (events on some days, such as alerts). */
  noLine?: boolean;
}

/** Values drawn as columns from 0 (rain, irrigation), beside the lines on the same axes. */
export interface ChartBars {
  id: string;
  label: string;
  color: string;
  points: readonly ChartPoint[];
}

export interface ChartReferenceLine {
  y: number;
  label: string;
  color: string;
}

export interface LineChartProps {
  /** Accessible name of the chart (also drawn as the title). */
  title: string;
  /** A sentence or two saying what the chart shows (visually hidden, read by screen readers). */
  summary: string;
  xLabel: string;
  yLabel: string;
  series: readonly ChartSeries[];
  referenceLines?: readonly ChartReferenceLine[];
  /** Formats tick labels (locale aware). */
  formatTick: (value: number) => string;
  /** Formats the x axis's tick labels when they differ from the y axis's (a day as a date). */
  formatXTick?: (value: number) => string;
  /** Column series (drawn under the lines; each x gets the columns of every bar series side by side). */
  bars?: readonly ChartBars[];
  /** Optional data table, visually hidden, for screen readers. */
  table?: { caption: string; columns: readonly string[]; rows: readonly (readonly string[])[] };
  svgRef?: Ref<SVGSVGElement>;
  testId?: string;
  /** The y axis starts at 0 (default) or fits the data, for small changes far from 0. */
  yFromZero?: boolean;
}

export const CHART_WIDTH = 640;
export const CHART_HEIGHT = 340;
const PAD = { left: 64, right: 18, top: 34, bottom: 50 };
const LEGEND_ITEM = 112;

/** Evenly spaced round tick values covering [min, max]. */
export function niceTicks(
  min: number,
  max: number,
  count = 5,
): { ticks: number[]; min: number; max: number } {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return { ticks: [0, 1], min: 0, max: 1 };
  if (min === max) {
    const pad = Math.abs(min) > 0 ? Math.abs(min) * 0.1 : 1;
    min -= pad;
    max += pad;
  }
  const raw = (max - min) / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const norm = raw / magnitude;
  const step = (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * magnitude;
  const start = Math.floor(min / step + 1e-9) * step;
  const end = Math.ceil(max / step - 1e-9) * step;
  const ticks: number[] = [];
  for (let i = 0; start + i * step <= end + step / 2; i++) {
    ticks.push(Number((start + i * step).toPrecision(12)));
  }
  return { ticks, min: start, max: end };
}

/** Hand-written SVG line chart: axes with ticks, lines, optional horizontal reference lines. */
export function LineChart({
  title,
  summary,
  xLabel,
  yLabel,
  series,
  referenceLines = [],
  formatTick,
  formatXTick = formatTick,
  bars = [],
  table,
  svgRef,
  testId,
  yFromZero = true,
}: LineChartProps) {
  const id = useId();
  // The drawing takes the width it is given (up to CHART_WIDTH), so its text keeps a readable
  // size on a phone instead of shrinking with the whole picture.
  const figureRef = useRef<HTMLElement>(null);
  const [chartWidth, setChartWidth] = useState(CHART_WIDTH);
  useEffect(() => {
    const figure = figureRef.current;
    if (!figure || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      const available = Math.floor(entry?.contentRect.width ?? CHART_WIDTH);
      if (available > 0) setChartWidth(Math.max(300, Math.min(CHART_WIDTH, available - 2)));
    });
    observer.observe(figure);
    return () => observer.disconnect();
  }, []);
  const narrow = chartWidth < 480;
  const all = [...series.flatMap((s) => s.points), ...bars.flatMap((b) => b.points)];
  const xs = all.map((p) => p.x);
  const ys = [...all.map((p) => p.y), ...referenceLines.map((r) => r.y)];
  const xAxis = niceTicks(
    xs.length ? Math.min(0, ...xs) : 0,
    xs.length ? Math.max(...xs) : 1,
    narrow ? 3 : 5,
  );
  const yAxis = niceTicks(
    ys.length ? Math.min(yFromZero ? 0 : Infinity, ...ys) : 0,
    ys.length ? Math.max(...ys) : 1,
  );
  // Several series get a legend drawn inside the SVG (so the PDF image carries it too).
  const legend = series.length + bars.length > 1 ? [...bars, ...series] : [];
  const perRow = Math.max(1, Math.floor((chartWidth - PAD.left) / LEGEND_ITEM));
  const legendRows = Math.ceil(legend.length / perRow);
  const height = CHART_HEIGHT + (legendRows ? legendRows * 20 + 6 : 0);
  const plotW = chartWidth - PAD.left - PAD.right;
  const plotH = CHART_HEIGHT - PAD.top - PAD.bottom;
  const sx = (x: number) => PAD.left + ((x - xAxis.min) / (xAxis.max - xAxis.min)) * plotW;
  const sy = (y: number) => PAD.top + (1 - (y - yAxis.min) / (yAxis.max - yAxis.min)) * plotH;
  const path = (points: readonly ChartPoint[]) =>
    points
      .map((p, i) => `${i === 0 ? 'M' : 'L'}${sx(p.x).toFixed(2)},${sy(p.y).toFixed(2)}`)
      .join(' ');
  // Columns: the plot's width shared by the x values; the bar series overlap (translucent), so
  // each column keeps a visible width on a phone.
  const barXs = [...new Set(bars.flatMap((b) => b.points.map((p) => p.x)))];
  const slot = barXs.length > 0 ? plotW / Math.max(barXs.length, xAxis.max - xAxis.min) : 0;
  const barWidth = Math.max(2.5, slot * 0.8);
  // A tick label at the right end of the x axis stays inside the drawing (a date is wider than
  // the right margin).
  const xLabelAt = (x: number) => Math.min(x, chartWidth - 22);

  return (
    <figure ref={figureRef} className="tool-chart" data-testid={testId}>
      <svg
        ref={svgRef}
        role="img"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-desc`}
        viewBox={`0 0 ${chartWidth} ${height}`}
        width="100%"
        preserveAspectRatio="xMidYMid meet"
        fontFamily="Helvetica, Arial, sans-serif"
        xmlns="http://www.w3.org/2000/svg"
      >
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{summary}</desc>
        <rect x="0" y="0" width={chartWidth} height={height} fill="#ffffff" />
        <text
          x={chartWidth / 2}
          y="20"
          textAnchor="middle"
          fontSize={narrow ? 12 : 15}
          fontWeight="bold"
        >
          {title}
        </text>
        {yAxis.ticks.map((t) => (
          <g key={`y${t}`}>
            <line
              x1={PAD.left}
              x2={chartWidth - PAD.right}
              y1={sy(t)}
              y2={sy(t)}
              stroke="#e3e3e3"
            />
            <text x={PAD.left - 6} y={sy(t) + 4} textAnchor="end" fontSize="12" fill="#333333">
              {formatTick(t)}
            </text>
          </g>
        ))}
        {xAxis.ticks.map((t) => (
          <g key={`x${t}`}>
            <line
              x1={sx(t)}
              x2={sx(t)}
              y1={PAD.top + plotH}
              y2={PAD.top + plotH + 5}
              stroke="#555555"
            />
            <text
              x={xLabelAt(sx(t))}
              y={PAD.top + plotH + 19}
              textAnchor="middle"
              fontSize="12"
              fill="#333333"
            >
              {formatXTick(t)}
            </text>
          </g>
        ))}
        <line x1={PAD.left} x2={PAD.left} y1={PAD.top} y2={PAD.top + plotH} stroke="#555555" />
        <line
          x1={PAD.left}
          x2={chartWidth - PAD.right}
          y1={PAD.top + plotH}
          y2={PAD.top + plotH}
          stroke="#555555"
        />
        <text
          x={PAD.left + plotW / 2}
          y={CHART_HEIGHT - 8}
          textAnchor="middle"
          fontSize="13"
          fill="#222222"
        >
          {xLabel}
        </text>
        <text
          transform={`translate(16 ${PAD.top + plotH / 2}) rotate(-90)`}
          textAnchor="middle"
          fontSize="13"
          fill="#222222"
        >
          {yLabel}
        </text>
        {referenceLines.map((r) => (
          <g key={`r${r.label}`}>
            <line
              x1={PAD.left}
              x2={chartWidth - PAD.right}
              y1={sy(r.y)}
              y2={sy(r.y)}
              stroke={r.color}
              strokeWidth="2"
              strokeDasharray="8 5"
            />
            <text
              x={chartWidth - PAD.right - 4}
              y={sy(r.y) - 6}
              textAnchor="end"
              fontSize="12"
              fill={r.color}
            >
              {r.label}
            </text>
          </g>
        ))}
        {bars.map((b) => (
          <g key={`bars-${b.id}`} data-bars={b.id}>
            {b.points
              .filter((p) => p.y > 0)
              .map((p) => (
                <rect
                  key={p.x}
                  x={sx(p.x) - barWidth / 2}
                  y={sy(p.y)}
                  width={barWidth}
                  height={Math.max(0, sy(0) - sy(p.y))}
                  fill={b.color}
                  fillOpacity="0.7"
                />
              ))}
          </g>
        ))}
        {series.map((s) => (
          <g key={s.id}>
            <path
              d={s.noLine ? '' : path(s.points)}
              fill="none"
              stroke={s.color}
              strokeWidth="2.5"
              strokeDasharray={s.dashed ? '6 4' : undefined}
            />
            {s.markers &&
              s.points.map((p, i) => (
                <circle key={i} cx={sx(p.x)} cy={sy(p.y)} r="3.5" fill={s.color} />
              ))}
          </g>
        ))}
        {legend.map((s, i) => {
          const x = PAD.left + (i % perRow) * LEGEND_ITEM;
          const y = CHART_HEIGHT + 8 + Math.floor(i / perRow) * 20;
          return (
            <g key={`legend-${s.id}`}>
              <line x1={x} x2={x + 22} y1={y} y2={y} stroke={s.color} strokeWidth="4" />
              <text x={x + 28} y={y + 4} fontSize="12" fill="#222222">
                {s.label}
              </text>
            </g>
          );
        })}
      </svg>
      {table && (
        // A table ignores a 1 px width, so the wrapper is the visually hidden box.
        <div className="visually-hidden">
          <table>
            <caption>{table.caption}</caption>
            <thead>
              <tr>
                {table.columns.map((c) => (
                  <th key={c} scope="col">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((row, i) => (
                <tr key={i}>
                  {row.map((cell, j) => (
                    <td key={j}>{cell}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </figure>
  );
}

/** Distinct colours with enough contrast on white. */
export const CHART_COLORS = [
  '#1f6f3f',
  '#1f5fa8',
  '#b3541e',
  '#7a3fa0',
  '#a0182f',
  '#0f7d84',
  '#6b6b00',
  '#5a4632',
];

import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LineChart, niceTicks, type LineChartProps } from './LineChart.tsx';

describe('niceTicks', () => {
  it('covers the range with round steps', () => {
    expect(niceTicks(0, 56)).toEqual({ ticks: [0, 10, 20, 30, 40, 50, 60], min: 0, max: 60 });
    expect(niceTicks(0, 2.03).ticks).toEqual([0, 0.5, 1, 1.5, 2, 2.5]);
    expect(niceTicks(-3, 7).ticks).toEqual([-4, -2, 0, 2, 4, 6, 8]);
  });

  it('widens an empty range', () => {
    const { min, max } = niceTicks(5, 5);
    expect(min).toBeLessThan(5);
    expect(max).toBeGreaterThan(5);
  });
});

/** A chart of one line through `points` (with its markers when asked); `props` add or replace. */
function renderChart(
  points: { x: number; y: number }[],
  props: Partial<LineChartProps> = {},
  markers = false,
) {
  return render(
    <LineChart
      title="Profile"
      summary="s"
      xLabel="Distance (m)"
      yLabel="Pressure (m)"
      formatTick={(v) => String(v)}
      series={[{ id: 'p', label: 'Pressure', color: '#000', points, markers }]}
      {...props}
    />,
  );
}

describe('LineChart', () => {
  it('is an image with a name, a description, its lines and a hidden data table', () => {
    const { container } = renderChart(
      [
        { x: 0, y: 40 },
        { x: 100, y: 30 },
      ],
      {
        title: 'Pressure profile',
        summary: 'From 40 m to 15 m',
        referenceLines: [{ y: 0, label: '0 m', color: '#f00' }],
        table: { caption: 'Profile', columns: ['x', 'y'], rows: [['0', '40']] },
      },
      true,
    );
    const img = screen.getByRole('img', { name: 'Pressure profile' });
    expect(img).toHaveAccessibleDescription('From 40 m to 15 m');
    expect(container.querySelectorAll('path')).toHaveLength(1);
    expect(container.querySelectorAll('circle')).toHaveLength(2);
    expect(container.querySelector('line[stroke-dasharray]')).not.toBeNull();
    expect(screen.getByRole('table', { name: 'Profile' })).toBeInTheDocument();
  });

  it('fits the y axis to the data when asked, for small changes far from 0', () => {
    const yTicks = (yFromZero?: boolean) => {
      const { container, unmount } = renderChart(
        [
          { x: 0, y: 12.03 },
          { x: 56, y: 10 },
        ],
        { yFromZero },
      );
      const ticks = [...container.querySelectorAll('text[text-anchor="end"]')].map((t) =>
        Number(t.textContent),
      );
      unmount();
      return ticks;
    };
    expect(yTicks()[0]).toBe(0);
    expect(yTicks(false)).toEqual([10, 10.5, 11, 11.5, 12, 12.5]);
  });
});

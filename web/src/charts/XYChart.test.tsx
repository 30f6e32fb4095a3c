// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { XYChart } from './XYChart.tsx';
import type { ChartSeries } from './types.ts';

const series: ChartSeries[] = [
  {
    name: 'Java',
    styleKey: 'Java',
    kind: 'paper',
    points: [
      { x: 32, y: 18, status: 'stated', label: '18', detail: { heading: 'Java · 32 GiB: 18 Kops/s', lines: ['a note'], quote: 'the quote', where: '§5.2, Fig 6(a)' } },
      { x: 8, y: null, status: 'missing', detail: { heading: 'Java · 8 GiB: not stated in the text', lines: [] } },
      { x: 5, y: 3, status: 'stated', label: '3', detail: { heading: 'Java · 5 GiB: 3 Kops/s', lines: [] } },
    ],
  },
];

/** Every attribute of every element under root, as "tag attr=value", that holds NaN or Infinity. */
function nonFiniteAttributes(root: Element): string[] {
  return [...root.querySelectorAll('*')].flatMap((el) =>
    [...el.attributes].filter((a) => /NaN|Infinity/.test(a.value)).map((a) => `${el.tagName} ${a.name}=${a.value}`),
  );
}

afterEach(cleanup);

describe('XYChart never draws at NaN', () => {
  it('leaves out points whose x is not one of the band categories (old results on new axes)', () => {
    const { container } = render(<XYChart title="t" series={series} x={{ kind: 'band', categories: [8, 4, 2], label: 'vCPUs' }} y={{ kind: 'linear', label: 'Kops/s' }} />);
    expect(nonFiniteAttributes(container)).toEqual([]);
    // 32 and 5 are not vCPU categories; 8 is, and is drawn as not stated.
    expect(screen.getAllByRole('img').map((p) => p.getAttribute('aria-label'))).toEqual(['Java, 8: not stated. Java · 8 GiB: not stated in the text']);
  });
  it('leaves out values that are not finite numbers, on linear and log axes', () => {
    const bad: ChartSeries[] = [{ ...series[0]!, points: [{ ...series[0]!.points[0]!, y: Number.NaN }, { ...series[0]!.points[2]!, y: Infinity }, { x: 8, y: 0, status: 'stated', detail: { heading: 'zero', lines: [] } }] }];
    for (const kind of ['linear', 'log'] as const) {
      const { container } = render(<XYChart title="t" series={bad} x={{ kind: 'band', categories: [32, 8, 5], label: 'GiB' }} y={{ kind, label: 'Kops/s' }} references={[{ y: Number.NaN, label: 'bad' }]} />);
      expect(nonFiniteAttributes(container), kind).toEqual([]);
    }
  });
  it('draws the usual charts with no NaN anywhere', () => {
    const { container } = render(<XYChart title="t" series={series} x={{ kind: 'band', categories: [32, 8, 5], label: 'GiB' }} y={{ kind: 'linear', label: 'Kops/s' }} />);
    expect(nonFiniteAttributes(container)).toEqual([]);
  });
});

describe('XYChart', () => {
  it('gives every point a name for screen readers and keyboard focus, and marks missing ones', () => {
    render(<XYChart title="t" series={series} x={{ kind: 'band', categories: [32, 8, 5], label: 'GiB' }} y={{ kind: 'linear', label: 'Kops/s' }} />);
    const points = screen.getAllByRole('img');
    expect(points.map((p) => p.getAttribute('aria-label'))).toEqual([
      'Java, 32: 18. Java · 32 GiB: 18 Kops/s',
      'Java, 8: not stated. Java · 8 GiB: not stated in the text',
      'Java, 5: 3. Java · 5 GiB: 3 Kops/s',
    ]);
    expect(points.every((p) => p.getAttribute('tabindex') === '0')).toBe(true);
    expect(screen.getByText('not stated')).toBeTruthy();
  });

  it('breaks the line at a missing point instead of joining across it', () => {
    const { container } = render(<XYChart title="t" series={series} x={{ kind: 'band', categories: [32, 8, 5], label: 'GiB' }} y={{ kind: 'linear', label: 'Kops/s' }} />);
    // two stated points separated by a missing one: no polyline of two or more points
    expect(container.querySelectorAll('path[fill="none"]').length).toBe(0);
  });

  it('shows the quote and section when a point gets focus', () => {
    render(<XYChart title="t" series={series} x={{ kind: 'band', categories: [32, 8, 5], label: 'GiB' }} y={{ kind: 'linear', label: 'Kops/s' }} />);
    fireEvent.focus(screen.getAllByRole('img')[0]!);
    const card = screen.getByRole('tooltip');
    expect(card.textContent).toContain('“the quote”');
    expect(card.textContent).toContain('§5.2, Fig 6(a)');
  });
});

// Chart geometry, computed by D3 and returned as plain numbers and path strings for React to
// draw. Pure: the same series give the same layout, so it is tested without a browser.
import { line, max, min, scaleBand, scaleLinear, scaleLog, type ScaleBand, type ScaleContinuousNumeric } from 'd3';
import type { ChartPoint, ChartSeries, ReferenceLine, VerticalLine, XAxis, YAxis } from './types.ts';

export const CHART_WIDTH = 560;
export const CHART_HEIGHT = 322;
export const MARGIN = { top: 18, right: 18, bottom: 72, left: 74 };
export const PLOT = {
  left: MARGIN.left,
  right: CHART_WIDTH - MARGIN.right,
  top: MARGIN.top,
  bottom: CHART_HEIGHT - MARGIN.bottom,
};
/** The strip under the x axis where points the text does not state are marked (never inside
 * the plot, where a marker would read as a value near zero). */
export const MISSING_Y = PLOT.bottom + 36;

export interface Tick {
  pos: number;
  text: string;
}

export interface PlacedPoint {
  key: string;
  series: ChartSeries;
  point: ChartPoint;
  px: number;
  py: number;
}

export interface PlacedBar {
  key: string;
  series: ChartSeries;
  point: ChartPoint;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Layout {
  xTicks: Tick[];
  yTicks: Tick[];
  /** One or more polylines per series (a point the text does not state breaks the line). */
  paths: { key: string; series: ChartSeries; d: string }[];
  points: PlacedPoint[];
  bars: PlacedBar[];
  references: { y: number; label: string }[];
  verticals: { x: number; label: string }[];
  /** Distinct x positions, left to right, with the points at each (for a crosshair). */
  columns: { px: number; points: PlacedPoint[] }[];
  /** Points left out because they have no place on these axes (an x not among the categories, a y that is not a finite number). */
  dropped: number;
}

const defaultNumber = (v: number) => (Math.abs(v) >= 1000 ? `${v / 1000}k` : String(Number(v.toPrecision(6))));

function yScaleFor(axis: YAxis, values: number[]): ScaleContinuousNumeric<number, number> {
  const range: [number, number] = [PLOT.bottom, PLOT.top];
  if (axis.kind === 'log') {
    const positive = values.filter((v) => v > 0);
    const lo = axis.domain?.[0] ?? 10 ** Math.floor(Math.log10(min(positive) ?? 1));
    const hi = axis.domain?.[1] ?? 10 ** Math.ceil(Math.log10((max(positive) ?? 10) * 1.5));
    return scaleLog().domain([lo, hi]).range(range).clamp(true);
  }
  const hi = axis.domain?.[1] ?? (max(values) ?? 1) * 1.15;
  return scaleLinear()
    .domain([axis.domain?.[0] ?? 0, hi || 1])
    .range(range)
    .nice();
}

function logTicks(scale: ScaleContinuousNumeric<number, number>, format: (v: number) => string): Tick[] {
  const [lo, hi] = scale.domain() as [number, number];
  const out: Tick[] = [];
  for (let e = Math.ceil(Math.log10(lo)); 10 ** e <= hi * 1.0001; e++) out.push({ pos: scale(10 ** e), text: format(10 ** e) });
  return out;
}

function sortedByX(points: ChartPoint[], position: (p: ChartPoint) => number): ChartPoint[] {
  return [...points].sort((a, b) => position(a) - position(b));
}

export function layoutChart(
  series: ChartSeries[],
  x: XAxis,
  y: YAxis,
  mode: 'lines' | 'bars',
  references: ReferenceLine[] = [],
  verticals: VerticalLine[] = [],
): Layout {
  // A point with no place on these axes is left out, never drawn at NaN.
  const inAxis = (v: string | number) => (x.kind === 'band' ? x.categories.some((c) => String(c) === String(v)) : Number.isFinite(Number(v)));
  const usable = (p: ChartSeries['points'][number]) => inAxis(p.x) && (p.y === null || (Number.isFinite(p.y) && (y.kind !== 'log' || p.y > 0)));
  const dropped = series.reduce((k, s) => k + s.points.filter((p) => !usable(p)).length, 0);
  series = series.map((s) => (s.points.every(usable) ? s : { ...s, points: s.points.filter(usable) }));
  references = references.filter((r) => Number.isFinite(r.y) && (y.kind !== 'log' || r.y > 0));
  verticals = verticals.filter((v) => inAxis(v.x));
  const values = series.flatMap((s) => s.points.map((p) => p.y).filter((v): v is number => v !== null));
  const yScale = yScaleFor(y, [...values, ...references.map((r) => r.y)]);
  const yFormat = y.format ?? defaultNumber;
  const yTicks = y.kind === 'log' ? logTicks(yScale, yFormat) : yScale.ticks(5).map((v) => ({ pos: yScale(v), text: yFormat(v) }));
  const baseline = yScale.range()[0]!;

  let xPos: (v: string | number) => number;
  let xTicks: Tick[];
  let band: ScaleBand<string> | null = null;
  if (x.kind === 'band') {
    band = scaleBand<string>()
      .domain(x.categories.map(String))
      .range([PLOT.left, PLOT.right])
      .paddingInner(mode === 'bars' ? 0.25 : 0)
      .paddingOuter(mode === 'bars' ? 0.15 : 0.5);
    const b = band;
    xPos = (v) => (b(String(v)) ?? NaN) + b.bandwidth() / 2;
    const fmt = x.format ?? String;
    xTicks = x.categories.map((c) => ({ pos: xPos(c), text: fmt(c) }));
  } else {
    const xs = series.flatMap((s) => s.points.map((p) => Number(p.x)));
    const lo = x.domain?.[0] ?? (x.kind === 'log' ? (min(xs.filter((v) => v > 0)) ?? 1) : 0);
    const hi = x.domain?.[1] ?? (max(xs) ?? 1);
    const scale = (x.kind === 'log' ? scaleLog() : scaleLinear()).domain([lo, hi === lo ? lo + 1 : hi]).range([PLOT.left, PLOT.right]);
    if (x.kind === 'linear' && !x.domain) scale.nice();
    xPos = (v) => scale(Number(v));
    const fmt = x.format ?? defaultNumber;
    xTicks = (x.ticks ?? (x.kind === 'log' ? logTicks(scale, fmt).map((t) => Number(scale.invert(t.pos))) : scale.ticks(6))).map((v) => ({
      pos: scale(v),
      text: fmt(v),
    }));
  }

  const paths: Layout['paths'] = [];
  const points: PlacedPoint[] = [];
  const bars: PlacedBar[] = [];
  const pathOf = line<[number, number]>();

  series.forEach((s, si) => {
    if (mode === 'bars' && band) {
      for (const p of s.points) {
        // Bars share a category only with the series that have a point there.
        const present = series.map((t, i) => (t.points.some((q) => q.x === p.x) ? i : -1)).filter((i) => i >= 0);
        const inner = scaleBand<number>().domain(present).range([0, band.bandwidth()]).padding(0.08);
        const left = (band(String(p.x)) ?? NaN) + (inner(si) ?? 0);
        // A missing bar is an empty dashed slot the height of the plot, marked "?" below.
        const top = p.y === null ? PLOT.top : yScale(p.y);
        const height = p.y === null ? PLOT.bottom - PLOT.top : Math.max(1, baseline - top);
        bars.push({ key: `${si}:${p.x}`, series: s, point: p, x: left, y: top, width: inner.bandwidth(), height });
        points.push({ key: `${si}:${p.x}`, series: s, point: p, px: left + inner.bandwidth() / 2, py: p.y === null ? MISSING_Y : top });
      }
      return;
    }
    const ordered = sortedByX(s.points, (p) => xPos(p.x));
    let run: [number, number][] = [];
    const flush = () => {
      if (run.length > 1) paths.push({ key: `${si}:${paths.length}`, series: s, d: pathOf(run) ?? '' });
      run = [];
    };
    for (const p of ordered) {
      const px = xPos(p.x);
      if (p.y === null) {
        flush();
        // Side by side when several series miss the same x.
        const dodge = (si - (series.length - 1) / 2) * 14;
        points.push({ key: `${si}:${p.x}`, series: s, point: p, px: px + dodge, py: MISSING_Y });
        continue;
      }
      const py = yScale(p.y);
      run.push([px, py]);
      points.push({ key: `${si}:${p.x}`, series: s, point: p, px, py });
    }
    flush();
  });

  const byPx = new Map<number, PlacedPoint[]>();
  for (const p of points) if (p.point.y !== null) byPx.set(p.px, [...(byPx.get(p.px) ?? []), p]);
  return {
    xTicks,
    yTicks,
    paths,
    points,
    bars,
    references: references.map((r) => ({ y: yScale(r.y), label: r.label })),
    verticals: verticals.map((v) => ({ x: xPos(v.x), label: v.label })),
    columns: [...byPx.entries()].sort((a, b) => a[0] - b[0]).map(([px, pts]) => ({ px, points: pts })),
    dropped,
  };
}

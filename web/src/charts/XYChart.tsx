// Draws a Layout: axes, reference lines, series lines or bars, and focusable points whose
// hover/focus card tells where the number comes from.
import { useMemo, useState, type CSSProperties, type Ref } from 'react';
import { CHART_HEIGHT, CHART_WIDTH, MISSING_Y, PLOT, layoutChart, type PlacedPoint } from './layout.ts';
import { Marker, markerPaint } from './Marker.tsx';
import { seriesStyle } from '../theme/palette.ts';
import type { ChartSeries, ReferenceLine, VerticalLine, XAxis, YAxis } from './types.ts';

export interface XYChartProps {
  title: string;
  series: ChartSeries[];
  x: XAxis;
  y: YAxis;
  mode?: 'lines' | 'bars';
  references?: ReferenceLine[];
  verticals?: VerticalLine[];
  /**
   * false for dense series (e.g. 60 months × 4 languages): no per-point markers or tab stops;
   * a crosshair follows the pointer, or the arrow keys once the chart has focus.
   */
  markers?: boolean;
  svgRef?: Ref<SVGSVGElement>;
}

function pointLabel(p: PlacedPoint, x: XAxis): string {
  const xText = x.kind === 'band' ? (x.format ?? String)(p.point.x) : (x.format ?? String)(Number(p.point.x));
  const value = p.point.y === null ? 'not stated' : (p.point.label ?? String(p.point.y));
  return `${p.series.name}, ${xText}: ${value}. ${p.point.detail.heading}`;
}

export function XYChart({ title, series, x, y, mode = 'lines', references = [], verticals = [], markers = true, svgRef }: XYChartProps) {
  const layout = useMemo(() => layoutChart(series, x, y, mode, references, verticals), [series, x, y, mode, references, verticals]);
  const [active, setActive] = useState<PlacedPoint | null>(null);
  const [column, setColumn] = useState<number | null>(null);
  const nearestColumn = (px: number) => {
    let best = 0;
    layout.columns.forEach((c, i) => {
      if (Math.abs(c.px - px) < Math.abs(layout.columns[best]!.px - px)) best = i;
    });
    return layout.columns.length ? best : null;
  };
  const hasMissing = layout.points.some((p) => p.point.y === null);

  return (
    <div className="chart-wrap" onPointerLeave={() => (setActive(null), setColumn(null))}>
      <svg ref={svgRef} viewBox={`0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`} role="group" aria-label={title} fontSize={12}>
        {/* grid and y axis */}
        {layout.yTicks.map((t) => (
          <g key={`y${t.text}`}>
            <line x1={PLOT.left} x2={PLOT.right} y1={t.pos} y2={t.pos} stroke="#e4e4e4" />
            <text x={PLOT.left - 6} y={t.pos} dy="0.32em" textAnchor="end" fill="#333">
              {t.text}
            </text>
          </g>
        ))}
        <text transform={`translate(13,${(PLOT.top + PLOT.bottom) / 2}) rotate(-90)`} textAnchor="middle" fill="#222" fontSize={12.5}>
          {y.label}
        </text>
        {/* x axis */}
        <line x1={PLOT.left} x2={PLOT.right} y1={PLOT.bottom} y2={PLOT.bottom} stroke="#333" />
        {layout.xTicks.map((t) => (
          <g key={`x${t.text}`}>
            <line x1={t.pos} x2={t.pos} y1={PLOT.bottom} y2={PLOT.bottom + 5} stroke="#333" />
            <text x={t.pos} y={PLOT.bottom + 18} textAnchor="middle" fill="#333">
              {t.text}
            </text>
          </g>
        ))}
        <text x={(PLOT.left + PLOT.right) / 2} y={PLOT.bottom + 56} textAnchor="middle" fill="#222" fontSize={12.5}>
          {x.label}
        </text>
        {hasMissing && (
          <text x={PLOT.left - 8} y={MISSING_Y} dy="0.32em" textAnchor="end" fill="#666" fontSize={10}>
            not stated
          </text>
        )}
        {mode === 'lines' &&
          layout.points
            .filter((p) => p.point.y === null)
            .map((p) => <line key={`gap${p.key}`} x1={p.px} x2={p.px} y1={PLOT.top} y2={PLOT.bottom} stroke="#ccc" strokeDasharray="3 4" />)}
        {layout.references.map((r) => (
          <g key={r.label}>
            <line x1={PLOT.left} x2={PLOT.right} y1={r.y} y2={r.y} stroke="#a33b00" strokeDasharray="6 4" />
            <text x={PLOT.right} y={r.y - 4} textAnchor="end" fill="#a33b00" fontSize={11}>
              {r.label}
            </text>
          </g>
        ))}
        {layout.verticals.map((v) => (
          <g key={`v${v.label}`} data-testid="vertical-marker">
            <line x1={v.x} x2={v.x} y1={PLOT.top} y2={PLOT.bottom} stroke="#000" strokeWidth={1.5} strokeDasharray="5 3" />
            <text
              x={v.x > (PLOT.left + PLOT.right) / 2 ? v.x - 4 : v.x + 4}
              textAnchor={v.x > (PLOT.left + PLOT.right) / 2 ? 'end' : 'start'}
              y={PLOT.top + 10}
              fill="#000"
              fontSize={11}
              fontWeight={600}
            >
              {v.label}
            </text>
          </g>
        ))}
        {/* series */}
        {layout.paths.map((p) => {
          const st = seriesStyle(p.series.styleKey);
          return (
            <path
              key={p.key}
              d={p.d}
              fill="none"
              stroke={st.colour}
              strokeWidth={p.series.kind === 'native' ? 3 : 2}
              strokeDasharray={p.series.kind === 'simulated' ? '3 3' : st.dash || undefined}
            />
          );
        })}
        {layout.bars.map((b) => {
          const paint = markerPaint(b.series.styleKey, b.point.status);
          const missing = b.point.y === null;
          return (
            <rect
              key={`bar${b.key}`}
              x={b.x}
              y={b.y}
              width={b.width}
              height={b.height}
              fill={missing ? 'none' : b.point.status === 'implied' || b.series.kind === 'simulated' ? '#fff' : paint.fill}
              stroke={missing ? '#bbb' : paint.stroke}
              strokeWidth={missing ? 1 : 1}
              strokeDasharray={missing ? '4 4' : undefined}
            />
          );
        })}
        {!markers && (
          <rect
            x={PLOT.left}
            y={PLOT.top}
            width={PLOT.right - PLOT.left}
            height={PLOT.bottom - PLOT.top}
            fill="transparent"
            tabIndex={0}
            role="img"
            aria-label={`${title}. Arrow keys move along the x axis.`}
            onPointerMove={(e) => {
              const svg = e.currentTarget.ownerSVGElement!;
              const box = svg.getBoundingClientRect();
              setColumn(nearestColumn(((e.clientX - box.left) / box.width) * CHART_WIDTH));
            }}
            onFocus={() => setColumn((c) => c ?? 0)}
            onBlur={() => setColumn(null)}
            onKeyDown={(e) => {
              if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
              e.preventDefault();
              e.stopPropagation();
              setColumn((c) => Math.max(0, Math.min(layout.columns.length - 1, (c ?? 0) + (e.key === 'ArrowRight' ? 1 : -1))));
            }}
          />
        )}
        {!markers && column !== null && layout.columns[column] && (
          <g pointerEvents="none">
            <line x1={layout.columns[column].px} x2={layout.columns[column].px} y1={PLOT.top} y2={PLOT.bottom} stroke="#555" />
            {layout.columns[column].points.map((p) => (
              <Marker key={p.key} styleKey={p.series.styleKey} status={p.point.status} x={p.px} y={p.py} size={50} />
            ))}
          </g>
        )}
        {markers && layout.points.map((p) => (
          <g
            key={`pt${p.key}`}
            className="point"
            tabIndex={0}
            role="img"
            aria-label={pointLabel(p, x)}
            onPointerEnter={() => setActive(p)}
            onFocus={() => setActive(p)}
            onBlur={() => setActive(null)}
          >
            {/* a larger transparent target makes small markers easy to hover */}
            <circle cx={p.px} cy={p.py} r={12} fill="transparent" />
            {mode === 'lines' || p.point.y === null ? (
              <Marker styleKey={p.series.styleKey} status={p.point.status} x={p.px} y={p.py} />
            ) : null}
            {p.point.y === null ? (
              <text x={p.px} y={p.py} dy="0.35em" textAnchor="middle" fontSize={10} fill="#333">
                ?
              </text>
            ) : p.point.label ? (
              // Simulated labels go under their point, so they never sit on the paper's.
              <text x={p.px} y={p.series.kind === 'simulated' && p.py + 19 < PLOT.bottom - 4 ? p.py + 19 : p.py - 10} textAnchor="middle" fontSize={11} fontWeight={600} fill={p.series.kind === 'simulated' ? '#555' : '#222'}>
                {p.point.label}
              </text>
            ) : null}
          </g>
        ))}
      </svg>
      {active && <PointCard placed={active} />}
      {!markers && column !== null && layout.columns[column] && <ColumnCard column={layout.columns[column]} />}
    </div>
  );
}

/** Beside the point, on the side with more room; percentages follow the SVG's scaling. */
function cardPosition(px: number, top: string): CSSProperties {
  const leftPct = (px / CHART_WIDTH) * 100;
  return leftPct > 55 ? { right: `calc(${100 - leftPct}% + 14px)`, top } : { left: `calc(${leftPct}% + 14px)`, top };
}

function PointCard({ placed }: { placed: PlacedPoint }) {
  const { detail } = placed.point;
  return (
    <div className="chart-tooltip" role="tooltip" data-testid="point-card" style={cardPosition(placed.px, `calc(${(placed.py / CHART_HEIGHT) * 100}% - 10px)`)}>
      <strong>{detail.heading}</strong>
      {detail.lines.map((l) => (
        <div key={l}>{l}</div>
      ))}
      {detail.quote && <blockquote>“{detail.quote}”</blockquote>}
      {detail.where && <div className="note">{detail.where}</div>}
      {detail.id && <div className="note mono">{detail.id}</div>}
    </div>
  );
}

function ColumnCard({ column }: { column: { px: number; points: PlacedPoint[] } }) {
  return (
    <div className="chart-tooltip" role="status" data-testid="column-card" style={cardPosition(column.px, '8%')}>
      {column.points.map((p) => (
        <div key={p.key}>
          <strong style={{ color: seriesStyle(p.series.styleKey).colour }}>■</strong> {p.point.detail.heading}
          {p.point.detail.lines.map((l) => (
            <div key={l} className="note">
              {l}
            </div>
          ))}
        </div>
      ))}
    </div>
  );
}

// A data point's marker: the series' shape and colour, filled or hollow by how it is known.
import { symbol, symbolCircle, symbolCross, symbolDiamond, symbolSquare, symbolTriangle, type SymbolType } from 'd3';
import { seriesStyle, type MarkerShape } from '../theme/palette.ts';
import type { PointStatus } from './types.ts';

const SHAPES: Record<MarkerShape, SymbolType> = {
  circle: symbolCircle,
  square: symbolSquare,
  triangle: symbolTriangle,
  diamond: symbolDiamond,
  cross: symbolCross,
};

export function markerPath(shape: MarkerShape, area: number): string {
  return symbol(SHAPES[shape], area)() ?? '';
}

/** Fill, stroke and dash for a point of the given status. */
export function markerPaint(styleKey: string, status: PointStatus): { fill: string; stroke: string; strokeDasharray?: string } {
  const { colour } = seriesStyle(styleKey);
  switch (status) {
    case 'implied':
    case 'simulated':
      return { fill: '#fff', stroke: colour };
    case 'elsewhere':
    case 'missing':
      return { fill: '#fff', stroke: colour, strokeDasharray: '2 2' };
    case 'measured':
      return { fill: colour, stroke: '#000' };
    default:
      return { fill: colour, stroke: colour };
  }
}

export function Marker({ styleKey, status, x, y, size = 90 }: { styleKey: string; status: PointStatus; x: number; y: number; size?: number }) {
  const paint = markerPaint(styleKey, status);
  return (
    <path
      className="marker"
      d={markerPath(seriesStyle(styleKey).shape, size)}
      transform={`translate(${x},${y})`}
      fill={paint.fill}
      stroke={paint.stroke}
      strokeWidth={2}
      strokeDasharray={paint.strokeDasharray}
    />
  );
}

/** The legend swatch of a series. */
export function LegendSwatch({ styleKey, status = 'stated' }: { styleKey: string; status?: PointStatus }) {
  const { dash, colour } = seriesStyle(styleKey);
  return (
    <svg width="34" height="14" viewBox="-17 -7 34 14" aria-hidden="true">
      <line x1={-16} x2={16} y1={0} y2={0} stroke={colour} strokeWidth={2} strokeDasharray={status === 'simulated' ? '3 3' : dash} />
      <Marker styleKey={styleKey} status={status} x={0} y={0} size={50} />
    </svg>
  );
}

// What a chart draws, as plain data. Models (paper figures, lab results) build these; the chart
// components only draw them.

/**
 * How a point's value is known:
 * - stated: the text gives the number; approx / lower_bound / upper_bound: with that qualifier;
 * - implied: the text gives it by reference ("does not change");
 * - elsewhere: another figure states the same configuration, this one does not;
 * - missing: the text does not state it (drawn as missing, never estimated);
 * - simulated / measured: from a results file of the simulator or a native run.
 */
export type PointStatus = 'stated' | 'approx' | 'lower_bound' | 'upper_bound' | 'implied' | 'elsewhere' | 'missing' | 'simulated' | 'measured';

export type SeriesKind = 'paper' | 'simulated' | 'native';

/** What hover or focus reveals about a point. */
export interface PointDetail {
  heading: string;
  lines: string[];
  quote?: string;
  /** e.g. "§5.2, Fig 6(a)" */
  where?: string;
  /** the data row id, for people who want to look it up */
  id?: string;
}

export interface ChartPoint {
  x: string | number;
  y: number | null;
  status: PointStatus;
  /** Text drawn next to the point (e.g. "18", "≥60"), or none. */
  label?: string;
  detail: PointDetail;
}

export interface ChartSeries {
  /** Legend text, e.g. "Java" or "Java · simulated (model card 0.3.0)". */
  name: string;
  /** Language (or other key) that picks colour, marker and dash. */
  styleKey: string;
  kind: SeriesKind;
  points: ChartPoint[];
}

export type XAxis =
  | { kind: 'band'; categories: (string | number)[]; label: string; format?: (v: string | number) => string }
  | { kind: 'linear' | 'log'; label: string; domain?: [number, number]; ticks?: number[]; format?: (v: number) => string };

export interface YAxis {
  kind: 'linear' | 'log';
  label: string;
  domain?: [number, number];
  format?: (v: number) => string;
}

export interface ReferenceLine {
  y: number;
  label: string;
}

export interface VerticalLine {
  x: number;
  label: string;
}

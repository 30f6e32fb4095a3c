export type MitigationQualifier = 'exact' | 'approx' | 'lower_bound' | 'upper_bound' | 'implied';
export interface MitigationValue {
  id: string;
  figure_or_table: string;
  section: string;
  system: string;
  /** BLADE / GC-Off / GC-On (BLADE's paper), MITMEM / Raw / Best (MITMEM's), or n/a */
  configuration: string;
  metric: string;
  /** value, mean, median, stddev, min, max, or a percentile such as p99.9 */
  statistic: string;
  value: number | string;
  /** the value as the paper prints it (0.70, not 0.7) */
  printed: string;
  unit: string;
  qualifier: MitigationQualifier;
  /** the note without its qualifier prefix */
  note: string;
  exact_quote: string;
}
export type Table7Percentile = 'p95' | 'p99' | 'p99.9' | 'p99.99' | 'p99.999' | 'p99.9999';
export type Table7Configuration = 'BLADE' | 'GC-Off' | 'GC-On';
export declare const MITIGATION_COLUMNS: string[];
export declare const TABLE7_PERCENTILES: Table7Percentile[];
export declare const TABLE7_CONFIGURATIONS: Table7Configuration[];
/** Rows of data/mitigations/*-values.csv; throws naming the source on a bad header, record or number. */
export declare function parseMitigationValues(text: string, source?: string): MitigationValue[];
export interface Table7Row {
  percentile: Table7Percentile;
  cells: { configuration: Table7Configuration; latency_ms: number; printed: string; row: MitigationValue }[];
}
/** BLADE's Table 7 in its layout; throws when a cell is missing. */
export declare function bladeTable7(rows: MitigationValue[]): Table7Row[];

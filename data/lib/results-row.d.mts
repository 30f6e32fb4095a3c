// The rows and files of data/schema/results.schema.json as TypeScript types: the one definition
// that web (overlays), sim (exports) and bench (native results) share. lib/results-row.test.mjs
// holds these fields to the schema's, so the two cannot drift apart.

export type Qualifier = 'exact' | 'approx' | 'lower_bound' | 'upper_bound' | 'implied';
export type Workload = 'A' | 'B';
export type SourceKind = 'paper' | 'simulated' | 'native';

export interface Provenance {
  kind: 'paper_text' | 'simulation' | 'measurement' | 'derived';
  /** Repository-relative file the row comes from. */
  source_file?: string;
  /** 1-based data row in source_file. */
  source_row?: number;
  exact_quote?: string;
  /** Repository-relative path of the raw log or histogram. */
  raw_output?: string;
  derivation?: string;
}

/** A corrected reading of a paper value (data/paper/corrections.csv); the row's value stays as printed. */
export interface Correction {
  kind: string;
  corrected_value?: number | null;
  corrected_unit?: string | null;
  reasoning: string;
}

export interface ResultRow {
  id: string;
  figure_or_table?: string | null;
  panel?: string | null;
  section?: string | null;
  /** One of vocabulary.schema.json's languages (checked by the validator, not the compiler). */
  language: string;
  workload?: Workload | null;
  memory_gib?: number | null;
  /** Memory per node over the raw data, in runs scaled down from the paper's sizes. */
  memory_data_ratio?: number | null;
  vcpus?: number | null;
  /** One of vocabulary.schema.json's metrics. */
  metric: string;
  value: number | string;
  /** One of vocabulary.schema.json's units. */
  unit: string;
  instance_type?: string | null;
  clients?: number | string | null;
  note?: string | null;
  qualifier: Qualifier;
  /** Spread over repetitions, in the unit of value. */
  stddev?: number;
  repetitions?: number;
  /** Over repetitions: value is their median, these the extremes. */
  spread?: { min: number; max: number };
  correction?: Correction;
  provenance: Provenance;
}

export interface Machine {
  description: string;
  cpu_model?: string;
  vcpus?: number;
  memory_gib?: number;
  os?: string;
  instance_type?: string;
}

export interface ResultsMetadata {
  source_kind: SourceKind;
  title: string;
  description?: string;
  /** For source_kind paper: the work the numbers come from. */
  citation?: string;
  machine: Machine;
  /** YYYY-MM-DD. */
  date: string;
  /** null only for the paper. */
  git_commit: string | null;
  model_card_version?: string;
  /** Name -> version of every engine involved. */
  engines: Record<string, string>;
  command: string;
  inputs_sha256?: Record<string, string>;
  seed?: number;
}

export interface ResultsFile<Row extends ResultRow = ResultRow> {
  $schema?: string;
  schema_version: '1.0.0';
  metadata: ResultsMetadata;
  rows: Row[];
}

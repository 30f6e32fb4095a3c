// Simulated results in the shared results schema (data/schema/results.schema.json), so the web
// app can overlay them on the paper's points. The numbers are the simulation's; the metadata
// (date, commit, command) says where they came from.
import { languageOf } from '@replicant/engines/loader/catalogue';
import type { EngineName, SloSearchResult, SweepResult } from '../api.ts';
import type { ResultRow as ResultsRow, ResultsFile } from '@replicant/data/results';

export interface ExportMeta {
  title: string;
  date: string; // YYYY-MM-DD
  git_commit: string;
  command: string;
  seed: number;
  model_card_version: string;
  engines: Record<string, string>;
}

export type { ResultsRow };

function slug(x: number): string {
  return String(x).replace('.', 'p');
}

export interface PointLike {
  engine: EngineName;
  memory_gib: number;
  vcpus: number;
  result: SloSearchResult;
}

export function pointRows(p: PointLike, workload: 'A' | 'B' | null, clients: number, fidelity: string): ResultsRow[] {
  const base = `sim-${p.engine}-${(workload ?? 'custom').toLowerCase()}-${slug(p.memory_gib)}gib-${p.vcpus}vcpu`;
  const common = {
    figure_or_table: '',
    language: languageOf(p.engine),
    workload,
    memory_gib: p.memory_gib,
    vcpus: p.vcpus,
    instance_type: null,
    clients,
    provenance: { kind: 'simulation' as const },
  };
  const r = p.result;
  const rows: ResultsRow[] = [];
  if (r.max_ops_per_s_at_slo === null) {
    const first = r.probes[0];
    const min = first?.target_ops_per_s ?? 100;
    rows.push({ ...common, id: `${base}-max-throughput-slo`, metric: 'max_throughput_slo', value: min / 1000, unit: 'Kops/s', qualifier: 'upper_bound', note: `simulated (${fidelity}); p99 above the SLO even at ${min} ops/s` });
    if (first && !first.stopped_early)
      rows.push({ ...common, id: `${base}-p99-latency-intended-at-min`, metric: 'p99_latency_intended', value: first.p99_ms, unit: 'ms', qualifier: 'exact', note: `simulated (${fidelity}); at ${min} ops/s` });
    return rows;
  }
  rows.push({ ...common, id: `${base}-max-throughput-slo`, metric: 'max_throughput_slo', value: round3(r.max_ops_per_s_at_slo / 1000), unit: 'Kops/s', qualifier: 'exact', note: `simulated (${fidelity}); ${r.probes.length} probes` });
  if (r.leader_cpu_utilization_at_max !== null)
    rows.push({ ...common, id: `${base}-vcpu-utilization-leader`, metric: 'vcpu_utilization_leader', value: round3(r.leader_cpu_utilization_at_max * 100), unit: '%', qualifier: 'exact', note: `simulated (${fidelity}); at the highest target meeting the SLO` });
  if (r.p99_ms_at_max !== null)
    rows.push({ ...common, id: `${base}-p99-latency-intended`, metric: 'p99_latency_intended', value: r.p99_ms_at_max, unit: 'ms', qualifier: 'exact', note: `simulated (${fidelity}); at the highest target meeting the SLO` });
  return rows;
}

export function sweepRows(s: SweepResult, workload: 'A' | 'B' | null, clients: number, fidelity: string): ResultsRow[] {
  return s.points.flatMap((p) => pointRows(p, workload, clients, fidelity));
}

export function resultsFile(meta: ExportMeta, rows: ResultsRow[]): ResultsFile {
  return {
    schema_version: '1.0.0',
    metadata: {
      source_kind: 'simulated',
      title: meta.title,
      description: 'Produced by the Replicant Lab simulator (sim/); every value is simulated, not measured.',
      machine: { description: 'Simulated cluster of m5.2xlarge-like nodes (every parameter is on the model card)', instance_type: 'm5.2xlarge (simulated)' },
      date: meta.date,
      git_commit: meta.git_commit,
      model_card_version: meta.model_card_version,
      engines: meta.engines,
      command: meta.command,
      seed: meta.seed,
    },
    rows,
  };
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

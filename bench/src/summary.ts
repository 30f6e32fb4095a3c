// `npm run bench -- summarize DIR…`: one table per results file, a row per setting — what the
// reference run's README and a reader comparing systems need at a glance. Pure formatting.
import type { ResultRow, ResultsFile } from './results.ts';

/** The setting a row belongs to: its id minus the metric. */
export function settingOf(row: ResultRow): string {
  return row.id.slice(0, row.id.length - row.metric.replace(/_/g, '-').length - 1);
}

function cell(rows: ResultRow[], metric: string): string {
  const r = rows.find((x) => x.metric === metric);
  if (!r) return '–';
  const mark = r.qualifier === 'upper_bound' ? '< ' : r.qualifier === 'lower_bound' ? '≥ ' : '';
  return `${mark}${r.value}`;
}

export function summarize(file: ResultsFile): string {
  const bySetting = new Map<string, ResultRow[]>();
  for (const r of file.rows) bySetting.set(settingOf(r), [...(bySetting.get(settingOf(r)) ?? []), r]);
  const lines = [
    `${file.metadata.title} — ${file.metadata.date}, commit ${file.metadata.git_commit.slice(0, 12)}`,
    '',
    '| setting | memory/node (GiB) | SLO (ms) | max Kops/s at SLO | intended p99 (ms) | uncorrected p99 (ms) | saturation Kops/s | leader CPU % | leader GC share % | leader changes |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const [setting, rows] of bySetting) {
    lines.push(
      `| ${setting} | ${rows[0]!.memory_gib} | ${cell(rows, 'slo_p99_latency')} | ${cell(rows, 'max_throughput_slo')} | ${cell(rows, 'p99_latency_intended')} | ${cell(rows, 'p99_latency_service_time')} | ${cell(rows, 'saturation_throughput')} | ${cell(rows, 'vcpu_utilization_leader')} | ${cell(rows, 'gc_runtime_share')} | ${cell(rows, 'leader_changes')} |`,
    );
  }
  return lines.join('\n');
}

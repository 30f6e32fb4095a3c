// `npm run bench -- summarize DIR…`: one table per results file, a row per setting — what the
// reference run's README and a reader comparing systems need at a glance. Pure formatting.
import type { ResultRow, ResultsFile } from './results.ts';

/** The setting a row belongs to: its id minus the metric. */
export function settingOf(row: ResultRow): string {
  return row.id.slice(0, row.id.length - row.metric.replace(/_/g, '-').length - 1);
}

/** A value with its bound mark and, over repetitions, its min–max: "2.5 [2.1–2.9]". */
function cell(rows: ResultRow[], metric: string): string {
  const r = rows.find((x) => x.metric === metric);
  if (!r) return '–';
  const mark = r.qualifier === 'upper_bound' ? '< ' : r.qualifier === 'lower_bound' ? '≥ ' : r.qualifier === 'approx' ? '~' : '';
  const spread = r.spread && r.spread.min !== r.spread.max ? ` [${r.spread.min}–${r.spread.max}]` : '';
  return `${mark}${r.value}${spread}`;
}

/** "clean", or the status with how many repetitions back the figures. */
function statusCell(rows: ResultRow[]): string {
  const r = rows.find((x) => x.metric === 'measurement_status');
  if (!r) return '–';
  const n = rows.find((x) => x.metric === 'max_throughput_slo')?.repetitions;
  return `${r.value}${r.repetitions ? ` (${n ?? 0}/${r.repetitions})` : ''}`;
}

export function summarize(file: ResultsFile): string {
  const bySetting = new Map<string, ResultRow[]>();
  for (const r of file.rows) bySetting.set(settingOf(r), [...(bySetting.get(settingOf(r)) ?? []), r]);
  const lines = [
    `${file.metadata.title} — ${file.metadata.date}, commit ${(file.metadata.git_commit ?? 'none').slice(0, 12)}`,
    '',
    'Values are medians over repetitions with [min–max]; status (n/m): clean, bounded (a disturbed probe stopped the search) disturbed (no rate decided: other processes, not the system, failed the probes) or failed (the setting itself failed), n of m repetitions giving a rate.',
    '',
    '| setting | status | memory/node (GiB) | SLO (ms) | max Kops/s at SLO | intended p99 (ms) | uncorrected p99 (ms) | saturation Kops/s | leader CPU % | leader GC share % | leader changes | other processes (cores) |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const [setting, rows] of bySetting) {
    lines.push(
      `| ${setting} | ${statusCell(rows)} | ${rows[0]!.memory_gib} | ${cell(rows, 'slo_p99_latency')} | ${cell(rows, 'max_throughput_slo')} | ${cell(rows, 'p99_latency_intended')} | ${cell(rows, 'p99_latency_service_time')} | ${cell(rows, 'saturation_throughput')} | ${cell(rows, 'vcpu_utilization_leader')} | ${cell(rows, 'gc_runtime_share')} | ${cell(rows, 'leader_changes')} | ${cell(rows, 'other_processes_cpu')} |`,
    );
  }
  const evidence = [...bySetting].flatMap(([setting, rows]) => {
    const st = rows.find((x) => x.metric === 'measurement_status');
    return st && st.value !== 'clean' ? [`- ${setting}: ${st.note}`] : [];
  });
  if (evidence.length) lines.push('', 'Evidence for the settings not measured clean:', ...evidence);
  return lines.join('\n');
}

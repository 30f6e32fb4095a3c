// Sums up leader-kill experiment reports (leader-kill-experiment.ts --report) into the table of
// docs/reliability.md, "C++ x3 after a leader kill: measured": per engine, mode, fsync policy and
// checkpoints, the runs, the 80 % rule's misses, the rate over 1-5 s after the fault against the
// 3 s before, the survivors' elections and the load.
//   npx tsx nemesis/leader-kill-summary.ts ../data/reliability/leader-kill-experiment/*.json
import { readFileSync } from 'node:fs';
import type { RunResult } from './leader-kill-experiment.ts';

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** Elections the surviving nodes started between the fault and the end of a run. */
export function survivorElections(r: Pick<RunResult, 'elections_at_fault' | 'elections_at_end'>): number {
  let sum = 0;
  r.elections_at_end.forEach((end, i) => {
    const at = r.elections_at_fault[i];
    if (end !== null && at !== null && at !== undefined) sum += end - at;
  });
  return sum;
}

/** The row's name: engine, mode, and the settings that differ from the nemesis's servers. */
export function rowName(r: Pick<RunResult, 'engine' | 'mode' | 'fsync' | 'snapshot_every'>): string {
  return `${r.engine}, ${r.mode}${(r.fsync ?? 'always') === 'never' ? ', fsync never' : ''}${r.snapshot_every === 0 ? ', no checkpoints' : ''}`;
}

export function summaryRows(runs: readonly RunResult[]): string[] {
  const groups = new Map<string, RunResult[]>();
  for (const r of runs) groups.set(rowName(r), [...(groups.get(rowName(r)) ?? []), r]);
  const whole = (x: number) => x.toLocaleString('en', { maximumFractionDigits: 0 });
  const span = (xs: number[], f: (x: number) => string) => `${f(median(xs))} (${f(Math.min(...xs))}–${f(Math.max(...xs))})`;
  return [...groups.keys()].sort().map((name) => {
    const rs = groups.get(name)!;
    const misses = rs.filter((r) => r.ratio !== null && r.ratio < 0.8).length;
    const elections = rs.map(survivorElections);
    const loads = rs.flatMap((r) => r.load_average_1m);
    return `| ${name} | ${rs.length} | ${misses} | ${span(rs.map((r) => r.after_per_s / r.before_per_s), (x) => x.toFixed(2))} | ${span(rs.map((r) => r.after_per_s), whole)} | ${median(elections)} (${Math.max(...elections)}) | ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} |`;
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const files = process.argv.slice(2);
  if (files.length === 0) {
    process.stderr.write('usage: npx tsx nemesis/leader-kill-summary.ts REPORT.json…\n');
    process.exit(2);
  }
  const runs = files.flatMap((f) => (JSON.parse(readFileSync(f, 'utf8')) as { runs: RunResult[] }).runs);
  console.log('| engine, mode | runs | misses | after / before, median (range) | after, median (range) | elections by the survivors after the fault, median (max) | load |');
  console.log('|---|---|---|---|---|---|---|');
  for (const row of summaryRows(runs)) console.log(row);
}

// Judges the leader kills of the committed nemesis chunks (data/reliability/long/nemesis-*.json)
// again by the recovery rule of recovery.ts, for the chunks written before the nemesis applied it,
// and writes data/reliability/leader-kills-rederived.json, which scripts/long-runs-report.mjs
// reads beside the chunks' own figures (kept as they are).
//   npx tsx nemesis/rederive.ts [--kept DIR]     (from engines/; DIR: where the runs were kept
//                                                 with --out, default /tmp/replicant-nemesis-histories)
// Where a run's history and servers' logs were kept, its acknowledgements are given the node that
// sent them and its restarts their real start (kept-run.ts), and the rule runs on those. Where
// they were not, a chunk gives only the rates: a cluster of one engine can still be judged (its
// new leader runs that engine), a mixed one cannot (its new leader is not recorded), and a
// restart counts as up before the window only if the report saw it up by then.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readKeptRun } from './kept-run.ts';
import { judgeRate, leaderKillRecoveries, RATE_RECOVERY_MS, RATE_WINDOW_MS, type KillMark, type KillWindowFigures, type RateVerdict } from './recovery.ts';

interface ReportKill {
  at_ms: number;
  pre_rate_per_s: number;
  post_rate_per_s: number | null;
  window_clean?: boolean;
  baseline?: unknown;
}
interface ReportRun {
  engines: string[];
  seed: number;
  faults: KillMark[];
  leader_kills?: ReportKill[];
}

export interface RederivedKill extends KillWindowFigures, RateVerdict {
  report: string;
  engines: string[];
  seed: number;
  source: 'kept logs' | 'report';
}

/** The rule on a chunk's own figures (no logs). */
export function fromReport(run: ReportRun, k: ReportKill): KillWindowFigures {
  const kill = run.faults.find((f) => f.kind === 'kill' && f.at_ms === k.at_ms)!;
  const postTo = k.at_ms + RATE_RECOVERY_MS + RATE_WINDOW_MS;
  const restart = run.faults.find((f) => f.kind === 'restart' && f.node === kill.node && f.at_ms >= k.at_ms && f.at_ms < postTo);
  return {
    at_ms: k.at_ms,
    killed_engine: run.engines[kill.node]!,
    new_leader_engine: new Set(run.engines).size === 1 ? run.engines[0]! : null,
    pre_rate_per_s: k.pre_rate_per_s,
    same_engine_rate_per_s: null,
    post_rate_per_s: k.post_rate_per_s,
    other_fault_in_window: k.window_clean === false,
    ...(restart ? { killed_restart_up_ms: restart.ready_ms == null ? null : restart.at_ms + restart.ready_ms - k.at_ms } : {}),
  };
}

/** the figures of a judged kill, without its verdict */
function figuresOf(r: KillWindowFigures): KillWindowFigures {
  const { at_ms, killed_engine, new_leader_engine, pre_rate_per_s, same_engine_rate_per_s, same_engine_later, post_rate_per_s, other_fault_in_window, killed_restart_up_ms } = r;
  return { at_ms, killed_engine, new_leader_engine, pre_rate_per_s, same_engine_rate_per_s, ...(same_engine_later ? { same_engine_later } : {}), post_rate_per_s, other_fault_in_window, ...(killed_restart_up_ms !== undefined ? { killed_restart_up_ms } : {}) };
}

function main() {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  const args = process.argv.slice(2);
  const keptAt = args.indexOf('--kept');
  const keptDir = keptAt >= 0 ? args[keptAt + 1]! : '/tmp/replicant-nemesis-histories';
  const dir = join(root, 'data/reliability/long');
  const out: RederivedKill[] = [];
  for (const f of readdirSync(dir).filter((n) => n.startsWith('nemesis-') && n.endsWith('.json')).sort()) {
    const report = JSON.parse(readFileSync(join(dir, f), 'utf8')) as { command?: string; runs?: ReportRun[] };
    const clients = Number(/--clients (\d+)/.exec(report.command ?? '')?.[1] ?? 3);
    for (const run of report.runs ?? []) {
      const kills = (run.leader_kills ?? []).filter((k) => k.baseline === undefined);
      if (kills.length === 0) continue;
      const base = join(keptDir, `nemesis-${run.engines.join('-')}-${run.seed}`);
      const logPaths = run.engines.map((_, i) => join(`${base}-logs`, `node-${i}.log`));
      const kept = existsSync(base + '.jsonl') && logPaths.every((p) => existsSync(p))
        ? readKeptRun(run.engines, run.faults, readFileSync(base + '.jsonl', 'utf8'), logPaths.map((p) => readFileSync(p, 'utf8')), clients)
        : null;
      // the chunk's post figure says whether the window ended before the clients stopped
      const end_ms = kept ? Math.max(kept.last_ack_ms, ...kills.filter((k) => k.post_rate_per_s !== null).map((k) => k.at_ms + RATE_RECOVERY_MS + RATE_WINDOW_MS)) : 0;
      const fromLogs = kept ? leaderKillRecoveries(kept.faults, kept.acks, end_ms, run.engines) : [];
      for (const k of kills) {
        const judged = fromLogs.find((r) => r.at_ms === k.at_ms);
        const figures: KillWindowFigures = judged
          ? figuresOf(judged)
          : fromReport(run, k);
        out.push({ report: `data/reliability/long/${f}`, engines: run.engines, seed: run.seed, source: judged ? 'kept logs' : 'report', ...figures, ...judgeRate(figures) });
      }
    }
  }
  const file = join(root, 'data/reliability/leader-kills-rederived.json');
  writeFileSync(file, JSON.stringify({ rule: 'engines/nemesis/recovery.ts judgeRate', command: 'npx tsx nemesis/rederive.ts (from engines/)', kills: out }, null, 1) + '\n');
  const count = (p: (k: RederivedKill) => boolean) => out.filter(p).length;
  process.stdout.write(`${out.length} leader kills: ${count((k) => k.rate_ok === true)} back, ${count((k) => k.rate_ok === false)} missed, ${count((k) => k.rate_ok === null)} not judged; ${count((k) => k.source === 'kept logs')} from kept logs\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();

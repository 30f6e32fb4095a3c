// The race: the four engines under the same offered load while memory is squeezed, step by
// step, as in the paper's Figs 6 and 9 (32 → 8 → 6 → 5 GiB of a 4 GiB dataset). Pure.
import { languageOf, type EngineName } from '@replicant/engines/loader/catalogue';
import type { RunResult } from '@replicant/sim/api';
import type { ResultRow } from '../paper/results.ts';
import { paperGibOfRatio } from '../paper/memory-ratio.ts';

export const SQUEEZE = [8, 2, 1.5, 1.25].map((ratio) => ({ ratio, gib: paperGibOfRatio(ratio) }));

export interface Lane {
  engine: EngineName;
  throughput_kops: number;
  p99_ms: number;
  gc_share_pct: number;
  met_slo: boolean;
  /** Nodes the run lost (e.g. killed for running out of memory), with when. */
  crashed: { node: number; t_s: number }[];
}

/** What a simulated run shows in a lane: the leader's GC share (the node that led at the end). */
export function laneOf(engine: EngineName, r: RunResult, slo_ms: number): Lane {
  const leader = r.leader_changes.at(-1)?.leader ?? 0;
  const gc = r.nodes[leader]?.gc_cpu_share ?? [];
  const gcMean = gc.length ? gc.reduce((a, p) => a + p.value, 0) / gc.length : 0;
  return {
    engine,
    throughput_kops: r.achieved_ops_per_s / 1000,
    p99_ms: r.latency.all.p99_us / 1000,
    gc_share_pct: gcMean * 100,
    met_slo: r.latency.all.p99_us / 1000 <= slo_ms,
    crashed: r.nodes.filter((n) => n.crashed_at_s !== undefined).map((n) => ({ node: n.node, t_s: n.crashed_at_s! })),
  };
}

/** The paper's max throughput at the SLO for an engine at a squeeze step, if the text states it. */
export function publishedAt(rows: ResultRow[], engine: EngineName, gib: number, workload: 'A' | 'B'): ResultRow | null {
  return (
    rows.find(
      (r) =>
        r.metric === 'max_throughput_slo' &&
        r.language === languageOf(engine) &&
        r.workload === workload &&
        r.memory_gib === gib &&
        r.vcpus === 8 &&
        r.instance_type === 'm5.2xlarge',
    ) ?? null
  );
}

/** The sentence under the race board for a step. */
export function raceSentence(lanes: Lane[], gib: number, rate: number): string {
  if (lanes.length === 0) return '';
  const missed = lanes.filter((l) => !l.met_slo).map((l) => languageOf(l.engine));
  const and = (xs: string[]) => (xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);
  const crashed = lanes.filter((l) => l.crashed.length > 0).map((l) => languageOf(l.engine));
  const top = [...lanes].sort((a, b) => b.gc_share_pct - a.gc_share_pct)[0]!;
  const slo = missed.length === 0 ? 'every engine keeps p99 within the SLO' : `${and(missed)} miss${missed.length === 1 ? 'es' : ''} the SLO`;
  const lostNodes = lanes.reduce((n, l) => n + l.crashed.length, 0);
  const lost = crashed.length ? ` ${and(crashed)} lost ${lostNodes === 1 ? 'a node' : 'nodes'} (out of memory).` : '';
  const gc = top.gc_share_pct > 0 ? `; ${languageOf(top.engine)}'s leader spends the most on GC (${top.gc_share_pct.toFixed(1)} % of its vCPUs)` : '';
  return `At ${gib} GiB and ${rate.toLocaleString('en-US')} ops/s offered, ${slo}${gc}.${lost}`;
}

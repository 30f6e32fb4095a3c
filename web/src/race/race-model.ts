// The race: the four engines while memory is squeezed, step by step, as in the paper's Figs 6
// and 9 (32 → 8 → 6 → 5 GiB of a 4 GiB dataset). Each lane's number is the paper's metric —
// the highest rate whose p99 meets the SLO at that memory — never an offered load. Pure.
import { languageOf, type EngineName } from '@replicant/engines/loader/catalogue';
import type { MitigationMode, SloSearchResult, SloSearchSpec } from '@replicant/sim/api';
import type { RaceState } from './race-fields.ts';
import type { ResultRow } from '../paper/results.ts';
import { paperGibOfRatio } from '@replicant/data/memory-ratio';

export const SQUEEZE = [8, 2, 1.5, 1.25].map((ratio) => ({ ratio, gib: paperGibOfRatio(ratio) }));

export interface Lane {
  engine: EngineName;
  /** The paper's metric: the highest rate whose p99 meets the SLO at this memory (simulated);
   * null when not even the lowest rate tried does. */
  max_kops: number | null;
  /** The lowest rate tried, for "< x" when nothing meets the SLO. */
  min_kops: number;
  /** p99 at that rate, and at the first rate above it that missed (what the collapse looks like). */
  p99_ms_at_max: number | null;
  missed: { kops: number; p99_ms: number; stopped_early: boolean } | null;
  gc_share_pct: number;
  /** Why the rate is where it is, when a collector event decides it (e.g. "G1 full collections
   * every 370 s (pause 1.8 s)"). */
  why: string | null;
  /** Nodes the best run lost (e.g. killed for running out of memory), with when. */
  crashed: { node: number; t_s: number }[];
  window_s: number;
}

const EVENT_WORDS: Record<string, string> = {
  g1_full: 'G1 full collections',
  g1_mixed: 'G1 mixed collections',
  g1_mixed_dense: 'G1 mixed collections of the whole map',
  g1_young: 'G1 young collections',
  g1_remark: 'G1 remark pauses',
  go_cycle: 'Go GC cycles',
};

function seconds(s: number): string {
  return s >= 10 ? `${Math.round(s)} s` : `${s.toFixed(1)} s`;
}

/** "G1 full collections every 370 s (pause 1.8 s)": the event that set the search's window. */
export function eventWords(e: { kind: string; period_s: number; pause_ms: number }): string {
  const what = EVENT_WORDS[e.kind] ?? e.kind;
  const pause = e.kind === 'go_cycle' ? '' : ` (pause ${e.pause_ms >= 1000 ? seconds(e.pause_ms / 1000) : `${Math.round(e.pause_ms)} ms`})`;
  return `${what} every ${seconds(e.period_s)}${pause}`;
}

/** What a lane shows from one engine's SLO search at the step's memory. */
export function laneOfSearch(engine: EngineName, r: SloSearchResult): Lane {
  const max = r.max_ops_per_s_at_slo;
  const probes = [...r.probes].sort((a, b) => a.target_ops_per_s - b.target_ops_per_s);
  const missedProbe = probes.find((p) => !p.met && (max === null || p.target_ops_per_s > max)) ?? null;
  const best = r.best_run;
  const leader = best ? (best.leader_at_end ?? best.leader_changes.at(-1)?.leader ?? 0) : 0;
  const event = r.deciding_event ?? null;
  const why = event && (engine === 'java' ? event.kind === 'g1_full' : event.kind === 'go_cycle') ? eventWords(event) : null;
  return {
    engine,
    max_kops: max === null ? null : max / 1000,
    min_kops: (probes[0]?.target_ops_per_s ?? 100) / 1000,
    p99_ms_at_max: r.p99_ms_at_max,
    missed: missedProbe ? { kops: missedProbe.target_ops_per_s / 1000, p99_ms: missedProbe.p99_ms, stopped_early: missedProbe.stopped_early } : null,
    gc_share_pct: best ? (best.nodes[leader]?.mean_gc_cpu_share ?? 0) * 100 : 0,
    why,
    crashed: best ? best.nodes.filter((n) => n.crashed_at_s !== undefined).map((n) => ({ node: n.node, t_s: n.crashed_at_s! })) : [],
    window_s: Math.max(0, ...r.probes.map((p) => p.window_s ?? 0)),
  };
}

/** The lane's reason line: what decides its number, and what the first rate above it did. */
export function laneReason(l: Lane, slo_ms: number): string {
  const miss = l.missed ? `${l.missed.stopped_early ? 'p99 over' : 'p99'} ${formatMs(l.missed.p99_ms)} at ${formatKops(l.missed.kops)} Kops/s` : null;
  if (l.max_kops === null) return `Misses the ${slo_ms} ms SLO even at ${formatKops(l.min_kops)} Kops/s${l.why ? `: ${l.why}` : ''}${miss ? `; ${miss}` : ''}.`;
  if (l.why) return `${l.why}; ${miss ?? `p99 ${formatMs(l.p99_ms_at_max ?? 0)} at the max`}.`;
  return miss ? `Above it: ${miss}.` : '';
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : ms >= 100 ? `${Math.round(ms)} ms` : `${ms.toFixed(1)} ms`;
}
export function formatKops(k: number): string {
  return k >= 10 ? k.toFixed(1) : k >= 1 ? k.toFixed(2) : k.toFixed(3);
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
export function raceSentence(lanes: Lane[], gib: number, slo_ms: number): string {
  if (lanes.length === 0) return '';
  const and = (xs: string[]) => (xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);
  const failed = lanes.filter((l) => l.max_kops === null).map((l) => languageOf(l.engine));
  const ranked = lanes.filter((l) => l.max_kops !== null).sort((a, b) => b.max_kops! - a.max_kops!);
  const order = ranked.map((l) => `${languageOf(l.engine)} ${formatKops(l.max_kops!)}`).join(', ');
  const head = order ? `At ${gib} GiB the highest rate meeting p99 ≤ ${slo_ms} ms is ${order} Kops/s` : `At ${gib} GiB no engine meets p99 ≤ ${slo_ms} ms`;
  const fail = failed.length ? `; ${and(failed)} cannot meet it at any rate tried` : '';
  const crashed = lanes.filter((l) => l.crashed.length > 0).map((l) => languageOf(l.engine));
  const lost = crashed.length ? ` ${and(crashed)} lost ${crashed.length === 1 && lanes.find((l) => l.crashed.length)!.crashed.length === 1 ? 'a node' : 'nodes'} (out of memory).` : '';
  return `${head}${fail} (simulated).${lost}`;
}

/** A lane's GC mitigation: the Race's choice for Go and Java; C++ and Rust have no collector. */
export function laneMitigation(race: Pick<RaceState, 'gomit' | 'javamit'>, engine: EngineName): MitigationMode {
  return engine === 'go' ? race.gomit : engine === 'java' ? race.javamit : 'none';
}

/** The lane's search with its mitigation (unchanged without one). */
export function withLaneMitigation(spec: SloSearchSpec, mode: MitigationMode): SloSearchSpec {
  return mode === 'none' ? spec : { ...spec, base: { ...spec.base, mitigation: { mode } } };
}

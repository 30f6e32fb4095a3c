// Pure part of probe-cpu.ts: a setting's probes (details/<setting>.jsonl "probe" lines) → the CPU
// figures of its last met, first missed and saturation probes. usage.cores lists the nodes in id
// order and YCSB last (measure.ts).

export interface DetailsProbe {
  kind: 'saturation' | 'search' | string;
  target_ops_per_s: number;
  achieved_ops_per_s: number;
  p99_ms: number | null;
  met: boolean;
  disturbed?: boolean;
  leader?: number | null;
  usage?: { cores: number[] };
}

export interface ProbeCpu {
  rate: number;
  p99_ms: number;
  /** The three servers' CPU together, cores (they share one core here). */
  nodes_cores: number;
  leader_us_per_op: number;
  ycsb_cores: number;
}

function figures(p: DetailsProbe | undefined): ProbeCpu | null {
  const cores = p?.usage?.cores;
  if (!p || !cores || cores.length < 2 || p.leader === null || p.leader === undefined || !(p.achieved_ops_per_s > 0)) return null;
  const nodes = cores.slice(0, -1);
  const leader = nodes[p.leader];
  if (leader === undefined) return null;
  return {
    rate: p.target_ops_per_s,
    p99_ms: p.p99_ms ?? Infinity,
    nodes_cores: nodes.reduce((a, b) => a + b, 0),
    leader_us_per_op: (leader / p.achieved_ops_per_s) * 1e6,
    ycsb_cores: cores.at(-1)!,
  };
}

/** The last clean met search probe (the answer), the lowest clean miss above it, the saturation
 * probe, and the number of search probes. */
export function probeCpu(probes: DetailsProbe[]): { met: ProbeCpu | null; missed: ProbeCpu | null; saturation: ProbeCpu | null; search_probes: number } {
  const search = probes.filter((p) => p.kind === 'search' && !p.disturbed);
  const met = search.filter((p) => p.met).sort((a, b) => b.target_ops_per_s - a.target_ops_per_s)[0];
  const above = search.filter((p) => !p.met && (!met || p.target_ops_per_s > met.target_ops_per_s)).sort((a, b) => a.target_ops_per_s - b.target_ops_per_s)[0];
  return {
    met: figures(met),
    missed: figures(above),
    saturation: figures(probes.find((p) => p.kind === 'saturation')),
    search_probes: probes.filter((p) => p.kind === 'search').length,
  };
}

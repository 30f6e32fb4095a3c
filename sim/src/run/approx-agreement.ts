// The approximate fast mode ('fast-approx', cycle-repeat.ts) against the plain fast run of the
// same spec. Bounds, and why:
// - throughput (achieved ops/s) within 0.5 %: below capacity both serve the offered rate; the
//   approximation's count differs only by the operations of the last partial repeat.
// - p99 within 5 %, and the verdict at the SLO (p99 ≤ 20 ms) the same: the p99 is read from the
//   plain run's own first stretch plus repeats of one of its cycles, so it moves only by how that
//   cycle's tail weighs against the cycles it replaces; 5 % is about the search's tolerance (4 %)
//   in rate at the knee, and the same verdict at the answer and one tolerance step above it
//   means a search on either mode brackets the same answer within its tolerance.
// - each node's mean CPU utilisation and GC share within 1 percentage point (the fidelity
//   table's utilisation and GC-share points are read to the point).
import type { RunResult, RunSpec } from '../api.ts';
import { simulate } from './simulate.ts';

export const APPROX_BOUNDS = { throughput_rel: 0.005, p99_rel: 0.05, cpu_pp: 1, gc_pp: 1, slo_p99_us: 20_000 } as const;

export interface ApproxComparison {
  label: string;
  target_ops_per_s: number;
  window_s: number;
  plain: { ops_per_s: number; p99_us: number; cpu: number[]; gc: number[]; ops: number };
  approx: { ops_per_s: number; p99_us: number; cpu: number[]; gc: number[]; ops: number; simulated_ops: number; simulated_s: number | null };
  throughput_error: number;
  p99_error: number;
  cpu_error_pp: number;
  gc_error_pp: number;
  same_verdict: boolean;
  ok: boolean;
}

function figures(r: RunResult) {
  return {
    ops_per_s: r.achieved_ops_per_s,
    p99_us: r.latency.all.p99_us,
    cpu: r.nodes.map((n) => n.mean_cpu_utilization),
    gc: r.nodes.map((n) => n.mean_gc_cpu_share),
    ops: r.latency.all.count,
  };
}

const maxGap_pp = (a: number[], b: number[]) => Math.max(0, ...a.map((x, i) => Math.abs(x - b[i]!) * 100));

/** The two runs' figures against the bounds. */
export function compareRuns(label: string, plain: RunResult, approx: RunResult): ApproxComparison {
  const p = figures(plain);
  const a = figures(approx);
  const throughput_error = p.ops_per_s > 0 ? Math.abs(a.ops_per_s - p.ops_per_s) / p.ops_per_s : a.ops_per_s === 0 ? 0 : Infinity;
  const p99_error = p.p99_us > 0 ? Math.abs(a.p99_us - p.p99_us) / p.p99_us : 0;
  const cpu_error_pp = maxGap_pp(a.cpu, p.cpu);
  const gc_error_pp = maxGap_pp(a.gc, p.gc);
  const met = (r: RunResult) => !r.stopped_early && r.latency.all.count > 0 && r.latency.all.p99_us <= APPROX_BOUNDS.slo_p99_us;
  const same_verdict = met(plain) === met(approx);
  return {
    label,
    target_ops_per_s: plain.spec.load.target_ops_per_s,
    window_s: plain.spec.load.duration_s,
    plain: p,
    approx: { ...a, simulated_ops: approx.approximation?.simulated_ops ?? a.ops, simulated_s: approx.approximation?.simulated_s ?? null },
    throughput_error,
    p99_error,
    cpu_error_pp,
    gc_error_pp,
    same_verdict,
    ok:
      same_verdict &&
      throughput_error <= APPROX_BOUNDS.throughput_rel &&
      p99_error <= APPROX_BOUNDS.p99_rel &&
      cpu_error_pp <= APPROX_BOUNDS.cpu_pp &&
      gc_error_pp <= APPROX_BOUNDS.gc_pp,
  };
}

/** A fast-mode spec run plain and approximated. */
export function compareApprox(label: string, spec: RunSpec): ApproxComparison {
  const plain = simulate({ ...spec, fidelity: 'fast' }, null);
  const approx = simulate({ ...spec, fidelity: 'fast-approx' }, null);
  return compareRuns(label, plain, approx);
}

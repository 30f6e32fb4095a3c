// Fast versus exact: the fast mode (the protocol model) must reproduce the exact mode (the real
// engines) on the same settings — throughput within 5 %, p99 within 15 % — or its sweeps are not
// worth running. The grid covers light load, queueing near a core limit, and a heap tight enough
// for the collector to run during the window.
import type { EngineName, RunSpec } from '../api.ts';
import { simulate, type EngineProvider } from './simulate.ts';
import { DEFAULT_CARD, param } from '../models/card.ts';
import { GIB, liveBytes } from '../models/node-model.ts';

export interface AgreementPoint {
  gc_events_exact: number;
  engine: EngineName;
  label: string;
  exact: { ops_per_s: number; p99_us: number };
  fast: { ops_per_s: number; p99_us: number };
  throughput_error: number; // relative
  p99_error: number; // relative
  ok: boolean;
}

export const THROUGHPUT_TOLERANCE = 0.05;
export const P99_TOLERANCE = 0.15;

export function agreementGrid(engine: EngineName): { label: string; spec: Omit<RunSpec, 'fidelity'> }[] {
  const base = (vcpus: number, memory_gib: number, target: number, label: string, records = 7_500_000) => ({
    label,
    spec: {
      cluster: { engines: [engine, engine, engine], seed: 11 },
      resources: { vcpus, memory_gib },
      workload: { name: 'A' as const, read_proportion: 0.5, record_count: records, engine_record_count: 500 },
      load: { mode: 'open' as const, target_ops_per_s: target, duration_s: 2, warmup_s: 0.5, drain_s: 1 },
    },
  });
  return [
    base(8, 32, 1500, '8 vCPU, 32 GiB, 1.5 Kops/s (light load)'),
    base(1, 32, 0, '1 vCPU, 32 GiB, ~70 % of one core (queueing)'),
    base(2, tightMemoryGib(engine), 2000, '2 vCPU, 100 k records, tight memory, 2 Kops/s (collector running)', TIGHT_RECORDS),
  ];
}

const TIGHT_RECORDS = 100_000;

/** Just above each runtime's live set (from the model card), so Go and Java collect several
 * times within the window; C++ and Rust get room to spare. */
function tightMemoryGib(engine: EngineName): number {
  const live = liveBytes(DEFAULT_CARD, engine, TIGHT_RECORDS, 0).data;
  const MiB = 2 ** 20;
  switch (engine) {
    case 'go': return (live + param(DEFAULT_CARD, 'memory.go.non_heap_bytes') + 24 * MiB) / GIB;
    case 'java': return (live + 64 * MiB) / GIB;
    default: return (live + 512 * MiB) / GIB;
  }
}

export function checkAgreement(engine: EngineName, provide: EngineProvider, onPoint?: (p: AgreementPoint) => void): AgreementPoint[] {
  const out: AgreementPoint[] = [];
  for (const g of agreementGrid(engine)) {
    let spec = g.spec;
    if (spec.load.target_ops_per_s === 0) {
      // ~70 % of one core, from the fast model's own leader utilisation at a probe rate.
      const probe = simulate({ ...spec, load: { ...spec.load, target_ops_per_s: 1000 }, fidelity: 'fast' }, null);
      const lead = probe.leader_at_end ?? 0;
      const perOp = probe.nodes[lead]!.mean_cpu_utilization / 1000;
      spec = { ...spec, load: { ...spec.load, target_ops_per_s: Math.round(0.7 / perOp) } };
    }
    const exact = simulate({ ...spec, fidelity: 'exact' }, provide);
    const fast = simulate({ ...spec, fidelity: 'fast' }, null);
    const te = Math.abs(fast.achieved_ops_per_s - exact.achieved_ops_per_s) / exact.achieved_ops_per_s;
    const pe = Math.abs(fast.latency.all.p99_us - exact.latency.all.p99_us) / exact.latency.all.p99_us;
    const p: AgreementPoint = {
      gc_events_exact: exact.nodes.reduce((s, n) => s + n.gc_events.length, 0),
      engine,
      label: `${g.label} @ ${spec.load.target_ops_per_s} ops/s`,
      exact: { ops_per_s: exact.achieved_ops_per_s, p99_us: exact.latency.all.p99_us },
      fast: { ops_per_s: fast.achieved_ops_per_s, p99_us: fast.latency.all.p99_us },
      throughput_error: te,
      p99_error: pe,
      ok: te <= THROUGHPUT_TOLERANCE && pe <= P99_TOLERANCE,
    };
    onPoint?.(p);
    out.push(p);
  }
  return out;
}

// A load run's per-node results: CPU, GC share and heap per timeline bucket over the workload,
// the collector's events, and the window's means. Pure: built from what the run's models
// recorded, rounded so the bytes of a result do not depend on floating-point noise below the
// precision shown.
import type { EngineName, NodeTimelines, TimelinePoint } from '../api.ts';
import type { UsageTimeline } from '../models/cpu.ts';
import { GIB } from '../models/node-model.ts';
import type { GcEvent } from '../models/runtime.ts';

/** What a node's models recorded during a run. */
export interface NodeRecord {
  id: number;
  engine: EngineName;
  usage: UsageTimeline;
  gc_events: readonly GcEvent[];
  /** the heap at the end of the run (a bucket before the first sample shows it) */
  heap_bytes_now: number;
  /** the heap at the last step of each bucket */
  heap_samples: readonly (number | undefined)[];
  ops_entered: number;
  allocated_bytes: number;
  crashed_at_us: number | null;
}

/** The run's phases, µs: the workload's start, the measured window [from, to). Infinity: never
 * reached (a run whose load phase did not end). */
export interface RunWindow {
  workload_start_us: number;
  from_us: number;
  to_us: number;
  bucket_us: number;
}

export function nodeTimelines(n: NodeRecord, w: RunWindow): NodeTimelines {
  const cpu: TimelinePoint[] = [];
  const gc: TimelinePoint[] = [];
  const heap: TimelinePoint[] = [];
  const u = n.usage;
  const b0 = Number.isFinite(w.workload_start_us) ? Math.floor(w.workload_start_us / w.bucket_us) : 0;
  const b1 = Number.isFinite(w.to_us) ? Math.ceil(w.to_us / w.bucket_us) : u.busy.length;
  let lastHeap = n.heap_bytes_now;
  for (let b = b0; b < b1; b++) {
    const t_s = round6(((b + 1) * w.bucket_us) / 1e6);
    const cap = w.bucket_us * u.cores;
    cpu.push({ t_s, value: round4(Math.min(1, (u.busy[b] ?? 0) / cap)) });
    gc.push({ t_s, value: round4(Math.min(1, (u.gc[b] ?? 0) / cap)) });
    lastHeap = n.heap_samples[b] ?? lastHeap;
    heap.push({ t_s, value: round4(lastHeap / GIB) });
  }
  const measured = Number.isFinite(w.from_us);
  const out: NodeTimelines = {
    node: n.id,
    engine: n.engine,
    cpu_utilization: cpu,
    gc_cpu_share: gc,
    gc_events: n.gc_events.map((g) => ({ t_s: round6(g.t_s), kind: g.kind, pause_ms: round4(g.pause_ms), cpu_ms: round4(g.cpu_ms), ...(g.duration_ms !== undefined ? { duration_ms: round4(g.duration_ms) } : {}) })),
    heap_gib: heap,
    mean_cpu_utilization: measured ? round4(u.utilization(w.from_us, w.to_us).total) : 0,
    mean_gc_cpu_share: measured ? round4(u.utilization(w.from_us, w.to_us).gc) : 0,
    ops_entered: n.ops_entered,
    allocated_bytes_per_op: n.ops_entered > 0 ? round4(n.allocated_bytes / n.ops_entered) : 0,
  };
  if (n.crashed_at_us !== null) out.crashed_at_s = round6(n.crashed_at_us / 1e6);
  return out;
}

export function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
export function round4(x: number): number {
  return Math.round(x * 10000) / 10000;
}
export function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

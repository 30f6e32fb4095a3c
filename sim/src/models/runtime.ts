// What a language runtime does to a node, as the simulator sees it: extra CPU per event
// (mutator assists, allocator work), stop-the-world pauses and cores taken by GC threads (placed
// on the node's CpuPool), the heap over time, and whether the process is killed for memory.
import type { CpuPool } from './cpu.ts';

export interface GcEvent {
  t_s: number;
  kind: string;
  pause_ms: number;
  cpu_ms: number;
  /** How long a concurrent cycle ran (Go cycles, G1 concurrent marking). */
  duration_ms?: number;
}

/** The `gc_pending` signal: a collection is coming, how far off (in bytes the node may still
 * allocate) and the pause the model predicts for it (exactly the pause it would take now; the
 * mitigation model adds MITMEM's prediction error). */
export interface GcPending {
  kind: string;
  bytes_to_collection: number;
  predicted_pause_ms: number;
}

/** Asked just before a collection would start (BLADE's upcall): true lets it start now; false
 * holds it (it is asked again at the next allocation). A runtime ignores a false answer once
 * holding would exhaust its memory: then it collects at once, as BLADE's runtime does. */
export type CollectionGate = (t_us: number, pending: GcPending) => boolean;

export interface RuntimeModel {
  /** Brings the model's phases up to time t (a GC cycle ending, …). */
  advance(t_us: number): void;
  /** An event on this node allocates `alloc_bytes` with `allocs` allocations; returns the extra
   * CPU time (µs) the event itself must spend (assists, allocator). */
  charge(t_us: number, alloc_bytes: number, allocs: number): number;
  /** An update (or `count` of them) replaced a value in the map (its old value becomes garbage,
   * the new one survives the next young collection): only a generational collector (G1) keeps
   * count. */
  onUpdate?(count?: number): void;
  /** Modelled heap (or resident) bytes now. */
  heapBytes(): number;
  readonly events: GcEvent[];
  /** Set when the process would be killed for exceeding its memory limit. */
  oom_at_us: number | null;
  /** gc_pending: the next collection, or null when the runtime has none (C++, Rust). */
  pending?(t_us: number): GcPending | null;
  /** The collector never runs (BLADE's "GC-Off" set-up, §5): the heap only grows. */
  disableCollector?(): void;
  /** Installs BLADE's gate on when collections may start (none: they start when due). */
  setGate?(gate: CollectionGate | null): void;
  /** Until when the current collection stops or slows the node (µs); ≤ now when none runs. */
  collectingUntil_us?(): number;
  /** Until when the event just charged must wait before its work runs, without using a core
   * (a Go assist parked on the assist queue); ≤ now when it need not. */
  assistParkedUntil_us?(): number;
  /** Until when a stop-the-world pause stops the node (µs), for a runtime whose pauses hold
   * requests (G1's); a runtime that only slows the node (Go's concurrent cycles) has none. */
  stoppedUntil_us?(): number;
  /** True when the memory limit changes nothing this model does: no collector, and a resident
   * set that fits (no OOM kill). Two runs that differ only in such a limit are the same run. */
  limitChangesNothing?(): boolean;
}

/** C++ and Rust: no collector. Each allocation costs allocator time; the resident set is the
 * live data plus allocator overhead; above the memory limit the kernel kills the process. */
export class ManualMemory implements RuntimeModel {
  readonly events: GcEvent[] = [];
  oom_at_us: number | null = null;

  constructor(
    private readonly resident_bytes: number,
    private readonly limit_bytes: number,
    private readonly alloc_ns_per_allocation: number,
  ) {}

  advance(t_us: number): void {
    if (this.oom_at_us === null && this.resident_bytes > this.limit_bytes) this.oom_at_us = t_us;
  }

  charge(_t_us: number, _alloc_bytes: number, allocs: number): number {
    return (allocs * this.alloc_ns_per_allocation) / 1000;
  }

  heapBytes(): number {
    return this.resident_bytes;
  }

  limitChangesNothing(): boolean {
    return this.resident_bytes <= this.limit_bytes;
  }
}

export type { CpuPool };

// Builds each node's resource models (CPU costs, memory, runtime) from the model card and the
// run's settings. Every number comes from the card; nothing here is tuned.
import type { EngineName, ModelCard } from '../api.ts';
import { langParam, param } from './card.ts';
import type { CpuPool } from './cpu.ts';
import { G1Runtime, g1GcThreads, type G1State } from './g1.ts';
import { GoRuntime } from './go-gc.ts';
import { g1PhasesIndependent } from './start-phases.ts';
import { ManualMemory, type RuntimeModel } from './runtime.ts';

export const GIB = 1024 ** 3;

/** CPU costs of one engine event, µs (card group "cpu"). */
export interface CpuCosts {
  in_us: number; // receive and parse a message or client request (parallel)
  timer_us: number; // wake up for a timer (parallel)
  step_us: number; // the core step under the Log mutex (serialized)
  out_us: number; // encode and write one message or reply (parallel)
  per_kib_us: number; // per KiB read or written (parallel)
}

export function cpuCosts(card: ModelCard, e: EngineName): CpuCosts {
  return {
    in_us: langParam(card, 'cpu', e, 'in_us'),
    timer_us: langParam(card, 'cpu', e, 'timer_us'),
    step_us: langParam(card, 'cpu', e, 'step_us'),
    out_us: langParam(card, 'cpu', e, 'out_us'),
    per_kib_us: langParam(card, 'cpu', e, 'per_kib_us'),
  };
}

/** Modelled live data of one node: the records in this language's map plus the log. */
export function liveBytes(card: ModelCard, e: EngineName, records: number, logInstances: number): { data: number; log: number } {
  return {
    data: records * langParam(card, 'memory', e, 'bytes_per_record'),
    log: logInstances * langParam(card, 'memory', e, 'bytes_per_log_instance'),
  };
}

export interface NodeRuntimeSettings {
  engine: EngineName;
  memory_bytes: number;
  vcpus: number;
  records: number;
  log_instances: number;
  /** G1 only: start the collector in this phase (the steady-state shortcut) instead of fresh. */
  g1_state?: G1State;
  /** Go only: where in its cycle sequence the process is at t = 0, in [0, 1) (GoGcParams.start_phase). */
  go_start_phase?: number;
  /** G1 only, fresh start (no g1_state): how far into its first eden the process is, in [0, 1)
   * (card 1.8.1 on, g1.independent_phases; G1Runtime.startInPhase). */
  g1_start_phase?: number;
}

export function makeRuntime(card: ModelCard, s: NodeRuntimeSettings, pool: CpuPool): RuntimeModel {
  const live = liveBytes(card, s.engine, s.records, s.log_instances);
  // A node with a fractional vCPU count runs on slower cores (CpuPool.speed): the card's GC
  // times are for a whole core, so a pause or a concurrent phase takes 1 / speed as long. Go's
  // mark work is charged through the pool (assists) and its workers' wall time is not
  // stretched: only its stop-the-world phases are (sim/README.md, "CPU").
  const slow = 1 / pool.speed;
  const threads = Math.ceil(s.vcpus);
  switch (s.engine) {
    case 'go':
      return new GoRuntime(
        {
          gogc: param(card, 'go.gogc'),
          memory_limit_bytes: s.memory_bytes,
          non_heap_bytes: langParam(card, 'memory', 'go', 'non_heap_bytes'),
          gomaxprocs: threads,
          mark_ns_per_live_byte: param(card, 'go.mark_ns_per_live_byte'),
          trigger_runway_fraction: param(card, 'go.trigger_runway_fraction'),
          stw_us: param(card, 'go.stw_us') * slow,
          dedicated_fraction: param(card, 'go.dedicated_fraction'),
          cpu_limit_fraction: param(card, 'go.cpu_limit_fraction'),
          cpu_limit_window_us: param(card, 'go.cpu_limit_window_us'),
          // A card before 1.2.0 has no idle-time workers.
          idle_workers: (card.parameters['go.idle_workers']?.value ?? 0) > 0,
          // A card before 1.5.0 charges assists as CPU only and never parks a request.
          park_assists: (card.parameters['go.park_assists']?.value ?? 0) > 0,
          start_phase: s.go_start_phase ?? 0,
          // A card before 1.6.0 starts a back-to-back cycle only when the next event arrives.
          chain_cycles: (card.parameters['go.chain_cycles']?.value ?? 0) > 0,
          // A card before 1.7.1 has idle-time workers that yield at once and no limit headroom.
          idle_check_us: ((card.parameters['go.drain_check_bytes']?.value ?? 0) * param(card, 'go.mark_ns_per_live_byte')) / 1000,
          limit_headroom_fraction: card.parameters['go.limit_headroom_fraction']?.value ?? 0,
        },
        live.data + live.log,
        pool,
      );
    case 'java': {
      const g1 = new G1Runtime(
        {
          heap_bytes: s.memory_bytes,
          parallel_gc_threads: g1GcThreads(threads).parallel,
          conc_gc_threads: g1GcThreads(threads).concurrent,
          new_size_min_fraction: param(card, 'g1.new_size_min_fraction'),
          new_size_max_fraction: param(card, 'g1.new_size_max_fraction'),
          reserve_fraction: param(card, 'g1.reserve_fraction'),
          ihop_fraction: param(card, 'g1.ihop_fraction'),
          young_pause_fixed_ms: param(card, 'g1.young_pause_fixed_ms') * slow,
          copy_ns_per_byte: param(card, 'g1.copy_ns_per_byte') * slow,
          card_scan_ns_per_update: param(card, 'g1.card_scan_ns_per_update') * slow,
          mark_ns_per_live_byte: param(card, 'g1.mark_ns_per_live_byte') * slow,
          remark_pause_ms: param(card, 'g1.remark_pause_ms') * slow,
          mixed_reclaimable_fraction: param(card, 'g1.mixed_reclaimable_fraction'),
          mixed_count: param(card, 'g1.mixed_count'),
          full_gc_ns_per_live_byte: param(card, 'g1.full_gc_ns_per_live_byte') * slow,
          // A card before 1.4.0 sizes eden by the percentages alone.
          pause_goal_ms: card.parameters['g1.pause_goal_ms']?.value ?? Infinity,
          // A card before 1.5.0 promotes every survivor at its first pause.
          max_tenuring_threshold: card.parameters['g1.max_tenuring_threshold']?.value ?? 1,
          survivor_target_fraction: card.parameters['g1.survivor_target_fraction']?.value ?? 0,
          // A card before 1.7.0 takes its reclaimable share of all old garbage at every marking cycle.
          reclaim_once: (card.parameters['g1.reclaim_once']?.value ?? 0) > 0,
          // A card before 1.8.0 never takes the map's dense regions in a mixed collection.
          dense_candidates: (card.parameters['g1.dense_candidates']?.value ?? 0) > 0,
          live_threshold_fraction: card.parameters['g1.mixed_live_threshold_fraction']?.value ?? 0.85,
        },
        live.data,
        live.log,
        langParam(card, 'memory', 'java', 'bytes_per_value'),
        pool,
      );
      if (s.g1_state) g1.setState(s.g1_state);
      else if (s.g1_start_phase !== undefined && g1PhasesIndependent(card)) g1.startInPhase(s.g1_start_phase);
      return g1;
    }
    case 'cpp':
    case 'rust':
      return new ManualMemory(
        live.data + live.log + langParam(card, 'memory', s.engine, 'non_heap_bytes'),
        s.memory_bytes,
        langParam(card, 'alloc', s.engine, 'ns_per_allocation'),
      );
  }
}

// The simulator's public contract: what the web lab, the lessons and the CLI may rely on.
// Everything here is plain data (structured-clone safe) so it crosses the Web Worker boundary
// unchanged. The simulator imports no UI code; the UI imports only this file and the worker
// protocol (worker-protocol.ts).
//
// Units are last in names: _us (virtual microseconds), _ms, _s, _gib, _bytes, _ops_per_s.

/** The simulator never loads engines itself: the caller (web worker, CLI, tests) hands it a
 * function that returns an already loaded SyncEngine (engines/loader/engine.ts) by name. */
import type { EngineName, SyncEngine } from '@replicant/engines/loader/engine';
import type { MitigationSpec, MitigationStats } from './models/mitigation.ts';
export type { MitigationMode, MitigationSpec, MitigationStats } from './models/mitigation.ts';
import type { StorageSpec, StorageStats } from './models/storage-types.ts';
export type { DeviceClass, DurabilityPlacement, StorageSpec, StorageStats } from './models/storage-types.ts';
export type { EngineName, SyncEngine };
export type EngineProvider = (name: EngineName) => SyncEngine;

/** 'fast-approx': fast mode that simulates its window only until each node's collector cycle
 * (or quiet stretch) repeats, and repeats it over the rest (sim/src/run/cycle-repeat.ts; an
 * approximation of 'fast', held to it by the approximate-agreement test). */
export type Fidelity = 'exact' | 'fast' | 'fast-approx';

/** The cluster: one engine per node (3 or 5 nodes; engines may be mixed). */
export interface ClusterSpec {
  engines: EngineName[];
  seed: number;
  commit_interval_us?: number; // default 150000 (the paper's 150 ms)
  /** Check-quorum (docs/protocol.md); default false, the paper's protocol. Step sessions only. */
  check_quorum?: boolean;
  /** Durability (docs/protocol.md): 'none' (default, the paper's: a restart is empty) or 'log'
   * (the cores emit persist effects; a step session writes them to the node's disk at once and
   * restarts a crashed node from them). Step sessions only. */
  durability?: 'none' | 'log';
  /** Steady-state repair and state transfer (docs/protocol.md): entries re-sent to a follower
   * per heartbeat; 0 (default) is the paper's protocol, the native servers use 256. Step
   * sessions only. */
  repair_batch?: number;
}

/** One AWS availability zone by default; the model card names the source of the figures. */
export interface NetworkSpec {
  one_way_latency_us?: number;
  jitter_us?: number;
  bandwidth_gbps?: number;
}

/** Per node. Memory is either an absolute heap/limit or a memory:data ratio (paper: 8, 2, 1.5, 1.25). */
export interface ResourceSpec {
  vcpus: number;
  memory_gib?: number;
  memory_to_data_ratio?: number;
}

export type Distribution = 'zipfian' | 'uniform' | 'latest';

export interface WorkloadSpec {
  name: 'A' | 'B' | 'custom';
  read_proportion: number; // A 0.5, B 0.95
  record_count: number; // modelled records (the paper: 7.5 M); the engines hold a scaled-down copy
  key_bytes?: number; // 23 (YCSB default keys, the paper's §4.3)
  value_bytes?: number; // 500
  distribution?: Distribution; // zipfian (YCSB's scrambled zipfian, 0.99)
  /** Exact mode: records the engines really hold (default min(record_count, 1000)); requests
   * for any of the modelled records go to key (record mod engine_record_count). The memory
   * model always accounts for record_count. */
  engine_record_count?: number;
}

export interface LoadSpec {
  mode: 'open' | 'closed'; // open: latency from each request's intended start (YCSB `intended`)
  target_ops_per_s: number;
  client_threads?: number; // 64
  duration_s: number; // measured window, simulated seconds
  warmup_s?: number; // default 0
  /** After the window: how long the run may go on for the window's last answers (default
   * max(2, 0.1·duration_s)); operations still unanswered then count with the latency reached. */
  drain_s?: number;
  /** Resolution of the CPU / GC / heap timelines (default 1000 ms, 100 ms for runs under 20 s). */
  timeline_bucket_ms?: number;
}

export interface RunSpec {
  cluster: ClusterSpec;
  network?: NetworkSpec;
  resources: ResourceSpec;
  workload: WorkloadSpec;
  load: LoadSpec;
  fidelity: Fidelity;
  /** A model card to use instead of the default (data/models/). */
  model_card?: ModelCard;
  /** The GC-mitigation sandbox (models/mitigation.ts): off unless given. In exact mode BLADE is
   * the engines' own extension (gc_pending / collect / handoff; docs/mitigation.md). */
  mitigation?: MitigationSpec;
  /** Durability and its device (models/storage.ts): none unless given. "scattered" (FLEET's
   * placement) needs fidelity "fast": the engines release what a persist holds in persist order. */
  storage?: StorageSpec;
}

/** A latency histogram summary (HdrHistogram underneath), all in microseconds. */
export interface LatencySummary {
  count: number;
  mean_us: number;
  max_us: number;
  /** Percentile spectrum for the log 1/(1-p) plot: [percentile, value_us] pairs. */
  spectrum: [number, number][];
  p50_us: number;
  p99_us: number;
  p999_us: number;
  /** HdrHistogram's portable base64 encoding, for tools and downloads. */
  hdr_base64: string;
}

export interface TimelinePoint {
  t_s: number;
  value: number;
}

export interface NodeTimelines {
  node: number;
  engine: EngineName;
  /** Share of the node's vCPUs busy, 0..1, per bucket (the paper's "aggregate vCPU utilization"). */
  cpu_utilization: TimelinePoint[];
  /** Share of the node's vCPUs spent on GC, 0..1, per bucket. */
  gc_cpu_share: TimelinePoint[];
  /** Individual GC events (Go cycles, G1 young/mixed/full collections). */
  /** duration_ms: how long a concurrent cycle ran (Go cycles, G1 concurrent marking). */
  gc_events: { t_s: number; kind: string; pause_ms: number; cpu_ms: number; duration_ms?: number }[];
  heap_gib: TimelinePoint[];
  /** Means over the measured window. */
  mean_cpu_utilization: number;
  mean_gc_cpu_share: number;
  /** Operations that entered this node's log over the whole run (warm-up included), and the
   * mean heap bytes the model allocated per operation (model card alloc.<engine>.*). */
  ops_entered: number;
  allocated_bytes_per_op: number;
  crashed_at_s?: number; // e.g. an OOM kill of a C++/Rust node
}

export interface RunResult {
  simulated: true;
  model_card_version: string;
  fidelity: Fidelity;
  spec: RunSpec;
  /** The scale: what the memory model accounts for vs what the engines really hold. */
  dataset: { modelled_records: number; engine_records: number; memory_gib: number; raw_data_gib: number };
  achieved_ops_per_s: number;
  latency: { all: LatencySummary; read: LatencySummary; update: LatencySummary };
  /** The same run measured as a closed-loop client would see it (coordinated omission). */
  latency_uncorrected?: { all: LatencySummary };
  leader_changes: { t_s: number; leader: number }[];
  leader_at_end: number | null;
  nodes: NodeTimelines[];
  /** An SLO-search probe stopped once more than 1 % of its expected operations had missed the
   * SLO: its p99 is known to be above the SLO, its other figures cover only part of the window. */
  stopped_early: boolean;
  /** Only on a run stopped early: the operations answered per simulated second from the start
   * of the load to the stop, warm-up included. An overloaded run serves what the cluster can
   * carry, so the SLO search takes it as its first guess. */
  served_ops_per_s?: number;
  /** Only when the spec asks for a mitigation: what it did (model version, handoffs, busy replies). */
  mitigation?: MitigationStats;
  /** Only when the spec asks for durability: the storage model's version, flushes, group
   * commit, and the modelled recovery times. */
  storage?: StorageStats;
  /** Only on a run that ended its window early once settled (RunHooks.end_when_settled, the
   * steady-state shortcut's runs): the seconds of the window it measured. */
  settled_at_s?: number;
  /** The window's operations slower than a threshold (when asked for: SLO-search probes). */
  ops_over?: { threshold_us: number; count: number };
  /** Only with fidelity 'fast-approx' where the window was repeated: the window's seconds
   * simulated and repeated, each node's repeated stretch, the operations simulated in the window
   * (the rest of latency.all.count are repeats). */
  approximation?: { simulated_s: number; repeated_s: number; stretch_s: number[]; simulated_ops: number };
  /** Wall-clock cost of the run, for the speed benchmark; not part of deterministic output. */
  wall_ms?: number;
}

/** The paper's method: the highest target rate whose p99 meets the SLO, by bisection. */
export interface SloSearchSpec {
  base: RunSpec;
  slo_p99_ms: number; // 20
  min_ops_per_s?: number;
  max_ops_per_s?: number;
  tolerance?: number; // relative, e.g. 0.02
  /** Longer windows at low rates: each probe runs for clamp(probe_operations / target,
   * base.load.duration_s, max_duration_s) seconds, so rare events (a full GC every few minutes)
   * are seen at the rates where they decide the p99. Off unless given. */
  probe_operations?: number;
  max_duration_s?: number;
  /** How long each probe runs. 'model' (the default, the paper's method): at least
   * base.load.duration_s, lengthened to one period of the rarest collector event that can decide
   * the p99 at the probe's rate (sim/src/run/measurement.ts, modelWindow), at most
   * max_duration_s (600). 'fixed': base.load.duration_s (or probe_operations, if given). */
  window?: 'model' | 'fixed';
  /** Fast mode with a model window set by G1's full collections: simulate the episode around
   * one full collection and a steady-state sample, and weigh them to the whole window, instead
   * of the whole window (default true; checked against the plain run in run/shortcut.test.ts). */
  steady_state_shortcut?: boolean;
  /** With the shortcut: its runs end once settled — an episode when the backlog of its pauses
   * has drained, a sample of a stretch with no pause once it has shown no operation near the SLO
   * (RunHooks.end_when_settled; default true; false runs them their whole planned length). */
  settled_runs?: boolean;
  /** A rate known to meet the SLO and one known to miss it at a neighbouring setting (a sweep's
   * previous point): the search starts from them instead of the full bracket. Only a hint: both
   * are probed again here. */
  hint?: { met_ops_per_s?: number; missed_ops_per_s?: number };
}

export interface SloSearchResult {
  simulated: true;
  model_card_version: string;
  max_ops_per_s_at_slo: number | null; // null: not even the minimum rate meets the SLO
  p99_ms_at_max: number | null;
  leader_cpu_utilization_at_max: number | null;
  /** Mean of the followers' CPU utilisation at that rate. */
  follower_cpu_utilization_at_max?: number | null;
  /** p99_ms of a probe that stopped early is the SLO itself, a lower bound. */
  probes: SloProbe[];
  best_run?: RunResult;
  /** The collector event that set the window of the first missed probe above the answer (or of
   * the best probe), e.g. { kind: 'g1_full', period_s: 41, pause_ms: 1830 }; null: none did. */
  deciding_event?: { kind: string; period_s: number; pause_ms: number } | null;
}

export interface SloProbe {
  target_ops_per_s: number;
  p99_ms: number;
  achieved_ops_per_s: number;
  met: boolean;
  stopped_early: boolean;
  /** The probe's measured window (simulated seconds) and the collector event that set it. */
  window_s?: number;
  window_event?: { kind: string; period_s: number; pause_ms: number } | null;
  /** Set when the probe was estimated by the steady-state shortcut: the simulated seconds of the
   * episode and of the steady sample it weighed to the window. */
  estimated_from?: { episode_s: number; steady_s: number };
  /** Set when the probe's run measured only a sample of its window (Go's GC cycles, each node's
   * seen to its end, or G1's pauses; slo.ts collectorSample): the simulated seconds measured. */
  sampled_s?: number;
  /** Share of the window's operations slower than the SLO (0..1), when known. */
  over_slo_share?: number;
}

export interface SweepSpec {
  base: RunSpec;
  slo_p99_ms: number;
  min_ops_per_s?: number;
  max_ops_per_s?: number;
  tolerance?: number;
  probe_operations?: number;
  max_duration_s?: number;
  window?: 'model' | 'fixed';
  steady_state_shortcut?: boolean;
  /** Warm starts for each engine's first point (e.g. from an earlier sweep of the same engine). */
  hints?: Partial<Record<EngineName, { met_ops_per_s?: number; missed_ops_per_s?: number }>>;
  engines: EngineName[]; // each point runs a homogeneous cluster of this engine
  memory_gib?: number[];
  memory_to_data_ratio?: number[];
  vcpus?: number[];
}

export interface SweepPoint {
  engine: EngineName;
  memory_gib: number;
  vcpus: number;
  result: SloSearchResult;
}

export interface SweepResult {
  simulated: true;
  model_card_version: string;
  points: SweepPoint[];
}

/** A parameter of the model card: every number says where it comes from. */
export interface CardParameter {
  value: number;
  unit: string;
  source: 'measured' | 'derived' | 'assumed';
  /** e.g. "bench calibrate, 2026-11-22, commit abc123" or "paper §5.2: C++ leader at 75% for 28.7 Kops/s" */
  note: string;
}

export interface ModelCard {
  version: string;
  description: string;
  parameters: Record<string, CardParameter>;
}

// --- step mode (students, lessons, faults): the same engines, driven one event at a time ---

export type PendingItem =
  | { kind: 'message'; id: number; from: number; to: number; type: string; due_us: number; json: string }
  | { kind: 'timer'; id: number; node: number; timer: 'election' | 'commit'; due_us: number }
  | { kind: 'client'; id: number; node: number; line: string; due_us: number };

/** One thing that happened: an event fed to a node and every effect it produced. An entry
 * whose `event` is empty is a simulator action that fed no core (drop, cut, crash…); it carries
 * the number of the step before it. */
export interface TraceEntry {
  step: number;
  t_us: number;
  node: number;
  /** The canonical event fed to the core. */
  event: string;
  /** The core's effects, JSON Lines, verbatim. */
  effects: string;
  /** What the simulator did around it: deliveries lost to a cut link, drops, crashes… */
  notes: string[];
}

export interface StepSessionSpec {
  cluster: ClusterSpec;
  network?: NetworkSpec;
}

/** A step-mode session. Every call is deterministic; rewind(step) re-runs from the seed and
 * replays the recorded choices, so any screen can be reproduced from (spec, choices). */
export interface StepSession {
  readonly time_us: number;
  readonly steps_taken: number;
  pending(): PendingItem[];
  /** Carries out the pending item due first (ties by id). */
  next(): TraceEntry | null;
  deliver(message_id: number): TraceEntry | null; // null: lost (cut link, crashed node)
  drop(message_id: number): void;
  duplicate(message_id: number): void;
  /** Fires an armed timer now, even before its due time (time does not move). next() fires a
   * timer that is due first at its due time. */
  fire(timer_id: number): TraceEntry;
  client(node: number, line: string): number; // queues a client command; returns its pending id
  crash(node: number): void;
  /** Brings a crashed node back: from its disk in durability log (its persisted records), empty
   * in durability none. */
  restart(node: number): void;
  /** Brings a crashed node back with its disk wiped (empty, as in durability none). */
  restartWiped(node: number): void;
  /** The records on a node's disk (durability log), each one canonical JSON, in the order
   * written; [] in durability none. A crash keeps them; a wiped restart loses them. */
  disk(node: number): string[];
  cut(from: number, to: number): void;
  heal(): void;
  run_until(t_us: number, max_steps?: number): TraceEntry[];
  run_until_quiet(max_steps?: number): TraceEntry[]; // until only timers are pending
  inspect(node: number): string; // the core's inspect JSON (null if down)
  trace(): TraceEntry[];
  /** The choices made so far, enough to rebuild the session (URL state): "deliver 12",
   * "timer 3" (fired when due), "fire 3" (fired early), "drop 12", "dup 12", "client 0 put k v",
   * "crash 1", "restart 1", "wipe 1" (a wiped restart), "cut 0 1", "heal", "until 500000". */
  choices(): string[];
  /** Rebuilds the session from its seed and replays the recorded choices up to step N (the
   * boot steps, one per node, always run). */
  rewind(to_step: number): void;
  /** Rebuilds the session from its seed and the given choices (e.g. from a URL). */
  replay(choices: string[]): void;
}

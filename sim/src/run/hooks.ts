// What a caller of a load run may ask of it besides its spec: progress, cancellation, the SLO
// search's early stop and counts, the steady-state shortcut's starting phases.
import type { G1State } from '../models/g1.ts';
import type { LatencyHistogram } from '../metrics/histogram.ts';

export interface RunHooks {
  /** Called now and then with the share of virtual time done (0..1). */
  progress?: (fraction: number) => void;
  /** Polled now and then; returning true stops the run with a CancelledError. */
  cancelled?: () => boolean;
  /** SLO search: stop as soon as more than 1 % of the window's expected operations are slower
   * than this (the p99 can no longer meet it). The result says stopped_early. */
  stop_when_p99_exceeds_us?: number;
  /** With stop_when_p99_exceeds_us: stop once more than this many operations are slower (by
   * default 1 % of the window's expected operations, + 1). A run that is one part of a probe
   * (slo.ts, the steady-state shortcut) gets what the probe's verdict has left. */
  stop_when_over_count_exceeds?: number;
  /** Count the window's operations slower than this (RunResult.ops_over). */
  count_over_us?: number;
  /** Fast mode, the steady-state shortcut: G1 collectors start in these phases, by node (node 0
   * leads in fast mode; a node past the list's end takes its last: [leader, follower] puts both
   * followers in step, one state per node gives each its own, card 1.8.1 on). */
  g1_states?: G1State[];
  /** Fast mode, the steady-state shortcut's runs (slo.ts): the window may end early, at the first
   * check at least `after_s` into it where the run has settled — no window operation more than
   * `lag_ms` past its intended start is unanswered (a pause's backlog has drained) and, with
   * `calm_ms`, no answered one took longer than that. What follows is the steady state the
   * shortcut weighs by its own sample, so simulating it adds nothing. The result says where the
   * window ended (`RunResult.settled_at_s`). Ignored where operations are not issued ahead (exact
   * mode, the mitigation sandbox, durability, a closed loop): the window then runs to its end.
   * With `after_collections` (n), not before every node has had n collections that began inside
   * the window (Go's cycles, G1's pauses) or, by its pacer or eden, starts none before the
   * window's end (sampled probes, slo.ts collectorSample: the sample holds each node's
   * collections that the window would). */
  end_when_settled?: { after_s: number; lag_ms: number; calm_ms?: number; after_collections?: number };
  /** Handed the window's latencies (reads and updates) when the run ends: the steady-state
   * shortcut weighs its runs' histograms into the window's p99. */
  window_latencies?: (latencies: LatencyHistogram) => void;
  /** Fast mode: false takes every follower step from the queue (the plain run that stepping
   * ahead is checked against); default true. */
  step_ahead?: boolean;
  /** Fast mode, stepping ahead: false queues the messages that reach the leader as heap events
   * instead of in their links' FIFO lanes (run/run-queue.ts; the same order, checked byte for
   * byte by run-queue.test.ts); default true. */
  link_lanes?: boolean;
  /** Exact mode: true steps a node's next events together through the engine's batch step
   * (run/node-queue.ts) instead of one event a call: the same run, byte for
   * byte (batch-step.test.ts). Default false: at the bench's rates the per-node view of the
   * queue costs what the fewer calls save (sim/README.md, "Speed"). */
  batch_steps?: boolean;
}

export class CancelledError extends Error {
  constructor() {
    super('run cancelled');
    this.name = 'CancelledError';
  }
}

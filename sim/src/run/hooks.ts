// What a caller of a load run may ask of it besides its spec: progress, cancellation, the SLO
// search's early stop and counts, the steady-state shortcut's starting phases.
import type { G1State } from '../models/g1.ts';

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
  /** Fast mode: false takes every follower step from the queue (the plain run that stepping
   * ahead is checked against); default true. */
  step_ahead?: boolean;
}

export class CancelledError extends Error {
  constructor() {
    super('run cancelled');
    this.name = 'CancelledError';
  }
}

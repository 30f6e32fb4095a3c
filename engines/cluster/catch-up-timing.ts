// Issue 20's "the follower catches up and trimming resumes within a second", timed from the
// servers' own stamped status lines (node-status.ts) rather than by when this process noticed:
// the reset tests run the servers with a short --status-interval-ms (FINE_STATUS_INTERVAL_MS),
// so each figure is an upper bound at that resolution. One definition for every engine:
//
// - the reference index is the leader's last_executed on its first status line stamped at or
//   after the reset (everything the follower must now execute came after the reset, through
//   whatever the reset dropped);
// - "caught up" is the first follower line stamped after the reset whose last_executed reaches
//   the reference;
// - "trimming resumed" is the first leader line stamped after the reset whose
//   global_last_executed reaches the reference (every peer reported executing it, and the
//   leader trims to it).
import type { NodeStatus } from './node-status.ts';

/** The status period the reset tests give the servers: ten lines a second unless
 * REPLICANT_STATUS_INTERVAL_MS says otherwise (an A/B of what the status path itself costs). */
export const FINE_STATUS_INTERVAL_MS = statusIntervalFromEnv(process.env.REPLICANT_STATUS_INTERVAL_MS);

/** The status period named by `text` (unset: 100 ms); the servers take 10..60000 ms. */
export function statusIntervalFromEnv(text: string | undefined): number {
  if (text === undefined || text === '') return 100;
  const ms = Number(text);
  if (!Number.isInteger(ms) || ms < 10 || ms > 60_000)
    throw new Error(`REPLICANT_STATUS_INTERVAL_MS must be a whole number of ms from 10 to 60000, not ${JSON.stringify(text)}`);
  return ms;
}

export interface StampedStatus {
  atMs: number;
  status: NodeStatus;
}

export interface CatchUpTimes {
  /** The leader's last_executed on its first line stamped at or after the reset (null: none yet). */
  referenceIndex: number | null;
  /** ms from the reset to the follower's first line at or past the reference (null: none yet). */
  caughtUpMs: number | null;
  /** ms from the reset to the leader's first line whose gle reaches the reference. */
  trimmingResumedMs: number | null;
  /** The worst timer lateness either node reported on its lines from the reset until both
   * events (what the machine took from the servers meanwhile, as they measured it). */
  timerLateMs: number;
}

/** The catch-up figures for a reset at `resetAtMs`, from both nodes' stamped lines (pure). */
export function catchUpTimes(leaderLines: StampedStatus[], followerLines: StampedStatus[], resetAtMs: number): CatchUpTimes {
  const leaderAfter = leaderLines.filter((x) => x.atMs >= resetAtMs);
  const followerAfter = followerLines.filter((x) => x.atMs >= resetAtMs);
  const reference = leaderAfter[0]?.status.last_executed ?? null;
  const since = (x: StampedStatus | undefined) => (x === undefined ? null : x.atMs - resetAtMs);
  const caughtUp = reference === null ? undefined : followerAfter.find((x) => x.status.last_executed >= reference);
  const trimmed = reference === null ? undefined : leaderAfter.find((x) => x.status.global_last_executed >= reference);
  // lateness over the lines up to the later event (all lines after the reset while one is missing)
  const endMs = caughtUp && trimmed ? Math.max(caughtUp.atMs, trimmed.atMs) : Infinity;
  const late = [...leaderAfter, ...followerAfter].filter((x) => x.atMs <= endMs).map((x) => x.status.timer_late_max_ms ?? 0);
  return { referenceIndex: reference, caughtUpMs: since(caughtUp), trimmingResumedMs: since(trimmed), timerLateMs: Math.max(0, ...late) };
}

/** What the rest of the cluster went through while a follower caught up. A catch-up slower
 * than a few heartbeats has had two causes since the peer proxies left the reset tests' message
 * path (their event loop, stalled under load, held every peer message: docs/reliability.md,
 * "Fifth series"), and these tell them apart: an election (a node that heard no heartbeat in
 * time stood, and a healthy leader can lose its place to it: `elections`), or servers held back
 * by the machine (`clusterTimerLateMs`, every node's, the third one's too: its election can
 * depose the leader). */
export interface ResetCatchUp extends CatchUpTimes {
  /** Elections the nodes started from the reset until both events (status `elections`). */
  elections: number;
  /** The worst timer lateness any node reported over the same lines. */
  clusterTimerLateMs: number;
}

/** Elections started and the worst timer lateness over every node's lines stamped from the reset
 * until `t`'s later event (all of them while one is missing), given each node's `elections`
 * counter on its last line before the reset (pure). */
export function clusterMeanwhile(
  linesPerNode: StampedStatus[][],
  electionsBefore: number[],
  resetAtMs: number,
  t: CatchUpTimes,
): { elections: number; clusterTimerLateMs: number } {
  const endMs = t.caughtUpMs !== null && t.trimmingResumedMs !== null ? resetAtMs + Math.max(t.caughtUpMs, t.trimmingResumedMs) : Infinity;
  let elections = 0;
  let late = 0;
  linesPerNode.forEach((lines, i) => {
    const within = lines.filter((x) => x.atMs >= resetAtMs && x.atMs <= endMs);
    const last = within[within.length - 1];
    if (last) elections += Math.max(0, last.status.elections - (electionsBefore[i] ?? last.status.elections));
    for (const x of within) late = Math.max(late, x.status.timer_late_max_ms ?? 0);
  });
  return { elections, clusterTimerLateMs: late };
}

/** Whether both events have been seen. */
export function caughtUpAndTrimmed(t: CatchUpTimes): boolean {
  return t.caughtUpMs !== null && t.trimmingResumedMs !== null;
}

/** "caught up 240 ms, trimming resumed 310 ms after the reset (reference 12,345; timers up to 3 ms late; 100 ms status lines)" */
export function describeCatchUp(t: CatchUpTimes | ResetCatchUp): string {
  const ms = (x: number | null) => (x === null ? 'never' : `${x} ms`);
  const meanwhile =
    'elections' in t ? `; any node's timers up to ${t.clusterTimerLateMs} ms late, ${t.elections} elections` : '';
  return (
    `caught up ${ms(t.caughtUpMs)}, trimming resumed ${ms(t.trimmingResumedMs)} after the reset (reference index ${t.referenceIndex ?? '-'}; ` +
    `timers up to ${t.timerLateMs} ms late${meanwhile}; status lines every ${FINE_STATUS_INTERVAL_MS} ms)`
  );
}

// How many entries a leader may hold (last_index − gle on its status line) while one follower
// is stopped and the log bound keeps trimming without it (docs/protocol.md, "Log bound";
// stall.test.ts, "one stopped follower"). Pure: status lines in, a number out.
//
// With --log-bound L the leader raises its gle to last_executed − L at each commit timer, so
// between two timers it holds at most
//   L executed entries (the bound, applied at the last timer)
// + what it executed since that timer: at most one commit interval, plus however late that
//   timer fired, at the rate it executes (the fastest status interval up to the line: the
//   rate within a commit interval moves about the mean of a status interval; one Go run held
//   7,008 entries against 7,123 allowed at its last interval's 11,778 a second, while its stop
//   averaged 17,800)
// + what it accepted and has not executed: at most the node's client requests in flight
//   (MAX_IN_FLIGHT_TOTAL, docs/protocol.md "Limits").
// A constant in place of the middle term failed a Go run at ~32,000 entries a second (held
// 8,946 against 8,192; docs/reliability.md, "One stopped follower"): a commit interval then
// carries ~4,800 entries. A leader that stopped trimming still fails: its held entries grow
// with the whole run, not with one commit interval.
import type { StampedStatus } from './catch-up-timing.ts';

/** Client requests a node takes into its core at once (every server's limits: docs/protocol.md). */
export const MAX_IN_FLIGHT_TOTAL = 1024;

export interface HeldAllowance {
  /** Entries executed a second: the fastest status interval up to the line. */
  entriesPerS: number;
  /** The most entries the line may show held. */
  allowedEntries: number;
}

/** The allowance for `lines[at]` (stamped status lines of the leader, oldest first; `at` ≥ 1). */
export function heldEntriesAllowance(lines: StampedStatus[], at: number, logBound: number, commitIntervalMs: number): HeldAllowance {
  const line = lines[at];
  const previous = lines[at - 1];
  if (!line || !previous) throw new Error(`heldEntriesAllowance: line ${at} and the one before it are needed, ${lines.length} given`);
  let entriesPerS = 0;
  for (let k = 1; k <= at; k++) {
    const seconds = Math.max(lines[k]!.atMs - lines[k - 1]!.atMs, 1) / 1000;
    entriesPerS = Math.max(entriesPerS, (lines[k]!.status.last_executed - lines[k - 1]!.status.last_executed) / seconds);
  }
  const sinceTimerMs = commitIntervalMs + (line.status.timer_late_max_ms ?? 0);
  return { entriesPerS, allowedEntries: logBound + Math.ceil((entriesPerS * sinceTimerMs) / 1000) + MAX_IN_FLIGHT_TOTAL };
}

/** Entries the line shows held: its last_index − global_last_executed. */
export function heldEntries(s: StampedStatus): number {
  return s.status.last_index - s.status.global_last_executed;
}

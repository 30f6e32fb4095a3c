// Which node leads now, read from the servers' stamped status lines, for the reset tests: a
// reset goes to a follower of the current leader. A node's newest line can be stale — a leader
// deposed since its last line still says "leader" there — so only lines stamped after the last
// election any node started count, and among those the highest ballot wins. Pure.
import type { StampedStatus } from './catch-up-timing.ts';

/** When the newest election seen in any node's lines started: the stamp of the first line on
 * which that node's `elections` counter had risen (or it was a candidate); -Infinity if none. */
export function lastElectionAtMs(linesPerNode: StampedStatus[][]): number {
  let at = -Infinity;
  for (const lines of linesPerNode) {
    lines.forEach((x, i) => {
      const before = lines[i - 1];
      const stood = x.status.role === 'candidate' || (before !== undefined && x.status.elections > before.status.elections);
      if (stood) at = Math.max(at, x.atMs);
    });
  }
  return at;
}

/** The node whose newest line, stamped after the last election, says it leads (the highest
 * ballot if two do); null while no such line exists yet. */
export function leaderAfterLastElection(linesPerNode: StampedStatus[][]): number | null {
  const since = lastElectionAtMs(linesPerNode);
  let best: { id: number; ballot: number } | null = null;
  linesPerNode.forEach((lines, id) => {
    const newest = lines[lines.length - 1];
    if (!newest || newest.atMs <= since || newest.status.role !== 'leader') return;
    if (!best || newest.status.ballot > best.ballot) best = { id, ballot: newest.status.ballot };
  });
  return best === null ? null : (best as { id: number }).id;
}

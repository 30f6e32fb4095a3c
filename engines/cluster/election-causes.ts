// Why a loaded cluster changes leader (issue 20's reset series): every election a node started,
// read from the servers' stamped status lines (the `elections` counter), with what the machine
// and the test did just before it. A follower stands when it heard no heartbeat for its election
// timeout (1.5-2 commit intervals), and a leader steps down when it heard no majority for two
// (check-quorum), so an election has one of three kinds of cause:
//
// - starvation: some server's timers ran late, or its status lines stopped coming (the status
//   timer is one of its timers), by enough to miss a heartbeat's slot — the machine, not the
//   protocol;
// - the harness: the peer proxies' event loop ran late (loop-lag.ts; recorded from this stop
//   on; the proxies' own process from peer-proxy-host.ts on), and the peer proxies on it
//   forwarded nothing meanwhile — no node heard any other (runs since the servers' reset-peer
//   hook have no proxies in the path and no loop-lag.json: none can be "harness");
// - a reset: the node that stood had its inbound peer connections reset shortly before, with
//   every timer on time — the messages the reset dropped, or a redial, cost it the heartbeats.
//
// An election with neither is "unexplained": the case a protocol change would have to answer.
//
//   tsx cluster/election-causes.ts <log dir> [from s] [to s]
// reads node-<i>.log, resets.json and loop-lag.json if there is one (reset.test.ts with
// REPLICANT_CLUSTER_LOGS) and prints
// every election in the window (seconds from the memory run's start) and the counts.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { StampedStatus } from './catch-up-timing.ts';
import type { LoopLagSample } from './loop-lag.ts';
import { parseStampedStatusLines } from './node-status.ts';

/** How far back from an election its context is read: two commit intervals of 150 ms, the
 * longest election timeout, plus one 100 ms status period. */
export const CONTEXT_MS = 400;
/** Timer lateness that can cost a heartbeat's slot: half a commit interval (150 ms) is the
 * slack between the heartbeat period and the shortest election timeout (225 ms). */
export const STARVED_LATE_MS = 75;
/** A reset counts for an election of the reset node up to this long after it. */
export const RESET_REACH_MS = 1000;

export type ElectionCause = 'harness' | 'starvation' | 'reset' | 'unexplained';

export interface ElectionRecord {
  atMs: number;
  node: number;
  /** Elections the counter rose by since the node's previous line (usually 1). */
  count: number;
  /** The leader the node named on its previous line (null: none). */
  leaderBefore: number | null;
  /** The worst timer lateness any node reported in the CONTEXT_MS before it. */
  worstLateMs: number;
  /** The longest gap between two status lines of any node ending in that window, less the
   * status period (0 when they came on time). */
  worstStatusGapMs: number;
  /** The worst lateness of the peer proxies' event loop in that window (null: not recorded). */
  worstLoopLateMs: number | null;
  /** ms since the latest reset of this node's inbound connections (null: none within reach). */
  sinceResetOfThisNodeMs: number | null;
  cause: ElectionCause;
}

export interface ResetAt {
  atMs: number;
  follower: number;
}

/** Every election in `linesPerNode` (each node's stamped lines, oldest first), with its context
 * and cause (pure). `loopLag` null: the run did not record the test process's loop. */
export function electionsWithCauses(
  linesPerNode: StampedStatus[][],
  resets: ResetAt[],
  statusIntervalMs: number,
  loopLag: LoopLagSample[] | null = null,
): ElectionRecord[] {
  const out: ElectionRecord[] = [];
  linesPerNode.forEach((lines, node) => {
    for (let k = 1; k < lines.length; k++) {
      const before = lines[k - 1]!;
      const at = lines[k]!;
      const count = at.status.elections - before.status.elections;
      if (count <= 0) continue;
      const from = at.atMs - CONTEXT_MS;
      let worstLateMs = 0;
      let worstStatusGapMs = 0;
      for (const other of linesPerNode) {
        for (let j = 0; j < other.length; j++) {
          const x = other[j]!;
          if (x.atMs < from || x.atMs > at.atMs) continue;
          worstLateMs = Math.max(worstLateMs, x.status.timer_late_max_ms ?? 0);
          if (j > 0) worstStatusGapMs = Math.max(worstStatusGapMs, x.atMs - other[j - 1]!.atMs - statusIntervalMs);
        }
      }
      // a late tick is logged when it finally runs: its stall began lateMs before that
      const worstLoopLateMs = loopLag && Math.max(0, ...loopLag.filter((x) => x.atMs >= from && x.atMs - x.lateMs <= at.atMs).map((x) => x.lateMs));
      const reset = resets.filter((r) => r.follower === node && r.atMs <= at.atMs && at.atMs - r.atMs <= RESET_REACH_MS).pop();
      const sinceResetOfThisNodeMs = reset ? at.atMs - reset.atMs : null;
      const cause: ElectionCause =
        (worstLoopLateMs ?? 0) >= STARVED_LATE_MS
          ? 'harness'
          : worstLateMs >= STARVED_LATE_MS || worstStatusGapMs >= STARVED_LATE_MS
            ? 'starvation'
            : reset
              ? 'reset'
              : 'unexplained';
      out.push({ atMs: at.atMs, node, count, leaderBefore: before.status.leader, worstLateMs, worstStatusGapMs, worstLoopLateMs, sinceResetOfThisNodeMs, cause });
    }
  });
  return out.sort((a, b) => a.atMs - b.atMs || a.node - b.node);
}

/** Elections per cause (each record weighs its count). */
export function countCauses(records: ElectionRecord[]): Record<ElectionCause, number> {
  const counts: Record<ElectionCause, number> = { harness: 0, starvation: 0, reset: 0, unexplained: 0 };
  for (const r of records) counts[r.cause] += r.count;
  return counts;
}

function main(argv: string[]): void {
  const [dir, fromText, toText] = argv;
  if (!dir) {
    console.error('usage: tsx cluster/election-causes.ts <log dir> [from s] [to s]');
    process.exit(2);
  }
  if (!existsSync(join(dir, 'resets.json'))) {
    console.error(`${dir} has no resets.json: not a memory run's log directory (reset.test.ts with REPLICANT_CLUSTER_LOGS), or one from before the test recorded its resets`);
    process.exit(2);
  }
  const { startMs, resets } = JSON.parse(readFileSync(join(dir, 'resets.json'), 'utf8')) as { startMs: number; resets: ResetAt[] };
  const lagPath = join(dir, 'loop-lag.json');
  const loopLag = existsSync(lagPath) ? (JSON.parse(readFileSync(lagPath, 'utf8')) as { samples: LoopLagSample[] }).samples : null;
  const logs = readdirSync(dir)
    .filter((f) => /^node-\d+\.log$/.test(f))
    .sort((a, b) => Number(a.slice(5, -4)) - Number(b.slice(5, -4)));
  const lines = logs.map((f) => parseStampedStatusLines(readFileSync(join(dir, f), 'utf8')));
  const fromMs = startMs + 1000 * Number(fromText ?? 0);
  const toMs = toText === undefined ? Infinity : startMs + 1000 * Number(toText);
  const records = electionsWithCauses(lines, resets, 100, loopLag).filter((r) => r.atMs >= fromMs && r.atMs <= toMs);
  for (const r of records) {
    const s = ((r.atMs - startMs) / 1000).toFixed(2);
    const reset = r.sinceResetOfThisNodeMs === null ? 'no reset of it within 1 s' : `its links reset ${r.sinceResetOfThisNodeMs} ms before`;
    console.log(
      `${s} s n${r.node}: ${r.count} election(s), leader before ${r.leaderBefore ?? 'none'}; timers up to ${r.worstLateMs} ms late, status lines up to ${r.worstStatusGapMs} ms late, ${r.worstLoopLateMs === null ? "proxies' loop not recorded" : `proxies' loop up to ${r.worstLoopLateMs} ms late`} in the ${CONTEXT_MS} ms before; ${reset} -> ${r.cause}`,
    );
  }
  const c = countCauses(records);
  console.log(`${records.reduce((n, r) => n + r.count, 0)} elections: ${loopLag === null ? "no proxies' loop record (none in the path with the reset-peer hook)" : `${c.harness} harness (proxies' loop late)`}, ${c.starvation} starvation (servers late), ${c.reset} after a reset of the node with timers on time, ${c.unexplained} unexplained`);
}

if (process.argv[1]?.endsWith('election-causes.ts')) main(process.argv.slice(2));

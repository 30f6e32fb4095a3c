// Steady leadership under load: with no fault injected, closed-loop clients on a native
// cluster must not change the leader. Judged from each node's own status line (the leader it
// follows, the leader's ballot; elections opened are printed), not from client timing.
// REPLICANT_CLUSTER_ENGINES picks the mixes (default: all Go); REPLICANT_STEADY_S the load
// period after a 3 s warm-up (default 5 s; `npm run cluster:soak` runs 30 s and prints the
// figures).
import { afterAll, describe, expect, it } from 'vitest';
import type { EngineName } from '../loader/engine.ts';
import { NativeCluster } from './launcher.ts';
import { runsPerEngineCheck } from './per-engine.ts';
import { FINE_STATUS_INTERVAL_MS } from './catch-up-timing.ts';
import { ClosedLoopLoad } from './load.ts';
import { StatusReader, type NodeStatus } from './node-status.ts';

const mixes = (process.env.REPLICANT_CLUSTER_ENGINES ?? 'go,go,go').split(';').map((m) => m.split(',') as EngineName[]);
const loadSeconds = Number(process.env.REPLICANT_STEADY_S ?? 5);
const warmUpSeconds = 3;

/** Waits until every node reports the same leader in a fresh status line. */
async function settledLeader(readers: StatusReader[], timeoutMs = 60_000): Promise<{ leader: number; statuses: NodeStatus[] }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const r of readers) r.mark();
    // a JVM starting on two loaded cores may take a while to log its first line
    const statuses = await Promise.all(readers.map((r) => r.nextStatus(60_000)));
    const leader = statuses[0]!.leader;
    if (leader !== null && statuses.every((s) => s.leader === leader) && statuses[leader]!.role === 'leader') {
      return { leader, statuses };
    }
    if (Date.now() > deadline) throw new Error(`no settled leader: ${JSON.stringify(statuses)}`);
  }
}

for (const engines of mixes) {
  describe(`steady leadership ${engines.join(',')}`, () => {
    let cluster: NativeCluster | undefined;
    afterAll(async () => {
      await cluster?.stop();
    });

    // a leader keeping its place is its engine's timing: on the one-engine mixes (per-engine.ts)
    it.skipIf(!runsPerEngineCheck(engines))(`keeps one leader through ${loadSeconds} s of closed-loop load with no fault`, async () => {
      cluster = await NativeCluster.start({ engines, commitIntervalMs: 150, statusIntervalMs: FINE_STATUS_INTERVAL_MS, logDir: process.env.REPLICANT_CLUSTER_LOGS });
      const readers = engines.map((_, id) => new StatusReader(cluster!.logPath(id)));
      const first = await settledLeader(readers);
      const load = new ClosedLoopLoad({ addresses: cluster.config.clients, startNode: first.leader, workers: 8 });
      // Warm up first (a JVM compiles its hot paths in the first seconds, on the same two cores),
      // then count from a moment when every node agrees on the leader.
      await new Promise((r) => setTimeout(r, warmUpSeconds * 1000));
      const before = await settledLeader(readers);
      load.resetGap();
      await new Promise((r) => setTimeout(r, loadSeconds * 1000));
      const tally = await load.stop();
      for (const r of readers) r.mark();
      const after = await Promise.all(readers.map((r) => r.nextStatus()));
      const elections = after.map((s, id) => s.elections - before.statuses[id]!.elections);
      console.log(
        `steady ${engines.join(',')}: ${loadSeconds} s, ${tally.ok} ok, ${tally.retry} retry, ${tally.redirect} redirects, ` +
          `${tally.errors} timeouts, longest gap ${tally.maxGapMs} ms; leader n${before.leader} -> ${after.map((s) => s.leader).join('/')}; ` +
          `elections during load ${elections.join('/')}; worst timer lateness in the last second ${after.map((s) => s.timer_late_max_ms).join('/')} ms`,
      );
      expect(tally.ok).toBeGreaterThan(0);
      // No leader change: every node still follows the same leader, at the same ballot. (A
      // follower that opens an election the leader survives shows in `elections`, printed above
      // and reported, but is not a leader change.)
      expect(after.map((s) => s.leader)).toEqual(engines.map(() => before.leader));
      expect(after[before.leader]!.ballot, "the leader's ballot").toBe(before.statuses[before.leader]!.ballot);
      expect(after[before.leader]!.role).toBe('leader');
    }, 150_000 + 2 * loadSeconds * 1000);
  });
}

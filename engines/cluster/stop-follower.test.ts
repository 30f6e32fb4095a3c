// Liveness with one follower stopped from the start: SIGSTOP a follower as soon as the first
// leader is known, with an empty log, then run closed-loop load with YCSB-sized values. The
// leader and the other follower are a majority, so the cluster must keep committing and the
// live follower must not start elections. Found with the bench harness (Rust stalled at index
// 4,989 and the live follower stayed a candidate through 79 elections); stopping a follower
// after the load never did (docs/reliability.md, "One follower stopped from the start").
// REPLICANT_CLUSTER_ENGINES picks the mixes (default Rust);
// REPLICANT_STOPPED_LOAD_S how long the load runs once the follower is stopped (default 6 s).
// REPLICANT_CLUSTER_LOGS keeps the node logs; REPLICANT_STOPPED_CGROUP starves the servers.
import { afterAll, describe, expect, it } from 'vitest';
import type { EngineName } from '../loader/engine.ts';
import { NativeCluster } from './launcher.ts';
import { ClosedLoopLoad } from './load.ts';
import { StatusReader, type NodeStatus } from './node-status.ts';
import { joinCgroup } from './catch-up-trace.ts';

const mixes = (process.env.REPLICANT_CLUSTER_ENGINES ?? 'rust,rust,rust').split(';').map((m) => m.split(',') as EngineName[]);
const loadSeconds = Number(process.env.REPLICANT_STOPPED_LOAD_S ?? 6);
/** The bench harness's commit interval (bench/src/remote.ts, the local testbed). */
const commitIntervalMs = Number(process.env.REPLICANT_COMMIT_INTERVAL_MS ?? 150);
const workers = Number(process.env.REPLICANT_STOPPED_WORKERS ?? 64);
/** The bench's local testbed pins every node to one core (its node_cpus '1'); so does this test,
 * when the machine has a second core, with taskset. */
const nodeCpus = process.env.REPLICANT_STOPPED_NODE_CPUS ?? '1';
/** YCSB's records: 10 fields of 100 bytes. */
const VALUE_BYTES = 1000;

/** The longest run of consecutive trues. */
function longestRun(flags: boolean[]): number {
  let best = 0;
  let run = 0;
  for (const f of flags) best = Math.max(best, (run = f ? run + 1 : 0));
  return best;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The first leader every node names on its next status line (-1 if none within a minute). */
async function firstLeader(readers: StatusReader[]): Promise<number> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    for (const r of readers) r.mark();
    const s = await Promise.all(readers.map((r) => r.nextStatus(60_000)));
    if (s[0]!.leader !== null && s.every((x) => x.leader === s[0]!.leader)) return s[0]!.leader;
  }
  return -1;
}

for (const mix of mixes) {
  // Opt-in (REPLICANT_STOPPED_FOLLOWER=1; `npm run cluster:stopped-follower` sets it): two cases
  // of 9-12 s per mix would add 2 minutes to cluster-mixed.
  describe.skipIf(!process.env.REPLICANT_STOPPED_FOLLOWER)(`one follower stopped from the start ${mix.join(',')}`, () => {
    let cluster: NativeCluster | undefined;
    let stoppedId = -1;
    afterAll(async () => {
      if (stoppedId >= 0) cluster?.processes[stoppedId]?.kill('SIGCONT');
      await cluster?.stop();
    });

    it.each([
      ['as soon as the first leader is known', false],
      ['before it ever listens (node 0)', true],
    ])(`keeps committing through ${loadSeconds} s of load with ${VALUE_BYTES}-byte values, the follower stopped %s`, async (_when, early) => {
      // early: node 0 stops itself before its server starts (as the bench's stop found it: 0.7 MiB
      // resident, before the runtime and its sockets existed), and the two others elect a leader
      const pinned = (argv: string[]) => (nodeCpus ? ['taskset', '-c', nodeCpus, ...argv] : argv);
      const wrap = (id: number, argv: string[]) => (early && id === 0 ? ['sh', '-c', 'kill -STOP $$; exec "$@"', 'sh', ...pinned(argv)] : pinned(argv));
      if (cluster) {
        if (stoppedId >= 0) cluster.processes[stoppedId]?.kill('SIGCONT');
        await cluster.stop();
        stoppedId = -1;
      }
      const c = (cluster = await NativeCluster.start({ engines: mix, commitIntervalMs, wrap, logDir: process.env.REPLICANT_CLUSTER_LOGS }));
      if (early) stoppedId = 0;
      const readers = [0, 1, 2].map((id) => new StatusReader(c.logPath(id)));
      // REPLICANT_STOPPED_CGROUP: a cgroup v1 cpu directory for the three servers (a
      // cpu.cfs_quota_us cap stands in for a starved machine, as in stall.test.ts)
      if (process.env.REPLICANT_STOPPED_CGROUP) joinCgroup(process.env.REPLICANT_STOPPED_CGROUP, c.processes.map((p) => p!.pid!));
      const leader = await firstLeader(early ? [readers[1]!, readers[2]!] : readers);
      expect(leader).toBeGreaterThanOrEqual(0);
      const stopped = early ? 0 : (leader + 1) % 3;
      const live = 3 - leader - stopped;
      if (!early) c.processes[stopped]!.kill('SIGSTOP');
      stoppedId = stopped;
      for (const r of readers) r.mark();
      const [leaderAtStop, liveAtStop] = await Promise.all([readers[leader]!.nextStatus(), readers[live]!.nextStatus()]);
      for (const r of readers) r.mark();
      const load = new ClosedLoopLoad({ addresses: c.config.clients, startNode: leader, workers, valueBytes: VALUE_BYTES, keysPerWorker: 1_000_000 });
      let tally;
      try {
        await sleep(loadSeconds * 1000);
      } finally {
        tally = await load.stop();
      }
      // every status line both live nodes wrote while the load ran (once a second each)
      const leaderLines = readers[leader]!.sinceMark();
      const liveLines = readers[live]!.sinceMark();
      const brief = (s: NodeStatus) =>
        `${s.role} leader ${s.leader} ballot ${s.ballot} elections ${s.elections} last_executed ${s.last_executed} ` +
        `peer_queue_bytes ${s.peer_queue_bytes} dropped_sends ${s.dropped_sends} timer_late_max_ms ${s.timer_late_max_ms}`;
      const leaderAfter = leaderLines[leaderLines.length - 1] ?? leaderAtStop;
      const liveAfter = liveLines[liveLines.length - 1] ?? liveAtStop;
      console.log(
        `stopped-from-start ${mix.join(',')}: n${stopped} stopped; leader n${leader} ${brief(leaderAtStop)} -> ${brief(leaderAfter)}; ` +
          `live follower n${live} ${brief(liveAtStop)} -> ${brief(liveAfter)}; closed-loop totals ${JSON.stringify(tally)}; ` +
          `leader last_executed once a second: ${leaderLines.map((s) => s.last_executed).join(' ')}; ` +
          `live follower role/elections once a second: ${liveLines.map((s) => `${s.role[0]}${s.elections}`).join(' ')}`,
      );
      expect(tally.ok, 'replies the load got').toBeGreaterThan(0);
      expect(leaderLines.length, 'status lines the leader wrote during the load').toBeGreaterThanOrEqual(2);
      // A starved live follower (timers 900 ms late seen at load 18) can cost the leader its
      // check-quorum window, and it steps down: a new election, then service again (checked
      // below), is the protocol working. What may not happen is the stall: while the first leader
      // leads, it executes something every second.
      const steppedDown = leaderLines.findIndex((s) => s.role !== 'leader' || s.ballot !== leaderAtStop.ballot);
      const whileLeading = steppedDown < 0 ? leaderLines : leaderLines.slice(0, steppedDown);
      expect(longestRun(whileLeading.map((s, k) => k > 0 && s.last_executed === whileLeading[k - 1]!.last_executed)), 'longest run of seconds the leader executed nothing').toBeLessThanOrEqual(2);
      // the stall's other sign: the live follower a candidate at every status line
      expect(longestRun(liveLines.map((s) => s.role === 'candidate')), 'longest run of seconds the live follower was a candidate').toBeLessThanOrEqual(2);
      // A starved node misses a heartbeat now and then and holds an election the leader refuses
      // (seen: Go, 4 in 8 s with timers 330 ms late on one shared core); the stall held 79.
      const elections = leaderAfter.elections + liveAfter.elections - leaderAtStop.elections - liveAtStop.elections;
      expect(elections, 'elections held while one follower was stopped').toBeLessThanOrEqual(Math.max(5, loadSeconds));
      // the cluster still serves (through a new leader if the first stepped down)
      const probe = new ClosedLoopLoad({ addresses: c.config.clients, startNode: leader, workers: 1, valueBytes: 10 });
      try {
        for (const deadline = Date.now() + 30_000; probe.tally.ok < 5 && Date.now() < deadline; ) {
          readers[leader]!.mark();
          await readers[leader]!.nextStatus();
        }
      } finally {
        await probe.stop();
      }
      expect(probe.tally.ok, 'replies after the load').toBeGreaterThanOrEqual(5);
    }, 180_000 + loadSeconds * 1000);
  });
}

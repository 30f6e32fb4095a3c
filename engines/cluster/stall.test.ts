// Bounded memory while the cluster cannot commit: under load, stop both followers (SIGSTOP)
// for a stall period. The leader, left alone, must keep its resident memory within 64 MiB of
// its level before the stall (docs/protocol.md, "Native servers", "Limits"), answer `retry`
// (from its limits or its accept timeouts), say so in its status line, and serve again soon
// after SIGCONT. REPLICANT_CLUSTER_ENGINES picks the engines (each one present runs alone in a
// 3-node cluster; default Go); REPLICANT_STALL_S the stall (default 3 s; `npm run
// cluster:soak` runs 20 s and prints the figures).
// The second test stops ONE follower: the two others still commit, and the leader's log must stay
// bounded (docs/protocol.md, "Log bound"): its gle passes what the stopped follower had executed,
// its memory stays flat, and the follower, resumed, catches up by snapshot. REPLICANT_LOG_BOUND
// sets the servers' --log-bound (default here 4096: above what the live follower lags under most
// load — one heartbeat of commits, 1,200 to 4,800 entries seen on Go — which a smaller bound turns
// into a snapshot at every heartbeat, and small enough to fire within a short stall; the servers'
// own default is 16,384; 0 turns it off, for an A/B of the memory figure).
import { afterAll, describe, expect, it } from 'vitest';
import type { EngineName } from '../loader/engine.ts';
import { NativeCluster } from './launcher.ts';
import { FINE_STATUS_INTERVAL_MS } from './catch-up-timing.ts';
import { ReplicantClient } from './client.ts';
import { ClosedLoopLoad, Pipeliner } from './load.ts';
import { StatusReader, residentBytes } from './node-status.ts';
import { describeTrace, joinCgroup, traceCatchUp } from './catch-up-trace.ts';
import { heldEntries, heldEntriesAllowance } from './held-entries.ts';

const mixes = (process.env.REPLICANT_CLUSTER_ENGINES ?? 'go,go,go').split(';').map((m) => m.split(',') as EngineName[]);
const engines = [...new Set(mixes.flat())];
const stallSeconds = Number(process.env.REPLICANT_STALL_S ?? 3);
const logBound = Number(process.env.REPLICANT_LOG_BOUND ?? 4096);
const MiB = 1 << 20;
/** The documented bound on growth while the cluster cannot commit. */
const RSS_BOUND_BYTES = 64 * MiB;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Samples a process's resident memory every 200 ms until stop(); keeps the highest. */
function rssSampler(pid: number) {
  let peak = residentBytes(pid) ?? 0;
  const timer = setInterval(() => (peak = Math.max(peak, residentBytes(pid) ?? 0)), 200);
  return { stop: () => (clearInterval(timer), peak) };
}

/** The leader, as the nodes themselves report it: every node's next status line names the same
 * one (-1 if they never agree within a minute). A JVM starting on two loaded cores may take a while
 * to log its first line (seen: over 15 s at load average 70) and may change leader once early on. */
async function settledLeader(readers: StatusReader[]): Promise<number> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    for (const r of readers) r.mark();
    const s = await Promise.all(readers.map((r) => r.nextStatus(60_000)));
    const leader = s[0]!.leader;
    // a candidate still names the old leader: the one-follower test once stopped the node that
    // had just won the election a candidate was running (the Rust "crawl")
    if (leader !== null && s.every((x, id) => x.leader === leader && x.role === (id === leader ? 'leader' : 'follower'))) return leader;
  }
  return -1;
}

for (const engine of engines) {
  describe(`stalled cluster ${engine}`, () => {
    let cluster: NativeCluster | undefined;
    const stopped: number[] = [];
    afterAll(async () => {
      for (const id of stopped) cluster?.processes[id]?.kill('SIGCONT');
      await cluster?.stop();
    });

    it(`keeps the leader's memory within 64 MiB through a ${stallSeconds} s stall and recovers`, async () => {
      const c = (cluster = await NativeCluster.start({ engines: [engine, engine, engine], commitIntervalMs: 150, statusIntervalMs: FINE_STATUS_INTERVAL_MS, logDir: process.env.REPLICANT_CLUSTER_LOGS }));
      const readers = [0, 1, 2].map((id) => new StatusReader(c.logPath(id)));
      // asked again after the warm-up (see settledLeader)
      const firstLeader = await settledLeader(readers);
      expect(firstLeader).toBeGreaterThanOrEqual(0);
      const load = new ClosedLoopLoad({ addresses: c.config.clients, startNode: firstLeader, workers: 8 });
      const pipes: Pipeliner[] = [];
      try {
        await sleep(3000); // warm-up: buffers and heaps reach their working size
        const leader = await settledLeader(readers);
        expect(leader).toBeGreaterThanOrEqual(0);
        const pid = c.processes[leader]!.pid!;
        // Two clients that pipeline 100 requests at a time, one of them never reading. Values stay
        // small (100 bytes): with 1 KiB values the logs a stall leaves behind make every prepare
        // response megabytes long, and the cores can then duel in elections for many seconds
        // after SIGCONT (a liveness limit of the protocol's 1.5-2x election timeout, not of the
        // servers).
        pipes.push(new Pipeliner(c.config.clients[leader]!, 100, 100), new Pipeliner(c.config.clients[leader]!, 100, 100, true));
        await sleep(1000);
        const before = residentBytes(pid)!;
        const retriesBefore = load.tally.retry + pipes[0]!.replies.retry;
        for (let id = 0; id < 3; id++) {
          if (id === leader) continue;
          c.processes[id]!.kill('SIGSTOP');
          stopped.push(id);
        }
        const sampler = rssSampler(pid);
        await sleep(stallSeconds * 1000);
        const peak = sampler.stop();
        readers[leader]!.mark();
        const during = await readers[leader]!.nextStatus();
        const retries = load.tally.retry + pipes[0]!.replies.retry - retriesBefore; // seen by clients
        const tallyDuring = { ...load.tally };
        for (const id of stopped.splice(0)) c.processes[id]!.kill('SIGCONT');
        const resumedAt = Date.now();
        const probe = new ReplicantClient(c.config.clients, { timeoutMs: 1000, retryDelayMs: 20 });
        let servedMs = -1;
        try {
          await probe.request('put after stall', 30_000);
          servedMs = Date.now() - resumedAt;
        } finally {
          probe.close();
        }
        const after = residentBytes(pid) ?? 0;
        console.log(
          `stall ${engine}: leader n${leader} RSS ${(before / MiB).toFixed(1)} MiB before, peak ${(peak / MiB).toFixed(1)} MiB during ${stallSeconds} s ` +
            `(+${((peak - before) / MiB).toFixed(1)}), ${(after / MiB).toFixed(1)} MiB after; ${retries} retry replies during the stall ` +
            `(closed-loop totals: ${JSON.stringify(tallyDuring)}); ` +
            `status: in_flight ${during.in_flight}, shed_retries ${during.shed_retries}, reads_paused ${during.reads_paused}, ` +
            `peer_queue_bytes ${during.peer_queue_bytes}, dropped_sends ${during.dropped_sends}; served again ${servedMs} ms after SIGCONT`,
        );
        expect(peak - before, 'RSS growth during the stall (bytes)').toBeLessThanOrEqual(RSS_BOUND_BYTES);
        // `retry` reaches clients from the server's limits (counted by the node itself); the
        // closed-loop clients' own tally is printed above.
        expect(during.shed_retries, 'requests the limits answered retry').toBeGreaterThan(0);
        expect(during.in_flight).toBeLessThanOrEqual(1024);
        expect(servedMs).toBeGreaterThanOrEqual(0);
        // Usually under a second or two; after a long stall the cores can duel in elections for a
        // while (seen: 14 s once after 20 s; the protocol's election timeouts, not the servers).
        expect(servedMs, 'ms from SIGCONT to a committed put').toBeLessThan(30_000);
      } finally {
        for (const p of pipes) p.stop();
        await load.stop();
      }
    }, 150_000 + 2 * stallSeconds * 1000);
  });

  // Opt-in (REPLICANT_STALL_ONE=1; `npm run cluster:soak` sets it): on Go, on this loaded
  // two-core machine, the two live nodes committed only ~10 entries a second once
  // the third was stopped in 2 of 6 runs (Rust ran 8,000 a second), which fails the test's wait.
  // Not reproduced as such; under CPU starvation a livelock of the election rules after SIGCONT
  // gave the same ~10 a second (fixed: a follower installs a snapshot whatever its ballot), and
  // a slow phase while the resumed node catches up remains (docs/protocol.md, "Log bound",
  // issue 20). The Rust "crawl" of a few entries a second was this test's own process (a busy
  // wait, a stale reference line, clients left on a stopped leader; fixed, docs/protocol.md,
  // "Log bound"); it stays opt-in for its 27-133 s a run on the loaded machine.
  describe.skipIf(!process.env.REPLICANT_STALL_ONE)(`one stopped follower ${engine}`, () => {
    let cluster: NativeCluster | undefined;
    let stoppedId = -1;
    afterAll(async () => {
      if (stoppedId >= 0) cluster?.processes[stoppedId]?.kill('SIGCONT');
      await cluster?.stop();
    });

    it(`keeps trimming and the leader's memory flat through a ${stallSeconds} s stop of one follower (log bound ${logBound})`, async () => {
      const c = (cluster = await NativeCluster.start({ engines: [engine, engine, engine], commitIntervalMs: 150, logBound, logDir: process.env.REPLICANT_CLUSTER_LOGS }));
      const readers = [0, 1, 2].map((id) => new StatusReader(c.logPath(id)));
      // REPLICANT_STALL_CGROUP: a cgroup v1 cpu directory to put the three servers in (with a
      // cpu.cfs_quota_us cap it stands in for a starved machine; docs/protocol.md, "Log bound")
      if (process.env.REPLICANT_STALL_CGROUP) joinCgroup(process.env.REPLICANT_STALL_CGROUP, c.processes.map((p) => p!.pid!));
      const firstLeader = await settledLeader(readers);
      expect(firstLeader).toBeGreaterThanOrEqual(0);
      const load = new ClosedLoopLoad({ addresses: c.config.clients, startNode: firstLeader, workers: 8 });
      try {
        await sleep(3000); // warm-up: buffers and heaps reach their working size
        const leader = await settledLeader(readers);
        expect(leader).toBeGreaterThanOrEqual(0);
        const pid = c.processes[leader]!.pid!;
        const pids = c.processes.map((p) => p!.pid!);
        const follower = (leader + 1) % 3;
        const before = residentBytes(pid)!;
        c.processes[follower]!.kill('SIGSTOP');
        const stoppedAt = Date.now();
        stoppedId = follower;
        // A follower never executes past what the leader had executed, so the leader's
        // last_executed on its first status line stamped after the stop is at or above anything
        // the stopped follower executed: a gle above it trims entries that follower never
        // executed. (Not the first line *written to the file* after the stop: the log relay runs
        // in this process, and a starved one wrote a line from before the stop, 163, when the
        // follower had executed 170 — the wait below then ended at once.)
        const atStop = await readers[leader]!.nextStatusStampedAfter(stoppedAt);
        readers[leader]!.mark();
        const frozen = atStop.last_executed;
        const live = (leader + 2) % 3;
        const liveAtStop = await readers[live]!.nextStatusStampedAfter(stoppedAt);
        const sampler = rssSampler(pid);
        await sleep(stallSeconds * 1000);
        // with a bound, the leader trims past the stopped follower without its answers: wait for
        // it (on the leader's own status line), however slowly the loaded machine commits
        let during = await readers[leader]!.nextStatus();
        // the slowest second the leader reported while waiting (issue 20's Go slowdown: ~10 entries/s)
        let slowestPerS = Infinity;
        if (logBound > 0) {
          for (const deadline = Date.now() + 120_000; during.global_last_executed <= frozen && Date.now() < deadline; ) {
            const previous = during;
            readers[leader]!.mark(); // the next line, not the same one again
            during = await readers[leader]!.nextStatus();
            slowestPerS = Math.min(slowestPerS, during.last_executed - previous.last_executed);
          }
        }
        readers[live]!.mark();
        const liveDuring = await readers[live]!.nextStatus();
        const peak = sampler.stop();
        const tally = { ...load.tally };
        c.processes[follower]!.kill('SIGCONT');
        stoppedId = -1;
        // the resumed follower catches up (by snapshot when it is behind the trim point)
        const target = (await readers[leader]!.nextStatus()).last_executed;
        let caughtUpMs = -1;
        const resumedAt = Date.now();
        // once a second until it has: every node's status, CPU and the kernel's queues into the
        // resumed node, printed below (what a slow catch-up waits on)
        const trace = traceCatchUp({
          readers,
          pids,
          watchPort: Number(c.config.peers[follower]!.split(':')[1]),
          done: () => caughtUpMs >= 0,
          timeoutMs: 60_000,
        });
        for (const deadline = resumedAt + 60_000; Date.now() < deadline; ) {
          readers[follower]!.mark();
          const s = await readers[follower]!.nextStatus(30_000);
          if (s.last_executed >= target) {
            caughtUpMs = Date.now() - resumedAt;
            break;
          }
        }
        const traceLines = describeTrace(await trace);
        console.log(
          `one stopped follower ${engine} (log bound ${logBound}): leader n${leader} RSS ${(before / MiB).toFixed(1)} MiB before, peak ` +
            `${(peak / MiB).toFixed(1)} MiB while n${follower} was stopped (+${((peak - before) / MiB).toFixed(1)}); leader last_executed ` +
            `${atStop.last_executed} -> ${during.last_executed}, gle ${atStop.global_last_executed} -> ${during.global_last_executed} ` +
            `(stopped follower at most at ${frozen}); log held ${during.last_index - during.global_last_executed} entries; ` +
            `closed-loop totals ${JSON.stringify(tally)}; follower caught up ${caughtUpMs} ms after SIGCONT`,
        );
        // What tells a leader change or a duel of elections (role, ballot, elections) from lost
        // messages (dropped_sends, retry replies) or a starved process (timer lateness), should the
        // cluster slow down again (docs/protocol.md, "Log bound", issue 20).
        const brief = (s: typeof during) =>
          `${s.role} ballot ${s.ballot} elections ${s.elections} last_executed ${s.last_executed} dropped_sends ${s.dropped_sends} timer_late_max_ms ${s.timer_late_max_ms}`;
        console.log(
          `one stopped follower ${engine}: n${leader} at the stop: ${brief(atStop)}; while waiting: ${brief(during)}` +
            `${Number.isFinite(slowestPerS) ? `, slowest status interval +${slowestPerS} entries` : ''}. ` +
            `Live follower n${live} at the stop: ${brief(liveAtStop)}; while waiting: ${brief(liveDuring)}`,
        );
        console.log(`one stopped follower ${engine}: after SIGCONT to n${follower}, once a second:\n${traceLines.join('\n')}`);
        if (logBound > 0) {
          expect(during.last_executed - frozen, 'entries the leader executed while one follower was stopped (the other still votes)').toBeGreaterThan(logBound);
          expect(during.global_last_executed, "the leader's gle passed the stopped follower's last_executed").toBeGreaterThan(frozen);
          // the bound, plus one (late) commit interval at the leader's fastest rate, plus
          // the in-flight limit (held-entries.ts; a constant failed at ~32,000 entries a second)
          const lines = readers[leader]!.stamped();
          const same = (x: (typeof lines)[number]) =>
            x.status.last_executed === during.last_executed && x.status.last_index === during.last_index && x.status.global_last_executed === during.global_last_executed;
          const at = lines.map(same).lastIndexOf(true);
          const allowance = heldEntriesAllowance(lines, at, logBound, c.config.commit_interval_ms);
          console.log(
            `one stopped follower ${engine}: held ${heldEntries(lines[at]!)} entries; allowed ${allowance.allowedEntries} ` +
              `(bound ${logBound}, ${Math.round(allowance.entriesPerS)} entries/s in the fastest status interval, timer ${lines[at]!.status.timer_late_max_ms} ms late)`,
          );
          expect(heldEntries(lines[at]!), 'entries the leader holds').toBeLessThanOrEqual(allowance.allowedEntries);
          expect(peak - before, 'RSS growth while one follower was stopped (bytes)').toBeLessThanOrEqual(RSS_BOUND_BYTES);
          expect(caughtUpMs, 'ms from SIGCONT until the follower executed what the leader had').toBeGreaterThanOrEqual(0);
        }
      } finally {
        await load.stop();
      }
    }, 240_000 + 2 * stallSeconds * 1000);
  });
}

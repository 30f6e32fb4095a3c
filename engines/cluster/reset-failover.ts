// Issue 20's scenario, one round of it, for reset.test.ts and the failover benchmark
// (failover-bench.ts): under load, reset every peer connection into one follower, wait until it
// has caught up and trimming resumed (catch-up-timing.ts, from status lines ten a second), then
// kill the leader and time how long until the survivors acknowledge a write. The figures come back to the
// caller: the test asserts only what must hold, the benchmark reports medians and spread.
import { readFileSync } from 'node:fs';
import type { Verdict } from '@replicant/checker/lincheck';
import { checkNative } from '@replicant/checker/node';
import type { EngineName } from '../loader/engine.ts';
import { checkInParts } from './check-in-parts.ts';
import { killLeaderAndTimeService } from './failover.ts';
import { NativeCluster } from './launcher.ts';
import { sleep, waitUntil } from './client.ts';
import { HistoryLoad } from './history-client.ts';
import { StatusReader } from './node-status.ts';
import { leaderAfterLastElection } from './current-leader.ts';
import { FINE_STATUS_INTERVAL_MS, catchUpTimes, caughtUpAndTrimmed, clusterMeanwhile, describeCatchUp, type ResetCatchUp } from './catch-up-timing.ts';

/** Keys every worker reads and writes: what Porcupine has to order across clients. */
export const SHARED_KEYS = 8;

/**
 * Reads back every acknowledged write to a worker's own key and every shared key (the reads go
 * into the history), then checks the whole history with Porcupine (the native checker, as
 * durable.test.ts; in groups of keys when it is longer than the checker takes). Returns the
 * writes not read back and the verdict.
 */
export async function readBackAndCheck(load: HistoryLoad, sharedKeys: number, ownKeys = true): Promise<{ lost: number; verdict: Verdict }> {
  const probe = load.client(0);
  let lost = 0;
  try {
    // A read that got no answer (a time-out on this loaded machine) is asked again, for up to
    // 20 s; every attempt is in the history.
    const read = async (key: string) => {
      for (const deadline = Date.now() + 20_000; ; ) {
        const op = await probe.run('get', key);
        if (op.result !== 'unknown' || Date.now() > deadline) return op;
      }
    };
    for (const a of ownKeys ? load.acks : []) {
      const op = await read(a.key);
      if (op.result !== 'ok' || op.value !== a.value) lost++;
    }
    for (let k = 0; k < sharedKeys; k++) await read(`s${k}`);
  } finally {
    probe.close();
  }
  // (a minute of load on a lightly loaded machine records more than the checker takes at once)
  return { lost, verdict: checkInParts(load.history, (ops) => checkNative(ops, 120)) };
}

/** The node every node names as leader in a fresh status line. */
export async function settledLeader(readers: StatusReader[], timeoutMs = 60_000): Promise<number> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
    for (const r of readers) r.mark();
    // A JVM starting on two loaded cores may take a while to log its first line.
    const s = await Promise.all(readers.map((r) => r.nextStatus(timeoutMs)));
    const leader = s[0]!.leader;
    if (leader !== null && s.every((x) => x.leader === leader) && s[leader]!.role === 'leader') return leader;
  }
  throw new Error('no settled leader');
}

/** How often the catch-up wait reads the two logs (each read parses what came since the mark). */
const CATCH_UP_POLL_MS = 20;

/** Resets every peer connection into `follower` (the servers' reset-peer hook: the cluster is
 * started with `testPeerReset`, its peers connected directly) and waits until it has caught up
 * and the leader's trimming resumed (catch-up-timing.ts), or `timeoutMs`; the figures so far
 * either way, with what the rest of the cluster went through meanwhile (ResetCatchUp). */
export async function resetAndTimeCatchUp(cluster: NativeCluster, readers: StatusReader[], leader: number, follower: number, timeoutMs: number): Promise<ResetCatchUp> {
  const electionsBefore = readers.map((r) => r.latest()?.elections ?? 0);
  // marked before the reset: every line stamped after it comes after the marks
  for (const r of readers) r.mark();
  const resetDone = cluster.resetInbound(follower);
  // (taken as the command leaves: the reset happens at most this late, so the figures are upper bounds)
  const resetAtMs = Date.now();
  await resetDone;
  const now = () => catchUpTimes(readers[leader]!.stampedSinceMark(), readers[follower]!.stampedSinceMark(), resetAtMs);
  for (const deadline = resetAtMs + timeoutMs; !caughtUpAndTrimmed(now()) && Date.now() < deadline; ) await sleep(CATCH_UP_POLL_MS);
  const t = now();
  const meanwhile = clusterMeanwhile(readers.map((r) => r.stampedSinceMark()), electionsBefore, resetAtMs, t);
  return { ...t, ...meanwhile };
}

export interface ResetFailoverRound {
  engines: EngineName[];
  /** The leader at the reset, and the follower whose inbound peer connections were reset. */
  leader: number;
  follower: number;
  /** The leader's last_executed and gle on its first status line before the reset. */
  lastExecutedAtReset: number;
  gleAtReset: number;
  /** Caught up and trimming resumed, in ms after the reset (catch-up-timing.ts; upper bounds
   * at the status period's resolution), with the timer lateness meanwhile. */
  catchUp: ResetCatchUp;
  /** The leader that was killed (the current one, which a loaded machine may have changed). */
  killed: number;
  /** Entries each survivor held (last_index − gle) on its last status line before the kill:
   * what a failover must exchange and replay at most. Issue 20's regression left tens of
   * thousands there. */
  survivorsHeldAtKill: number[];
  /** ms from the kill to the first acknowledged operation (null: none within 30 s). */
  servedMs: number | null;
  /** The survivors' worst timer lateness (status `timer_late_max_ms`) while they elected. */
  timerLateMs: number;
  /** The machine's 1-minute load average at the kill (/proc/loadavg). */
  loadAverage1m: number;
  acknowledgedWrites: number;
  lost: number;
  historyOps: number;
  verdict: Verdict;
}

export interface ResetFailoverOptions {
  engines: EngineName[];
  logDir?: string;
  /** How long to wait for the follower to catch up (trimming past the reset point). */
  catchUpWaitMs?: number;
}

function loadAverage1m(): number {
  try {
    return Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
  } catch {
    return NaN;
  }
}

/** One round of issue 20's scenario on a fresh cluster (stopped before it returns). */
export async function resetThenFailover(o: ResetFailoverOptions): Promise<ResetFailoverRound> {
  const { engines } = o;
  // (the servers reset their own links: no forwarder in the peers' message path, whose stalls
  // under load started elections of their own; docs/reliability.md, "Fifth series")
  const cluster = await NativeCluster.start({ engines, commitIntervalMs: 150, testPeerReset: true, statusIntervalMs: FINE_STATUS_INTERVAL_MS, logDir: o.logDir });
  const readers = engines.map((_, id) => new StatusReader(cluster.logPath(id)));
  let load: HistoryLoad | undefined;
  try {
    const first = await settledLeader(readers);
    load = new HistoryLoad({ addresses: cluster.config.clients, workers: 4, startNode: first, sharedKeys: SHARED_KEYS, requestTimeoutMs: 300 });
    const l = load;
    // (a JVM still compiling its hot paths on two loaded cores can take tens of seconds)
    if (!(await waitUntil(() => l.acks.length >= 200, 60_000))) throw new Error(`${engines.join(',')}: fewer than 200 acknowledged writes in 60 s before the reset`);
    // the leader now, from a line newer than the last election (the warm-up may have changed it,
    // and a deposed leader's newest line can still say "leader": current-leader.ts)
    const leader = leaderAfterLastElection(readers.map((r) => r.stamped())) ?? (await settledLeader(readers));
    const follower = (leader + 1) % cluster.size;
    readers[leader]!.mark();
    const atReset = await readers[leader]!.nextStatus();
    const catchUp = await resetAndTimeCatchUp(cluster, readers, leader, follower, o.catchUpWaitMs ?? 30_000);
    // The leader now, which is not always the one of the reset (a loaded machine can change
    // it): killing a follower instead would time no failover at all (seen: "served again
    // after 58 ms" on Java).
    const current = await settledLeader(readers);
    const survivors = readers.filter((_, id) => id !== current);
    const survivorsHeldAtKill = survivors.map((r) => {
      const s = r.latest();
      return s ? s.last_index - s.global_last_executed : NaN;
    });
    for (const r of survivors) r.mark();
    const loadAtKill = loadAverage1m();
    const servedMs = await killLeaderAndTimeService(cluster, current, l.acknowledged);
    // What the machine stole from the survivors' timers while they elected (other processes on
    // two shared cores), as the servers measured it.
    const linesNeeded = Math.ceil((servedMs ?? 0) / FINE_STATUS_INTERVAL_MS) + 1;
    await Promise.all(survivors.map((r) => waitUntil(() => r.sinceMark().length >= linesNeeded, 15_000)));
    const timerLateMs = Math.max(0, ...survivors.flatMap((r) => r.sinceMark().slice(0, linesNeeded).map((s) => s.timer_late_max_ms)));
    await l.stop();
    const { lost, verdict } = await readBackAndCheck(l, SHARED_KEYS);
    return {
      engines,
      leader,
      follower,
      lastExecutedAtReset: atReset.last_executed,
      gleAtReset: atReset.global_last_executed,
      catchUp,
      killed: current,
      survivorsHeldAtKill,
      servedMs,
      timerLateMs,
      loadAverage1m: loadAtKill,
      acknowledgedWrites: l.acks.length,
      lost,
      historyOps: l.history.length,
      verdict,
    };
  } finally {
    await load?.stop();
    load?.close();
    await cluster.stop();
  }
}

/** The one line a round prints, in the test and in the benchmark. */
export function describeRound(r: ResetFailoverRound): string {
  return (
    `reset ${r.engines.join(',')}: reset n${r.follower}'s peer connections with the leader n${r.leader} at last_executed ${r.lastExecutedAtReset} ` +
    `(gle ${r.gleAtReset}); ${describeCatchUp(r.catchUp)}; leader n${r.killed} killed ` +
    `(survivors held ${r.survivorsHeldAtKill.join('/')} entries), served again after ${r.servedMs} ms (survivors' timers up to ${r.timerLateMs} ms late ` +
    `meanwhile; load average ${r.loadAverage1m}); ${r.acknowledgedWrites} acknowledged writes, ${r.lost} not read back; history of ${r.historyOps} operations: ${r.verdict.verdict}`
  );
}

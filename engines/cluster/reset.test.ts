// Issue 20's native test (docs/protocol.md, "Repair"): a reset peer connection must cost a
// follower a heartbeat or two, not its place in the cluster.
//
// 1. Under load, reset every peer connection into one follower (what its senders had queued is
//    lost, as with `ss -K`). The follower must catch up and trimming resume: the leader's
//    global_last_executed (its status line) passes the last_executed it had at the reset. Then
//    kill the leader: the cluster serves again, and every acknowledged write reads back.
// 2. Resident memory stays flat over REPLICANT_RESET_S seconds of load with a reset every 5 s
//    (default 10 s in `npm test`; `npm run cluster:resets` runs 60 s and prints the figures).
//
// Both record every client operation (writes to each worker's own keys, writes and reads of
// shared keys) and check the history with Porcupine, as durable.test.ts does.
//
// Status lines come once a second, so the catch-up time printed is an upper bound with that
// resolution, and the bound asserted on it is looser than the issue's 1 s. The failover is held
// to the issue's 1 s: from the kill to the first acknowledged operation. A survivor starts its
// election at its second election timer without a heartbeat (0.23-0.6 s after the kill with the
// 150 ms commit interval), then come the election and the replay; crossing prepares used to add
// whole rounds (docs/protocol.md, "Bounded elections"). The servers' own timer lateness while the
// survivors elect (status `timer_late_max_ms`: CPU other processes took on a shared machine) is
// added to the 1 s budget and printed beside it. Figures are printed every run.
import { describe, expect, it } from 'vitest';
import type { Verdict } from '@replicant/checker/lincheck';
import { checkNative } from '@replicant/checker/node';
import type { EngineName } from '../loader/engine.ts';
import { killLeaderAndTimeService } from './failover.ts';
import { NativeCluster } from './launcher.ts';
import { sleep, waitUntil } from './client.ts';
import { HistoryLoad } from './history-client.ts';
import { StatusReader, residentBytes, type NodeStatus } from './node-status.ts';

const mixes = (process.env.REPLICANT_CLUSTER_ENGINES ?? 'go,go,go').split(';').map((m) => m.split(',') as EngineName[]);
const runSeconds = Number(process.env.REPLICANT_RESET_S ?? 10);
const RESET_EVERY_MS = 5000;
const CATCH_UP_WITHIN_MS = 5000;
const SERVE_WITHIN_MS = 1000;
const MiB = 1 << 20;
/** Keys every worker reads and writes: what Porcupine has to order across clients. */
const SHARED_KEYS = 8;
/** The same bound the stall test holds a node to (docs/protocol.md, "Limits"). */
const RSS_BOUND_BYTES = 64 * MiB;

/**
 * Reads back every acknowledged write to a worker's own key and every shared key (the reads go
 * into the history), then checks the whole history with Porcupine (the native checker, as
 * durable.test.ts). Returns the writes not read back and the verdict.
 */
async function readBackAndCheck(load: HistoryLoad, sharedKeys: number, ownKeys = true): Promise<{ lost: number; verdict: Verdict }> {
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
  return { lost, verdict: checkNative(load.history, 120) };
}

/** Every node's newest status line (null until it has logged one). */
function latest(readers: StatusReader[]): (NodeStatus | null)[] {
  return readers.map((r) => r.latest());
}

/** The node every node names as leader in a fresh status line. */
async function settledLeader(readers: StatusReader[], timeoutMs = 60_000): Promise<number> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
    for (const r of readers) r.mark();
    // A JVM starting on two loaded cores may take a while to log its first line.
    const s = await Promise.all(readers.map((r) => r.nextStatus(timeoutMs)));
    const leader = s[0]!.leader;
    if (leader !== null && s.every((x) => x.leader === leader) && s[leader]!.role === 'leader') return leader;
  }
  throw new Error('no settled leader');
}

/** Waits until the leader's status shows trimming past `index`; the ms it took, or null. */
async function trimmedPast(reader: StatusReader, index: number, since: number, timeoutMs: number): Promise<number | null> {
  const ok = await waitUntil(() => (reader.latest()?.global_last_executed ?? 0) > index, timeoutMs);
  return ok ? Date.now() - since : null;
}

for (const engines of mixes) {
  describe(`peer connection reset ${engines.join(',')}`, () => {
    it('the follower catches up, trimming resumes, and a leader kill after it is an ordinary failover', async () => {
      const cluster = await NativeCluster.start({ engines, commitIntervalMs: 150, peerProxies: true, logDir: process.env.REPLICANT_CLUSTER_LOGS });
      const readers = engines.map((_, id) => new StatusReader(cluster.logPath(id)));
      let load: HistoryLoad | undefined;
      try {
        const leader = await settledLeader(readers);
        const follower = (leader + 1) % cluster.size;
        load = new HistoryLoad({ addresses: cluster.config.clients, workers: 4, startNode: leader, sharedKeys: SHARED_KEYS, requestTimeoutMs: 300 });
        const l = load;
        // (a JVM still compiling its hot paths on two loaded cores can take tens of seconds)
        expect(await waitUntil(() => l.acks.length >= 200, 60_000), 'acknowledged writes before the reset').toBe(true);
        readers[leader]!.mark();
        const atReset = await readers[leader]!.nextStatus();
        cluster.resetInbound(follower);
        const resetAt = Date.now();
        const caughtUpMs = await trimmedPast(readers[leader]!, atReset.last_executed, resetAt, 30_000);
        // The leader now, which is not always the one of the reset (a loaded machine can change
        // it): killing a follower instead would time no failover at all (seen: "served again
        // after 58 ms" on Java).
        const current = await settledLeader(readers);
        const survivors = readers.filter((_, id) => id !== current);
        for (const r of survivors) r.mark();
        const servedMs = await killLeaderAndTimeService(cluster, current, l.acknowledged);
        // The 1 s is the protocol's budget; what the machine steals from the survivors' timers
        // (other processes on two shared cores) is measured by the servers themselves and added.
        const linesNeeded = Math.ceil((servedMs ?? 0) / 1000) + 1;
        await Promise.all(survivors.map((r) => waitUntil(() => r.sinceMark().length >= linesNeeded, 15_000)));
        const timerLateMs = Math.max(0, ...survivors.flatMap((r) => r.sinceMark().slice(0, linesNeeded).map((s) => s.timer_late_max_ms)));
        await l.stop();
        const { lost, verdict } = await readBackAndCheck(l, SHARED_KEYS);
        console.log(
          `reset ${engines.join(',')}: reset n${follower}'s peer connections with the leader n${leader} at last_executed ${atReset.last_executed} ` +
            `(gle ${atReset.global_last_executed}); trimming passed it ${caughtUpMs} ms later (status lines: 1 s resolution); leader n${current} killed, served again after ${servedMs} ms (survivors' timers up to ${timerLateMs} ms late meanwhile); ` +
            `${l.acks.length} acknowledged writes, ${lost} not read back; history of ${l.history.length} operations: ${verdict.verdict}`,
        );
        expect(caughtUpMs, 'ms from the reset until the leader trimmed past its last_executed at the reset').not.toBeNull();
        expect(caughtUpMs!).toBeLessThan(CATCH_UP_WITHIN_MS);
        expect(servedMs, 'ms from the leader kill to the next acknowledged write').not.toBeNull();
        expect(servedMs!, `ms to serve again; budget ${SERVE_WITHIN_MS} ms + ${timerLateMs} ms of measured timer lateness`).toBeLessThan(SERVE_WITHIN_MS + timerLateMs);
        expect(lost).toBe(0);
        expect(verdict.verdict, `Porcupine on the history (${JSON.stringify(verdict)})`).toBe('linearizable');
      } finally {
        await load?.stop();
        load?.close();
        await cluster.stop();
      }
    }, 180_000);

    it(`keeps every node's memory flat through ${runSeconds} s of load with a reset every 5 s`, async () => {
      const cluster = await NativeCluster.start({ engines, commitIntervalMs: 150, peerProxies: true, logDir: process.env.REPLICANT_CLUSTER_LOGS });
      const readers = engines.map((_, id) => new StatusReader(cluster.logPath(id)));
      let load: HistoryLoad | undefined;
      const samplers: ReturnType<typeof setInterval>[] = [];
      try {
        const first = await settledLeader(readers);
        load = new HistoryLoad({ addresses: cluster.config.clients, workers: 8, startNode: first, sharedKeys: SHARED_KEYS });
        await sleep(3000); // warm-up: buffers and heaps reach their working size
        let leader = await settledLeader(readers);
        const pids = cluster.processes.map((p) => p!.pid!);
        const before = pids.map((pid) => residentBytes(pid) ?? 0);
        const peak = [...before];
        samplers.push(setInterval(() => pids.forEach((pid, i) => (peak[i] = Math.max(peak[i]!, residentBytes(pid) ?? 0))), 200));
        const catchUps: (number | null)[] = [];
        const start = Date.now();
        for (let k = 0; k * RESET_EVERY_MS < runSeconds * 1000; k++) {
          await sleep(Math.max(0, start + k * RESET_EVERY_MS - Date.now()));
          leader = latest(readers).findIndex((x) => x?.role === 'leader');
          if (leader < 0) leader = first;
          const follower = (leader + 1 + (k % 2)) % cluster.size;
          readers[leader]!.mark();
          const at = (await readers[leader]!.nextStatus()).last_executed;
          cluster.resetInbound(follower);
          catchUps.push(await trimmedPast(readers[leader]!, at, Date.now(), RESET_EVERY_MS));
        }
        await sleep(Math.max(0, start + runSeconds * 1000 - Date.now()));
        await load.stop();
        // (the writes to the workers' own keys are not read back here: the first test does that)
        const { verdict } = await readBackAndCheck(load, SHARED_KEYS, false);
        const ops = load.history.length;
        const ok = load.acknowledged.length;
        for (const t of samplers) clearInterval(t);
        const growth = peak.map((p, i) => p - before[i]!);
        console.log(
          `resets ${engines.join(',')}: ${catchUps.length} resets in ${runSeconds} s; trimming passed the reset point after ` +
            `${catchUps.map((ms) => (ms === null ? 'never' : `${ms} ms`)).join(', ')}; RSS before ` +
            `${before.map((b) => (b / MiB).toFixed(1)).join('/')} MiB, growth to peak ${growth.map((g) => (g / MiB).toFixed(1)).join('/')} MiB; ` +
            `${ok} of ${ops} operations acknowledged; history: ${verdict.verdict}`,
        );
        expect(ok).toBeGreaterThan(0);
        expect(verdict.verdict, `Porcupine on the history (${JSON.stringify(verdict)})`).toBe('linearizable');
        for (const ms of catchUps) expect(ms, 'every reset: trimming resumes before the next').not.toBeNull();
        for (const g of growth) expect(g, 'RSS growth (bytes)').toBeLessThanOrEqual(RSS_BOUND_BYTES);
      } finally {
        for (const t of samplers) clearInterval(t);
        await load?.stop();
        load?.close();
        await cluster.stop();
      }
    }, 180_000 + 3 * runSeconds * 1000);
  });
}

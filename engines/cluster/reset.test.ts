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
// Status lines come once a second, so the catch-up time printed is an upper bound with that
// resolution. The bounds asserted are looser than the issue's 1 s targets because this machine
// is shared and loaded; the measured figures are printed every run.
import { describe, expect, it } from 'vitest';
import type { EngineName } from '../loader/engine.ts';
import { killLeaderAndTimeService } from './failover.ts';
import { NativeCluster } from './launcher.ts';
import { ReplicantClient, sleep, waitUntil } from './client.ts';
import { ClosedLoopLoad } from './load.ts';
import { StatusReader, residentBytes, type NodeStatus } from './node-status.ts';

const mixes = (process.env.REPLICANT_CLUSTER_ENGINES ?? 'go,go,go').split(';').map((m) => m.split(',') as EngineName[]);
const runSeconds = Number(process.env.REPLICANT_RESET_S ?? 10);
const RESET_EVERY_MS = 5000;
const CATCH_UP_WITHIN_MS = 5000;
const SERVE_WITHIN_MS = 5000;
const MiB = 1 << 20;
/** The same bound the stall test holds a node to (docs/protocol.md, "Limits"). */
const RSS_BOUND_BYTES = 64 * MiB;

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
      const acks: { key: string; value: string; at: number }[] = [];
      const clients: ReplicantClient[] = [];
      let stop = false;
      let workers: Promise<void>[] = [];
      try {
        const leader = await settledLeader(readers);
        const follower = (leader + 1) % cluster.size;
        workers = [0, 1, 2, 3].map(async (w) => {
          const c = new ReplicantClient(cluster.config.clients, { timeoutMs: 300, retryDelayMs: 10 });
          clients.push(c);
          for (let i = 0; !stop; i++) {
            try {
              await c.request(`put w${w}k${i} v${i}`, 1000);
              acks.push({ key: `w${w}k${i}`, value: `v${i}`, at: Date.now() });
            } catch {
              // unavailable for a moment: next key
            }
          }
        });
        expect(await waitUntil(() => acks.length >= 200, 20_000)).toBe(true);
        readers[leader]!.mark();
        const atReset = await readers[leader]!.nextStatus();
        cluster.resetInbound(follower);
        const resetAt = Date.now();
        const caughtUpMs = await trimmedPast(readers[leader]!, atReset.last_executed, resetAt, 30_000);
        const servedMs = await killLeaderAndTimeService(cluster, leader, acks);
        stop = true;
        await Promise.all(workers);
        const probe = new ReplicantClient(cluster.config.clients, { timeoutMs: 1000 });
        clients.push(probe);
        let lost = 0;
        for (const a of acks) if ((await probe.request(`get ${a.key}`, 20_000)) !== a.value) lost++;
        console.log(
          `reset ${engines.join(',')}: reset n${follower}'s peer connections with the leader n${leader} at last_executed ${atReset.last_executed} ` +
            `(gle ${atReset.global_last_executed}); trimming passed it ${caughtUpMs} ms later (status lines: 1 s resolution); leader killed, served again after ${servedMs} ms; ${acks.length} acknowledged writes, ${lost} not read back`,
        );
        expect(caughtUpMs, 'ms from the reset until the leader trimmed past its last_executed at the reset').not.toBeNull();
        expect(caughtUpMs!).toBeLessThan(CATCH_UP_WITHIN_MS);
        expect(servedMs, 'ms from the leader kill to the next acknowledged write').not.toBeNull();
        expect(servedMs!).toBeLessThan(SERVE_WITHIN_MS);
        expect(lost).toBe(0);
      } finally {
        stop = true;
        await Promise.all(workers);
        for (const c of clients) c.close();
        await cluster.stop();
      }
    }, 180_000);

    it(`keeps every node's memory flat through ${runSeconds} s of load with a reset every 5 s`, async () => {
      const cluster = await NativeCluster.start({ engines, commitIntervalMs: 150, peerProxies: true, logDir: process.env.REPLICANT_CLUSTER_LOGS });
      const readers = engines.map((_, id) => new StatusReader(cluster.logPath(id)));
      let load: ClosedLoopLoad | undefined;
      const samplers: ReturnType<typeof setInterval>[] = [];
      try {
        const first = await settledLeader(readers);
        load = new ClosedLoopLoad({ addresses: cluster.config.clients, startNode: first, workers: 8 });
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
        const tally = await load.stop();
        load = undefined;
        for (const t of samplers) clearInterval(t);
        const growth = peak.map((p, i) => p - before[i]!);
        console.log(
          `resets ${engines.join(',')}: ${catchUps.length} resets in ${runSeconds} s; trimming passed the reset point after ` +
            `${catchUps.map((ms) => (ms === null ? 'never' : `${ms} ms`)).join(', ')}; RSS before ` +
            `${before.map((b) => (b / MiB).toFixed(1)).join('/')} MiB, growth to peak ${growth.map((g) => (g / MiB).toFixed(1)).join('/')} MiB; ` +
            `load ${JSON.stringify(tally)}`,
        );
        expect(tally.ok).toBeGreaterThan(0);
        for (const ms of catchUps) expect(ms, 'every reset: trimming resumes before the next').not.toBeNull();
        for (const g of growth) expect(g, 'RSS growth (bytes)').toBeLessThanOrEqual(RSS_BOUND_BYTES);
      } finally {
        for (const t of samplers) clearInterval(t);
        await load?.stop();
        await cluster.stop();
      }
    }, 60_000 + 3 * runSeconds * 1000);
  });
}

// Issue 20's native test (docs/protocol.md, "Repair"): a reset peer connection must cost a
// follower a heartbeat or two, not its place in the cluster.
//
// 1. Under load, reset every peer connection into one follower (what its senders had queued is
//    lost, as with `ss -K`; the servers do it themselves, the reset-peer hook of docs/protocol.md,
//    with the peers connected directly). The follower must catch up and trimming resume (catch-up-timing.ts:
//    from the servers' own status lines, ten a second). Then kill the leader: the cluster serves
//    again, and every acknowledged write reads back. Both within issue 20's second in the 60 s
//    form (`cluster:resets`), within regression bounds in the 10 s form (see ISSUE_RUN).
// 2. Resident memory stays flat with a reset every 5 s: a warm-up of REPLICANT_RESET_WARMUP_S
//    seconds (default 0), then a window of REPLICANT_RESET_S seconds (default 10 in `npm test`),
//    resets every 5 s through both. `npm run cluster:resets` runs issue 20's rule, the same for
//    every engine: a 120 s warm-up, then a 60 s window in which the memory each node keeps (its
//    resident floor, each 5 s window's least RSS sample) grows by at most 1 MiB/min (a fall passes
//    and is printed; rss-trend.ts, FLAT_RULE), asserted in a window of 60 s or more; the 10 s
//    form prints its figures, gives no verdict, and asserts only the growth to the peak. Every
//    reset is held to the same second. The 60 s run is opt-in: three minutes of load plus start-up and read-back
//    per mix, six mixes in cluster-mixed, would add over ten minutes to `npm test` on two shared
//    cores for a figure, not a check the 10 s run does not already make.
//
// Both record every client operation (writes to each worker's own keys, writes and reads of
// shared keys) and check the history with Porcupine, as durable.test.ts does.
//
// The second of issue 20 is asserted as the issue states it, plus the timer lateness the
// servers themselves measured over the same interval (status `timer_late_max_ms`): on two shared
// cores the machine can hold a server's timers back, and a heartbeat that fires late is the
// machine's delay, not the protocol's. Before repair the follower never caught up (its
// last_executed froze and gle with it), and the failover after it took 9.6-45 s or never served.
// `npm --workspace @replicant/engines run cluster:failover` runs the first round ten times per
// mix and prints the medians, spread and load average (failover-bench.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EngineName } from '../loader/engine.ts';
import { NativeCluster } from './launcher.ts';
import { runsPerEngineCheck } from './per-engine.ts';
import { sleep } from './client.ts';
import { HistoryLoad } from './history-client.ts';
import { StatusReader, parseStampedStatusLines, residentParts } from './node-status.ts';
import { leaderAfterLastElection } from './current-leader.ts';
import { describeNativeTrim, describeRssTrend, describeSlopeSinceChange, flatRule, isFlat, leadershipChanges, rssTrend, slopeSinceChange, type RssSample } from './rss-trend.ts';
import { describeRound, readBackAndCheck, resetThenFailover, settledLeader, resetAndTimeCatchUp } from './reset-failover.ts';
import { FINE_STATUS_INTERVAL_MS, describeCatchUp, type ResetCatchUp } from './catch-up-timing.ts';
import { attributeLinkBreaks, describeLinkBreaks, parseLinkEvents, type ResetRecord } from './link-breaks.ts';

const mixes = (process.env.REPLICANT_CLUSTER_ENGINES ?? 'go,go,go').split(';').map((m) => m.split(',') as EngineName[]);
const runSeconds = wholeSecondsFromEnv('REPLICANT_RESET_S', 10);
/** The memory run's warm-up before its window of runSeconds (rss-trend.ts, ISSUE_WARM_UP_MS). */
const warmUpSeconds = wholeSecondsFromEnv('REPLICANT_RESET_WARMUP_S', 0);

function wholeSecondsFromEnv(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > 3600) throw new Error(`${name} must be a whole number of seconds from 0 to 3600, not ${JSON.stringify(text)}`);
  return n;
}
const RESET_EVERY_MS = 5000;
/** How long a follower may take to catch up after a reset before the test calls it stuck (the
 * regression: never). Typical: one or two status lines (figures printed). */
const CATCH_UP_WAIT_MS = 30_000;
/** Issue 20's second: for a follower to catch up and trimming to resume after a reset, and for
 * the cluster to serve again after the leader is killed (plus the servers' measured lateness). */
const ISSUE_SECOND_MS = 1000;
/** The issue's own run (`npm run cluster:resets`, 60 s or more) holds serving again to that
 * second; the 10 s form in `npm test` only to what a regression exceeds (issue 20: 9.6-45 s, or
 * never). A failover is two election timeouts when the survivors' first elections cross (seen:
 * cpp,rust,java: both survivors candidates on the same 100 ms status line, a second
 * election, 1,112 ms with timers 22 ms late), which
 * cluster-mixed's six mixes would meet in most CI runs: a fact of randomised elections, not a
 * regression. */
const ISSUE_RUN = runSeconds >= 60;
const FAILOVER_REGRESSION_MS = 8000;
/** The 10 s form's bound on catching up after a reset: the regression was never (issue 20). The
 * issue's second is held in the 60 s form; here one slow reset in 228 (1,229 ms on a machine at
 * load 17-23) would fail a CI run now and then without saying anything about the code. */
const CATCH_UP_REGRESSION_MS = 5000;
/** Entries a survivor may hold at the kill: the servers' log bound (16,384) plus the stall
 * test's allowance for entries accepted and not yet executed. Issue 20's regression held every
 * entry since the reset. */
const HELD_BOUND = 16_384 + 4096;
const MiB = 1 << 20;
/** Keys every worker of the memory run reads and writes. Two thirds of its operations go to
 * them, and the checker's time grows faster than a key's history: with the peers connected
 * directly a 180 s cpp,rust,java run served 2.16 million operations, about 180,000 per key over
 * 8 keys, and a part's check timed out (verdict unknown; docs/reliability.md, sixth series). */
const MEMORY_RUN_SHARED_KEYS = 64;
/** Keys of its own each worker of the memory run writes in turn (8 workers: 512 keys). */
const OWN_KEYS = 64;
/** The same bound the stall test holds a node to (docs/protocol.md, "Limits"). */
const RSS_BOUND_BYTES = 64 * MiB;

/** The status figures that say what holds memory, at the end of the warm-up (the first line
 * stamped `warmUpMs` after `startMs`) and on the last line: held entries, peer queue bytes, and
 * the runtime's heap figures where the server reports them. */
function describeGrowth(logPath: string, startMs: number, warmUpMs: number): string {
  const lines = parseStampedStatusLines(readFileSync(logPath, 'utf8'));
  const a = lines.find((x) => x.atMs >= startMs + warmUpMs)?.status;
  const b = lines[lines.length - 1]?.status;
  if (!a || !b) return 'status: too few lines';
  const mib = (x: number | undefined) => (x === undefined ? '?' : (x / MiB).toFixed(1));
  const afterWarmUp = lines.filter((x) => x.atMs >= startMs + warmUpMs);
  // a node that starts or stops leading after the warm-up holds other things (client
  // connections, accept phases) within the window the slope is fitted to
  const changes: string[] = [];
  let role = a.role;
  for (const x of afterWarmUp) {
    if (x.status.role === 'candidate' || x.status.role === role) continue;
    role = x.status.role;
    changes.push(`${role} at ${((x.atMs - startMs) / 1000).toFixed(1)} s`);
  }
  const parts = [
    `held ${a.last_index - a.global_last_executed} -> ${b.last_index - b.global_last_executed} entries (at most ${Math.max(...afterWarmUp.map((x) => x.status.last_index - x.status.global_last_executed))})`,
    `peer queues ${a.peer_queue_bytes} -> ${b.peer_queue_bytes} B (at most ${Math.max(...afterWarmUp.map((x) => x.status.peer_queue_bytes))} B)`,
    `${a.role}${changes.length > 0 ? `, then ${changes.join(', ')}` : ' throughout'}`,
  ];
  if (b.go_heap_goal_bytes !== undefined)
    parts.push(`Go heap goal ${mib(a.go_heap_goal_bytes)} -> ${mib(b.go_heap_goal_bytes)} MiB, live ${mib(a.go_heap_live_bytes)} -> ${mib(b.go_heap_live_bytes)} MiB`);
  if (b.jvm_heap_committed_bytes !== undefined)
    parts.push(
      `JVM heap committed ${mib(a.jvm_heap_committed_bytes)} -> ${mib(b.jvm_heap_committed_bytes)} MiB, non-heap ${mib(a.jvm_nonheap_committed_bytes)} -> ${mib(b.jvm_nonheap_committed_bytes)} MiB, ` +
        `native heap trimmed ${describeNativeTrim(b.jvm_native_trim_interval_ms)}`,
    );
  if (b.malloc_trims !== undefined && a.malloc_trims !== undefined && b.malloc_trims > a.malloc_trims) {
    const calls = b.malloc_trims - a.malloc_trims;
    parts.push(`malloc_trim ${calls} calls, ${((b.malloc_trim_cpu_us! - a.malloc_trim_cpu_us!) / calls).toFixed(0)} µs of CPU each`);
  }
  return `after ${warmUpMs / 1000} s -> end: ${parts.join(', ')}`;
}

/** Issue 20: caught up and trimming resumed within a second of the reset in the issue's own run
 * (the 10 s form: within the regression bound), plus the lateness the two servers measured
 * meanwhile. (No forwarder's lateness any more: the servers reset their own links and the peers
 * are connected directly.) */
function expectWithinTheSecond(t: ResetCatchUp): void {
  const boundMs = ISSUE_RUN ? ISSUE_SECOND_MS : CATCH_UP_REGRESSION_MS;
  const allowance = `${t.timerLateMs} ms of measured timer lateness`;
  const budget = boundMs + t.timerLateMs;
  expect(t.caughtUpMs, `ms from the reset until the follower executed the leader's index at the reset (${describeCatchUp(t)})`).not.toBeNull();
  expect(t.trimmingResumedMs, `ms from the reset until the leader's gle reached it (${describeCatchUp(t)})`).not.toBeNull();
  expect(t.caughtUpMs!, `caught up within ${boundMs} ms + ${allowance} (${describeCatchUp(t)})`).toBeLessThanOrEqual(budget);
  expect(t.trimmingResumedMs!, `trimming resumed within ${boundMs} ms + ${allowance} (${describeCatchUp(t)})`).toBeLessThanOrEqual(budget);
}

for (const engines of mixes) {
  describe(`peer connection reset ${engines.join(',')}`, () => {
    it('the follower catches up, trimming resumes, and a leader kill after it is an ordinary failover', async () => {
      const r = await resetThenFailover({ engines, logDir: process.env.REPLICANT_CLUSTER_LOGS, catchUpWaitMs: CATCH_UP_WAIT_MS });
      console.log(describeRound(r));
      expectWithinTheSecond(r.catchUp);
      for (const held of r.survivorsHeldAtKill) expect(held, 'entries a survivor held at the kill').toBeLessThanOrEqual(HELD_BOUND);
      expect(r.servedMs, 'ms from the leader kill to the next acknowledged operation (none within 30 s)').not.toBeNull();
      const servedBudgetMs = ISSUE_RUN ? ISSUE_SECOND_MS : FAILOVER_REGRESSION_MS;
      expect(r.servedMs!, `ms to serve again: ${ISSUE_RUN ? "issue 20's" : 'the regression bound,'} ${servedBudgetMs} ms + ${r.timerLateMs} ms of the survivors' measured timer lateness`).toBeLessThanOrEqual(
        servedBudgetMs + r.timerLateMs,
      );
      expect(r.lost).toBe(0);
      expect(r.verdict.verdict, `Porcupine on the history (${JSON.stringify(r.verdict)})`).toBe('linearizable');
    }, 180_000);

    // a node's memory is its engine's: on the one-engine mixes (per-engine.ts); the first test
    // resets and fails over on every mix
    it.skipIf(!runsPerEngineCheck(engines))(`keeps every node's memory flat through a ${runSeconds} s window after a ${warmUpSeconds} s warm-up, a reset every 5 s`, async () => {
      const totalSeconds = warmUpSeconds + runSeconds;
      const rule = flatRule(warmUpSeconds * 1000);
      const cluster = await NativeCluster.start({
        engines,
        commitIntervalMs: 150,
        testPeerReset: true,
        statusIntervalMs: FINE_STATUS_INTERVAL_MS,
        logDir: process.env.REPLICANT_CLUSTER_LOGS,
      });
      const readers = engines.map((_, id) => new StatusReader(cluster.logPath(id)));
      let load: HistoryLoad | undefined;
      const samplers: ReturnType<typeof setInterval>[] = [];
      try {
        const first = await settledLeader(readers);
        // a fixed key set and connections: the store stops growing after the first round and no
        // node gains clients mid-run (connectEveryNode), so a plateau can show
        load = new HistoryLoad({ addresses: cluster.config.clients, workers: 8, startNode: first, sharedKeys: MEMORY_RUN_SHARED_KEYS, ownKeys: OWN_KEYS, connectEveryNode: true });
        await sleep(3000); // warm-up: buffers and heaps reach their working size
        let leader = await settledLeader(readers);
        const pids = cluster.processes.map((p) => p!.pid!);
        const before = pids.map((pid) => residentParts(pid)?.totalBytes ?? 0);
        const peak = [...before];
        const start = Date.now();
        // every node's resident memory over the run, twice a second (the figures printed below),
        // and its anonymous and file-backed parts: a leak grows the first; the kernel dropping
        // and re-reading library pages moves the second
        const series: RssSample[][] = pids.map(() => []);
        const anonSeries: RssSample[][] = pids.map(() => []);
        const fileSeries: RssSample[][] = pids.map(() => []);
        samplers.push(
          setInterval(() => {
            const atMs = Date.now() - start;
            pids.forEach((pid, i) => {
              const parts = residentParts(pid);
              if (!parts) return;
              peak[i] = Math.max(peak[i]!, parts.totalBytes);
              series[i]!.push({ atMs, bytes: parts.totalBytes });
              anonSeries[i]!.push({ atMs, bytes: parts.anonBytes });
              fileSeries[i]!.push({ atMs, bytes: parts.fileBytes });
            });
          }, 500),
        );
        const catchUps: ResetCatchUp[] = [];
        // which node was reset when: a reset breaks the links into the follower the leader of
        // the moment names, so the breaks in the logs are read against this (link-breaks.ts)
        const resets: ResetRecord[] = [];
        for (let k = 0; k * RESET_EVERY_MS < totalSeconds * 1000; k++) {
          await sleep(Math.max(0, start + k * RESET_EVERY_MS - Date.now()));
          // (a deposed leader's newest line can still say "leader": current-leader.ts)
          leader = leaderAfterLastElection(readers.map((r) => r.stamped())) ?? (await settledLeader(readers));
          const follower = (leader + 1 + (k % 2)) % cluster.size;
          resets.push({ atMs: Date.now(), leader, follower });
          // (a slow catch-up delays the next reset; it fails the run after the figures are out)
          catchUps.push(await resetAndTimeCatchUp(cluster, readers, leader, follower, CATCH_UP_WAIT_MS));
        }
        await sleep(Math.max(0, start + totalSeconds * 1000 - Date.now()));
        await load.stop();
        for (const t of samplers) clearInterval(t);
        const growth = peak.map((p, i) => p - before[i]!);
        // The memory figures first: a failing check below must not lose them
        console.log(`resets ${engines.join(',')}: the run started ${new Date(start).toISOString()}`);
        const verdicts: (boolean | null)[] = [];
        for (const [i, xs] of series.entries()) {
          const name = `n${i} (${engines[i]})`;
          const trend = rssTrend(xs, rule);
          verdicts.push(isFlat(trend));
          console.log(`resets ${engines.join(',')}: ${name} RSS ${describeRssTrend(trend)}`);
          console.log(
            `resets ${engines.join(',')}: ${name} anonymous ${describeRssTrend(rssTrend(anonSeries[i]!, rule))}; file-backed ${describeRssTrend(rssTrend(fileSeries[i]!, rule))}`,
          );
          // a leadership change during the run starts a new working set: the same rule, counted
          // again from it (rss-trend.ts, slopeSinceChange), beside the verdict above
          const changes = leadershipChanges(
            parseStampedStatusLines(readFileSync(cluster.logPath(i), 'utf8')).map((x) => ({ atMs: x.atMs - start, role: x.status.role, leader: x.status.leader })),
          );
          const sampledUntilMs = xs[xs.length - 1]?.atMs ?? 0;
          const lastChange = changes.filter((atMs) => atMs <= sampledUntilMs).pop();
          if (lastChange !== undefined) console.log(`resets ${engines.join(',')}: ${name} RSS ${describeSlopeSinceChange(slopeSinceChange(xs, rule, lastChange))}`);
          // the samples themselves, beside the node logs, for rss-trend.test.ts's recorded series
          if (process.env.REPLICANT_CLUSTER_LOGS)
            writeFileSync(join(process.env.REPLICANT_CLUSTER_LOGS, `rss-n${i}-${engines[i]}.json`), JSON.stringify({ total: xs, anon: anonSeries[i], file: fileSeries[i] }));
        }
        // What could grow, from each node's own status lines at the end of the warm-up and at the
        // end: the log it holds, its peer queues, and its runtime's heap figures
        for (const [i] of engines.entries()) console.log(`resets ${engines.join(',')}: n${i} (${engines[i]}) ${describeGrowth(cluster.logPath(i), start, rule.settleMs)}`);
        const linkEvents = engines.flatMap((_, i) => parseLinkEvents(readFileSync(cluster.logPath(i), 'utf8'), i));
        console.log(
          `resets ${engines.join(',')}: ${resets.map((r) => `+${((r.atMs - start) / 1000).toFixed(2)} s n${r.follower} (leader n${r.leader})`).join(', ')}; ` +
            describeLinkBreaks(attributeLinkBreaks(linkEvents, resets, start), start),
        );
        // the per-reset figures before the read-back too: a long run's check can outlast a
        // series script's time limit (the fifth series lost two runs' figures so)
        console.log(
          `resets ${engines.join(',')}: ${catchUps.length} resets in ${totalSeconds} s; caught up / trimming resumed after ` +
            `${catchUps.map((t) => `${t.caughtUpMs ?? 'never'}/${t.trimmingResumedMs ?? 'never'} ms (timers ${t.timerLateMs} ms late, any node's ${t.clusterTimerLateMs}; ${t.elections} elections)`).join(', ')} ` +
            `(status lines every ${FINE_STATUS_INTERVAL_MS} ms); RSS before ` +
            `${before.map((b) => (b / MiB).toFixed(1)).join('/')} MiB, growth to peak ${growth.map((g) => (g / MiB).toFixed(1)).join('/')} MiB`,
        );
        if (process.env.REPLICANT_CLUSTER_LOGS) {
          writeFileSync(join(process.env.REPLICANT_CLUSTER_LOGS, 'resets.json'), JSON.stringify({ startMs: start, resets, catchUps }));
        }
        // (the writes to the workers' own keys are not read back here: the first test does that)
        const { verdict } = await readBackAndCheck(load, MEMORY_RUN_SHARED_KEYS, false);
        const ops = load.history.length;
        const ok = load.acknowledged.length;
        console.log(`resets ${engines.join(',')}: ${ok} of ${ops} operations acknowledged; history: ${verdict.verdict}`);
        expect(ok).toBeGreaterThan(0);
        expect(verdict.verdict, `Porcupine on the history (${JSON.stringify(verdict)})`).toBe('linearizable');
        for (const t of catchUps) expectWithinTheSecond(t);
        for (const g of growth) expect(g, 'RSS growth (bytes)').toBeLessThanOrEqual(RSS_BOUND_BYTES);
        // issue 20's window: every node flat by the one rule (the figures are printed above)
        if (ISSUE_RUN) for (const [i, flat] of verdicts.entries()) expect(flat, `n${i} (${engines[i]}) flat by the rule after a ${warmUpSeconds} s warm-up`).toBe(true);
      } finally {
        for (const t of samplers) clearInterval(t);
        await load?.stop();
        load?.close();
        await cluster.stop();
      }
    }, 180_000 + 6 * (warmUpSeconds + runSeconds) * 1000);
  });
}

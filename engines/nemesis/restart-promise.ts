// The restart-promise scenario (docs/reliability.md, "Seed 371's cause, seen natively"): a
// schedule built to make a candidate with a short log win through the promise of a durable node
// that answers peers before it has read its disk. On a 3-node durable cluster with a proxy in
// front of every peer port, while clients run and record their history:
//   1. every node serves; L is the leader, C and B the followers;
//   2. kill -9 C: L and B acknowledge more writes, which C's log lacks;
//   3. kill -9 L and B; restart C from its disk: it campaigns, alone;
//   4. hold every connection into B's proxy, restart B from its disk, and release the candidate's
//      newest line (its current prepare) to B the moment B's peer port accepts; pause C
//      (SIGSTOP) from then until B writes its first status line, so that B's answer finds C
//      still campaigning at that ballot.
// A server that answers that prepare before stepping its restart promises with an empty log; C
// then leads without the writes of step 2 and serves reads from its older state: Porcupine
// rejects the history. A server that reads its disk first promises with its log, and C learns
// the writes it lacked. L stays down: the majority is C and B alone.
import type { HistoryOp, Verdict } from '@replicant/checker/lincheck';
import type { EngineName } from '../loader/engine.ts';
import { NativeCluster } from '../cluster/launcher.ts';
import { StatusReader } from '../cluster/node-status.ts';
import { HistoryClient } from '../cluster/history-client.ts';

export interface RestartPromiseOptions {
  engines: EngineName[];
  clients: number;
  keys: string[];
  check: (history: readonly HistoryOp[]) => Verdict;
  log?: (line: string) => void;
  log_dir?: string;
  /** acknowledged operations to wait for in steps 1, 2 and after B's restart */
  acks_between: number;
  /** bound on every wait for a state (start-up, acks, a status line) */
  wait_timeout_ms: number;
}

export interface RestartPromiseResult {
  engines: EngineName[];
  history: HistoryOp[];
  verdict: Verdict;
  leader: number;
  short_log: number;
  restarted: number;
  /** last slot on each node's status line just before the kills of steps 2 and 3 */
  last_index_before: { short_log: number; restarted: number };
  /** ms from B's spawn until the candidate's line was forwarded to it */
  released_ms: number | null;
  /** acknowledged after B's restart (C leading) */
  acknowledged_after: number;
  acknowledged: number;
  unknown: number;
  problems: string[];
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function runRestartPromise(o: RestartPromiseOptions): Promise<RestartPromiseResult> {
  const log = o.log ?? (() => {});
  const cluster = await NativeCluster.start({ engines: o.engines, commitIntervalMs: 50, durability: 'log', peerProxies: true, logDir: o.log_dir });
  const statuses = [0, 1, 2].map((i) => new StatusReader(cluster.logPath(i)));
  const problems: string[] = [];
  const t0 = performance.now();
  const nowUs = () => Math.round((performance.now() - t0) * 1000);
  const history: HistoryOp[] = [];
  const acks: number[] = [];
  const waitFor = async (what: string, cond: () => boolean): Promise<boolean> => {
    const end = performance.now() + o.wait_timeout_ms;
    while (!cond()) {
      if (performance.now() > end) {
        problems.push(`liveness: ${what} did not happen within ${o.wait_timeout_ms} ms`);
        log(`  gave up waiting: ${what}`);
        return false;
      }
      await sleep(10);
    }
    return true;
  };
  const moreAcks = (what: string) => {
    const target = acks.length + o.acks_between;
    return waitFor(`${o.acks_between} acknowledged operations ${what}`, () => acks.length >= target);
  };
  const at = () => `${Math.round(performance.now() - t0)} ms`;

  let running = true;
  const runClient = async (c: number, probe: boolean) => {
    const client = new HistoryClient({ addresses: cluster.config.clients, history, nowUs, client: c, idStride: o.clients + 1, target: c % 3, requestTimeoutMs: 1000 });
    let k = 0;
    let p = 0;
    while (probe ? p < o.keys.length : running) {
      // reads and writes alternate over the keys, so reads follow every write closely
      const kind: HistoryOp['op'] = probe || k % 2 === 1 ? 'get' : 'put';
      const key = probe ? o.keys[p]! : o.keys[(k >> 1) % o.keys.length]!;
      const op = await client.run(kind, key, kind === 'put' ? `c${c}.${k}` : undefined);
      k++;
      if (op.result !== 'unknown') {
        acks.push(op.return_us!);
        if (probe) p++;
      } else if (probe && k > 200) break; // the cluster does not answer: the final reads give up
    }
    client.close();
  };

  const result = (extra: Partial<RestartPromiseResult>): RestartPromiseResult => ({
    engines: o.engines, history, verdict: { verdict: 'linearizable' } as Verdict, leader: -1, short_log: -1, restarted: -1,
    last_index_before: { short_log: -1, restarted: -1 }, released_ms: null, acknowledged_after: 0,
    acknowledged: 0, unknown: 0, problems, ...extra,
  });

  // 1. every node up (a status line each), a leader the others follow
  let leader = -1;
  const up = await waitFor('every node writing status lines and one leader', () => {
    const s = statuses.map((r) => r.latest());
    if (s.some((x) => x === null)) return false;
    leader = s.findIndex((x) => x!.role === 'leader');
    return leader >= 0 && s.every((x) => x!.leader === leader);
  });
  const clientRuns = Array.from({ length: o.clients }, (_, c) => runClient(c, false));
  const stopClients = async () => {
    running = false;
    await Promise.all(clientRuns);
  };
  if (!up || !(await moreAcks('with every node up'))) {
    await stopClients();
    await cluster.stop();
    return result({});
  }
  const shortLog = (leader + 1) % 3;
  const restarted = (leader + 2) % 3;
  log(`  ${at()}: n${leader} leads; n${shortLog} will campaign with a short log, n${restarted} restart under it`);

  // 2. C down; the others go on without it
  const shortLogIndex = statuses[shortLog]!.latest()?.last_index ?? -1;
  await cluster.kill(shortLog);
  log(`  ${at()}: kill -9 n${shortLog} (last slot ${shortLogIndex})`);
  await moreAcks(`by n${leader} and n${restarted} after n${shortLog} was killed`);
  await moreAcks('more, so the writes C lacks are many');
  statuses[restarted]!.mark();
  const restartedStatus = await statuses[restarted]!.nextStatus().catch(() => null);
  const restartedIndex = restartedStatus?.last_index ?? -1;

  // 3. L and B down; C back alone
  await Promise.all([cluster.kill(leader), cluster.kill(restarted)]);
  log(`  ${at()}: kill -9 n${leader} and n${restarted} (n${restarted}'s last slot ${restartedIndex})`);
  statuses[shortLog]!.mark();
  cluster.startNode(shortLog);
  log(`  ${at()}: restart n${shortLog} from its disk`);
  await waitFor(`n${shortLog} writing a status line after its restart`, () => statuses[shortLog]!.latestSinceMark() !== null);

  // 4. B back, the candidate's prepare waiting for it at its port
  cluster.holdInbound(restarted);
  statuses[restarted]!.mark();
  const spawnedAt = performance.now();
  cluster.startNode(restarted);
  log(`  ${at()}: restart n${restarted} from its disk; n${shortLog}'s newest line to it held until its peer port accepts`);
  const released = await cluster.releaseInbound(restarted, o.wait_timeout_ms);
  // C paused (SIGSTOP, a GC-like pause) until B is up: B's answer to that prepare waits in C's
  // socket instead of arriving after C's next election timeout has moved C to a higher ballot
  // (a JVM steps its restart for up to seconds on this machine, longer than a candidate's phase)
  cluster.processes[shortLog]?.kill('SIGSTOP');
  const released_ms = Math.round(performance.now() - spawnedAt);
  log(`  ${at()}: released to n${restarted} (${released_ms} ms after its spawn), n${shortLog} paused: ${released.map((l) => l.slice(0, 120)).join(' | ') || 'nothing'}`);
  await waitFor(`n${restarted} writing a status line after its restart`, () => statuses[restarted]!.latestSinceMark() !== null);
  cluster.processes[shortLog]?.kill('SIGCONT');
  log(`  ${at()}: n${shortLog} resumed`);
  const before = acks.length;
  await moreAcks(`after n${restarted}'s restart`);
  const acknowledged_after = acks.length - before;
  await stopClients();
  await runClient(o.clients, true);
  await cluster.stop();
  const verdict = o.check(history);
  if (verdict.verdict === 'violation') problems.push(`Porcupine: not linearizable on keys ${verdict.violating_keys.join(', ')}`);
  else if (verdict.verdict !== 'linearizable') problems.push('Porcupine could not decide within its time limit');
  return result({
    verdict, leader, short_log: shortLog, restarted, last_index_before: { short_log: shortLogIndex, restarted: restartedIndex }, released_ms, acknowledged_after,
    acknowledged: history.filter((h) => h.result !== 'unknown').length,
    unknown: history.filter((h) => h.result === 'unknown').length,
  });
}

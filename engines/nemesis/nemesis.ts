// The nemesis: a real 3-node cluster of native servers on loopback, concurrent clients that
// record every operation (unknown outcomes included), and faults on the processes — kill -9 of
// the leader or a follower, SIGSTOP/SIGCONT pauses that look like a long GC, (optionally)
// restarts, and partitions and one-way cuts (each node then runs in a network namespace of its
// own: netns.ts). Every history goes to Porcupine; acknowledged writes are checked against the final
// reads. In durability none (the paper's design) a restarted server comes back empty
// (amnesia): restarts are off unless asked for, and then expected to be unsafe. In durability
// log each server keeps a write-ahead log in its data dir and comes back from it; a scripted
// schedule (`script`) kills the leader and followers in turn, restarts them from disk or
// wiped, and waits on the cluster's state between steps.
import type { HistoryOp, Verdict } from '@replicant/checker/lincheck';
import { lostAcknowledgedWrites } from '@replicant/checker/final-state';
import type { EngineName } from '../loader/engine.ts';
import { NativeCluster } from '../cluster/launcher.ts';
import { StatusReader } from '../cluster/node-status.ts';
import { HistoryClient } from '../cluster/history-client.ts';
import { leaderKillRecoveries, recoveryProblems, RATE_RECOVERY_MS, RATE_WINDOW_MS, type AckMark, type FaultKind, type LeaderKillRecovery } from './recovery.ts';
import { NetnsLab, sweepLeftovers } from './netns.ts';

export type NemesisFault = FaultKind;

/** Faults that need every node in a network namespace of its own. */
export const NETWORK_FAULTS: readonly NemesisFault[] = ['partition', 'cut'];

/** One step of a scripted run: kill -9 the leader or a follower, let the survivors serve,
 * restart it (from its data dir, or with the disk wiped), and wait until it has caught up. */
export interface ScriptedKill {
  /** all: kill -9 every node at once, then restart them all (what durability log is for) */
  kill: 'leader' | 'follower' | 'all';
  wipe?: boolean;
}

/** The durability script (cluster/durable.test.ts, `npm run nemesis -- --script durable`). */
export const DURABLE_SCRIPT: readonly ScriptedKill[] = [{ kill: 'follower' }, { kill: 'leader' }, { kill: 'follower', wipe: true }, { kill: 'all' }];

export interface NemesisOptions {
  engines: EngineName[];
  seed: number;
  duration_ms: number;
  /** the last tail_ms of the run are fault-free */
  tail_ms: number;
  clients: number;
  keys: string[];
  faults: NemesisFault[];
  commit_interval_ms: number;
  /** a client gives up on one request after this long (unknown outcome) */
  request_timeout_ms: number;
  check: (history: readonly HistoryOp[]) => Verdict;
  log?: (line: string) => void;
  /** where the servers' logs go (kept); a temporary folder, removed at the end, by default */
  log_dir?: string;
  /** none (the default: the paper's design) or log (a write-ahead log per node) */
  durability?: 'none' | 'log';
  /** Scripted faults instead of the seeded random ones (faults and duration_ms are then unused:
   * the run lasts as long as the script, then tail_ms). */
  script?: readonly ScriptedKill[];
  /** Scripted runs: acknowledged operations to wait for after each kill and each restart. */
  acks_between?: number;
  /** Scripted runs: how long to wait for a state (acks, a caught-up node) before failing. */
  wait_timeout_ms?: number;
  /** how long the cluster may take to answer its first read before the run starts, and a
   * restarted node to come up again (default 120 s) */
  startup_timeout_ms?: number;
  /** rewrites a server's command line (tests: a server that is slow to start, as a JVM is) */
  wrap?: (id: number, argv: string[]) => string[];
  /** the servers' --status-interval-ms (unset: their default, a line a second). The waits on a
   * node's progress read its status lines, so a test that waits on them sets it finer. */
  status_interval_ms?: number;
}

export interface FaultRecord {
  at_ms: number;
  kind: FaultKind;
  node: number;
  /** cut: the node whose packets from `node` were lost */
  to?: number;
  was_leader: boolean;
  /** restart with its data dir emptied (a lost disk) */
  wiped?: boolean;
  /** restart: ms until its status showed it had executed what the others had at its restart */
  caught_up_ms?: number | null;
  /** restart (random schedule): ms until the restarted server wrote its first status line (its
   * loop runs: a member of the majority again); null: not within the start-up bound */
  ready_ms?: number | null;
  duration_ms?: number;
  /** first acknowledged operation after the fault began (any client), ms after it */
  served_again_ms: number | null;
}

export interface NemesisResult {
  engines: EngineName[];
  seed: number;
  history: HistoryOp[];
  faults: FaultRecord[];
  verdict: Verdict;
  lost_writes: string[];
  /** ms after the last fault ended until an operation was acknowledged; null: never */
  served_after_faults_ms: number | null;
  acknowledged: number;
  unknown: number;
  /** how each server process ended on SIGTERM at the end ("exited with status 0" is clean) */
  exits: string[];
  /** servers that did not exit with status 0 on SIGTERM (reported apart: not a safety or liveness matter) */
  unclean_exits: string[];
  /** ms from spawning the servers until they answered a read */
  startup_ms: number;
  /** ms from spawning the servers until every one had written a status line (the run starts then) */
  all_up_ms: number;
  /** the issue's recovery targets after each leader kill (engines/nemesis/recovery.ts) */
  leader_kills: LeaderKillRecovery[];
  /** the recovery targets missed after leader kills (timing: reported, not a problem) */
  recovery_misses: string[];
  problems: string[];
}

/** xorshift32: the nemesis only needs a reproducible schedule shape, not a quality stream. */
class Dice {
  private s: number;
  constructor(seed: number) {
    this.s = (seed * 2654435761) >>> 0 || 1;
  }
  next(): number {
    let x = this.s;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.s = x >>> 0;
    return this.s / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The nodes the random schedule may fault next. None while a restarted node has not yet come
 * up: a 3-node cluster tolerates one impaired node, and a JVM restarted after kill -9 on a loaded
 * machine takes longer to start (10-60 s seen) than the gap between faults, so a second fault
 * then took the majority away and the run "failed" for the nemesis's own doing (docs/reliability.md,
 * "The Java nemesis runs"). A node killed for good (no restarts) does not block pauses of the
 * others, as before. */
export function faultTargets(n: number, down: ReadonlySet<number>, starting: ReadonlySet<number>): number[] {
  if (starting.size > 0) return [];
  return [...Array(n).keys()].filter((i) => !down.has(i));
}

/** How long a killed node stays down: the drawn delay, and a killed leader at least until its
 * recovery window has passed — the issue judges the survivors, and a server starting on the same
 * cores (a JVM: seconds) is not one of them. */
export function restartDelayMs(drawn_ms: number, kill: { at_ms: number; was_leader: boolean }, now_ms: number): number {
  return kill.was_leader ? Math.max(drawn_ms, kill.at_ms + RATE_RECOVERY_MS + RATE_WINDOW_MS - now_ms) : drawn_ms;
}

export async function runNemesis(o: NemesisOptions): Promise<NemesisResult> {
  const log = o.log ?? (() => {});
  const dice = new Dice(o.seed);
  let net: NetnsLab | null = null;
  if (o.faults.some((f) => NETWORK_FAULTS.includes(f))) {
    for (const pid of sweepLeftovers()) log(`  removed the network namespaces a stopped nemesis (pid ${pid}) left behind`);
    net = NetnsLab.create(o.engines.length);
  }
  const lab = net;
  // whatever ends this process (an error, a signal's handler, the end of the run), no namespace stays
  const removeNet = () => lab?.remove();
  process.once('exit', removeNet);
  const wrap = lab === null ? o.wrap : (id: number, argv: string[]) => lab.wrap(id, o.wrap ? o.wrap(id, argv) : argv);
  // Ctrl-C or SIGTERM from here on, the cluster's start-up included (a JVM cluster takes seconds
  // to serve): SIGSTOPped nodes continued, every server stopped, the namespaces removed. Before
  // stop 38 the handler came only once the cluster served, and a Ctrl-C during start-up left
  // the servers running and the namespaces in place (netns.test.ts).
  const stopped = new Set<number>();
  let clusterStart: Promise<NativeCluster> | null = null;
  const onInterrupt = () => {
    void (async () => {
      const started = await clusterStart?.catch(() => null);
      if (started) {
        for (const id of stopped) started.processes[id]?.kill('SIGCONT');
        await started.stop(500);
      }
      removeNet();
      process.exit(130);
    })();
  };
  process.once('SIGINT', onInterrupt);
  process.once('SIGTERM', onInterrupt);
  clusterStart = NativeCluster.start({ engines: o.engines, commitIntervalMs: o.commit_interval_ms, durability: o.durability ?? 'none', logDir: o.log_dir, wrap, hosts: lab?.hosts, statusIntervalMs: o.status_interval_ms });
  const cluster = await clusterStart;
  const n = cluster.size;
  const statuses = [...Array(n).keys()].map((i) => new StatusReader(cluster.logPath(i)));
  let t0 = performance.now();
  const nowUs = () => Math.round((performance.now() - t0) * 1000);
  // The run (its clock, its clients and its faults) starts once the cluster has answered a read:
  // a JVM on a loaded machine can take longer to start than a whole run lasts, and faults that
  // land before anything served test nothing. The warm-up read is left out of the history (a
  // read changes nothing, so leaving it out cannot hide a violation).
  const startupProblems: string[] = [];
  const problemsSeen: string[] = [];
  const startupTimeoutMs = o.startup_timeout_ms ?? 120_000;
  const warm = new HistoryClient({ addresses: cluster.config.clients, history: [], nowUs, client: 0, idStride: 1, target: 0, requestTimeoutMs: o.request_timeout_ms });
  for (;;) {
    const op = await warm.run('get', o.keys[0]!, undefined);
    if (op.result !== 'unknown') break;
    if (performance.now() - t0 > startupTimeoutMs) {
      startupProblems.push(`liveness: the cluster answered no read within ${startupTimeoutMs} ms of starting`);
      break;
    }
    await sleep(50);
  }
  warm.close();
  const startup_ms = Math.round(performance.now() - t0);
  log(`  cluster serving after ${startup_ms} ms`);
  // Two nodes answer the first read; the third may still be starting (in a mixed cluster a JVM
  // loading classes while the C++ and Rust servers serve). A node still starting is impaired,
  // as a restarted one is (faultTargets), and one still starting at the end got SIGTERM before
  // it could handle it (docs/reliability.md, "Every node exits 0 on SIGTERM"): the run starts
  // once every node has written its first status line.
  while (startupProblems.length === 0 && statuses.some((s) => s.latest() === null)) {
    if (performance.now() - t0 > startupTimeoutMs) {
      const late = [...statuses.keys()].filter((i) => statuses[i]!.latest() === null);
      startupProblems.push(`liveness: ${late.map((i) => `n${i}`).join(', ')} wrote no status line within ${startupTimeoutMs} ms of starting`);
      break;
    }
    await sleep(50);
  }
  const all_up_ms = Math.round(performance.now() - t0);
  if (all_up_ms > startup_ms + 50) log(`  every node up after ${all_up_ms} ms`);
  t0 = performance.now();
  const history: HistoryOp[] = [];
  const acks: AckMark[] = []; // when each acknowledgement came, and from which node
  const down = new Set<number>();
  // restarted nodes whose server has not yet written a status line, with their restart record
  const starting = new Map<number, FaultRecord>();
  let leaderGuess = 0;
  let clientsRunning = true;
  const faults: FaultRecord[] = [];
  // --- clients ---
  const runClient = async (c: number, probe: boolean) => {
    const client = new HistoryClient({
      addresses: cluster.config.clients,
      history,
      nowUs,
      client: c,
      idStride: o.clients + 1,
      target: c % n,
      requestTimeoutMs: o.request_timeout_ms,
    });
    let k = 0; // operations issued: makes every put value unique
    let p = 0; // probe: the key being read
    const probeDeadline = performance.now() + 10_000;
    while (probe ? p < o.keys.length && performance.now() < probeDeadline : clientsRunning) {
      const r = dice.int(100);
      const kind: HistoryOp['op'] = probe ? 'get' : r < 45 ? 'get' : r < 85 ? 'put' : 'del';
      const key = probe ? o.keys[p]! : o.keys[dice.int(o.keys.length)]!;
      const value = kind === 'put' ? `c${c}.${k}` : undefined;
      k++;
      const op = await client.run(kind, key, value);
      if (op.result !== 'unknown') {
        leaderGuess = client.target;
        acks.push({ at_us: op.return_us!, node: client.target });
      }
      if (op.result !== 'unknown' && probe) p++;
    }
    client.close();
  };

  // --- faults ---
  const faultEnd = o.duration_ms - o.tail_ms;
  let lastFaultEnd = 0;
  const startupTimeout = o.startup_timeout_ms ?? 120_000;
  // Waits (on the servers' logs, not on a delay) until every restarted node is up again.
  const restartedReady = async () => {
    while (starting.size > 0) {
      for (const [node, rec] of starting) {
        const waited = performance.now() - t0 - rec.at_ms;
        if (statuses[node]!.latestSinceMark() !== null) {
          rec.ready_ms = Math.round(waited);
          log(`  ${Math.round(performance.now() - t0)} ms: n${node} is up again (${rec.ready_ms} ms after its restart)`);
          starting.delete(node);
        } else if (waited > startupTimeout) {
          rec.ready_ms = null;
          problemsSeen.push(`liveness: n${node} wrote no status line within ${startupTimeout} ms of its restart`);
          starting.delete(node);
        }
      }
      if (starting.size > 0) await sleep(50);
    }
  };
  const nemesis = async () => {
    await sleep(500);
    while (performance.now() - t0 < faultEnd - 200) {
      await restartedReady();
      if (performance.now() - t0 >= faultEnd - 200) break;
      const kinds = o.faults.filter((f) => f !== 'restart' && !(f === 'kill' && down.size > 0 && !o.faults.includes('restart')));
      if (kinds.length === 0) break;
      const kind = kinds[dice.int(kinds.length)]!;
      const candidates = faultTargets(n, down, new Set(starting.keys()));
      const node = dice.int(2) === 0 && candidates.includes(leaderGuess) ? leaderGuess : candidates[dice.int(candidates.length)]!;
      const rec: FaultRecord = { at_ms: Math.round(performance.now() - t0), kind, node, was_leader: node === leaderGuess, served_again_ms: null };
      faults.push(rec);
      if (kind === 'pause') {
        const ms = 200 + dice.int(1000);
        rec.duration_ms = ms;
        log(`  ${rec.at_ms} ms: SIGSTOP n${node}${rec.was_leader ? ' (leader)' : ''} for ${ms} ms`);
        stopped.add(node);
        cluster.processes[node]?.kill('SIGSTOP');
        await sleep(ms);
        cluster.processes[node]?.kill('SIGCONT');
        stopped.delete(node);
      } else if (kind === 'partition' || kind === 'cut') {
        const ms = 200 + dice.int(1000);
        rec.duration_ms = ms;
        if (kind === 'cut') {
          const others = [...Array(n).keys()].filter((j) => j !== node);
          rec.to = others[dice.int(others.length)]!;
          log(`  ${rec.at_ms} ms: cut n${node}${rec.was_leader ? ' (leader)' : ''} -> n${rec.to} (one way) for ${ms} ms`);
          lab!.cut(node, rec.to);
        } else {
          log(`  ${rec.at_ms} ms: partition n${node}${rec.was_leader ? ' (leader)' : ''} from the others for ${ms} ms`);
          lab!.isolate(node);
        }
        await sleep(ms);
        lab!.healAll();
      } else {
        log(`  ${rec.at_ms} ms: kill -9 n${node}${rec.was_leader ? ' (leader)' : ''}`);
        down.add(node);
        await cluster.kill(node);
        if (o.faults.includes('restart')) {
          const ms = 300 + dice.int(1000);
          rec.duration_ms = ms;
          // timers may fire a little early, and a restart a millisecond inside the window would
          // leave the rate unjudged: wait until the delay is really over
          for (let wait = restartDelayMs(ms, rec, performance.now() - t0); wait > 0; wait = restartDelayMs(0, rec, performance.now() - t0)) await sleep(wait);
          log(`  ${Math.round(performance.now() - t0)} ms: restart n${node} (${o.durability === 'log' ? 'from its data dir' : 'empty: durability none'})`);
          const restart: FaultRecord = { at_ms: Math.round(performance.now() - t0), kind: 'restart', node, was_leader: false, served_again_ms: null, ready_ms: null };
          faults.push(restart);
          statuses[node]!.mark();
          starting.set(node, restart);
          cluster.startNode(node);
          down.delete(node);
        }
      }
      lastFaultEnd = performance.now() - t0;
      // after a leader kill nothing else happens until the recovery window has been seen, so
      // the rate 3 s after it is about that kill alone (the random draw is kept either way)
      const gap = 300 + dice.int(1200);
      await sleep(kind === 'kill' && rec.was_leader ? Math.max(gap, rec.at_ms + RATE_RECOVERY_MS + RATE_WINDOW_MS - (performance.now() - t0)) : gap);
    }
  };

  // --- a scripted schedule: every wait is on the cluster's state, bounded by wait_timeout_ms ---
  const waitFor = async (what: string, cond: () => boolean): Promise<boolean> => {
    const end = performance.now() + (o.wait_timeout_ms ?? 30_000);
    while (!cond()) {
      if (performance.now() > end) {
        problemsSeen.push(`liveness: ${what} did not happen within ${o.wait_timeout_ms ?? 30_000} ms`);
        log(`  gave up waiting: ${what}`);
        return false;
      }
      await sleep(10);
    }
    return true;
  };
  const moreAcks = (what: string) => {
    const target = acks.length + (o.acks_between ?? 30);
    return waitFor(`${o.acks_between ?? 30} acknowledged operations ${what}`, () => acks.length >= target);
  };
  const scripted = async (script: readonly ScriptedKill[]) => {
    await moreAcks('before the first fault');
    for (const step of script) {
      if (step.kill === 'all') {
        const at = Math.round(performance.now() - t0);
        log(`  ${at} ms: kill -9 every node`);
        for (let i = 0; i < n; i++) {
          faults.push({ at_ms: at, kind: 'kill', node: i, was_leader: i === leaderGuess, served_again_ms: null });
          down.add(i);
        }
        await Promise.all([...Array(n).keys()].map((i) => cluster.kill(i)));
        const back = Math.round(performance.now() - t0);
        log(`  ${back} ms: restart every node ${o.durability === 'log' ? 'from its data dir' : 'empty (durability none)'}`);
        for (let i = 0; i < n; i++) {
          faults.push({ at_ms: back, kind: 'restart', node: i, was_leader: false, served_again_ms: null });
          cluster.startNode(i);
          down.delete(i);
        }
        await moreAcks('after the whole cluster came back');
        lastFaultEnd = performance.now() - t0;
        continue;
      }
      const candidates = [...Array(n).keys()].filter((i) => !down.has(i));
      const node = step.kill === 'leader' ? leaderGuess : candidates.find((i) => i !== leaderGuess)!;
      const rec: FaultRecord = { at_ms: Math.round(performance.now() - t0), kind: 'kill', node, was_leader: node === leaderGuess, served_again_ms: null };
      faults.push(rec);
      log(`  ${rec.at_ms} ms: kill -9 n${node}${rec.was_leader ? ' (leader)' : ''}`);
      down.add(node);
      await cluster.kill(node);
      await moreAcks(`by the survivors after n${node} was killed`);
      if (step.wipe && o.durability === 'log') cluster.wipe(node); // in none every restart is empty
      // what the others have executed when it comes back: it must get at least as far
      const others = candidates.filter((i) => i !== node);
      for (const i of others) statuses[i]!.mark();
      const target = Math.max(...(await Promise.all(others.map((i) => statuses[i]!.nextStatus().then((st) => st.last_executed, () => 0)))));
      const restart: FaultRecord = { at_ms: Math.round(performance.now() - t0), kind: 'restart', node, was_leader: false, wiped: !!step.wipe, served_again_ms: null, caught_up_ms: null };
      faults.push(restart);
      log(`  ${restart.at_ms} ms: restart n${node} ${o.durability !== 'log' ? 'empty (durability none)' : step.wipe ? 'with its disk wiped' : 'from its data dir'}; the others have executed ${target}`);
      statuses[node]!.mark();
      cluster.startNode(node);
      down.delete(node);
      let executed = -1;
      const caughtUp = await waitFor(`n${node} executing up to ${target} after its restart`, () => {
        executed = statuses[node]!.latestSinceMark()?.last_executed ?? -1;
        return executed >= target && acks.length > 0;
      });
      if (caughtUp) restart.caught_up_ms = Math.round(performance.now() - t0 - restart.at_ms);
      await moreAcks(`after n${node} came back`);
      lastFaultEnd = performance.now() - t0;
    }
  };

  const clientRuns = Array.from({ length: o.clients }, (_, c) => runClient(c, false));
  if (o.script) {
    await scripted(o.script);
    await sleep(o.tail_ms);
  } else {
    await nemesis();
    // the fault-free tail starts once every restarted node is up: a node still starting is a fault
    const late = starting.size > 0;
    await restartedReady();
    const waitTail = Math.max(late ? o.tail_ms : 0, o.duration_ms - (performance.now() - t0));
    await sleep(waitTail);
  }
  clientsRunning = false;
  const clientsStopped_ms = performance.now() - t0;
  await Promise.all(clientRuns);
  await runClient(o.clients, true); // final reads of every key
  process.removeListener('SIGINT', onInterrupt);
  process.removeListener('SIGTERM', onInterrupt);
  await cluster.stop();
  removeNet();
  process.removeListener('exit', removeNet);
  const exits = [...Array(n).keys()].map((i) => (down.has(i) ? 'killed by the nemesis' : cluster.describeExit(i)));

  for (const f of faults) {
    const after = acks.find((a) => a.at_us >= f.at_ms * 1000);
    f.served_again_ms = after === undefined ? null : Math.round(after.at_us / 1000 - f.at_ms);
  }
  const afterFaults = acks.find((a) => a.at_us >= lastFaultEnd * 1000)?.at_us;
  const verdict = o.check(history);
  const finalReads = new Map<string, string | undefined>();
  const probeOps = history.filter((op) => op.client % (o.clients + 1) === o.clients && op.result !== 'unknown');
  for (const op of probeOps) finalReads.set(op.key, op.result === 'ok' ? op.value : undefined);
  const lost = lostAcknowledgedWrites(history, finalReads).map((l) => l.reason);
  const problems: string[] = [...startupProblems, ...problemsSeen];
  if (verdict.verdict === 'violation') problems.push(`Porcupine: not linearizable on keys ${verdict.violating_keys.join(', ')}`);
  else if (verdict.verdict !== 'linearizable') problems.push('Porcupine could not decide within its time limit');
  problems.push(...lost);
  if (finalReads.size < o.keys.length) problems.push(`liveness: the final reads got ${finalReads.size} of ${o.keys.length} keys`);
  if (afterFaults === undefined) problems.push('liveness: nothing was acknowledged after the last fault');
  // timing targets, reported beside the problems: a loaded machine misses them without any
  // fault of the engines, so they never fail a test (the safety and liveness problems do)
  const leaderKills = leaderKillRecoveries(faults, acks, Math.round(clientsStopped_ms), o.engines);
  const recoveryMisses = recoveryProblems(leaderKills);
  const unclean = [...exits.entries()].filter(([, e]) => e !== 'killed by the nemesis' && e !== 'exited with status 0').map(([i, e]) => `n${i} (${o.engines[i]}) ${e} on SIGTERM`);
  return {
    engines: o.engines,
    seed: o.seed,
    history,
    faults,
    verdict,
    lost_writes: lost,
    served_after_faults_ms: afterFaults === undefined ? null : Math.round(afterFaults / 1000 - lastFaultEnd),
    acknowledged: history.filter((h) => h.result !== 'unknown').length,
    unknown: history.filter((h) => h.result === 'unknown').length,
    exits,
    unclean_exits: unclean,
    startup_ms,
    all_up_ms,
    leader_kills: leaderKills,
    recovery_misses: recoveryMisses,
    problems,
  };
}

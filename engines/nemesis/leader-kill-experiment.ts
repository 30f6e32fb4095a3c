// A controlled leader-kill experiment (issue 14: "the survivors back to >= 80 % of the pre-kill
// rate within 3 s"): one 3-node cluster per run under the nemesis's clients, one fault at a
// fixed time, and the acknowledgements counted per 250 ms. The modes separate the candidate
// causes of a slow recovery (docs/reliability.md, "C++ x3 after a leader kill: measured"):
//   no-fault          nothing happens at the fault's time: what the 80 % rule says of a cluster
//                     that lost nothing (the control)
//   kill-leader       kill -9 the leader; the survivors redial its dead peer port as they do
//   kill-leader-sink  the same, and at once a listener takes the dead node's peer port and
//                     swallows what comes, so the survivors' links connect and nobody redials
//   kill-follower     kill -9 a follower: the leader keeps leading with one follower left
//                     (no election, no client redirect)
//   two-alive         a follower killed before the load starts: one follower from the start
// Each run also samples the survivors' CPU time (/proc) per bin. Not a test: a command whose
// figures go into docs/reliability.md with the command and the load average.
//   npx tsx nemesis/leader-kill-experiment.ts --engine cpp[,go…] | --engines go,cpp,rust [--engines …]
//     [--repeats 3] [--modes a,b] [--fsync always,never] [--snapshot-every N] [--report FILE]
// --engine E runs three nodes of E; --engines A,B,C (repeatable) one mixed cluster, node i running
// the i-th engine. In a mix the leader's engine sets the rate, so each run also names the engine
// that led in the pre-kill second and the one that led 3-4 s after.
import { createServer, type Server } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { HistoryOp } from '@replicant/checker/lincheck';
import { ENGINE_NAMES, type EngineName } from '../loader/engine.ts';
import { NativeCluster } from '../cluster/launcher.ts';
import { HistoryClient } from '../cluster/history-client.ts';
import { StatusReader } from '../cluster/node-status.ts';

export const MODES = ['no-fault', 'kill-leader', 'kill-leader-sink', 'kill-follower', 'two-alive'] as const;
export type Mode = (typeof MODES)[number];
export type Fsync = 'always' | 'never';

/** A cluster's name in reports: the engine of a one-engine cluster, else its nodes' engines joined by '+' (as the nemesis names a mix). */
export function clusterLabel(engines: readonly EngineName[]): string {
  return engines.every((e) => e === engines[0]) ? engines[0]! : engines.join('+');
}

export interface ExperimentOptions {
  /** each cluster's three nodes' engines, in the order run within a round */
  clusters: EngineName[][];
  repeats: number;
  modes: Mode[];
  syncs: Fsync[];
  snapshotEvery?: number;
  report?: string;
}

export const USAGE =
  'usage: npx tsx nemesis/leader-kill-experiment.ts --engine E[,E…] | --engines A,B,C [--engines …] [--repeats N] [--modes ' +
  `${MODES.join(',')}] [--fsync always,never] [--snapshot-every N] [--report FILE]`;

const engineName = (e: string, flag: string): EngineName => {
  if (!(ENGINE_NAMES as readonly string[]).includes(e)) throw new Error(`${flag} takes ${ENGINE_NAMES.join(', ')}, not "${e}"`);
  return e as EngineName;
};

/** The command line's options; throws an Error that says what is wrong with bad input. */
export function parseExperimentArgs(args: readonly string[]): ExperimentOptions {
  const { values } = parseArgs({
    args: [...args],
    options: {
      engine: { type: 'string' },
      engines: { type: 'string', multiple: true },
      repeats: { type: 'string', default: '3' },
      modes: { type: 'string', default: MODES.join(',') },
      fsync: { type: 'string', default: 'always' },
      'snapshot-every': { type: 'string' },
      report: { type: 'string' },
    },
  });
  const clusters: EngineName[][] = [];
  const alone = values.engine ?? (values.engines ? undefined : 'cpp');
  if (alone !== undefined) for (const e of alone.split(',')) clusters.push(Array(3).fill(engineName(e, '--engine')));
  for (const mix of values.engines ?? []) {
    const nodes = mix.split(',');
    if (nodes.length !== 3) throw new Error(`--engines names the three nodes' engines, comma-separated (e.g. go,cpp,rust), not "${mix}"`);
    clusters.push(nodes.map((e) => engineName(e, '--engines')));
  }
  const repeats = Number(values.repeats);
  if (!Number.isInteger(repeats) || repeats < 1) throw new Error(`--repeats must be a whole number >= 1, not "${values.repeats}"`);
  const modes = values.modes!.split(',') as Mode[];
  for (const m of modes) if (!(MODES as readonly string[]).includes(m)) throw new Error(`unknown mode "${m}" (${MODES.join(', ')})`);
  const syncs = values.fsync!.split(',') as Fsync[];
  for (const f of syncs) if (f !== 'always' && f !== 'never') throw new Error(`--fsync takes always and/or never, not "${f}"`);
  const snapshotEvery = values['snapshot-every'] === undefined ? undefined : Number(values['snapshot-every']);
  if (snapshotEvery !== undefined && !(Number.isInteger(snapshotEvery) && snapshotEvery >= 0)) throw new Error(`--snapshot-every must be a whole number, not "${values['snapshot-every']}"`);
  return { clusters, repeats, modes, syncs, snapshotEvery, report: values.report };
}

const BIN_MS = 250;
const BEFORE_MS = 3000; // load before the fault (the last second is the pre-kill second)
const AFTER_MS = 5000;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface Ack {
  at_ms: number; // after the fault
  latency_ms: number;
  node: number;
}

export interface Bin {
  from_ms: number;
  acks: number;
  unknown: number;
  latency_ms_mean: number | null;
  /** which node answered most in the bin */
  served_by: number | null;
}

/** Acknowledgements and unknown outcomes per bin of BIN_MS, from `from_ms` to `to_ms` after the fault. */
export function binAcks(acks: readonly Ack[], unknownAtMs: readonly number[], fromMs: number, toMs: number): Bin[] {
  const bins: Bin[] = [];
  for (let t = fromMs; t < toMs; t += BIN_MS) {
    const inBin = acks.filter((a) => a.at_ms >= t && a.at_ms < t + BIN_MS);
    bins.push({
      from_ms: t,
      acks: inBin.length,
      unknown: unknownAtMs.filter((u) => u >= t && u < t + BIN_MS).length,
      latency_ms_mean: inBin.length ? inBin.reduce((s, a) => s + a.latency_ms, 0) / inBin.length : null,
      served_by: mainNode(inBin, t, t + BIN_MS),
    });
  }
  return bins;
}

/** CPU time (user + system) a process has used, in ms; null once it is gone. */
function cpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in USER_HZ (100)
  } catch {
    return null;
  }
}

/** What a run's acknowledgements (times relative to the fault) say, the cluster's engines known. */
export interface RateFigures {
  pre_rate_per_s: number;
  post_rate_per_s: number;
  /** acks 3-4 s after the fault over the second before it */
  ratio: number | null;
  /** the engine of the node that answered most in the pre-kill second, and 3-4 s after; null: none answered */
  leader_engine_before: EngineName | null;
  leader_engine_after: EngineName | null;
  /** mean rates: the 3 s before the fault, and 1-5 s after it */
  before_per_s: number;
  after_per_s: number;
  /** bins with nothing acknowledged: before the fault (of 12), 1-5 s after it (of 16) */
  empty_bins_before: number;
  empty_bins_after: number;
  /** how often the node answering the clients changed, 3 s before and 5 s after the fault */
  leader_changes_before: number;
  leader_changes_after: number;
}

/** The node that answered most of the acknowledgements in [fromMs, toMs); null when none did. */
function mainNode(rel: readonly Ack[], fromMs: number, toMs: number): number | null {
  const counts = new Map<number, number>();
  for (const a of rel) if (a.at_ms >= fromMs && a.at_ms < toMs) counts.set(a.node, (counts.get(a.node) ?? 0) + 1);
  const top = [...counts].sort((a, b) => b[1] - a[1])[0];
  return top ? top[0] : null;
}

export function rateFigures(rel: readonly Ack[], engines: readonly EngineName[]): RateFigures {
  const changes = (from: number, to: number) => {
    const nodes = rel.filter((a) => a.at_ms >= from && a.at_ms < to).map((a) => a.node);
    return nodes.filter((x, i) => i > 0 && x !== nodes[i - 1]).length;
  };
  const all = binAcks(rel, [], -BEFORE_MS, AFTER_MS);
  const pre = rel.filter((a) => a.at_ms >= -1000 && a.at_ms < 0).length;
  const post = rel.filter((a) => a.at_ms >= 3000 && a.at_ms < 4000).length;
  const engineOf = (node: number | null) => (node === null ? null : (engines[node] ?? null));
  return {
    pre_rate_per_s: pre,
    post_rate_per_s: post,
    ratio: pre ? post / pre : null,
    leader_engine_before: engineOf(mainNode(rel, -1000, 0)),
    leader_engine_after: engineOf(mainNode(rel, 3000, 4000)),
    before_per_s: rel.filter((a) => a.at_ms < 0).length / (BEFORE_MS / 1000),
    after_per_s: rel.filter((a) => a.at_ms >= 1000 && a.at_ms < AFTER_MS).length / ((AFTER_MS - 1000) / 1000),
    empty_bins_before: all.filter((b) => b.from_ms < 0 && b.acks === 0).length,
    empty_bins_after: all.filter((b) => b.from_ms >= 1000 && b.acks === 0).length,
    leader_changes_before: changes(-BEFORE_MS, 0),
    leader_changes_after: changes(0, AFTER_MS),
  };
}

export interface RunResult extends RateFigures {
  mode: Mode;
  /** the write-ahead log's sync policy (the nemesis's servers: always) */
  fsync: Fsync;
  /** the servers' --snapshot-every (absent: their default) */
  snapshot_every?: number;
  /** the cluster's name (clusterLabel): an engine, or a mix such as go+cpp+rust */
  engine: string;
  /** node i's engine (absent in reports from before mixes were run) */
  engines?: EngineName[];
  started_utc: string;
  load_average_1m: [number, number];
  /** the node killed (-1: none, no-fault) */
  killed: number;
  leader_before: number;
  bins: Bin[];
  /** survivors' CPU ms per bin, by node */
  cpu_ms: Record<string, number[]>;
  /** elections each node had started (its status lines): at the fault and at the end */
  elections_at_fault: (number | null)[];
  elections_at_end: (number | null)[];
}

async function oneRun(engines: EngineName[], mode: Mode, fsync: Fsync, snapshotEvery?: number): Promise<RunResult> {
  const load0 = loadavg()[0]!;
  const startedUtc = new Date().toISOString();
  const cluster = await NativeCluster.start({ engines, commitIntervalMs: 50, durability: 'log', fsync, snapshotEvery });
  const sinks: Server[] = [];
  try {
    let t0 = performance.now();
    const nowUs = () => Math.round((performance.now() - t0) * 1000);
    const history: HistoryOp[] = [];
    const warm = new HistoryClient({ addresses: cluster.config.clients, history: [], nowUs, client: 0, idStride: 1, target: 0, requestTimeoutMs: 1000 });
    for (;;) {
      if ((await warm.run('get', 'k0')).result !== 'unknown') break;
      if (performance.now() - t0 > 60_000) throw new Error('the cluster answered no read within 60 s');
      await sleep(50);
    }
    const leader = warm.target; // the node that answered the read (followers redirect)
    warm.close();
    const follower = (leader + 1) % 3;
    const killed = mode === 'no-fault' ? -1 : mode === 'kill-follower' || mode === 'two-alive' ? follower : leader;
    if (mode === 'two-alive') await cluster.kill(killed);

    t0 = performance.now();
    const acks: { at_ms: number; latency_ms: number; node: number }[] = [];
    const unknownAt: number[] = [];
    let running = true;
    const clients = [0, 1, 2].map(async (c) => {
      // the nemesis's clients: one request at a time, redirects followed, the same operation mix
      const client = new HistoryClient({ addresses: cluster.config.clients, history, nowUs, client: c, idStride: 4, target: c % 3, requestTimeoutMs: 1000 });
      for (let k = 0; running; k++) {
        const kind = k % 20 < 9 ? 'get' : k % 20 < 17 ? 'put' : 'del';
        const op = await client.run(kind, `k${k % 3}`, kind === 'put' ? `c${c}.${k}` : undefined);
        const at = performance.now() - t0;
        if (op.result === 'unknown') unknownAt.push(at);
        else acks.push({ at_ms: at, latency_ms: (op.return_us! - op.call_us) / 1000, node: client.target });
      }
      client.close();
    });
    const pids = cluster.processes.map((p) => p?.pid ?? null);
    const cpu: Record<string, number[]> = {};
    const sampler = (async () => {
      const last = pids.map((p) => (p === null ? null : cpuMs(p)));
      while (running) {
        await sleep(BIN_MS);
        pids.forEach((p, i) => {
          if (p === null || i === killed) return;
          const now = cpuMs(p);
          if (now === null || last[i] === null) return;
          (cpu[`n${i}`] ??= []).push(now - last[i]!);
          last[i] = now;
        });
      }
    })();
    const statuses = [0, 1, 2].map((i) => new StatusReader(cluster.logPath(i)));
    await sleep(BEFORE_MS);
    const faultAt = performance.now() - t0;
    const electionsAtFault = statuses.map((s) => s.latest()?.elections ?? null);
    if (mode === 'kill-leader' || mode === 'kill-leader-sink' || mode === 'kill-follower') {
      await cluster.kill(killed);
      if (mode === 'kill-leader-sink') {
        const [host, port] = cluster.config.peers[killed]!.split(':');
        const sink = createServer((s) => {
          s.on('error', () => {});
          s.resume();
        });
        await new Promise<void>((ok, fail) => sink.once('error', fail).listen(Number(port), host, ok));
        sinks.push(sink);
      }
    }
    await sleep(AFTER_MS - (performance.now() - t0 - faultAt));
    running = false;
    await Promise.all(clients);
    await sampler;
    // the survivors' last status lines (a second apart) come before stop()
    await sleep(1100);
    const electionsAtEnd = statuses.map((s, i) => (i === killed ? null : (s.latest()?.elections ?? null)));
    const rel = acks.map((a) => ({ ...a, at_ms: a.at_ms - faultAt }));
    const bins = binAcks(rel, unknownAt.map((u) => u - faultAt), -BEFORE_MS + 1000, AFTER_MS);
    return {
      mode,
      fsync,
      snapshot_every: snapshotEvery,
      engine: clusterLabel(engines),
      engines,
      started_utc: startedUtc,
      load_average_1m: [load0, loadavg()[0]!],
      killed,
      leader_before: leader,
      bins,
      cpu_ms: cpu,
      ...rateFigures(rel, engines),
      elections_at_fault: electionsAtFault,
      elections_at_end: electionsAtEnd,
    };
  } finally {
    for (const s of sinks) s.close();
    await cluster.stop();
  }
}

async function main(): Promise<void> {
  let opts: ExperimentOptions;
  try {
    opts = parseExperimentArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
  const { clusters, repeats, modes, syncs, snapshotEvery } = opts;
  const results: RunResult[] = [];
  // interleaved: every mode once per round, so the machine's load falls on all alike
  for (let r = 0; r < repeats; r++) {
    for (const nodes of clusters) for (const fsync of syncs) for (const mode of modes) {
      const engine = clusterLabel(nodes);
      const res = await oneRun(nodes, mode, fsync, snapshotEvery);
      results.push(res);
      const row = res.bins.map((b) => b.acks).join(' ');
      process.stdout.write(
        `${engine} fsync ${fsync} ${mode.padEnd(16)} round ${r + 1}: pre ${res.pre_rate_per_s}/s, 3-4 s ${res.post_rate_per_s}/s (${res.ratio === null ? '-' : (100 * res.ratio).toFixed(0)} %); ` +
          `leader ${res.leader_engine_before ?? '-'} -> ${res.leader_engine_after ?? '-'}; load ${res.load_average_1m.map((l) => l.toFixed(1)).join('->')}; acks per 250 ms from -2 s: ${row}\n`,
      );
      const lat = res.bins.map((b) => (b.latency_ms_mean === null ? '-' : b.latency_ms_mean.toFixed(1))).join(' ');
      process.stdout.write(`    mean latency ms per bin: ${lat}\n`);
      process.stdout.write(
        `    mean rate: 3 s before ${res.before_per_s.toFixed(0)}/s, 1-5 s after ${res.after_per_s.toFixed(0)}/s; empty bins ${res.empty_bins_before}/12 before, ${res.empty_bins_after}/16 after; ` +
          `answering node changed ${res.leader_changes_before}x before, ${res.leader_changes_after}x after; elections per node at the fault ${res.elections_at_fault.join(',')}, at the end ${res.elections_at_end.map((e) => e ?? '-').join(',')}\n`,
      );
      process.stdout.write(`    served by: ${res.bins.map((b) => b.served_by ?? '-').join(' ')}; unknown: ${res.bins.map((b) => b.unknown).join(' ')}\n`);
      for (const [node, ms] of Object.entries(res.cpu_ms)) process.stdout.write(`    ${node} CPU ms per 250 ms from -3 s: ${ms.map((x) => x.toFixed(0)).join(' ')}\n`);
    }
  }
  for (const engine of clusters.map(clusterLabel)) for (const fsync of syncs) for (const mode of modes) {
    const runs = results.filter((r) => r.engine === engine && r.mode === mode && r.fsync === fsync);
    const misses = runs.filter((r) => r.ratio !== null && r.ratio < 0.8).length;
    process.stdout.write(
      `${engine} fsync ${fsync} ${mode}: 3-4 s below 80 % of the second before in ${misses} of ${runs.length}; mean rate before -> 1-5 s after ${runs.map((r) => `${r.before_per_s.toFixed(0)}->${r.after_per_s.toFixed(0)}`).join(', ')}; empty bins after ${runs.map((r) => r.empty_bins_after).join(', ')} of 16\n`,
    );
    const ratios = runs.filter((r) => r.ratio !== null).map((r) => r.ratio!);
    if (ratios.length) process.stdout.write(`${engine} fsync ${fsync} ${mode}: 3-4 s over the pre-fault second ${ratios.map((x) => (100 * x).toFixed(0) + ' %').join(', ')}\n`);
  }
  if (opts.report) writeFileSync(opts.report, JSON.stringify({ command: `npx tsx nemesis/leader-kill-experiment.ts ${process.argv.slice(2).join(' ')}`, bin_ms: BIN_MS, runs: results }, null, 2) + '\n');
}

if (import.meta.url === `file://${process.argv[1]}`) await main();

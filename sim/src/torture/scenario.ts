// A torture scenario (VOPR-style): everything one seeded run does — the cluster, the clients'
// workload and the fault schedule — drawn from the seed alone, so `--replay SEED` rebuilds it.
// Faults live in virtual time inside a fault window; after it the network is whole again and
// every node is up (the fault-free tail in which the cluster must serve again).
//
// Shrinking never redraws: it keeps a subset of the seed's faults and a prefix of each client's
// operations, so a shrunk run is (seed, kept faults, operation limit) and replays exactly.
import { ENGINE_NAMES, type EngineName } from '@replicant/engines/loader/engine';
import { Prng } from '../core/prng.ts';
import { STREAM_CHECKPOINTS, STREAM_RESETS, STREAM_SCENARIO } from '../core/streams.ts';

export type Fault =
  /** nodes in `side` cannot exchange messages with the others, both ways */
  | { kind: 'partition'; at_us: number; duration_us: number; side: number[] }
  /** messages from → to are lost (the reverse direction still works) */
  | { kind: 'cut'; at_us: number; duration_us: number; from: number; to: number }
  /** each node-to-node message is lost with this probability */
  | { kind: 'drop'; at_us: number; duration_us: number; probability: number }
  /** each node-to-node message is delivered twice with this probability */
  | { kind: 'duplicate'; at_us: number; duration_us: number; probability: number }
  /** each message gets an extra uniform delay in [0, max_extra_us): links stop being FIFO */
  | { kind: 'reorder'; at_us: number; duration_us: number; max_extra_us: number }
  /** every message to or from `node` takes extra_us longer (FIFO kept) */
  | { kind: 'delay'; at_us: number; duration_us: number; node: number; extra_us: number }
  /** a GC-like stop-the-world: `node` handles nothing until the pause ends, then all it queued */
  | { kind: 'pause'; at_us: number; duration_us: number; node: number }
  /** the process is gone for duration_us: messages to it and its clients' connections are lost.
   * Without amnesia the node comes back with its state (an idealised durable node); with
   * amnesia the process really restarts: a fresh core, empty in durability none, rebuilt from
   * the records its disk holds in durability log (Scenario.durability). */
  | { kind: 'crash'; at_us: number; duration_us: number; node: number; amnesia: boolean }
  /** a TCP reset of the link from → to (issue 20): every message in flight on it at at_us is
   * lost, and so is every message sent while it redials (duration_us, at most half a commit
   * interval, as the native servers' back-off); the reverse direction still works */
  | { kind: 'reset'; at_us: number; duration_us: number; from: number; to: number };

export type FaultKind = Fault['kind'];
export const FAULT_KINDS: readonly FaultKind[] = ['partition', 'cut', 'drop', 'duplicate', 'reorder', 'delay', 'pause', 'crash', 'reset'];
/** The kinds the main draw picks from; resets are drawn after it, on their own stream. */
const MAIN_FAULT_KINDS: readonly FaultKind[] = ['partition', 'cut', 'drop', 'duplicate', 'reorder', 'delay', 'pause', 'crash'];

export interface Scenario {
  seed: number;
  engines: EngineName[];
  commit_interval_us: number;
  /** the cores' check-quorum (the native servers' default); off is the paper's protocol */
  check_quorum: boolean;
  /** the cores' steady-state repair batch (0 = off, the paper's protocol; native servers use 256) */
  repair_batch: number;
  /** the cores' bounded elections (0 or absent = off, the paper's protocol; native servers use 256) */
  election_batch?: number;
  /** the cores' log bound (0 or absent = off; native servers use 16,384; docs/protocol.md, "Log bound") */
  log_bound?: number;
  /** 'blade': the cores run BLADE (docs/protocol.md, "GC mitigation"), and each GC-like pause
   * is announced to its node first (gc_pending with the pause's length): the pause starts when
   * the core says collect (a leader hands off first, a follower asks), gc_done when it ends */
  mitigation?: 'blade';
  /** 'log': the cores persist (docs/protocol.md, Durability), the run is their disk, and a
   * crashed node restarts from the batches written before the crash; absent: durability none */
  durability?: 'log';
  /** the cores take a checkpoint every this many executed slots (docs/protocol.md, Compaction;
   * needs repair_batch, election_batch and durability log); absent: no checkpoints */
  snapshot_every?: number;
  clients: number;
  keys: string[];
  /** operations each client issues (a prefix of its drawn sequence when shrunk) */
  ops_per_client: number;
  /** faults happen in [0, fault_window_us) */
  fault_window_us: number;
  /** the fault-free tail: clients keep working, the cluster must serve within liveness_bound_us */
  tail_us: number;
  liveness_bound_us: number;
  /** a client gives up on a request after this long (the outcome is then unknown) */
  client_timeout_us: number;
  faults: Fault[];
}

export interface DrawOptions {
  /** one engine for every node, or 'all' for a drawn mix */
  engine: EngineName | 'all';
  /** crashes restart with an empty core (amnesia); off by default */
  amnesia?: boolean;
  /** crashes are real restarts of the process (a fresh core): 'none' restarts it empty (the
   * same as amnesia), 'log' from its write-ahead records; absent: crashes keep the state */
  durability?: 'none' | 'log';
  /** run the cores with check-quorum on (drawing is unchanged: the same seed, the same schedule) */
  checkQuorum?: boolean;
  /** the cores' repair batch (0 or absent: off) */
  repairBatch?: number;
  /** the cores' election batch (0 or absent: off) */
  electionBatch?: number;
  /** the cores' log bound (0 or absent: off; needs repairBatch and electionBatch) */
  logBound?: number;
  /** the cores checkpoint: each seed draws snapshot_every in [CHECKPOINT_EVERY_MIN,
   * CHECKPOINT_EVERY_MAX] from a stream of its own (the rest of the draw is unchanged; needs
   * durability log, repairBatch and electionBatch, as the cores do) */
  checkpoints?: boolean;
  /** the cores' GC mitigation: GC-like pauses are announced and run when the core says (the
   * drawing is unchanged: the same seed, the same schedule) */
  mitigation?: 'blade';
  /** draw TCP resets after the other faults (default true; false gives a seed's schedule as it
   * was before resets existed) */
  resets?: boolean;
}

export const COMMIT_INTERVAL_US = 10_000;
/** A seed runs a few hundred operations: checkpoints this often happen several times in one. */
export const CHECKPOINT_EVERY_MIN = 4;
export const CHECKPOINT_EVERY_MAX = 32;

export function drawScenario(seed: number, options: DrawOptions): Scenario {
  const rng = new Prng(seed, STREAM_SCENARIO);
  const pick = <T>(xs: readonly T[]): T => xs[rng.nextInt(xs.length)]!;
  const between = (lo: number, hi: number) => lo + rng.nextInt(hi - lo + 1);
  const n = rng.nextInt(4) === 0 ? 5 : 3;
  const engines = Array.from({ length: n }, () => (options.engine === 'all' ? pick(ENGINE_NAMES) : options.engine));
  const ci = COMMIT_INTERVAL_US;
  const keys = ['k0', 'k1', 'k2'].slice(0, between(1, 3));
  const fault_window_us = between(20, 60) * ci;
  const faults: Fault[] = [];
  const count = between(1, 8);
  for (let i = 0; i < count; i++) {
    const kind = pick(MAIN_FAULT_KINDS);
    const at_us = rng.nextInt(fault_window_us - ci);
    const duration_us = Math.min(between(1, 30) * ci, fault_window_us - at_us);
    const node = rng.nextInt(n);
    switch (kind) {
      case 'partition': {
        const size = between(1, Math.floor((n - 1) / 2) + (rng.nextInt(2) === 0 ? 0 : 1));
        const side = shuffle(rng, [...Array(n).keys()]).slice(0, Math.min(size, n - 1)).sort((a, b) => a - b);
        faults.push({ kind, at_us, duration_us, side });
        break;
      }
      case 'cut': {
        const to = (node + 1 + rng.nextInt(n - 1)) % n;
        faults.push({ kind, at_us, duration_us, from: node, to });
        break;
      }
      case 'drop':
        faults.push({ kind, at_us, duration_us, probability: between(5, 50) / 100 });
        break;
      case 'duplicate':
        faults.push({ kind, at_us, duration_us, probability: between(5, 50) / 100 });
        break;
      case 'reorder':
        faults.push({ kind, at_us, duration_us, max_extra_us: between(1, 20) * 100 });
        break;
      case 'delay':
        faults.push({ kind, at_us, duration_us, node, extra_us: between(1, 40) * 1000 });
        break;
      case 'pause':
        faults.push({ kind, at_us, duration_us, node });
        break;
      case 'crash':
        faults.push({ kind, at_us, duration_us, node, amnesia: options.amnesia === true || options.durability !== undefined });
        break;
    }
  }
  faults.sort((a, b) => a.at_us - b.at_us);
  const clients = between(2, 4);
  const ops_per_client = between(10, 30);
  // Resets come last, from a stream of their own, so every seed keeps the faults (and their
  // indices, which shrunk regressions name) it was drawn with before resets existed.
  const resets = new Prng(seed, STREAM_RESETS);
  for (let k = options.resets === false ? 0 : resets.nextInt(3); k > 0; k--) {
    const from = resets.nextInt(n);
    const to = (from + 1 + resets.nextInt(n - 1)) % n;
    const at_us = resets.nextInt(fault_window_us - ci);
    faults.push({ kind: 'reset', at_us, duration_us: (1 + resets.nextInt(ci / 2000)) * 1000, from, to });
  }
  return {
    seed,
    engines,
    commit_interval_us: ci,
    check_quorum: options.checkQuorum === true,
    repair_batch: options.repairBatch ?? 0,
    ...(options.electionBatch ? { election_batch: options.electionBatch } : {}),
    ...(options.logBound ? { log_bound: options.logBound } : {}),
    ...(options.durability === 'log' ? { durability: 'log' as const } : {}),
    ...(options.checkpoints ? { snapshot_every: drawCheckpointEvery(seed) } : {}),
    ...(options.mitigation ? { mitigation: options.mitigation } : {}),
    clients,
    keys,
    ops_per_client,
    fault_window_us,
    tail_us: 40 * ci,
    liveness_bound_us: 100 * ci,
    client_timeout_us: 10 * ci,
    faults,
  };
}

function drawCheckpointEvery(seed: number): number {
  const rng = new Prng(seed, STREAM_CHECKPOINTS);
  return CHECKPOINT_EVERY_MIN + rng.nextInt(CHECKPOINT_EVERY_MAX - CHECKPOINT_EVERY_MIN + 1);
}

/** The scenario with only the faults at the given indices and at most `ops` per client. */
export function shrunk(s: Scenario, keepFaults: readonly number[], ops: number): Scenario {
  for (const i of keepFaults)
    if (!Number.isInteger(i) || i < 0 || i >= s.faults.length) throw new RangeError(`no fault #${i} in seed ${s.seed} (it has ${s.faults.length})`);
  if (!Number.isInteger(ops) || ops < 1) throw new RangeError(`operations per client must be a positive integer: ${ops}`);
  return {
    ...s,
    faults: s.faults.filter((_, i) => keepFaults.includes(i)),
    ops_per_client: Math.min(ops, s.ops_per_client),
  };
}

function shuffle<T>(rng: Prng, xs: T[]): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = rng.nextInt(i + 1);
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
  return xs;
}

/** One line per fault, for failure reports. */
export function describeFault(f: Fault): string {
  const when = `${(f.at_us / 1000).toFixed(1)}–${((f.at_us + f.duration_us) / 1000).toFixed(1)} ms`;
  switch (f.kind) {
    case 'partition': return `${when}: partition {${f.side.map((x) => 'n' + x).join(',')}} from the rest`;
    case 'cut': return `${when}: one-way cut n${f.from} -> n${f.to}`;
    case 'drop': return `${when}: drop ${Math.round(f.probability * 100)} % of messages`;
    case 'duplicate': return `${when}: duplicate ${Math.round(f.probability * 100)} % of messages`;
    case 'reorder': return `${when}: reorder (extra delay up to ${f.max_extra_us} µs)`;
    case 'delay': return `${when}: delay spike +${f.extra_us / 1000} ms on n${f.node}'s links`;
    case 'pause': return `${when}: GC-like pause of n${f.node}`;
    case 'crash': return `${when}: crash of n${f.node}, restart ${f.amnesia ? 'as a fresh process (empty in durability none, from its records in log)' : 'with its state'}`;
    case 'reset': return `${when}: TCP reset of n${f.from} -> n${f.to} (in-flight messages lost, redial)`;
  }
}

// Runs one torture scenario: the real engines (any mix) in virtual time, closed-loop clients on
// a few keys, the scenario's faults, then a fault-free tail. Produces the client history (for
// Porcupine), each node's final state, the liveness measurement and a digest of every step, so
// a replay can be compared byte for byte. Pure: no I/O, no clock; engines are injected.
import type { EngineName, SyncEngine } from '@replicant/engines/loader/engine';
import type { HistoryOp } from '@replicant/checker/lincheck';
import { EventQueue } from '../core/heap.ts';
import { NodeSet } from '../core/nodes.ts';
import { Prng } from '../core/prng.ts';
import { clientEvent, messageEvent, parseEffect, splitLines, START_EVENT, timerEvent, type TimerName } from '../core/effects.ts';
import { CLIENT_ENDPOINT_BASE, Network } from '../net/network.ts';
import { defaultNetwork } from '../models/card.ts';
import { clientOpsStream, STREAM_DISK, STREAM_FAULT_DICE, STREAM_TORTURE_NETWORK } from '../core/streams.ts';
import type { Fault, Scenario } from './scenario.ts';

export interface NodeFinal {
  node: number;
  up: boolean;
  last_executed: number;
  digest: string;
  /** key → value of the keys the workload uses (absent keys left out) */
  kv: Record<string, string>;
  violations: number;
  role: string;
  ballot: number;
  last_index: number;
  /** the log after gle, one "index:state@ballot" per instance (for reading a failure) */
  log: string;
}

export interface TortureRun {
  history: HistoryOp[];
  /** index into history of each liveness-probe read */
  probe_ops: number[];
  /** virtual time from the end of the fault window until the probe had read every key; null: never */
  recovered_after_us: number | null;
  nodes: NodeFinal[];
  steps: number;
  end_us: number;
  /** FNV-1a over every step (time, node, event, effects) and every fault: equal digests, equal runs */
  digest: string;
  /** one line per step, only when asked for (replays print it) */
  trace?: string[];
}

type Ev =
  | { kind: 'message'; from: number; to: number; json: string; sent_us: number }
  | { kind: 'timer'; node: number; timer: TimerName; gen: number }
  | { kind: 'request'; request: number }
  | { kind: 'reply'; request: number; result: string; value?: string; leader?: number; on_arrival: boolean }
  | { kind: 'attempt_timeout'; request: number }
  | { kind: 'client_next'; client: number }
  /** a persist batch is on the node's disk (written: the records were appended; the core is told
   * when it can take events) */
  | { kind: 'persisted'; node: number; persist_id: number; records: string; epoch: number; written: boolean }
  /** BLADE: a pause fault announced to its node (pending), or the collection it ran ended (done) */
  | { kind: 'gc'; node: number; what: 'pending' | 'done'; pause_us: number; incarnation: number }
  | { kind: 'fault_start'; fault: number }
  | { kind: 'fault_end'; fault: number };

interface Request {
  id: number;
  client: number;
  node: number;
  op: number; // index into history
  /** the node's connection epoch when the request reached it (replies over a broken connection are lost) */
  epoch: number;
  done: boolean;
}

interface Client {
  id: number;
  /** Porcupine "process": a new one after every unknown outcome (the old request may still land) */
  proc: number;
  ops: Array<Omit<HistoryOp, 'client' | 'call_us' | 'result'>>;
  next_op: number;
  current: number | null; // history index
  target: number;
  rejections: number;
  rng: Prng;
  probe: boolean;
}

const MAX_STEPS = 3_000_000;
const PERSIST_PREFIX = '{"type":"persist","persist_id":';
const RECORDS_FIELD = ',"records":[';
const CHECKPOINT_RECORD_PREFIX = '{"kind":"checkpoint",';
/** a flush takes 100–999 µs of virtual time, one at a time per node (an SSD's fsync, roughly) */
const FLUSH_MIN_US = 100;
const FLUSH_SPREAD_US = 900;

/** The records of a canonical persist effect, as the text between the array's brackets. */
export function persistRecords(line: string): string {
  const at = line.indexOf(RECORDS_FIELD, PERSIST_PREFIX.length);
  if (at < 0 || !line.endsWith(']}')) throw new Error(`persist effect without records: ${line}`);
  return line.slice(at + RECORDS_FIELD.length, -2);
}

/** The restart event for a node whose disk holds these batches (each persistRecords' text). */
export function restartEvent(batches: readonly string[]): string {
  return `{"type":"restart","records":[${batches.filter((b) => b !== '').join(',')}]}`;
}

export function runScenario(s: Scenario, provide: (name: EngineName) => SyncEngine, options: { trace?: boolean } = {}): TortureRun {
  const n = s.engines.length;
  const ci = s.commit_interval_us;
  const durable = s.durability === 'log';
  const nodes = new NodeSet(s.engines.map(provide), { seed: s.seed, commit_interval_us: ci, check_quorum: s.check_quorum, repair_batch: s.repair_batch, election_batch: s.election_batch ?? 0, log_bound: s.log_bound ?? 0, ...(durable ? { durability: 'log' as const } : {}), ...(s.snapshot_every ? { snapshot_every: s.snapshot_every } : {}), ...(s.mitigation ? { mitigation: s.mitigation } : {}), trace: true });
  const net = new Network(defaultNetwork(), new Prng(s.seed, STREAM_TORTURE_NETWORK));
  const dice = new Prng(s.seed, STREAM_FAULT_DICE);
  const q = new EventQueue<Ev>();
  const trace: string[] | undefined = options.trace ? [] : undefined;
  let hash = new Fnv();
  let now = 0;
  let steps = 0;

  // fault state
  const active = new Set<number>();
  const timerGen: Record<TimerName, number>[] = Array.from({ length: n }, () => ({ election: 0, commit: 0 }));
  const pausedUntil = new Array<number>(n).fill(0);
  const down = new Array<boolean>(n).fill(false);
  const downUntil = new Array<number>(n).fill(0);
  const epoch = new Array<number>(n).fill(0);
  const lastDue = new Map<number, number>();
  // durability log: each node's disk (the batches written, in order) and its one flush at a time
  const disk: string[][] = Array.from({ length: n }, () => []);
  const diskFreeAt = new Array<number>(n).fill(0);
  const diskDice = new Prng(s.seed, STREAM_DISK);

  const history: HistoryOp[] = [];
  const probeOps: number[] = [];
  const requests = new Map<number, Request>();
  let nextRequest = 1;
  const W = s.fault_window_us;
  const hardEnd = W + s.tail_us + s.liveness_bound_us + 20 * ci;
  let recoveredAt: number | null = null;

  const record = (line: string) => {
    hash.add(line);
    trace?.push(line);
  };

  // --- clients ---
  const clients: Client[] = [];
  for (let c = 0; c <= s.clients; c++) {
    const probe = c === s.clients;
    const rng = new Prng(s.seed, clientOpsStream(c));
    const ops: Client['ops'] = [];
    if (probe) {
      for (const key of s.keys) ops.push({ op: 'get', key });
    } else {
      for (let k = 0; k < s.ops_per_client; k++) {
        const r = rng.nextInt(100);
        const key = s.keys[rng.nextInt(s.keys.length)]!;
        if (r < 45) ops.push({ op: 'get', key });
        else if (r < 85) ops.push({ op: 'put', key, value: `c${c}.${k}` });
        else ops.push({ op: 'del', key });
      }
    }
    clients.push({ id: c, proc: c, ops, next_op: 0, current: null, target: c % n, rejections: 0, rng, probe });
    q.push(probe ? W : rng.nextInt(ci), { kind: 'client_next', client: c });
  }
  const procStride = s.clients + 1;
  const thinkMax = Math.max(1, Math.floor((2 * W) / Math.max(1, s.ops_per_client)));

  const send = (c: Client, delay_us: number) => {
    const op = history[c.current!]!;
    const id = nextRequest++;
    requests.set(id, { id, client: c.id, node: c.target, op: c.current!, epoch: -1, done: false });
    void op;
    const arrive = net.arrival(CLIENT_ENDPOINT_BASE + c.id, c.target, 64, now + delay_us);
    q.push(arrive, { kind: 'request', request: id });
    q.push(now + delay_us + s.client_timeout_us, { kind: 'attempt_timeout', request: id });
  };

  const finish = (c: Client, result: HistoryOp['result'], value?: string) => {
    const op = history[c.current!]!;
    op.result = result;
    if (result !== 'unknown') op.return_us = Math.ceil(now); // whole µs, widened outwards
    if (op.op === 'get' && result === 'ok') op.value = value ?? '';
    if (result === 'unknown') c.proc += procStride;
    c.current = null;
    c.rejections = 0;
    if (c.probe) {
      if (result === 'unknown') {
        // the probe insists: the same read again until it gets an answer
        c.next_op--;
        q.push(now, { kind: 'client_next', client: c.id });
        return;
      }
      if (c.next_op >= c.ops.length) recoveredAt ??= now;
      q.push(now, { kind: 'client_next', client: c.id });
      return;
    }
    q.push(now + c.rng.nextInt(thinkMax), { kind: 'client_next', client: c.id });
  };

  const startNext = (c: Client) => {
    if (c.next_op >= c.ops.length) return;
    const spec = c.ops[c.next_op++]!;
    const op: HistoryOp = { client: c.proc, op: spec.op, key: spec.key, call_us: Math.floor(now), result: 'unknown' };
    if (spec.value !== undefined) op.value = spec.value;
    history.push(op);
    if (c.probe) probeOps.push(history.length - 1);
    c.current = history.length - 1;
    send(c, 0);
  };

  const lineOf = (req: Request): string => {
    const op = history[req.op]!;
    return op.op === 'put' ? `put ${op.key} ${op.value}` : `${op.op} ${op.key}`;
  };

  // --- network between nodes ---
  const linkCut = (from: number, to: number): boolean => {
    for (const i of active) {
      const f = s.faults[i]!;
      if (f.kind === 'partition' && f.side.includes(from) !== f.side.includes(to)) return true;
      if ((f.kind === 'cut' || f.kind === 'reset') && f.from === from && f.to === to) return true;
    }
    return false;
  };

  /** A reset of from → to started after the message was sent (and, the event being due, before now). */
  const lostToReset = (from: number, to: number, sent_us: number): boolean =>
    s.faults.some((f) => f.kind === 'reset' && f.from === from && f.to === to && f.at_us > sent_us && f.at_us <= now);

  const transmit = (from: number, to: number, json: string) => {
    if (linkCut(from, to)) return;
    let copies = 1;
    let extra = 0;
    let fifo = true;
    let jitterMax = 0;
    for (const i of active) {
      const f = s.faults[i]!;
      if (f.kind === 'drop' && dice.nextDouble() < f.probability) copies = 0;
      else if (f.kind === 'duplicate' && dice.nextDouble() < f.probability) copies = Math.max(copies, 2);
      else if (f.kind === 'delay' && (f.node === from || f.node === to)) extra += f.extra_us;
      else if (f.kind === 'reorder') {
        fifo = false;
        jitterMax = Math.max(jitterMax, f.max_extra_us);
      }
    }
    if (copies === 0) return;
    const base = net.arrival(from, to, json.length, now);
    const key = from * 65536 + to;
    for (let k = 0; k < copies; k++) {
      let due = base + extra + (jitterMax > 0 ? dice.nextInt(jitterMax) : 0) + k;
      if (fifo) due = Math.max(due, lastDue.get(key) ?? 0);
      lastDue.set(key, Math.max(due, lastDue.get(key) ?? 0));
      q.push(due, { kind: 'message', from, to, json, sent_us: now });
    }
  };

  // --- feeding cores ---
  const step = (node: number, event: string, arrivalOf?: number) => {
    const effects = nodes.get(node).step(event);
    steps++;
    record(`${now} n${node} ${event}\n${effects}`);
    for (const line of splitLines(effects)) {
      const e = parseEffect(line);
      if (e.kind === 'send') transmit(node, e.to, e.json);
      else if (e.kind === 'set_timer') {
        const gen = ++timerGen[node]![e.timer];
        q.push(now + e.delay_us, { kind: 'timer', node, timer: e.timer, gen });
      } else if (e.kind === 'cancel_timer') timerGen[node]![e.timer]++;
      else if (e.kind === 'collect') {
        // the pause the core allowed: the node handles nothing until it ends, then hears gc_done
        const pause_us = Math.max(1, e.pause_us);
        pausedUntil[node] = Math.max(pausedUntil[node]!, now + pause_us);
        q.push(now + pause_us, { kind: 'gc', node, what: 'done', pause_us, incarnation: nodes.incarnations[node]! });
      }
      else if (e.kind === 'persist') {
        const done = Math.max(now, diskFreeAt[node]!) + FLUSH_MIN_US + diskDice.nextInt(FLUSH_SPREAD_US);
        diskFreeAt[node] = done;
        q.push(done, { kind: 'persisted', node, persist_id: e.persist_id, records: persistRecords(line), epoch: epoch[node]!, written: false });
      }
      else if (e.kind === 'reply') {
        const req = requests.get(e.request_id);
        if (!req || req.node !== node || req.epoch !== epoch[node]) continue; // connection gone
        const reply: Ev = { kind: 'reply', request: req.id, result: e.result, on_arrival: arrivalOf === req.id };
        if (e.value !== undefined) reply.value = e.value;
        if (e.leader !== undefined) reply.leader = e.leader;
        q.push(net.arrival(node, CLIENT_ENDPOINT_BASE + req.client, 64, now), reply);
      }
    }
  };

  /** A first boot starts empty; a restart in durability log reads the node's disk. */
  const boot = (node: number) => {
    const restart = nodes.incarnations[node]! >= 0;
    nodes.boot(node);
    step(node, durable && restart ? restartEvent(disk[node]!) : START_EVENT);
  };

  /** true when the node cannot take the event now; a paused node gets it when the pause ends */
  const deferred = (node: number, ev: Ev): boolean => {
    if (pausedUntil[node]! > now) {
      q.push(pausedUntil[node]!, ev);
      return true;
    }
    return false;
  };

  for (let id = 0; id < n; id++) boot(id);
  s.faults.forEach((f, i) => {
    q.push(f.at_us, { kind: 'fault_start', fault: i });
    q.push(f.at_us + f.duration_us, { kind: 'fault_end', fault: i });
  });

  const allDone = () => clients.every((c) => c.current === null && c.next_op >= c.ops.length);
  let doneAt = Infinity;

  while (q.size > 0 && steps < MAX_STEPS) {
    const top_us = q.peekTime();
    if (top_us > hardEnd) break;
    if (doneAt === Infinity && allDone()) doneAt = now;
    // after the last answer, a few heartbeats so every node learns the final commits
    if (top_us > Math.max(W + s.tail_us, doneAt + 3 * ci)) break;
    const ev = q.pop()!;
    now = top_us;
    switch (ev.kind) {
      case 'message': {
        if (down[ev.to] || linkCut(ev.from, ev.to) || lostToReset(ev.from, ev.to, ev.sent_us)) break;
        if (deferred(ev.to, ev)) break;
        step(ev.to, messageEvent(ev.json));
        break;
      }
      case 'timer': {
        if (timerGen[ev.node]![ev.timer] !== ev.gen) break;
        if (down[ev.node]) {
          q.push(downUntil[ev.node]!, ev); // kept: the node resumes with its state
          break;
        }
        if (deferred(ev.node, ev)) break;
        step(ev.node, timerEvent(ev.timer));
        break;
      }
      case 'request': {
        const req = requests.get(ev.request)!;
        if (req.done || down[req.node]) break;
        if (deferred(req.node, ev)) break;
        req.epoch = epoch[req.node]!;
        const c = clients[req.client]!;
        step(req.node, clientEvent(c.proc + 1, req.id, lineOf(req)), req.id);
        break;
      }
      case 'reply': {
        const req = requests.get(ev.request)!;
        if (req.done) break;
        req.done = true;
        const c = clients[req.client]!;
        if (c.current !== req.op) break;
        if (ev.result === 'ok' || ev.result === 'not_found') {
          finish(c, ev.result, ev.value);
        } else if (ev.on_arrival && (ev.result === 'leader_is' || ev.result === 'retry')) {
          // rejected on arrival: the command never entered a log, so resending is safe
          c.rejections++;
          if (ev.result === 'leader_is' && ev.leader !== undefined && ev.leader < n) c.target = ev.leader;
          else if (c.rejections % 3 === 0) c.target = (c.target + 1) % n;
          send(c, ev.result === 'retry' ? ci / 2 : 0);
        } else {
          // a leader gave up on a command already in its log (retry / leader_is later): it may
          // still be chosen — the outcome is unknown
          finish(c, 'unknown');
        }
        break;
      }
      case 'attempt_timeout': {
        const req = requests.get(ev.request)!;
        if (req.done) break;
        req.done = true;
        const c = clients[req.client]!;
        if (c.current === req.op) {
          c.target = (c.target + 1) % n;
          finish(c, 'unknown');
        }
        break;
      }
      case 'persisted': {
        // a crash before the flush ended loses the batch (nothing that depended on it was sent)
        if (ev.epoch !== epoch[ev.node]) break;
        if (!ev.written) {
          // a batch that opens with a checkpoint supersedes every earlier one: the disk is
          // compacted to it, as the servers do (docs/protocol.md, Compaction)
          if (ev.records.startsWith(CHECKPOINT_RECORD_PREFIX)) disk[ev.node]!.length = 0;
          disk[ev.node]!.push(ev.records);
          ev.written = true;
        }
        if (deferred(ev.node, ev)) break; // on disk; a paused process hears of it later
        step(ev.node, `{"type":"persisted","persist_id":${ev.persist_id}}`);
        break;
      }
      case 'gc': {
        // a restarted core never asked for this collection; a node down but keeping its state
        // (no amnesia) ends the collection it runs when it is back
        if (!nodes.isUp(ev.node) || ev.incarnation !== nodes.incarnations[ev.node]) break;
        if (down[ev.node]) {
          if (ev.what === 'done') q.push(Math.max(now + 1, downUntil[ev.node]!), ev);
          break;
        }
        if (ev.what === 'pending') {
          if (deferred(ev.node, ev)) break;
          step(ev.node, `{"type":"gc_pending","pause_us":${ev.pause_us}}`);
        } else {
          if (pausedUntil[ev.node]! > now) {
            q.push(pausedUntil[ev.node]!, ev);
            break;
          }
          step(ev.node, '{"type":"gc_done"}');
        }
        break;
      }
      case 'client_next': {
        const c = clients[ev.client]!;
        if (c.current === null) startNext(c);
        break;
      }
      case 'fault_start': {
        const f = s.faults[ev.fault]!;
        record(`${now} fault+ ${JSON.stringify(f)}`);
        active.add(ev.fault);
        if (f.kind === 'pause' && s.mitigation) q.push(now, { kind: 'gc', node: f.node, what: 'pending', pause_us: f.duration_us, incarnation: nodes.incarnations[f.node]! });
        else if (f.kind === 'pause') pausedUntil[f.node] = Math.max(pausedUntil[f.node]!, now + f.duration_us);
        if (f.kind === 'crash' && !down[f.node]) {
          down[f.node] = true;
          downUntil[f.node] = now + f.duration_us;
          epoch[f.node]!++;
          if (f.amnesia) {
            nodes.crash(f.node);
            timerGen[f.node]!.election++;
            timerGen[f.node]!.commit++;
          }
        }
        break;
      }
      case 'fault_end': {
        const f = s.faults[ev.fault]!;
        record(`${now} fault- ${ev.fault}`);
        active.delete(ev.fault);
        if (f.kind === 'crash' && down[f.node] && downUntil[f.node]! <= now) {
          down[f.node] = false;
          if (!nodes.isUp(f.node)) boot(f.node);
        }
        break;
      }
    }
  }

  const finals: NodeFinal[] = [];
  for (let id = 0; id < n; id++) {
    if (!nodes.isUp(id)) {
      finals.push({ node: id, up: false, last_executed: 0, digest: '', kv: {}, violations: 0, role: 'down', ballot: 0, last_index: 0, log: '' });
      continue;
    }
    const st = JSON.parse(nodes.get(id).inspect()) as {
      last_executed: number;
      kv: { digest: string; entries: [string, string][] };
      counters: { violations: number };
      role: string;
      ballot: number;
      last_index: number;
      log: { index: number; state: string; ballot: number }[];
    };
    const log = st.log.map((i) => `${i.index}:${i.state === 'executed' ? 'x' : i.state === 'committed' ? 'c' : 'p'}@${i.ballot >> 8}.${i.ballot & 0xff}`).join(' ');
    const kv: Record<string, string> = {};
    for (const [k, v] of st.kv.entries) if (s.keys.includes(k)) kv[k] = v;
    finals.push({ node: id, up: !down[id], last_executed: st.last_executed, digest: st.kv.digest, kv, violations: st.counters.violations, role: st.role, ballot: st.ballot, last_index: st.last_index, log });
  }
  nodes.close();
  for (const f of finals) hash.add(JSON.stringify(f));
  for (const op of history) hash.add(JSON.stringify(op));
  const out: TortureRun = {
    history,
    probe_ops: probeOps,
    recovered_after_us: recoveredAt === null ? null : recoveredAt - W,
    nodes: finals,
    steps,
    end_us: now,
    digest: hash.hex(),
  };
  if (trace) out.trace = trace;
  return out;
}

/** FNV-1a, two 32-bit lanes with different offsets (64 bits of digest without BigInt). */
class Fnv {
  private a = 0x811c9dc5;
  private b = 0x050c5d1f;
  add(text: string): void {
    let a = this.a;
    let b = this.b;
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      a = Math.imul(a ^ ch, 0x01000193);
      b = Math.imul(b ^ ch, 0x01000193) ^ (a >>> 15);
    }
    a = Math.imul(a ^ 10, 0x01000193);
    this.a = a;
    this.b = b;
  }
  hex(): string {
    return (this.a >>> 0).toString(16).padStart(8, '0') + (this.b >>> 0).toString(16).padStart(8, '0');
  }
}

export type { Fault };

// The clockless scripted cluster: N nodes, a network whose every in-flight message can be
// delivered, dropped, duplicated or reordered on command, armed timers fired on command, links
// cut and healed, nodes crashed and restarted, persists completed on command. Nothing happens
// unless a command says so. The transcripts, the differential test, calibration and the lab's
// step session all drive engines through it.
//
// The bookkeeping is synchronous and knows no engine. Each command is a script: a generator that
// asks its host to create, step or destroy a node and gets the effects back. A host for
// synchronous engines (wasm) runs a script in one go; a host for asynchronous ones (a native
// process) awaits each request (drivers.ts). So each command is written once for both.
import type { NodeConfig } from '../loader/engine.ts';
import { type ClusterKnobs, MAX_INCARNATIONS, nodeConfig, validateClusterSeed, validateClusterSize } from './config.ts';

/** What a script asks its host to do; a `step` is answered with the node's effects (JSON Lines). */
export type HostRequest =
  | { kind: 'create'; node: number; config: NodeConfig }
  | { kind: 'step'; node: number; event: string }
  | { kind: 'destroy'; node: number };

/** A command as the host runs it: yields requests, receives effects text ('' for create/destroy). */
export type Script<T> = Generator<HostRequest, T, string>;

export interface ClusterOptions extends ClusterKnobs {
  num_nodes: number;
  seed: number;
  /** Durability log: complete each persist as soon as it is asked for (default), or only on `persist`. */
  manual_persist?: boolean;
  /** Keep the text log `take()` returns (default); a host that reads the observer instead turns it off. */
  log?: boolean;
  /** Where message ids come from (default 1, 2, 3… of this cluster's own); a host that numbers
   * other things in the same sequence passes its counter. */
  next_id?: () => number;
}

export interface PendingMessage {
  id: number;
  from: number;
  to: number;
  type: string;
  /** The message exactly as the sender's core wrote it. */
  json: string;
}

/** A message filter for deliver / drop / dup: any of id, from, to, type. */
export interface MessageFilter {
  id?: number;
  from?: number;
  to?: number;
  type?: string;
}

/** What a host that keeps its own view (a clock, a trace) hears, in the order it happens. */
export interface ClusterObserver {
  stepped?(node: number, event: string, effects: string): void;
  /** A persist is on disk; the node is told so in the step that follows. */
  persisting?(node: number, persist_id: number): void;
  sent?(m: PendingMessage): void;
  lostOnCut?(from: number, to: number, type: string): void;
  timerSet?(node: number, timer: TimerName, delay_us: number): void;
  timerCancelled?(node: number, timer: TimerName): void;
}

/** A delivery: the message taken from the network, and why it was lost (null if it arrived). */
export interface Delivery {
  message: PendingMessage;
  lost: string | null;
}

/** A persist a node asked for that the harness's disk has not completed yet. */
interface PendingPersist {
  id: number;
  /** Each record exactly as the core wrote it. */
  records: string[];
}

const SEND_PREFIX = '{"type":"send","msg":';
const PERSIST_PREFIX = '{"type":"persist",';
const CHECKPOINT_PREFIX = '{"kind":"checkpoint",';
export const TIMER_NAMES = ['election', 'commit'] as const;
export type TimerName = (typeof TIMER_NAMES)[number];
export const START_EVENT = '{"type":"start"}';

export class HarnessError extends Error {}

export class ClusterCore {
  readonly up: boolean[] = [];
  readonly incarnations: number[] = [];
  /** Per node: armed timer name → delay in µs (as the core asked). */
  readonly timers: Map<TimerName, number>[] = [];
  /** Per node: the records its completed persists wrote (the disk survives a crash). */
  readonly disks: string[][] = [];
  /** Per node: persists asked for and not yet on disk (lost in a crash). */
  readonly unpersisted: PendingPersist[][] = [];
  pending: PendingMessage[] = [];
  /** Nodes told to collect (a `collect` effect) that have not been given `gc_done` yet. */
  readonly collecting = new Set<number>();
  private readonly cutLinks = new Set<string>();
  private readonly nextId: () => number;
  /** Output lines of the command being run. */
  private out: string[] = [];

  constructor(
    readonly options: ClusterOptions,
    readonly observer: ClusterObserver = {},
  ) {
    try {
      validateClusterSize(options.num_nodes);
      validateClusterSeed(options.seed);
    } catch (err) {
      throw new HarnessError((err as Error).message);
    }
    let id = 1;
    this.nextId = options.next_id ?? (() => id++);
    for (let n = 0; n < options.num_nodes; n++) {
      this.up.push(false);
      this.incarnations.push(-1);
      this.timers.push(new Map());
      this.disks.push([]);
      this.unpersisted.push([]);
    }
  }

  get size(): number {
    return this.options.num_nodes;
  }

  config(id: number): NodeConfig {
    return nodeConfig(id, this.size, this.options.seed, this.incarnations[id]!, this.options);
  }

  /** Takes the output collected since the last call. */
  take(): string[] {
    const out = this.out;
    this.out = [];
    return out;
  }

  private say(line: string): void {
    if (this.options.log !== false) this.out.push(line);
  }

  private get durable(): boolean {
    return this.options.durability === 'log';
  }

  checkNode(id: number): void {
    if (!Number.isInteger(id) || id < 0 || id >= this.size) throw new HarnessError(`no node n${id}`);
  }

  private checkUp(id: number): void {
    this.checkNode(id);
    if (!this.up[id]) throw new HarnessError(`n${id} is down`);
  }

  isUp(id: number): boolean {
    return this.up[id] === true;
  }

  isCut(from: number, to: number): boolean {
    return this.cutLinks.has(`${from}>${to}`);
  }

  // --- scripts: each command as the host runs it ---

  /** Boots all nodes, n0 first. */
  *start(): Script<void> {
    for (let id = 0; id < this.size; id++) yield* this.boot(id);
  }

  /**
   * Creates node id's next incarnation and gives it its first event: `start`, the records on its
   * disk in durability log after a restart, or the given bytes (bad-record tests).
   */
  *boot(id: number, firstEvent?: string): Script<string> {
    this.checkNode(id);
    if (this.up[id]) throw new HarnessError(`n${id} is up`);
    if (this.incarnations[id]! + 1 > MAX_INCARNATIONS) throw new HarnessError(`n${id} restarted too often`);
    this.incarnations[id]!++;
    yield { kind: 'create', node: id, config: this.config(id) };
    this.up[id] = true;
    if (firstEvent !== undefined) return yield* this.step(id, firstEvent);
    if (this.durable && this.incarnations[id]! > 0) return yield* this.step(id, `{"type":"restart","records":[${this.disks[id]!.join(',')}]}`);
    return yield* this.step(id, START_EVENT);
  }

  /** Feeds one event to a node and records (and acts on) its effects; returns them. */
  *step(id: number, eventJson: string): Script<string> {
    this.checkUp(id);
    const effects = yield { kind: 'step', node: id, event: eventJson };
    const lines = effects === '' ? [] : effects.slice(0, -1).split('\n');
    for (const line of lines) this.onEffect(id, line);
    this.observer.stepped?.(id, eventJson, effects);
    if (!this.options.manual_persist) while (this.unpersisted[id]!.length > 0) yield* this.completePersist(id);
    return effects;
  }

  /** Writes a node's oldest outstanding persist to its disk and tells the node. */
  *completePersist(id: number): Script<void> {
    this.checkUp(id);
    const p = this.unpersisted[id]!.shift();
    if (!p) throw new HarnessError(`n${id} has no persist outstanding`);
    // A batch that starts with a checkpoint supersedes everything written before it: the disk
    // is compacted to it, as the native servers do (docs/protocol.md, "Compaction").
    if (p.records[0]?.startsWith(CHECKPOINT_PREFIX)) this.disks[id] = [];
    this.disks[id]!.push(...p.records);
    this.say(`n${id}: persisted ${p.id}`);
    this.observer.persisting?.(id, p.id);
    yield* this.step(id, `{"type":"persisted","persist_id":${p.id}}`);
  }

  private onEffect(id: number, line: string): void {
    if (line.startsWith(PERSIST_PREFIX)) {
      const effect = JSON.parse(line) as { persist_id: number; records: unknown[] };
      // JSON.stringify gives back the canonical bytes: field order is kept, and every
      // string is printable ASCII, which it escapes exactly as the cores do.
      this.unpersisted[id]!.push({ id: effect.persist_id, records: effect.records.map((r) => JSON.stringify(r)) });
      this.say(`n${id}: ${line}`);
      return;
    }
    if (line.startsWith(SEND_PREFIX)) {
      const json = line.slice(SEND_PREFIX.length, -1);
      const msg = JSON.parse(json) as { type: string; from: number; to: number };
      if (this.isCut(id, msg.to)) {
        this.say(`n${id}: ${line} lost (link ${id}->${msg.to} is cut)`);
        this.observer.lostOnCut?.(id, msg.to, msg.type);
        return;
      }
      const m: PendingMessage = { id: this.nextId(), from: id, to: msg.to, type: msg.type, json };
      this.pending.push(m);
      this.say(`n${id}: ${line} m${m.id}`);
      this.observer.sent?.(m);
      return;
    }
    this.say(`n${id}: ${line}`);
    if (line.startsWith('{"type":"trace"')) return;
    const effect = JSON.parse(line) as { type: string; timer?: TimerName; delay_us?: number };
    if (effect.type === 'set_timer') {
      this.timers[id]!.set(effect.timer!, effect.delay_us!);
      this.observer.timerSet?.(id, effect.timer!, effect.delay_us!);
    } else if (effect.type === 'cancel_timer') {
      this.timers[id]!.delete(effect.timer!);
      this.observer.timerCancelled?.(id, effect.timer!);
    } else if (effect.type === 'collect') this.collecting.add(id);
  }

  // --- the network ---

  matching(f: MessageFilter): PendingMessage[] {
    return this.pending.filter(
      (m) =>
        (f.id === undefined || m.id === f.id) &&
        (f.from === undefined || m.from === f.from) &&
        (f.to === undefined || m.to === f.to) &&
        (f.type === undefined || m.type === f.type),
    );
  }

  private take1(f: MessageFilter): PendingMessage {
    const m = this.matching(f)[0];
    if (!m) throw new HarnessError('no pending message matches');
    this.pending = this.pending.filter((p) => p !== m);
    return m;
  }

  /** Delivers the oldest pending message matching f. */
  *deliver(f: MessageFilter = {}): Script<Delivery> {
    const m = this.take1(f);
    const head = `m${m.id}: ${m.from}->${m.to} ${m.type}`;
    const lost = !this.isUp(m.to) ? `n${m.to} is down` : this.isCut(m.from, m.to) ? `link ${m.from}->${m.to} is cut` : null;
    if (lost !== null) {
      this.say(`${head} lost (${lost})`);
      return { message: m, lost };
    }
    this.say(head);
    yield* this.step(m.to, `{"type":"message","msg":${m.json}}`);
    return { message: m, lost: null };
  }

  /** Delivers matching messages, oldest first, including those sent meanwhile. */
  *deliverAll(f: MessageFilter = {}, limit = 10_000): Script<number> {
    let count = 0;
    while (this.matching(f).length > 0) {
      if (++count > limit) throw new HarnessError(`still delivering after ${limit} messages`);
      yield* this.deliver(f);
    }
    return count;
  }

  drop(f: MessageFilter = {}): PendingMessage {
    const m = this.take1(f);
    this.say(`m${m.id}: ${m.from}->${m.to} ${m.type} dropped`);
    return m;
  }

  duplicate(f: MessageFilter = {}): PendingMessage {
    const m = this.matching(f)[0];
    if (!m) throw new HarnessError('no pending message matches');
    const copy = { ...m, id: this.nextId() };
    this.pending.push(copy);
    this.say(`m${m.id}: duplicated as m${copy.id}`);
    return copy;
  }

  /** Delivers raw bytes to a node as if a peer had sent them (bad input tests). */
  *deliverRaw(to: number, eventJson: string): Script<string> {
    this.say(`raw -> n${to}`);
    return yield* this.step(to, eventJson);
  }

  cut(from: number, to: number): void {
    this.cutLinks.add(`${from}>${to}`);
    this.say(`link ${from}->${to} cut`);
  }

  heal(): void {
    this.cutLinks.clear();
    this.say('all links healed');
  }

  // --- timers, clients, faults ---

  *fire(id: number, timer: TimerName): Script<string> {
    this.checkUp(id);
    if (!this.timers[id]!.has(timer)) throw new HarnessError(`timer ${timer} of n${id} is not armed`);
    this.timers[id]!.delete(timer);
    this.say(`n${id}: fire ${timer}`);
    return yield* this.step(id, JSON.stringify({ type: 'timer', timer }));
  }

  *client(id: number, clientId: number, requestId: number, line: string): Script<string> {
    this.checkUp(id);
    return yield* this.step(id, JSON.stringify({ type: 'client', client_id: clientId, request_id: requestId, line }));
  }

  /** The node's runtime announces a collection with its predicted pause. */
  *gcPending(id: number, pauseUs: number): Script<void> {
    this.checkUp(id);
    this.say(`n${id}: gc pending ${pauseUs} us`);
    yield* this.step(id, JSON.stringify({ type: 'gc_pending', pause_us: pauseUs }));
  }

  /** The collection the node was told to run has ended. */
  *gcDone(id: number): Script<void> {
    this.checkUp(id);
    this.collecting.delete(id);
    this.say(`n${id}: gc done`);
    yield* this.step(id, '{"type":"gc_done"}');
  }

  *crash(id: number): Script<void> {
    this.checkUp(id);
    this.up[id] = false;
    this.collecting.delete(id);
    this.timers[id]!.clear();
    const lost = this.unpersisted[id]!.length;
    this.unpersisted[id] = [];
    yield { kind: 'destroy', node: id };
    this.say(lost ? `n${id}: crashed (${lost} persist(s) not on disk lost)` : `n${id}: crashed`);
  }

  /**
   * Boots a crashed node: from its disk in durability log, or `wiped` from nothing; with
   * `event`, the new node's first event is those bytes instead (bad-record tests).
   */
  *restart(id: number, wiped = false, event?: string): Script<string> {
    this.checkNode(id);
    if (this.isUp(id)) throw new HarnessError(`n${id} is up`);
    if (wiped) this.disks[id] = [];
    this.say(wiped ? `n${id}: restarted wiped` : `n${id}: restarted`);
    return yield* this.boot(id, event);
  }

  /** Destroys every node that is up (the end of a run). */
  *close(): Script<void> {
    for (let id = 0; id < this.size; id++) {
      if (!this.up[id]) continue;
      this.up[id] = false;
      yield { kind: 'destroy', node: id };
    }
  }

  describePending(): string[] {
    const lines = this.pending.map((m) => `m${m.id}: ${m.from}->${m.to} ${m.type}`);
    this.timers.forEach((t, id) => {
      for (const name of TIMER_NAMES) if (t.has(name)) lines.push(`n${id}: timer ${name} ${t.get(name)}us`);
    });
    return lines.length ? lines : ['(nothing pending)'];
  }
}
